"""How a runner runs one response's calls: what each call needs, every deadline kept.

Sync calls with a deadline share worker threads (one hand-over for the batch, more
threads only when a call is slow), async calls get a task each, sync calls without
a deadline run inline. These tests hold the promises that design must keep: order,
deadlines, overlap of slow calls, cancellation, the context, progress.
"""

from __future__ import annotations

import asyncio
import contextvars
import json
import threading
import time
from typing import Any

import pytest

from standard_tool import ProgressEvent, ToolContext, Toolkit, current_context, standard_tool, tool
from standard_tool.providers import run_anthropic_tool_calls, run_openai_chat_tool_calls

_SEEN: contextvars.ContextVar[str] = contextvars.ContextVar("seen", default="unset")


def _chat(*calls: tuple[str, dict[str, Any]]) -> dict[str, Any]:
    return {
        "choices": [
            {
                "message": {
                    "tool_calls": [
                        {
                            "id": f"c{i}",
                            "type": "function",
                            "function": {"name": name, "arguments": json.dumps(args)},
                        }
                        for i, (name, args) in enumerate(calls)
                    ]
                }
            }
        ]
    }


def _contents(messages: list[Any]) -> list[str]:
    return [m["content"] for m in messages]


def _named(prefix: str) -> int:
    return sum(1 for t in threading.enumerate() if t.name.startswith(prefix))


async def test_a_hung_sync_call_times_out_while_the_quick_ones_in_its_batch_succeed() -> None:
    release = threading.Event()

    def work(args: dict[str, Any]) -> int:
        if args["i"] == 1:
            release.wait(30)  # ignores the cancellation: a thread cannot be stopped
        return int(args["i"])

    kit = Toolkit([standard_tool(name="work", description="d", execute=work)])
    started = time.monotonic()
    try:
        messages = await run_openai_chat_tool_calls(
            _chat(*[("work", {"i": i}) for i in range(6)]), kit, timeout=0.2
        )
    finally:
        release.set()
    assert time.monotonic() - started < 10  # returned at its deadline, not after the hang
    assert _contents(messages) == ["0", "Error: timed out after 0.2 s", "2", "3", "4", "5"]


async def test_calls_queued_behind_a_slow_sync_call_still_run_alongside_it() -> None:
    """The first call waits for the last one: run one after another, both would time out."""
    last_started = threading.Event()

    def work(args: dict[str, Any]) -> str:
        if args["i"] == 0:
            return "met" if last_started.wait(20) else "alone"
        if args["i"] == 9:
            last_started.set()
        return "ok"

    kit = Toolkit([standard_tool(name="work", description="d", execute=work)])
    messages = await run_openai_chat_tool_calls(
        _chat(*[("work", {"i": i}) for i in range(10)]), kit, timeout=30
    )
    assert _contents(messages) == ["met"] + ["ok"] * 9


async def test_sync_async_and_inline_calls_of_one_response_keep_their_order() -> None:
    @tool
    def quick(n: int) -> int:
        """Run in a worker (the runner's default deadline)."""
        return n

    @tool(timeout=float("inf"))
    def inline(n: int) -> int:
        """Run inline (no deadline)."""
        return n * 10

    @tool
    async def later(n: int) -> int:
        """Wait, then answer."""
        await asyncio.sleep(0.01)
        return n * 100

    @tool
    async def at_once(n: int) -> int:
        """Answer without waiting."""
        return n * 1000

    names = ["quick", "inline", "later", "at_once"]
    calls = [(names[i % 4], {"n": i}) for i in range(12)]
    kit = Toolkit([quick, inline, later, at_once])
    messages = await run_openai_chat_tool_calls(_chat(*calls), kit)
    factor = {"quick": 1, "inline": 10, "later": 100, "at_once": 1000}
    assert _contents(messages) == [str(args["n"] * factor[name]) for name, args in calls]


