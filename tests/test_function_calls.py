"""Direct calls and methods: a ``@tool`` function is still the function, a method binds."""

from __future__ import annotations

import asyncio
import inspect
import threading
from typing import Any

import pytest

from standard_tool import (
    AsyncFunctionTool,
    FunctionTool,
    Meta,
    Tool,
    ToolContext,
    ToolDefinitionError,
    Toolkit,
    input_json_schema,
    standard_tool,
    tool,
)


def get_weather(city: str, units: str = "c") -> str:
    """Get the weather for a city."""
    return f"20 {units} in {city}"


weather = tool(get_weather)


def test_a_function_tool_is_called_like_the_function() -> None:
    assert weather("Paris") == get_weather("Paris")
    assert weather(city="Rome", units="f") == "20 f in Rome"
    assert weather("Oslo", "k") == "20 k in Oslo"  # no validation: a direct call is Python


def test_a_direct_call_raises_what_python_raises() -> None:
    with pytest.raises(TypeError, match="city"):
        weather()  # type: ignore[call-arg]  # pyright: ignore[reportCallIssue]


def test_the_signature_is_the_function_s() -> None:
    assert inspect.signature(weather) == inspect.signature(get_weather)
    assert weather.__wrapped__ is get_weather
    assert isinstance(weather, FunctionTool)
    assert isinstance(weather, Tool)


def test_execute_still_validates() -> None:
    assert weather.execute({"city": "Paris"}) == "20 c in Paris"
    with pytest.raises(ValueError, match="city"):
        weather.execute({"city": 3})


def test_an_async_function_tool_returns_the_coroutine() -> None:
    @tool
    async def fetch(url: str) -> str:
        """Fetch."""
        return url.upper()

    assert isinstance(fetch, AsyncFunctionTool)
    assert asyncio.run(fetch("x")) == "X"
    assert asyncio.run(fetch.execute({"url": "y"})) == "Y"


def test_a_built_tool_is_called_like_execute() -> None:
    add = standard_tool(name="add", description="Add.", execute=lambda p: p[0] + p[1])
    assert add((2, 3)) == 5
    assert add.formatted()((2, "x"))["error"].startswith("unsupported operand")  # type: ignore[index]

    seen: list[Any] = []

    def handler(value: Any, meta: Any) -> int:
        seen.append(meta)
        return 1

    t = standard_tool(name="m", description="M.", execute=handler)
    assert t(None, {"user": "u"}) == 1
    assert seen == [{"user": "u"}]


def test_a_formatted_function_tool_is_called_like_execute() -> None:
    formatted = weather.formatted()
    assert formatted({"city": 3}) == {
        "error": "input validation failed: city: expected string, got integer 3"
    }


class Client:
    """A client that ships its tools as methods."""

    def __init__(self, key: str) -> None:
        self.key = key

    @tool
    def get_orders(self, customer: str, limit: int = 2) -> list[str]:
        """List a customer's orders."""
        return [f"{self.key}:{customer}:{i}" for i in range(limit)]

    @tool(timeout=3)
    async def aget_orders(self, customer: str, who: Meta[str]) -> list[str]:
        """List a customer's orders, asynchronously."""
        return [f"{self.key}:{customer}:{who}"]

    @tool
    @classmethod
    def describe(cls, verbose: bool = False) -> str:
        """Describe the client class."""
        return f"{cls.__name__}{'!' if verbose else ''}"

    @tool
    @staticmethod
    def version(major: int) -> str:
        """Say the version."""
        return f"v{major}"


class SubClient(Client):
    pass


def test_a_method_tool_has_no_self_in_its_schema() -> None:
    schema = input_json_schema(Client("k").get_orders)
    assert list(schema["properties"]) == ["customer", "limit"]
    assert schema["required"] == ["customer"]
    assert list(input_json_schema(Client.get_orders)["properties"]) == ["customer", "limit"]


def test_a_bound_method_tool_sees_its_instance() -> None:
    a, b = Client("a"), Client("b")
    assert a.get_orders.execute({"customer": "c", "limit": 1}) == ["a:c:0"]
    assert b.get_orders.execute({"customer": "c", "limit": 1}) == ["b:c:0"]
    assert a.get_orders("d") == ["a:d:0", "a:d:1"]
    assert Client.get_orders(b, "e", 1) == ["b:e:0"]  # read through the class: unbound
    assert a.get_orders.name == "get_orders"
    assert a.get_orders.description == "List a customer's orders."


