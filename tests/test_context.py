"""The call context and deadlines: what a running tool knows, and calls that return on time."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import math
import sys
import threading
import time
from typing import Any

import pytest

from standard_tool import (
    ProgressEvent,
    ToolCancelledError,
    ToolContext,
    ToolDefinitionError,
    Toolkit,
    current_context,
    standard_tool,
    tool,
)
from standard_tool.providers import run_anthropic_tool_calls, run_openai_chat_tool_calls
from standard_tool.providers._runner import RUNNER_TIMEOUT


def _chat(calls: list[tuple[str, dict[str, Any]]]) -> dict[str, Any]:
    return {
        "choices": [
            {
                "message": {
                    "role": "assistant",
                    "tool_calls": [
                        {
                            "id": f"call_{i}",
                            "type": "function",
                            "function": {"name": name, "arguments": json.dumps(args)},
                        }
                        for i, (name, args) in enumerate(calls)
                    ],
                }
            }
        ]
    }


def _workers() -> int:
    return sum(1 for t in threading.enumerate() if t.name == "standard-tool-call")


def _wait_for_workers(count: int) -> int:
    """Wait (bounded) until at most ``count`` call threads are alive; return how many are.

    Generous: on a loaded machine (CI's parallel lanes) a released thread may take a
    while to be scheduled; the wait ends as soon as the count is reached.
    """
    deadline = time.monotonic() + 30
    while _workers() > count and time.monotonic() < deadline:
        time.sleep(0.01)
    return _workers()


# -- the context ------------------------------------------------------------------------


def test_outside_a_call_there_is_no_context() -> None:
    assert current_context() is None


def test_any_tool_s_handler_reads_the_context_in_a_toolkit() -> None:
    seen: list[ToolContext] = []

    def handler(value: Any) -> str:
        context = current_context()
        assert context is not None
        seen.append(context)
        return context.tool_name

    kit = Toolkit([standard_tool(name="plain", description="d", execute=handler)])
    result = kit.execute("plain", {"a": 1}, call_id="c-1", trace_id="t-9")
    assert result.value == "plain"
    (context,) = seen
    assert (context.call_id, context.trace_id, context.arguments) == ("c-1", "t-9", {"a": 1})
    assert context.deadline is None
    assert context.time_left() is None
    assert current_context() is None  # restored after the call


def test_a_call_without_an_id_gets_a_generated_one() -> None:
    ids: list[str] = []

    def handler(value: Any) -> None:
        context = current_context()
        assert context is not None
        ids.append(context.call_id)

    kit = Toolkit([standard_tool(name="t", description="d", execute=handler)])
    kit.execute("t")
    kit.execute("t")
    assert all(i.startswith("call_") and len(i) == 29 for i in ids)
    assert ids[0] != ids[1]


def test_the_result_carries_the_id_the_handler_saw() -> None:
    """A call given no id: the id its context generated is the result's ``call_id`` too."""
    seen: list[str] = []

    def record(fail: bool) -> str:
        context = current_context()
        assert context is not None
        seen.append(context.call_id)
        if fail:
            raise RuntimeError("failed after reading the id")
        return seen[-1]

    async def arecord(fail: bool) -> str:
        return record(fail)

    sync = standard_tool(name="sync", description="d", execute=record)
    asynchronous = standard_tool(name="async", description="d", execute=arecord)
    kit = Toolkit([sync, asynchronous])

    results = []
    for fail in (False, True):
        results += [
            kit.execute("sync", fail),
            kit.execute("sync", fail, timeout=30),
            kit.execute("async", fail),
            kit.execute("async", fail, timeout=30),
            asyncio.run(kit.aexecute("sync", fail)),
            asyncio.run(kit.aexecute("sync", fail, timeout=30)),
            asyncio.run(kit.aexecute("async", fail, timeout=30)),
        ]
    assert len(seen) == len(results) == 14
    assert [r.call_id for r in results] == seen
    assert [r.success for r in results] == [True] * 7 + [False] * 7
    assert kit.execute("sync", False, call_id="given").call_id == "given"
    untouched = standard_tool(name="quiet", description="d", execute=lambda: 1)
    assert Toolkit([untouched]).execute("quiet").call_id is None  # nothing read an id


def test_a_context_parameter_is_hidden_and_filled() -> None:
    @tool(timeout=7)
    def slow(n: int, ctx: ToolContext) -> dict[str, Any]:
        """Report the context."""
        left = ctx.time_left()
        assert left is not None
        return {"name": ctx.tool_name, "id": ctx.call_id, "raw": ctx.arguments, "left": left}

    schema = slow.input_schema
    assert schema is not None
    properties = schema.__standard__.json_schema.input(target="draft-2020-12")["properties"]
    assert list(properties) == ["n"]
    result = Toolkit([slow]).execute("slow", {"n": 1}, call_id="abc")
    assert result.value["name"] == "slow"
    assert result.value["id"] == "abc"
    assert result.value["raw"] == {"n": 1}
    assert 0 < result.value["left"] <= 7


async def test_an_async_handler_reads_the_context_through_a_runner() -> None:
    @tool
    async def echo(text: str, ctx: ToolContext) -> str:
        """Echo with the call id."""
        assert current_context() is ctx
        return f"{ctx.call_id}:{text}"

    messages = await run_openai_chat_tool_calls(_chat([("echo", {"text": "hi"})]), [echo])
    assert messages[0]["content"] == "call_0:hi"


def test_two_context_parameters_are_refused() -> None:
    with pytest.raises(ToolDefinitionError, match="only one parameter can be a ToolContext"):

        @tool
        def f(a: ToolContext, b: ToolContext) -> None:
            """F."""


def test_progress_reaches_the_toolkit_s_listener_and_a_failing_listener_is_ignored() -> None:
    @tool
    def count(n: int, ctx: ToolContext) -> int:
        """Count to n."""
        for i in range(n):
            ctx.report_progress(i + 1, n, f"step {i + 1}")
        return n

    events: list[ProgressEvent] = []
    kit = Toolkit([count])
    assert kit.execute("count", {"n": 2}, on_progress=events.append).value == 2
    assert [(e.progress, e.total, e.message) for e in events] == [
        (1, 2, "step 1"),
        (2, 2, "step 2"),
    ]
    assert {(e.tool_name, e.call_id) for e in events} == {("count", events[0].call_id)}

    def broken(event: ProgressEvent) -> None:
        raise RuntimeError("listener down")

    assert kit.execute("count", {"n": 2}, on_progress=broken).value == 2
    assert count(n=3) == 3  # a direct call: nobody listens


def test_raise_if_cancelled() -> None:
    context = ToolContext("t", timeout=60)
    context.raise_if_cancelled()
    context.cancel()
    assert context.cancelled
    with pytest.raises(ToolCancelledError, match="'t': the call was cancelled"):
        context.raise_if_cancelled()
    assert ToolContext("t", deadline=time.monotonic() - 1).time_left() == 0.0


# -- deadlines ---------------------------------------------------------------------------


def test_per_tool_and_toolkit_timeouts_are_readable() -> None:
    @tool(timeout=2.5)
    def own() -> None:
        """Own."""

    @tool
    def other() -> None:
        """Other."""

    assert own.timeout == 2.5
    kit = Toolkit([own, other], timeout=9)
    assert (kit.timeout_of("own"), kit.timeout_of("other"), kit.timeout_of("nope")) == (
        2.5,
        9.0,
        None,
    )
    assert Toolkit([other]).timeout_of("other") is None
    assert RUNNER_TIMEOUT == 60.0


@pytest.mark.parametrize("bad", [0, -2, math.nan, "3", True])
def test_a_bad_toolkit_timeout_is_refused(bad: Any) -> None:
    with pytest.raises(TypeError, match="timeout: must be a positive number"):
        Toolkit([], timeout=bad)


def test_a_blocking_sync_handler_sees_cancellation_and_its_thread_ends() -> None:
    before = _workers()
    stopped = threading.Event()

    @tool(timeout=0.05)
    def block(ctx: ToolContext) -> str:
        """Block until cancelled."""
        while not ctx.wait(1.0):
            pass
        stopped.set()
        return "late"

    kit = Toolkit([block])
    started = time.monotonic()
    results = [kit.execute("block", {}) for _ in range(5)]
    assert all(r.error == "timed out after 0.05 s" for r in results)
    assert time.monotonic() - started < 5  # each returned at its deadline, not at 1 s steps
    assert stopped.wait(5)
    assert _wait_for_workers(before) <= before  # a thread of an earlier test may end too


async def test_async_runner_timeouts_cancel_sync_handlers_and_their_threads_end() -> None:
    before = _workers()

    @tool(timeout=0.05)
    def block(ctx: ToolContext) -> str:
        """Block until cancelled."""
        while not ctx.wait(30):
            pass
        return "late"

    messages = await run_openai_chat_tool_calls(_chat([("block", {})] * 4), [block])
    assert [m["content"] for m in messages] == ["Error: timed out after 0.05 s"] * 4
    assert await asyncio.to_thread(_wait_for_workers, before) == before


def test_an_explicit_timeout_beats_the_tool_s_and_inf_means_none() -> None:
    @tool(timeout=0.01)
    def nap(ctx: ToolContext) -> bool:
        """Nap."""
        return ctx.wait(0.2)

    kit = Toolkit([nap])
    assert kit.execute("nap", {}).error == "timed out after 0.01 s"
    assert kit.execute("nap", {}, timeout=5).value is False
    assert kit.execute("nap", {}, timeout=math.inf).value is False


# -- issue 9: handlers that break the runner's assumptions --------------------------------


def _raises(exc: BaseException) -> Any:
    def handler(value: Any) -> Any:
        raise exc

    return handler


@pytest.mark.parametrize("limit", [5.0, math.inf])
def test_a_sync_handler_raising_stop_iteration_under_a_timeout_returns(limit: float) -> None:
    kit = Toolkit([standard_tool(name="s", description="d", execute=_raises(StopIteration()))])
    assert kit.execute("s", timeout=limit).error == "StopIteration"


async def test_a_sync_handler_raising_stop_iteration_in_a_runner_returns() -> None:
    kit = Toolkit([standard_tool(name="s", description="d", execute=_raises(StopIteration()))])
    messages = await asyncio.wait_for(
        run_openai_chat_tool_calls(_chat([("s", {})]), kit, timeout=5), 10
    )
    assert messages[0]["content"] == "Error: StopIteration"


def test_a_sync_handler_raising_timeout_error_is_not_our_timeout() -> None:
    kit = Toolkit(
        [standard_tool(name="s", description="d", execute=_raises(TimeoutError("upstream")))]
    )
    assert kit.execute("s", timeout=5).error == "TimeoutError: upstream"


async def test_an_async_handler_that_swallows_cancellation_still_times_out_on_time() -> None:
    release = asyncio.Event()

    async def stubborn(value: Any) -> str:
        while True:
            try:
                await release.wait()
                return "done"
            except asyncio.CancelledError:
                continue  # swallowed

    kit = Toolkit([standard_tool(name="s", description="d", execute=stubborn)])
    started = time.monotonic()
    result = await kit.aexecute("s", timeout=0.1)
    elapsed = time.monotonic() - started
    release.set()
    assert result.error == "timed out after 0.1 s"
    assert elapsed < 1.5  # the timeout plus a bounded grace, not "forever"


def test_a_sync_caller_of_a_stubborn_async_handler_returns_on_time() -> None:
    async def stubborn(value: Any) -> str:
        cancelled = 0
        while True:
            try:
                await asyncio.sleep(0.05)
                if cancelled:  # ends on its own, some time after ignoring its cancellation
                    return "gave up"
            except asyncio.CancelledError:
                cancelled += 1

    kit = Toolkit([standard_tool(name="s", description="d", execute=stubborn)])
    result = kit.execute("s", timeout=0.1)
    assert result.error == "timed out after 0.1 s"


# -- order ----------------------------------------------------------------------------


@pytest.mark.parametrize("sequential", [True, False])
async def test_a_sequential_toolkit_runs_a_response_s_calls_in_order(sequential: bool) -> None:
    memory: list[str] = []
    log: list[str] = []

    @tool
    async def create(entity: str) -> str:
        """Create an entity."""
        log.append(f"create {entity} start")
        await asyncio.sleep(0.05)
        memory.append(entity)
        log.append(f"create {entity} end")
        return "ok"

    @tool
    async def search(entity: str) -> bool:
        """Search for an entity."""
        log.append(f"search {entity}")
        return entity in memory

    kit = Toolkit([create, search], sequential=sequential)
    response = {
        "content": [
            {"type": "tool_use", "id": "1", "name": "create", "input": {"entity": "ada"}},
            {"type": "tool_use", "id": "2", "name": "search", "input": {"entity": "ada"}},
        ]
    }
    blocks = await run_anthropic_tool_calls(response, kit)
    found = blocks["content"][1]["content"]  # type: ignore[index]
    if sequential:
        assert found == "true"
        assert log == ["create ada start", "create ada end", "search ada"]
    else:
        assert found == "false"  # concurrent: the search ran while the create slept


def test_threads_started_by_a_handler_share_its_one_context() -> None:
    import contextvars

    seen: list[ToolContext | None] = []

    def handler(value: Any) -> int:
        threads = [
            threading.Thread(target=contextvars.copy_context().run, args=(_record, seen))
            for _ in range(4)
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        return len(seen)

    kit = Toolkit([standard_tool(name="fan", description="d", execute=handler)])
    assert kit.execute("fan", call_id="c1").value == 4
    assert len({id(c) for c in seen}) == 1
    assert seen[0] is not None
    assert seen[0].call_id == "c1"


def _record(seen: list[ToolContext | None]) -> None:
    seen.append(current_context())


# -- issue 26: every API that takes a timeout refuses a degenerate one at once ----------

_DEGENERATE = [-math.inf, math.nan, 0, 0.0, -1, -0.5, True, False, "5", [1], object()]


def _untouchable() -> Any:
    """A tool whose handler must never run: a degenerate timeout is refused first."""

    def handler(value: Any) -> str:
        raise AssertionError("the handler ran with a degenerate timeout")

    return standard_tool(name="never", description="Never runs.", execute=handler)


def _kind(bad: object) -> type[Exception]:
    return ValueError if isinstance(bad, (int, float)) and not isinstance(bad, bool) else TypeError


@pytest.mark.parametrize("bad", _DEGENERATE)
async def test_a_degenerate_timeout_is_refused_by_every_call_api(bad: Any) -> None:
    kit = Toolkit([_untouchable()])
    with pytest.raises(_kind(bad), match=r"Toolkit\.execute: timeout: must be a positive"):
        await asyncio.to_thread(kit.execute, "never", {}, timeout=bad)
    with pytest.raises(_kind(bad), match=r"Toolkit\.aexecute: timeout: must be a positive"):
        await kit.aexecute("never", {}, timeout=bad)
    with pytest.raises(_kind(bad), match=r"Toolkit\.astream: timeout: must be a positive"):
        kit.astream("never", {}, timeout=bad)
    with pytest.raises(_kind(bad), match=r"run_openai_chat_tool_calls: timeout: must be"):
        await run_openai_chat_tool_calls(_chat([("never", {})]), kit, timeout=bad)
    blocks = {"content": [{"type": "tool_use", "id": "c", "name": "never", "input": {}}]}
    with pytest.raises(_kind(bad), match=r"run_anthropic_tool_calls: timeout: must be"):
        await run_anthropic_tool_calls(blocks, kit, timeout=bad)


@pytest.mark.parametrize("bad", [*_DEGENERATE, None.__class__])
def test_a_degenerate_timeout_is_refused_when_building(bad: Any) -> None:
    with pytest.raises(TypeError, match="timeout: must be a positive number"):
        Toolkit([], timeout=bad)
    with pytest.raises(_kind(bad), match="ToolContext: timeout: must be a positive number"):
        ToolContext("t", timeout=bad)
    with pytest.raises(ToolDefinitionError, match="timeout: must be a positive number"):
        tool(timeout=bad)(lambda: None)


def test_inf_and_positive_numbers_are_accepted_everywhere() -> None:
    @tool
    def quick() -> str:
        """Quick."""
        return "ok"

    for good in (math.inf, 1, 0.5, 1e9):
        assert Toolkit([quick], timeout=good).execute("quick", {}, timeout=good).value == "ok"


@pytest.mark.parametrize("bad", [-math.inf, math.nan, 0, True, "5"])
def test_a_degenerate_timeout_is_refused_by_the_mcp_servers(bad: Any) -> None:
    from mcp.server import MCPServer

    from standard_tool.mcp import register, server
    from standard_tool.providers import mcp_tool_handlers

    with pytest.raises(_kind(bad), match=r"mcp_tool_handlers: timeout: must be"):
        mcp_tool_handlers([_untouchable()], timeout=bad)
    with pytest.raises(_kind(bad), match=r"server: timeout: must be"):
        server([_untouchable()], timeout=bad)
    with pytest.raises(_kind(bad), match=r"register: timeout: must be"):
        register(MCPServer("s"), [_untouchable()], timeout=bad)


# -- issue 26: a late async handler that ignores cancellation is abandoned safely -------


def _in_a_thread(fn: Any) -> threading.Thread:
    """Run ``fn`` in a daemon thread (so a hang cannot hold the test run) and start it."""
    thread = threading.Thread(target=fn, daemon=True)
    thread.start()
    return thread


def _stubborn_tool(cleaned: threading.Event) -> Any:
    async def stubborn(value: Any) -> str:
        try:
            while True:
                try:
                    await asyncio.sleep(30)
                except asyncio.CancelledError:
                    continue  # ignored, every time
        finally:
            cleaned.set()

    return standard_tool(name="stubborn", description="Ignore cancellation.", execute=stubborn)


def test_asyncio_run_of_a_stubborn_async_call_returns_and_its_cleanup_runs(
    caplog: pytest.LogCaptureFixture,
) -> None:
    cleaned = threading.Event()
    kit = Toolkit([_stubborn_tool(cleaned)])
    results: list[Any] = []
    thread = _in_a_thread(
        lambda: results.append(asyncio.run(kit.aexecute("stubborn", {}, timeout=0.2)))
    )
    thread.join(20)
    assert not thread.is_alive()  # asyncio.run no longer waits for the abandoned task
    assert results[0].error == "timed out after 0.2 s"
    assert cleaned.is_set()  # its finally block ran when it was closed
    import gc

    gc.collect()
    assert not [r for r in caplog.records if r.name == "asyncio"]  # nothing "never retrieved"


def test_a_runner_s_stubborn_async_calls_are_abandoned_and_asyncio_run_returns() -> None:
    cleaned = threading.Event()
    kit = Toolkit([_stubborn_tool(cleaned)])
    messages: list[Any] = []

    def run() -> None:
        response = _chat([("stubborn", {}), ("stubborn", {})])
        messages.extend(asyncio.run(run_openai_chat_tool_calls(response, kit, timeout=0.2)))

    thread = _in_a_thread(run)
    thread.join(20)
    assert not thread.is_alive()
    assert [m["content"] for m in messages] == ["Error: timed out after 0.2 s"] * 2
    assert cleaned.is_set()


def test_a_sync_caller_of_a_stubborn_async_call_leaves_no_thread_behind() -> None:
    cleaned = threading.Event()
    kit = Toolkit([_stubborn_tool(cleaned)])
    before = _workers()
    assert kit.execute("stubborn", {}, timeout=0.2).error == "timed out after 0.2 s"
    assert cleaned.wait(10)
    assert _wait_for_workers(before) <= before  # a thread of an earlier test may end too


# -- issue 26: the worker threads of sync calls with a deadline are bounded and freed ---


def _pool_threads() -> int:
    names = ("standard-tool-call", "standard-tool-idle")
    return sum(1 for t in threading.enumerate() if t.name in names)


def _wait_for_pool(at_most: int) -> int:
    deadline = time.monotonic() + 5
    while _pool_threads() > at_most and time.monotonic() < deadline:
        time.sleep(0.02)
    return _pool_threads()


async def test_fifty_timed_out_calls_leave_at_most_a_few_threads_once_released() -> None:
    from standard_tool._toolkit import KEEP_IDLE, MAX_OVERDUE, MAX_WORKERS

    release = threading.Event()

    @tool(timeout=0.1)
    def stuck() -> str:
        """Wait to be released, ignoring the deadline."""
        release.wait(30)
        return "late"

    kit = Toolkit([stuck])
    peak = 0

    async def watch() -> None:
        nonlocal peak
        for _ in range(20):
            peak = max(peak, _pool_threads())
            await asyncio.sleep(0.01)

    results, _ = await asyncio.gather(
        asyncio.gather(*(kit.aexecute("stuck", {}) for _ in range(50))), watch()
    )
    assert all(str(r.error).startswith("timed out after 0.1 s") for r in results)
    # bounded: the pool, the threads let go of, two spare for threads of other tests
    assert peak <= MAX_WORKERS + MAX_OVERDUE + 2
    release.set()
    assert await asyncio.to_thread(_wait_for_pool, KEEP_IDLE) <= KEEP_IDLE


def test_calls_that_ignore_their_deadline_leave_room_for_new_calls() -> None:
    """Issue 35: 100 hung sync calls; every later call still runs, none is a false timeout."""
    from standard_tool._toolkit import MAX_WORKERS

    release = threading.Event()

    @tool(timeout=0.2)
    def hung() -> str:
        """Wait to be released, ignoring the deadline."""
        release.wait(60)
        return "late"

    @tool(timeout=30)
    def quick(n: int) -> int:
        """Return n."""
        return n

    kit = Toolkit([hung, quick])
    try:
        with concurrent.futures.ThreadPoolExecutor(100) as callers:
            hung_results = list(callers.map(lambda _: kit.execute("hung", {}), range(100)))
        assert all(str(r.error).startswith("timed out after 0.2 s") for r in hung_results)
        assert len(hung_results) > MAX_WORKERS
        results = [kit.execute("quick", {"n": n}) for n in range(50)]
        assert [r.value for r in results] == list(range(50))
        assert asyncio.run(kit.aexecute("quick", {"n": 7})).value == 7
    finally:
        release.set()


def test_a_call_that_waited_in_line_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past the threads the pool lets go of, a call that never got one says it never ran."""
    import standard_tool._toolkit as toolkit_module

    monkeypatch.setattr(toolkit_module, "MAX_OVERDUE", 5)
    deadline = time.monotonic() + 30  # threads let go of by earlier tests end first
    while any(t.name == "standard-tool-overdue" for t in threading.enumerate()):
        assert time.monotonic() < deadline
        time.sleep(0.01)
    release = threading.Event()

    @tool(timeout=0.2)
    def hung() -> str:
        """Wait to be released, ignoring the deadline."""
        release.wait(60)
        return "late"

    kit = Toolkit([hung])
    workers = toolkit_module.MAX_WORKERS
    try:
        with concurrent.futures.ThreadPoolExecutor(workers + 10) as callers:
            results = list(callers.map(lambda _: kit.execute("hung", {}), range(3 * workers)))
        waited = [str(r.error) for r in results if "waited in line" in str(r.error)]
        assert f"(all {workers} ran other calls, and 5 more run calls past their deadline)" in {
            w.partition("whole time ")[2] for w in waited
        }
        assert all(w.startswith("timed out after 0.2 s; it waited in line") for w in waited)
    finally:
        release.set()


def test_back_to_back_calls_with_a_deadline_reuse_one_thread() -> None:
    @tool(timeout=5)
    def quick(n: int) -> int:
        """Return n."""
        return n

    kit = Toolkit([quick])
    assert kit.execute("quick", {"n": 0}).value == 0
    before = _pool_threads()
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads often: a caller woken too early shows
    try:
        for n in range(300):
            assert kit.execute("quick", {"n": n}).value == n
    finally:
        sys.setswitchinterval(interval)
    assert _pool_threads() <= max(before, 1)


def test_a_batch_of_calls_reuses_the_spare_threads_of_the_last_one() -> None:
    # A pool of its own (its threads are ended below), KEEP_IDLE + 2 threads busy at
    # once: two of them are spares once idle, which wait only SPARE_IDLE for a job.
    from standard_tool import _toolkit

    workers = _toolkit._Workers()  # pyright: ignore[reportPrivateUsage]
    size = _toolkit.KEEP_IDLE + 2
    delivered = threading.Semaphore(0)

    def batch() -> set[threading.Thread]:  # the threads (an ident may be reused)
        barrier = threading.Barrier(size)
        ran: list[threading.Thread] = []

        def job() -> None:
            barrier.wait(10)  # every job holds its thread until all have one
            ran.append(threading.current_thread())

        for _ in range(size):
            workers.submit(job, lambda _: delivered.release())
        for _ in range(size):
            assert delivered.acquire(timeout=10)
        return set(ran)

    first = batch()
    assert len(first) == size
    # The next batch comes at once: the spares wait SPARE_IDLE (0.5 s) for it. A
    # machine that stalls longer between the two lets one go: try again then.
    reused = False
    for _ in range(20):
        second = batch()
        if second == first:
            reused = True
            break
        first = second
    assert reused, "a batch right after another started new threads every time"

    def stop() -> None:
        raise SystemExit  # ends the thread that runs it

    previous = threading.excepthook
    threading.excepthook = lambda args: None  # the SystemExit that ends each thread
    try:
        for _ in range(size):  # one for each idle thread (a thread made for one ends too)
            workers.submit(stop)
        for thread in first:
            thread.join(10)
            assert not thread.is_alive()
    finally:
        threading.excepthook = previous