async def test_each_call_gets_its_own_copy_of_the_caller_s_context() -> None:
    """A value one handler sets never leaks into the next call run by the same thread."""

    def work(args: dict[str, Any]) -> str:
        before = _SEEN.get()
        _SEEN.set(f"set by {args['i']}")
        context = current_context()
        assert context is not None
        return f"{before} / {context.call_id} / {context.time_left() is not None}"

    kit = Toolkit([standard_tool(name="work", description="d", execute=work)])
    token = _SEEN.set("caller")
    try:
        messages = await run_openai_chat_tool_calls(
            _chat(*[("work", {"i": i}) for i in range(5)]), kit
        )
    finally:
        _SEEN.reset(token)
    assert _contents(messages) == [f"caller / c{i} / True" for i in range(5)]
    assert _SEEN.get() == "unset"


async def test_progress_of_batched_sync_calls_names_each_call() -> None:
    events: list[ProgressEvent] = []

    @tool
    def step(n: int, ctx: ToolContext) -> int:
        """Report one step."""
        ctx.report_progress(n, 10, f"step {n}")
        return n

    kit = Toolkit([step], on_progress=events.append)
    await run_anthropic_tool_calls(
        {
            "content": [
                {"type": "tool_use", "id": f"u{n}", "name": "step", "input": {"n": n}}
                for n in range(3)
            ]
        },
        kit,
    )
    assert sorted((e.call_id, e.message) for e in events) == [
        ("u0", "step 0"),
        ("u1", "step 1"),
        ("u2", "step 2"),
    ]
    assert {e.tool_name for e in events} == {"step"}


async def test_a_sync_tool_returning_an_awaitable_under_a_deadline_is_awaited() -> None:
    async def later(value: int) -> int:
        await asyncio.sleep(0)
        return value + 1

    def start(args: dict[str, Any]) -> Any:
        return later(int(args["i"]))

    slow = asyncio.Event()

    async def never() -> int:
        await slow.wait()
        return 0

    kit = Toolkit(
        [
            standard_tool(name="start", description="d", execute=start),
            standard_tool(name="never", description="d", execute=lambda: never()),
        ]
    )
    messages = await run_openai_chat_tool_calls(
        _chat(("start", {"i": 1}), ("never", {}), ("start", {"i": 2})), kit, timeout=0.2
    )
    assert _contents(messages) == ["2", "Error: timed out after 0.2 s", "3"]


class _Stop(BaseException):
    """Not an ``Exception``: no runner may turn it into a result."""


async def test_a_base_exception_raised_in_a_worker_thread_reaches_the_caller() -> None:
    def stop(args: dict[str, Any]) -> int:
        if args["i"] == 1:
            raise _Stop
        return 0

    kit = Toolkit([standard_tool(name="stop", description="d", execute=stop)])
    with pytest.raises(_Stop):
        await run_openai_chat_tool_calls(_chat(*[("stop", {"i": i}) for i in range(3)]), kit)


async def test_cancelling_the_runner_cancels_its_running_sync_calls() -> None:
    started = threading.Event()
    seen: list[ToolContext] = []

    @tool
    def block(ctx: ToolContext) -> str:
        """Block until cancelled."""
        seen.append(ctx)
        started.set()
        while not ctx.wait(30):
            pass
        return "stopped"

    task = asyncio.ensure_future(run_openai_chat_tool_calls(_chat(("block", {})), [block]))
    assert await asyncio.to_thread(started.wait, 10)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert [ctx.cancelled for ctx in seen] == [True]


