"""Toolkit: a named collection that runs tools by name and turns failures into results."""

from __future__ import annotations

import asyncio
import dataclasses
import threading
from typing import Any

import pytest

from standard_tool import StandardToolValidationError, Toolkit, ToolResult, standard_tool
from standard_tool.providers import (
    to_anthropic,
    to_gemini,
    to_mcp,
    to_openai_chat,
    to_openai_responses,
)
from tests.fakes.tools import PlainTool, add, weather

# -- the collection ---------------------------------------------------------------------


def test_get_list_names_len_iter_and_contains_keep_insertion_order() -> None:
    echo = PlainTool()
    kit = Toolkit([weather, add, echo])
    assert kit.get("add") is add
    assert kit.list() == [weather, add, echo]
    assert kit.names == ("get_weather", "add", "echo")
    assert len(kit) == 3
    assert list(kit) == [weather, add, echo]
    assert "add" in kit
    assert "mul" not in kit
    assert repr(kit) == "Toolkit([get_weather, add, echo])"


def test_list_returns_a_new_list_each_time() -> None:
    kit = Toolkit([add])
    kit.list().clear()
    assert kit.list() == [add]


def test_get_unknown_name_raises_key_error_listing_the_names() -> None:
    kit = Toolkit([weather, add])
    with pytest.raises(KeyError, match=r"unknown tool 'mul'; available tools: get_weather, add"):
        kit.get("mul")


def test_duplicate_names_are_refused_naming_each_duplicate() -> None:
    other_add = standard_tool(name="add", description="Another add.", execute=lambda: 0)
    with pytest.raises(ValueError, match=r"^Toolkit: duplicate tool names: 'add' \(3 times\)"):
        Toolkit([add, weather, other_add, other_add])


def test_items_that_are_not_tools_are_all_listed_at_once() -> None:
    class NoExecute:
        name = "x"
        description = "d"

    with pytest.raises(TypeError) as info:
        Toolkit([add, NoExecute(), 42, PlainTool()])  # type: ignore[list-item]  # pyright: ignore[reportArgumentType]
    message = str(info.value)
    assert message.startswith("Toolkit: item 1 (NoExecute) is not a tool: needs execute")
    assert "item 2 (int) is not a tool: needs name, description, execute" in message


def test_an_empty_name_is_not_a_tool_name() -> None:
    blank = PlainTool()
    blank.name = ""
    with pytest.raises(TypeError, match="needs name"):
        Toolkit([blank])


def test_a_toolkit_is_immutable() -> None:
    kit = Toolkit([add])
    with pytest.raises(AttributeError, match="immutable"):
        kit.extra = 1


def test_an_empty_toolkit_reports_no_tools() -> None:
    result = Toolkit().execute("x")
    assert result.error == "unknown tool 'x'; available tools: (none)"


# -- ToolResult --------------------------------------------------------------------------


def test_tool_result_is_a_frozen_slotted_dataclass() -> None:
    result = ToolResult("t", "c1", True, 5)
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.value = 6  # type: ignore[misc]  # pyright: ignore[reportAttributeAccessIssue]
    assert not hasattr(result, "__dict__")
    assert result == ToolResult("t", "c1", True, 5, exception=ValueError())
    assert "exception" not in repr(result)


# -- execute: success --------------------------------------------------------------------


async def test_execute_runs_a_sync_tool_and_returns_its_value() -> None:
    result = await Toolkit([weather]).aexecute("get_weather", {"city": "Oslo", "unit": "f"})
    assert result.success
    assert result.value == {"city": "Oslo", "temperature": 70}
    assert result.error is None
    assert result.exception is None
    assert result.name == "get_weather"
    assert result.call_id is None
    assert result.duration >= 0


async def test_execute_awaits_an_async_tool_and_carries_the_call_id() -> None:
    result = await Toolkit([add]).aexecute("add", {"a": 2, "b": 3}, call_id="call_9")
    assert (result.success, result.value, result.call_id) == (True, 5, "call_9")


async def test_execute_passes_meta_verbatim_to_a_plain_object_tool() -> None:
    meta = object()
    result = await Toolkit([PlainTool()]).aexecute("echo", [1], meta)
    assert result.value == {"input": [1], "meta": meta}


class Lazy:
    """A sync ``execute`` that returns a coroutine."""

    name = "lazy"
    title = None
    description = "d"
    input_schema = None
    output_schema = None

    def execute(self, input: Any = None, meta: Any = None) -> Any:
        async def later() -> Any:
            if input is None:
                raise ValueError("no input")
            return input * 2

        return later()


