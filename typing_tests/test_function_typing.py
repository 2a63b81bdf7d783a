from __future__ import annotations

from typing import Any

from typing_extensions import Literal, assert_type

from standard_tool import AsyncTool, Meta, Tool, tool
from standard_tool.types import ErrorEnvelope


@tool
def get_weather(city: str, units: Literal["c", "f"] = "c") -> str:
    """Get the weather."""
    return city


assert_type(get_weather, Tool[dict[str, Any], str, str, Any])
assert_type(get_weather.execute({"city": "Paris"}), str)
assert_type(get_weather.formatted().execute({"city": "Paris"}), str | ErrorEnvelope)


@tool
async def fetch(url: str) -> dict[str, str]:
    """Fetch a URL."""
    return {"url": url}


assert_type(fetch, AsyncTool[dict[str, Any], dict[str, str], dict[str, str], Any])


async def use_fetch() -> None:
    assert_type(await fetch.execute({"url": "x"}), dict[str, str])


@tool(name="count", description="Count items.")
def count_items(items: list[str], ctx: Meta[dict[str, str]]) -> int:
    return len(items) + len(ctx)


assert_type(count_items, Tool[dict[str, Any], int, int, Any])
assert_type(count_items.execute({"items": []}, {"user": "u"}), int)


@tool(title="Ping")
async def ping() -> None:
    """Ping."""


assert_type(ping, AsyncTool[dict[str, Any], None, None, Any])
