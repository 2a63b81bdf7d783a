from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

from typing_extensions import Literal, assert_type

from standard_tool import (
    AsyncFunctionTool,
    AsyncTool,
    FunctionTool,
    Meta,
    ProgressEvent,
    ResultEvent,
    Tool,
    ToolContext,
    stream_tool,
    tool,
)
from standard_tool.types import ErrorEnvelope


@tool
def get_weather(city: str, units: Literal["c", "f"] = "c") -> str:
    """Get the weather."""
    return city


weather_tool: Tool[dict[str, Any], str, str, Any] = get_weather
assert_type(get_weather.execute({"city": "Paris"}), str)
assert_type(get_weather.formatted().execute({"city": "Paris"}), str | ErrorEnvelope)


@tool
async def fetch(url: str) -> dict[str, str]:
    """Fetch a URL."""
    return {"url": url}


fetch_tool: AsyncTool[dict[str, Any], dict[str, str], dict[str, str], Any] = fetch


async def use_fetch() -> None:
    assert_type(await fetch.execute({"url": "x"}), dict[str, str])


@tool(name="count", description="Count items.")
def count_items(items: list[str], ctx: Meta[dict[str, str]]) -> int:
    return len(items) + len(ctx)


count_tool: Tool[dict[str, Any], int, int, Any] = count_items
assert_type(count_items.execute({"items": []}, {"user": "u"}), int)


@tool(title="Ping")
async def ping() -> None:
    """Ping."""


ping_tool: AsyncTool[dict[str, Any], None, None, Any] = ping


# -- direct calls keep the function's signature ------------------------------------

assert_type(get_weather("Paris"), str)
assert_type(get_weather(city="Rome", units="f"), str)
get_weather(1)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
get_weather("Paris", units="k")  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
assert_type(get_weather.timeout, float | None)


async def call_fetch_directly() -> None:
    assert_type(await fetch("https://example.test"), dict[str, str])
    await fetch(url=3)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]


fetch_function: AsyncFunctionTool[[str], dict[str, str]] = fetch


# -- methods bind -------------------------------------------------------------------


class Client:
    def __init__(self, key: str) -> None:
        self.key = key

    @tool
    def get_orders(self, customer: str, limit: int = 10) -> list[str]:
        """List a customer's orders."""
        return [self.key, customer][:limit]

    @tool
    async def aget_orders(self, customer: str) -> list[str]:
        """List a customer's orders."""
        return [customer]

    @tool
    @classmethod
    def build(cls, key: str) -> str:
        """Describe a client."""
        return key

    # A @staticmethod tool works at run time too; mypy's matching of ``Concatenate``
    # self-types is too lax to type one read through the class (pyright is exact).


client = Client("k")
orders: FunctionTool[[str, int], list[str]] = client.get_orders
assert_type(client.get_orders("c"), list[str])
assert_type(client.get_orders.execute({"customer": "c"}), list[str])
client.get_orders(1)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
aorders: AsyncFunctionTool[[str], list[str]] = client.aget_orders
assert_type(Client.build("k"), str)
assert_type(client.build("k"), str)
Client.build(1)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]


# -- the call context is a parameter like any other for a direct call ---------------


@tool(timeout=5)
def whoami(ctx: ToolContext) -> str:
    """Say the tool name."""
    return ctx.tool_name


who: FunctionTool[[ToolContext], str] = whoami
assert_type(whoami.execute({}), str)


# -- streaming tools: execute gives the result, a direct call the generator ---------


@tool
def count_up(n: int) -> Iterator[int]:
    """Count."""
    yield from range(n)


@tool
async def acount_up(n: int) -> AsyncIterator[str]:
    """Count."""
    yield str(n)


assert_type(count_up.execute({"n": 2}), int)
assert_type(count_up(2), Iterator[int])
assert_type(count_up.stream({"n": 2}), AsyncIterator[ProgressEvent | ResultEvent])
assert_type(acount_up(2), AsyncIterator[str])


async def use_streams() -> None:
    assert_type(await acount_up.execute({"n": 2}), str)
    async for event in stream_tool(count_up, {"n": 1}):
        if isinstance(event, ResultEvent):
            assert_type(event.value, Any)