async def test_a_sync_execute_that_returns_an_awaitable_is_awaited() -> None:
    kit = Toolkit([Lazy()])
    assert (await kit.aexecute("lazy", 21)).value == 42
    assert (await kit.aexecute("lazy", 21, timeout=5)).value == 42
    assert (await kit.aexecute("lazy", timeout=5)).error == "ValueError: no input"


def test_execute_awaits_what_a_sync_execute_returns() -> None:
    kit = Toolkit([Lazy()])
    assert kit.execute("lazy", 21).value == 42
    assert kit.execute("lazy", 21, timeout=5).value == 42
    assert kit.execute("lazy").error == "ValueError: no input"


# -- execute: failures become results ---------------------------------------------------


async def test_unknown_tool_is_a_failed_result_not_an_exception() -> None:
    result = await Toolkit([weather, add]).aexecute("mul", {}, call_id="c")
    assert not result.success
    assert result.value is None
    assert result.call_id == "c"
    assert result.error == "unknown tool 'mul'; available tools: get_weather, add"


async def test_a_huge_unknown_name_is_bounded_in_the_error() -> None:
    result = await Toolkit([add]).aexecute("x" * 1_000_000)
    assert result.error is not None
    assert len(result.error) < 300


async def test_unknown_tool_error_lists_at_most_twenty_names() -> None:
    tools = [standard_tool(name=f"t{i}", description="d", execute=lambda: 0) for i in range(25)]
    result = await Toolkit(tools).aexecute("x")
    assert result.error is not None
    assert result.error.endswith("t18, t19, and 5 more")


async def test_validation_error_names_the_failing_path() -> None:
    result = await Toolkit([weather]).aexecute("get_weather", {"city": "Oslo", "unit": "k"})
    assert not result.success
    assert result.error == "input validation failed: unit: 'k' is not one of ['c', 'f']"
    assert isinstance(result.exception, StandardToolValidationError)


async def test_handler_exception_becomes_type_and_message() -> None:
    def boom(_: Any) -> Any:
        raise LookupError("no such city")

    kit = Toolkit([standard_tool(name="boom", description="d", execute=boom)])
    result = await kit.aexecute("boom", 1)
    assert result.error == "LookupError: no such city"
    assert isinstance(result.exception, LookupError)


async def test_an_exception_without_a_message_gives_its_type_name() -> None:
    def boom() -> Any:
        raise RuntimeError

    result = await Toolkit([standard_tool(name="b", description="d", execute=boom)]).aexecute("b")
    assert result.error == "RuntimeError"


async def test_a_huge_exception_message_is_truncated_with_a_marker() -> None:
    async def boom() -> Any:
        raise ValueError("x" * 10_000_000)

    result = await Toolkit([standard_tool(name="b", description="d", execute=boom)]).aexecute("b")
    assert result.error is not None
    assert len(result.error) <= 2100
    assert result.error.startswith("ValueError: xxx")
    assert len(result.error) <= 2000
    assert result.error.endswith("... [truncated 9998047 characters]")


async def test_an_exception_whose_str_fails_still_becomes_a_result() -> None:
    class Nasty(Exception):
        def __str__(self) -> str:
            raise RuntimeError("no")

    def boom() -> Any:
        raise Nasty

    result = await Toolkit([standard_tool(name="b", description="d", execute=boom)]).aexecute("b")
    assert result.error == "Nasty: <message unavailable>"


async def test_a_tool_raising_timeout_error_itself_is_not_reported_as_our_timeout() -> None:
    async def slow() -> Any:
        raise TimeoutError("upstream timed out")

    kit = Toolkit([standard_tool(name="s", description="d", execute=slow)])
    result = await kit.aexecute("s", timeout=5)
    assert result.error == "TimeoutError: upstream timed out"


# -- timeouts -----------------------------------------------------------------------------


async def test_an_async_tool_over_its_timeout_fails_and_is_cancelled() -> None:
    cancelled = asyncio.Event()

    async def hang() -> Any:
        try:
            await asyncio.sleep(60)
        except asyncio.CancelledError:
            cancelled.set()
            raise

    kit = Toolkit([standard_tool(name="hang", description="d", execute=hang)])
    result = await kit.aexecute("hang", timeout=0.05, call_id="c1")
    assert (result.success, result.call_id) == (False, "c1")
    assert result.error == "timed out after 0.05 s"
    assert cancelled.is_set()


