"""Streaming: generator handlers are tools, and every call's events can be watched."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import AsyncIterator, Generator, Iterator
from typing import Any

import pytest

from standard_tool import (
    ProgressEvent,
    ResultEvent,
    StandardToolValidationError,
    ToolContext,
    Toolkit,
    ToolResult,
    current_context,
    standard_tool,
    stream_tool,
    tool,
)
from standard_tool.providers import run_openai_chat_tool_calls


@tool
def count(n: int) -> Iterator[int]:
    """Count from 1 to n."""
    yield from range(1, n + 1)


@tool
async def acount(n: int) -> AsyncIterator[str]:
    """Count from 1 to n, asynchronously."""
    for i in range(1, n + 1):
        await asyncio.sleep(0)
        yield str(i)


@tool
def summarize(words: list[str]) -> Generator[str, None, int]:
    """Read words, then return how many there were."""
    yield from words
    return len(words)


async def _events(stream: AsyncIterator[Any]) -> list[Any]:
    return [event async for event in stream]


# -- the result rule ----------------------------------------------------------------------


def test_a_generator_s_result_is_its_last_yield() -> None:
    assert count.execute({"n": 3}) == 3
    # Nothing yielded: the result is None, which an ``Iterator[int]`` result type refuses.
    with pytest.raises(StandardToolValidationError, match="expected integer, got null"):
        count.execute({"n": 0})


def test_a_generator_s_returned_value_wins() -> None:
    assert summarize.execute({"words": ["a", "b"]}) == 2


def test_an_async_generator_s_result_is_its_last_yield() -> None:
    assert asyncio.run(acount.execute({"n": 2})) == "2"


def test_the_output_schema_is_the_result_type() -> None:
    assert count.output_schema is not None
    schema = count.output_schema.__standard__.json_schema.output(target="draft-2020-12")
    assert schema == {"type": "integer"}
    assert summarize.output_schema is not None
    both = summarize.output_schema.__standard__.json_schema.output(target="draft-2020-12")
    assert both == {"anyOf": [{"type": "string"}, {"type": "integer"}]}


def test_a_result_that_breaks_the_output_schema_is_an_output_error() -> None:
    @tool
    def liar() -> Iterator[int]:
        """Yield something that is not an int."""
        yield "nope"  # type: ignore[misc]  # pyright: ignore[reportReturnType]

    with pytest.raises(StandardToolValidationError, match="output validation failed"):
        liar.execute({})


def test_a_direct_call_returns_the_generator() -> None:
    assert list(count(3)) == [1, 2, 3]
    assert list(summarize(["x"])) == ["x"]


# -- events ---------------------------------------------------------------------------------


def test_each_yield_is_a_progress_event_then_one_result_event() -> None:
    events = asyncio.run(_events(count.stream({"n": 2})))
    assert [type(e) for e in events] == [ProgressEvent, ProgressEvent, ResultEvent]
    assert [e.data for e in events[:2]] == [1, 2]
    assert [e.progress for e in events[:2]] == [1, 2]
    final = events[-1]
    assert final.ok
    assert final.value == 2
    assert final.tool_name == "count"
    assert final.call_id == events[0].call_id


def test_an_async_generator_streams_too() -> None:
    events = asyncio.run(_events(acount.stream({"n": 2})))
    assert [e.data for e in events[:-1]] == ["1", "2"]
    assert events[-1].value == "2"


def test_a_plain_tool_yields_just_its_final_event() -> None:
    double = standard_tool(name="double", description="Double.", execute=lambda n: 2 * n)
    (final,) = asyncio.run(_events(stream_tool(double, 21, call_id="c7")))
    assert final == ResultEvent(42, None, "double", "c7")


def test_a_failure_is_the_final_event_not_an_exception() -> None:
    events = asyncio.run(_events(count.stream({"n": "x"})))
    (final,) = events
    assert not final.ok
    assert isinstance(final.error, StandardToolValidationError)

    @tool
    def breaks(n: int) -> Iterator[int]:
        """Fail half way."""
        yield 1
        raise RuntimeError("disk full")

    events = asyncio.run(_events(breaks.stream({"n": 1})))
    assert [type(e) for e in events] == [ProgressEvent, ResultEvent]
    assert str(events[-1].error) == "disk full"


def test_a_sync_tool_s_events_arrive_while_it_runs() -> None:
    gate = threading.Event()

    @tool
    def waits() -> Iterator[str]:
        """Report, then wait for the reader to see the report."""
        yield "started"
        assert gate.wait(10)
        yield "finished"

    async def main() -> list[Any]:
        seen: list[Any] = []
        async for event in waits.stream({}):
            seen.append(event)
            if isinstance(event, ProgressEvent) and event.data == "started":
                gate.set()  # only possible if the first event arrived before the end
        return seen

    events = asyncio.run(main())
    assert [e.data for e in events[:-1]] == ["started", "finished"]


def test_report_progress_from_any_handler_streams() -> None:
    def handler(value: Any) -> str:
        context = current_context()
        assert context is not None
        context.report_progress(0.5, 1.0, "half")
        return "done"

    plain = standard_tool(name="plain", description="d", execute=handler)
    events = asyncio.run(_events(stream_tool(plain)))
    assert (events[0].progress, events[0].total, events[0].message) == (0.5, 1.0, "half")
    assert events[-1].value == "done"


def test_stopping_a_stream_early_cancels_an_async_call() -> None:
    finished: list[bool] = []
    closed = asyncio.Event()

    @tool
    async def forever() -> AsyncIterator[int]:
        """Count for ever."""
        i = 0
        try:
            while True:
                i += 1
                yield i
                await asyncio.sleep(0)
        finally:
            finished.append(True)
            closed.set()

    async def main() -> None:
        stream = forever.stream({})
        async for event in stream:
            if isinstance(event, ProgressEvent) and event.data == 3:
                break
        await stream.aclose()  # type: ignore[attr-defined]
        await asyncio.wait_for(closed.wait(), 10)

    asyncio.run(main())
    assert finished == [True]


# -- the toolkit and the runners ---------------------------------------------------------------


def test_toolkit_astream_yields_events_then_the_tool_result() -> None:
    kit = Toolkit([count, acount])

    async def main() -> tuple[list[Any], list[Any]]:
        a = await _events(kit.astream("count", {"n": 2}, call_id="c1", timeout=5))
        b = await _events(kit.astream("nope"))
        return a, b

    events, unknown = asyncio.run(main())
    assert [e.data for e in events[:-1]] == [1, 2]
    assert {e.call_id for e in events[:-1]} == {"c1"}
    assert isinstance(events[-1], ToolResult)
    assert events[-1].value == 2
    (result,) = unknown
    assert isinstance(result, ToolResult)
    assert result.error is not None
    assert result.error.startswith("unknown tool 'nope'")


def test_a_generator_stops_at_its_deadline() -> None:
    stopped = threading.Event()

    @tool(timeout=0.05)
    def endless(ctx: ToolContext) -> Iterator[int]:
        """Produce until cancelled."""
        i = 0
        try:
            while True:
                i += 1
                yield i
                ctx.wait(0.01)
        finally:
            stopped.set()

    result = Toolkit([endless]).execute("endless", {})
    assert result.error == "timed out after 0.05 s"
    assert stopped.wait(5)  # closed at its next yield after the cancellation


async def test_runners_report_every_call_s_events_to_the_toolkit_listener() -> None:
    events: list[ProgressEvent] = []
    kit = Toolkit([count, acount], on_progress=events.append)
    response = {
        "choices": [
            {
                "message": {
                    "tool_calls": [
                        {
                            "id": f"call_{name}",
                            "type": "function",
                            "function": {"name": name, "arguments": json.dumps({"n": 2})},
                        }
                        for name in ("count", "acount")
                    ]
                }
            }
        ]
    }
    messages = await run_openai_chat_tool_calls(response, kit)
    assert [m["content"] for m in messages] == ["2", "2"]
    by_call = {(e.call_id, e.data) for e in events}
    assert by_call == {
        ("call_count", 1),
        ("call_count", 2),
        ("call_acount", "1"),
        ("call_acount", "2"),
    }