def test_bound_method_tools_run_in_a_toolkit() -> None:
    client = Client("k")
    kit = Toolkit([client.get_orders, client.describe])
    result = kit.execute("get_orders", {"customer": "c", "limit": 1})
    assert result.value == ["k:c:0"]
    assert kit.execute("describe", {"verbose": True}).value == "Client!"


def test_an_async_method_tool_gets_meta_and_keeps_its_timeout() -> None:
    client = Client("k")
    assert asyncio.run(client.aget_orders.execute({"customer": "c"}, "me")) == ["k:c:me"]
    assert client.aget_orders.timeout == 3.0
    assert Client.aget_orders.timeout == 3.0
    assert "who" not in input_json_schema(client.aget_orders)["properties"]


def test_a_method_tool_read_through_its_class_says_how_to_run_it() -> None:
    with pytest.raises(TypeError, match=r"method of Client; run it from an instance"):
        Client.get_orders.execute({"customer": "c"})


def test_a_classmethod_tool_binds_to_the_class_it_is_read_through() -> None:
    assert Client.describe.execute({}) == "Client"
    assert SubClient.describe.execute({"verbose": True}) == "SubClient!"
    assert SubClient("k").describe() == "SubClient"
    assert "cls" not in input_json_schema(Client.describe)["properties"]


def test_a_staticmethod_tool_binds_to_nothing() -> None:
    assert Client.version(2) == "v2"
    assert Client("k").version.execute({"major": 3}) == "v3"
    assert list(input_json_schema(Client.version)["properties"]) == ["major"]

    class Other:
        @staticmethod
        @tool
        def inner(major: int) -> str:
            """Say it."""
            return str(major)

    assert Other.inner.execute({"major": 1}) == "1"
    assert Other().inner(2) == "2"


def test_classmethod_above_tool_is_refused_with_the_fix() -> None:
    with pytest.raises(ToolDefinitionError, match=r"@tool above @classmethod"):

        class Bad:
            @classmethod  # type: ignore[misc]  # pyright: ignore[reportArgumentType]
            @tool
            def f(cls, x: int) -> int:
                """F."""
                return x


def test_a_property_is_refused() -> None:
    with pytest.raises(ToolDefinitionError, match="a property cannot be a tool"):
        tool(property(lambda self: 1))  # type: ignore[call-overload]  # pyright: ignore[reportArgumentType, reportUnknownLambdaType]


def test_a_method_without_self_first_is_refused_at_class_creation() -> None:
    with pytest.raises((ToolDefinitionError, RuntimeError)) as info:

        class Bad:
            @tool
            def f(this, x: int) -> int:
                """F."""
                return x

    error = info.value if isinstance(info.value, ToolDefinitionError) else info.value.__cause__
    assert isinstance(error, ToolDefinitionError)
    assert "name it `self`" in str(error)


def test_a_tool_assigned_to_a_class_attribute_stays_a_plain_tool() -> None:
    class Holder:
        weather_tool = weather

    assert Holder.weather_tool is weather
    assert Holder().weather_tool is weather


def test_tool_twice_is_refused() -> None:
    with pytest.raises(ToolDefinitionError, match="apply @tool once"):
        tool(weather)  # pyright: ignore[reportUnknownArgumentType]


@pytest.mark.parametrize("bad", [0, -1, float("nan"), "5", True])
def test_a_bad_timeout_is_refused(bad: Any) -> None:
    with pytest.raises(ToolDefinitionError, match="timeout: must be a positive number"):
        tool(timeout=bad)(get_weather)


def test_timeout_is_readable_and_none_by_default() -> None:
    assert weather.timeout is None
    assert tool(timeout=2)(get_weather).timeout == 2.0


def test_a_direct_call_fills_a_context_parameter() -> None:
    @tool
    def whoami(ctx: ToolContext, suffix: str = "") -> str:
        """Say the tool name."""
        return ctx.tool_name + suffix + ":" + ctx.call_id[:5]

    assert whoami() == "whoami:call_"
    assert whoami(suffix="!") == "whoami!:call_"
    given = ToolContext("other", call_id="c1")
    assert whoami(given) == "other:c1"
    assert whoami.execute({"suffix": "?"}) == "whoami?:call_"
    assert "ctx" not in input_json_schema(whoami)["properties"]


def test_bound_tools_are_safe_across_threads() -> None:
    clients = [Client(str(i)) for i in range(8)]
    out: dict[int, list[str]] = {}

    def work(i: int) -> None:
        out[i] = clients[i].get_orders.execute({"customer": "c", "limit": 1})

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert out == {i: [f"{i}:c:0"] for i in range(8)}