async def test_a_sync_tool_over_its_timeout_fails_without_blocking_the_loop() -> None:
    release = threading.Event()

    def block() -> str:
        release.wait(30)
        return "late"

    kit = Toolkit([standard_tool(name="block", description="d", execute=block)])
    try:
        result = await kit.aexecute("block", timeout=0.05)
    finally:
        release.set()
    assert result.error == "timed out after 0.05 s"


async def test_a_sync_tool_with_a_timeout_runs_in_a_worker_thread() -> None:
    def where() -> str:
        return threading.current_thread().name

    kit = Toolkit([standard_tool(name="where", description="d", execute=where)])
    assert (await kit.aexecute("where")).value == threading.current_thread().name
    assert (await kit.aexecute("where", timeout=5)).value == "standard-tool-call"


def test_execute_honours_the_timeout_for_sync_and_async_tools() -> None:
    release = threading.Event()

    def block() -> str:
        release.wait(30)
        return "late"

    async def hang() -> Any:
        await asyncio.sleep(60)

    kit = Toolkit(
        [
            standard_tool(name="block", description="d", execute=block),
            standard_tool(name="hang", description="d", execute=hang),
        ]
    )
    try:
        assert kit.execute("block", timeout=0.05).error == "timed out after 0.05 s"
        assert kit.execute("hang", timeout=0.05).error == "timed out after 0.05 s"
    finally:
        release.set()


async def test_a_result_within_the_timeout_is_returned() -> None:
    kit = Toolkit([add, weather])
    assert (await kit.aexecute("add", {"a": 1, "b": 1}, timeout=5)).value == 2
    assert (await kit.aexecute("get_weather", {"city": "x", "unit": "c"}, timeout=5)).success


# -- what propagates ----------------------------------------------------------------------


async def test_cancelling_execute_propagates_cancelled_error() -> None:
    started = asyncio.Event()

    async def hang() -> Any:
        started.set()
        await asyncio.sleep(60)

    kit = Toolkit([standard_tool(name="hang", description="d", execute=hang)])
    for timeout in (None, 30.0):
        started.clear()
        task = asyncio.ensure_future(kit.aexecute("hang", timeout=timeout))
        await asyncio.wait_for(started.wait(), 10)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task


@pytest.mark.parametrize("exc_type", [KeyboardInterrupt, SystemExit])
async def test_base_exceptions_propagate(exc_type: type[BaseException]) -> None:
    def stop() -> Any:
        raise exc_type

    kit = Toolkit([standard_tool(name="stop", description="d", execute=stop)])
    with pytest.raises(exc_type):
        await kit.aexecute("stop")
    with pytest.raises(exc_type):
        kit.execute("stop")


# -- execute ---------------------------------------------------------------------------


def test_execute_runs_sync_and_async_tools_without_a_loop() -> None:
    kit = Toolkit([weather, add])
    assert kit.execute("add", {"a": 1, "b": 2}, call_id="x").value == 3
    assert kit.execute("get_weather", {"city": "Rome", "unit": "c"}).success
    failed = kit.execute("add", {"a": 1})
    assert failed.error == "input validation failed: 'b' is a required property"


async def test_execute_inside_a_running_loop_refuses_async_tools() -> None:
    kit = Toolkit([add, weather])
    with pytest.raises(RuntimeError, match=r"use `await toolkit.aexecute\(...\)`"):
        kit.execute("add", {"a": 1, "b": 2})
    assert kit.execute("get_weather", {"city": "Rome", "unit": "c"}).success


async def test_execute_inside_a_loop_refuses_a_sync_tool_returning_an_awaitable() -> None:
    with pytest.raises(RuntimeError, match="is async and an event loop is running"):
        Toolkit([Lazy()]).execute("lazy", 1)


async def test_an_async_callable_object_as_execute_is_treated_as_async() -> None:
    class Handler:
        async def __call__(self, input: Any = None, meta: Any = None) -> Any:
            return "async"

    class Obj:
        name = "obj"
        title = None
        description = "d"
        input_schema = None
        output_schema = None
        execute = Handler()

    kit = Toolkit([Obj()])
    assert (await kit.aexecute("obj", timeout=5)).value == "async"
    with pytest.raises(RuntimeError):
        kit.execute("obj")


# -- provider formats ----------------------------------------------------------------------