async def test_worker_threads_are_reused_across_batches_and_free_when_done() -> None:
    busy_before = _named("standard-tool-call")
    all_before = _named("standard-tool-")

    def work(args: dict[str, Any]) -> str:
        return threading.current_thread().name

    kit = Toolkit([standard_tool(name="work", description="d", execute=work)])
    for _ in range(20):
        messages = await run_openai_chat_tool_calls(
            _chat(*[("work", {"i": i}) for i in range(10)]), kit
        )
        assert set(_contents(messages)) == {"standard-tool-call"}
    # 200 calls: a thread per call would leave up to 200 behind.
    assert _named("standard-tool-") - all_before < 20

    def settled() -> int:
        deadline = time.monotonic() + 5
        while _named("standard-tool-call") > busy_before and time.monotonic() < deadline:
            time.sleep(0.01)
        return _named("standard-tool-call")

    # At most as many as before: a call an earlier test abandoned may end meanwhile.
    assert await asyncio.to_thread(settled) <= busy_before


def test_a_call_ending_after_its_runner_was_cancelled_and_its_loop_closed_is_quiet() -> None:
    started, release, ran = threading.Event(), threading.Event(), []
    raised: list[BaseException | None] = []

    def block(args: dict[str, Any]) -> str:
        ran.append(threading.current_thread())
        started.set()
        release.wait(10)
        return "late"

    kit = Toolkit([standard_tool(name="block", description="d", execute=block)])

    async def cancel_it() -> None:
        task = asyncio.ensure_future(run_openai_chat_tool_calls(_chat(("block", {})), kit))
        assert await asyncio.to_thread(started.wait, 10)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    previous = threading.excepthook
    threading.excepthook = lambda args: raised.append(args.exc_value)
    try:
        loop = asyncio.new_event_loop()
        loop.run_until_complete(cancel_it())
        loop.close()
        release.set()  # the call ends now, its caller and loop gone
        deadline = time.monotonic() + 5
        while ran[0].name != "standard-tool-idle" and ran[0].is_alive():
            assert time.monotonic() < deadline, "the worker never finished the call"
            time.sleep(0.01)
    finally:
        threading.excepthook = previous
    assert raised == []
    assert ran[0].is_alive()  # back in the pool, waiting for the next call


def test_a_toolkit_call_with_a_deadline_runs_in_a_worker_and_frees_it() -> None:
    kit = Toolkit(
        [
            standard_tool(
                name="where",
                description="d",
                execute=lambda: threading.current_thread().name,
            )
        ]
    )
    names = {kit.execute("where", timeout=5).value for _ in range(20)}
    assert names == {"standard-tool-call"}
    assert kit.execute("where").value == threading.current_thread().name  # inline: no deadline


async def test_calls_run_inline_are_each_timed_on_their_own() -> None:
    from standard_tool._toolkit import run_batch

    def slow(args: dict[str, Any]) -> str:
        time.sleep(0.05)
        return "slow"

    def quick(args: dict[str, Any]) -> str:
        return "quick"

    kit = Toolkit(
        [
            standard_tool(name="slow", description="d", execute=slow),
            standard_tool(name="quick", description="d", execute=quick),
        ]
    )
    inf = float("inf")
    first, second, unknown = await run_batch(
        kit,
        [("slow", {}, "a", inf), ("quick", {}, "b", inf), ("nope", {}, "c", inf)],
        meta=None,
        on_progress=None,
    )
    assert (first.value, second.value, first.call_id, second.call_id) == ("slow", "quick", "a", "b")
    assert first.duration >= 0.05
    assert second.duration < first.duration  # not the time since the batch began
    assert (unknown.success, unknown.call_id) == (False, "c")
    assert unknown.error is not None
    assert "nope" in unknown.error


async def test_a_sync_tool_returning_an_awaitable_without_a_deadline_is_awaited() -> None:
    async def later(value: int) -> int:
        await asyncio.sleep(0)
        return value * 2

    kit = Toolkit(
        [standard_tool(name="twice", description="d", execute=lambda args: later(args["n"]))]
    )
    messages = await run_openai_chat_tool_calls(
        _chat(("twice", {"n": 1}), ("twice", {"n": 2})), kit, timeout=float("inf")
    )
    assert _contents(messages) == ["2", "4"]
