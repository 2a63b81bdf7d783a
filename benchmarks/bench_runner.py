"""Runner overhead: what the Toolkit and the tool-call runners add to each call.

Run: ``python benchmarks/bench_runner.py``. Everything runs side by side in one
process; each case is timed with ``timeit`` (best of several repeats) and the
figures that matter are the ratios against calling the tool directly.

The tool is deliberately trivial (it adds two numbers), so the ratios are the
worst case: a real tool's own work makes them shrink towards 1.

- ``direct``: ``json.loads`` of the arguments, then ``tool.execute(...)``: what
  a hand-written loop does at the least;
- ``Toolkit.execute`` and ``await Toolkit.aexecute``: lookup, timing and the
  result object;
- ``run_openai_chat_tool_calls`` and friends: a response with 50 calls, run
  concurrently, per call (JSON parsing, ``asyncio.gather``, message building);
- the same with ``timeout=``: a task per async call, a worker thread per sync call.
"""

from __future__ import annotations

import asyncio
import json
import timeit
from collections.abc import Callable, Coroutine
from typing import Any

from standard_tool import Toolkit, standard_tool
from standard_tool.providers import (
    run_anthropic_tool_calls,
    run_openai_chat_tool_calls,
    run_openai_responses_tool_calls,
)

CALLS = 50
ARGS = '{"a": 2, "b": 3}'


def _add(args: dict[str, int]) -> int:
    return args["a"] + args["b"]


async def _aadd(args: dict[str, int]) -> int:
    return args["a"] + args["b"]


sync_tool = standard_tool(name="add", description="Add.", execute=_add)
async_tool = standard_tool(name="aadd", description="Add.", execute=_aadd)
kit = Toolkit([sync_tool, async_tool])


def _chat(name: str) -> dict[str, Any]:
    calls = [
        {"id": f"c{i}", "type": "function", "function": {"name": name, "arguments": ARGS}}
        for i in range(CALLS)
    ]
    return {"choices": [{"message": {"role": "assistant", "tool_calls": calls}}]}


def _responses(name: str) -> dict[str, Any]:
    items = [
        {"type": "function_call", "call_id": f"c{i}", "name": name, "arguments": ARGS}
        for i in range(CALLS)
    ]
    return {"output": items}


def _anthropic(name: str) -> dict[str, Any]:
    blocks = [
        {"type": "tool_use", "id": f"c{i}", "name": name, "input": json.loads(ARGS)}
        for i in range(CALLS)
    ]
    return {"content": blocks}


def per_call(fn: Callable[[], Any], calls: int, number: int) -> float:
    """Best time of ``fn`` over a few repeats, in microseconds per tool call."""
    best = min(timeit.repeat(fn, number=number, repeat=5))
    return best / number / calls * 1e6


LOOP = asyncio.new_event_loop()


def in_loop(make: Callable[[], Coroutine[Any, Any, Any]]) -> Callable[[], Any]:
    """A callable that runs ``make()`` in the benchmark's long-lived event loop."""
    return lambda: LOOP.run_until_complete(make())


def main() -> None:
    def direct_sync() -> None:
        for _ in range(CALLS):
            sync_tool.execute(json.loads(ARGS))

    async def direct_async() -> None:
        for _ in range(CALLS):
            await async_tool.execute(json.loads(ARGS))

    def kit_sync() -> None:
        for _ in range(CALLS):
            kit.execute("add", json.loads(ARGS))

    async def kit_async(name: str, timeout: float | None = None) -> None:
        for _ in range(CALLS):
            await kit.aexecute(name, json.loads(ARGS), timeout=timeout)

    chat_sync, chat_async = _chat("add"), _chat("aadd")
    responses_async, anthropic_async = _responses("aadd"), _anthropic("aadd")

    rows: list[tuple[str, str, float]] = []
    base_sync = per_call(direct_sync, CALLS, 200)
    base_async = per_call(in_loop(direct_async), CALLS, 200)
    rows.append(("sync tool", "direct: json.loads + execute", base_sync))
    rows.append(("sync tool", "Toolkit.execute", per_call(kit_sync, CALLS, 200)))
    rows.append(
        (
            "sync tool",
            "await Toolkit.aexecute",
            per_call(in_loop(lambda: kit_async("add")), CALLS, 200),
        )
    )
    rows.append(
        (
            "sync tool",
            "run_openai_chat_tool_calls",
            per_call(in_loop(lambda: run_openai_chat_tool_calls(chat_sync, kit)), CALLS, 100),
        )
    )
    rows.append(
        (
            "sync tool",
            "run_openai_chat_tool_calls, timeout",
            per_call(
                in_loop(lambda: run_openai_chat_tool_calls(chat_sync, kit, timeout=5)), CALLS, 5
            ),
        )
    )
    rows.append(("async tool", "direct: json.loads + await execute", base_async))
    rows.append(
        (
            "async tool",
            "await Toolkit.aexecute",
            per_call(in_loop(lambda: kit_async("aadd")), CALLS, 200),
        )
    )
    rows.append(
        (
            "async tool",
            "await Toolkit.aexecute, timeout",
            per_call(in_loop(lambda: kit_async("aadd", 5)), CALLS, 50),
        )
    )
    for label, runner, response in (
        ("run_openai_chat_tool_calls", run_openai_chat_tool_calls, chat_async),
        ("run_openai_responses_tool_calls", run_openai_responses_tool_calls, responses_async),
        ("run_anthropic_tool_calls", run_anthropic_tool_calls, anthropic_async),
    ):
        rows.append(
            (
                "async tool",
                label,
                per_call(in_loop(lambda r=runner, x=response: r(x, kit)), CALLS, 100),  # type: ignore[misc]
            )
        )
    rows.append(
        (
            "async tool",
            "run_openai_chat_tool_calls, timeout",
            per_call(
                in_loop(lambda: run_openai_chat_tool_calls(chat_async, kit, timeout=5)), CALLS, 50
            ),
        )
    )

    print(f"Per tool call, {CALLS} calls per response; ratio against the direct call.\n")
    print(f"{'tool':<11} {'how':<42} {'us/call':>9} {'ratio':>7}")
    for kind, how, micros in rows:
        base = base_sync if kind == "sync tool" else base_async
        print(f"{kind:<11} {how:<42} {micros:>9.2f} {micros / base:>6.1f}x")


if __name__ == "__main__":
    try:
        main()
    finally:
        LOOP.close()
