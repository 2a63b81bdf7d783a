"""Running a model's tool calls concurrently, and cancelling the runner.

A :class:`~tests.fakes.tools.Gate` opens only once every call has started, so a
runner that ran the calls one by one would fail (each gate wait is bounded),
never hang.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from standard_tool import Toolkit, standard_tool
from standard_tool.providers import (
    run_anthropic_tool_calls,
    run_openai_chat_tool_calls,
    run_openai_responses_tool_calls,
)
from tests.fakes.tools import Gate

N = 100

Runner = Callable[..., Awaitable[Any]]


def _chat(n: int, name: str) -> dict[str, Any]:
    calls = [
        {
            "id": f"c{i}",
            "type": "function",
            "function": {"name": name, "arguments": f'{{"i": {i}}}'},
        }
        for i in range(n)
    ]
    return {"choices": [{"message": {"role": "assistant", "tool_calls": calls}}]}


def _responses(n: int, name: str) -> dict[str, Any]:
    items = [
        {"type": "function_call", "call_id": f"c{i}", "name": name, "arguments": f'{{"i": {i}}}'}
        for i in range(n)
    ]
    return {"output": items}


def _anthropic(n: int, name: str) -> dict[str, Any]:
    blocks = [
        {"type": "tool_use", "id": f"c{i}", "name": name, "input": {"i": i}} for i in range(n)
    ]
    return {"content": blocks}


def _texts(runner: Runner, result: Any) -> list[str]:
    if runner is run_openai_chat_tool_calls:
        return [m["content"] for m in result]
    if runner is run_openai_responses_tool_calls:
        return [i["output"] for i in result]
    return [b["content"] for b in result["content"]]


RUNNERS = [
    pytest.param(run_openai_chat_tool_calls, _chat, id="chat"),
    pytest.param(run_openai_responses_tool_calls, _responses, id="responses"),
    pytest.param(run_anthropic_tool_calls, _anthropic, id="anthropic"),
]


@pytest.mark.parametrize(("runner", "make"), RUNNERS)
async def test_a_hundred_async_calls_run_at_once_and_keep_their_order(
    runner: Runner, make: Callable[[int, str], dict[str, Any]]
) -> None:
    gate = Gate(N, timeout=10)

    async def meet(args: dict[str, Any]) -> dict[str, Any]:
        await gate.arrive()
        return {"i": args["i"]}

    kit = Toolkit([standard_tool(name="meet", description="Wait for everyone.", execute=meet)])
    result = await runner(make(N, "meet"), kit)
    texts = _texts(runner, result)
    assert [json.loads(t) for t in texts] == [{"i": i} for i in range(N)]
    assert gate.arrived == N


async def test_sync_tools_with_a_timeout_overlap_in_worker_threads() -> None:
    barrier = threading.Barrier(20, timeout=10)

    def meet(args: dict[str, Any]) -> int:
        barrier.wait()
        return int(args["i"])

    kit = Toolkit([standard_tool(name="meet", description="d", execute=meet)])
    messages = await run_openai_chat_tool_calls(_chat(20, "meet"), kit, timeout=30)
    assert [m["content"] for m in messages] == [str(i) for i in range(20)]


@pytest.mark.parametrize(("runner", "make"), RUNNERS)
@pytest.mark.parametrize("timeout", [None, 30.0])
async def test_cancelling_the_runner_cancels_every_call_and_propagates(
    runner: Runner, make: Callable[[int, str], dict[str, Any]], timeout: float | None
) -> None:
    started = 0
    all_started = asyncio.Event()
    cancelled = 0

    async def hang(_: Any) -> Any:
        nonlocal started, cancelled
        started += 1
        if started == 5:
            all_started.set()
        try:
            await asyncio.sleep(60)
        except asyncio.CancelledError:
            cancelled += 1
            raise

    kit = Toolkit([standard_tool(name="hang", description="d", execute=hang)])
    task = asyncio.ensure_future(runner(make(5, "hang"), kit, timeout=timeout))
    await asyncio.wait_for(all_started.wait(), 10)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert cancelled == 5


async def test_one_slow_call_times_out_while_the_others_succeed() -> None:
    async def work(args: dict[str, Any]) -> int:
        if args["i"] == 2:
            await asyncio.sleep(60)
        return int(args["i"])

    kit = Toolkit([standard_tool(name="work", description="d", execute=work)])
    messages = await run_openai_chat_tool_calls(_chat(4, "work"), kit, timeout=0.1)
    assert [m["content"] for m in messages] == ["0", "1", "Error: timed out after 0.1 s", "3"]