def test_converters_given_a_toolkit_or_an_iterable_declare_every_tool_in_order() -> None:
    kit = Toolkit([weather, add])
    for tools in (kit, [weather, add], (t for t in (weather, add))):
        assert to_openai_chat(tools) == [to_openai_chat(t) for t in (weather, add)]
    assert to_openai_chat(kit, strict=False) == [
        to_openai_chat(t, strict=False) for t in (weather, add)
    ]
    assert to_openai_responses(kit, strict=False) == [
        to_openai_responses(t, strict=False) for t in (weather, add)
    ]
    assert to_gemini(kit) == [to_gemini(t) for t in (weather, add)]
    assert to_mcp(kit) == [to_mcp(t) for t in (weather, add)]
    assert [t["name"] for t in to_anthropic(kit)] == ["get_weather", "add"]
    assert isinstance(to_openai_chat(weather), dict)


def test_to_anthropic_puts_the_cache_breakpoint_on_the_last_tool_only() -> None:
    tools = to_anthropic(Toolkit([weather, add]), cache_control={"type": "ephemeral"})
    assert "cache_control" not in tools[0]
    assert tools[1]["cache_control"] == {"type": "ephemeral"}
    assert to_anthropic(Toolkit(), cache_control={"type": "ephemeral"}) == []


def test_is_async_tells_which_tools_are_coroutine_functions() -> None:
    async def later() -> int:
        return 1

    kit = Toolkit(
        [
            standard_tool(name="now", description="d", execute=lambda: 1),
            standard_tool(name="later", description="d", execute=later),
        ]
    )
    assert not kit.is_async("now")
    assert kit.is_async("later")
    assert not kit.is_async("missing")


async def test_sync_and_async_calls_in_one_response_keep_their_order() -> None:
    from standard_tool.providers import run_anthropic_tool_calls

    async def slow_echo(value: Any) -> Any:
        await asyncio.sleep(0.01)
        return value

    kit = Toolkit(
        [
            standard_tool(name="echo", description="d", execute=lambda v: v),
            standard_tool(name="slow_echo", description="d", execute=slow_echo),
        ]
    )
    blocks = [
        {"type": "tool_use", "id": f"t{i}", "name": "slow_echo" if i % 3 else "echo", "input": i}
        for i in range(12)
    ]
    reply = await run_anthropic_tool_calls({"content": blocks}, kit)
    assert reply is not None
    assert [b["tool_use_id"] for b in reply["content"]] == [f"t{i}" for i in range(12)]
    assert [b["content"] for b in reply["content"]] == [str(i) for i in range(12)]


def test_a_result_of_the_fast_path_is_an_ordinary_tool_result() -> None:
    """Equal to one built by its constructor; ``replace`` and ``repr`` work; it stays frozen."""
    import dataclasses

    kit = Toolkit([standard_tool(name="echo", description="d", execute=lambda v: v)])
    got = kit.execute("echo", {"a": [1]}, call_id="c1")
    assert got == ToolResult("echo", "c1", True, {"a": [1]}, duration=got.duration)
    assert got.error is None
    assert got.exception is None
    assert dict(got.metadata) == {}
    assert got.duration >= 0
    assert dataclasses.replace(got, call_id="c2").call_id == "c2"
    assert repr(got).startswith("ToolResult(name='echo', call_id='c1', success=True")
    with pytest.raises(dataclasses.FrozenInstanceError):
        got.value = 1  # type: ignore[misc]


async def test_cancelling_aexecute_cancels_a_sync_calls_context() -> None:
    from standard_tool import ToolContext, tool

    started = threading.Event()
    saw: list[bool] = []

    @tool(timeout=30)
    def hold(ctx: ToolContext) -> str:
        """Wait until the call is cancelled."""
        started.set()
        saw.append(ctx.wait(30))
        return "done"

    task = asyncio.ensure_future(Toolkit([hold]).aexecute("hold", {}))
    await asyncio.get_running_loop().run_in_executor(None, started.wait, 30)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    for _ in range(3000):
        if saw:
            break
        await asyncio.sleep(0.01)
    assert saw == [True]


def test_the_toolkit_calls_what_a_tool_binds_on_its_first_call() -> None:
    """A function tool binds generated code as its ``execute`` on its first call; a
    toolkit made before that call reaches the bound code afterwards, not the wrapper."""
    from standard_tool import tool

    @tool
    def twice(n: int) -> int:
        """Double n."""
        return 2 * n

    wrapper = twice.execute
    kit = Toolkit([twice])
    assert kit.execute("twice", {"n": 2}).value == 4
    assert twice.execute is not wrapper  # the tool bound its generated code
    assert kit._calls["twice"] is twice.execute  # pyright: ignore[reportPrivateUsage]
    assert kit.execute("twice", {"n": "x"}).success is False
    assert kit.execute("twice", {"n": 5}).value == 10
