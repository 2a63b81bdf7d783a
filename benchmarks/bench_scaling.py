"""Scaling: per-tool costs stay flat as the number of tools grows, and memory is released.

Run: ``python benchmarks/bench_scaling.py``. Three tables:

- conversion: ``to_openai_chat`` and ``to_mcp`` of every tool of a list, repeated
  (the per-tool caches are warm), per tool, at 10, 100, 1,000 and 5,000 tools. The
  figure should not grow with the count: a cache that falls off a size cliff makes
  every tool past the cliff pay for a full rewrite again;
- runner: one ``run_openai_chat_tool_calls`` call with one tool call, against a
  toolkit of 10 and of 5,000 tools;
- memory: what ``tracemalloc`` still counts after a 1,000-tool toolkit has been
  converted, run, dropped and collected (should be close to nothing).
"""

from __future__ import annotations

import asyncio
import gc
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from _timing import measure
from standard_tool import Toolkit, standard_tool
from standard_tool.providers import run_openai_chat_tool_calls, to_mcp, to_openai_chat

COUNTS = (10, 100, 1_000, 5_000)


class _Schema:
    """A conforming schema with a small object input (validation is trivial)."""

    class _Props:
        version = 1
        vendor = "bench"

        class _Converter:
            @staticmethod
            def input(*, target: str, library_options: Any = None) -> dict[str, Any]:
                return {
                    "type": "object",
                    "properties": {"a": {"type": "integer"}, "b": {"type": "string"}},
                    "required": ["a"],
                }

            output = input

        json_schema = _Converter()

        @staticmethod
        def validate(value: Any) -> Any:
            from standard_tool import SuccessResult

            return SuccessResult(value)

    __standard__ = _Props()


def _tools(count: int) -> list[Any]:
    return [
        standard_tool(
            name=f"tool_{i}", description="A tool.", input_schema=_Schema(), execute=lambda p: p
        )
        for i in range(count)
    ]


def conversion() -> list[str]:
    lines = [f"{'tools':>6} {'to_openai_chat':>16} {'to_mcp':>10}   (per tool, warm)"]
    for count in COUNTS:
        tools = _tools(count)
        to_openai_chat(tools)  # warm the caches
        to_mcp(tools)
        best = measure(
            {"chat": lambda t=tools: to_openai_chat(t), "mcp": lambda t=tools: to_mcp(t)},
            rounds=5,
            round_seconds=0.2,
        )
        lines.append(
            f"{count:>6} {best['chat'] / count * 1e6:14.2f}us {best['mcp'] / count * 1e6:8.2f}us"
        )
    return lines


def runner() -> list[str]:
    loop = asyncio.new_event_loop()
    lines = [f"{'tools':>6} {'run_openai_chat_tool_calls, one call':>38}"]
    for count in (10, 5_000):
        kit = Toolkit(_tools(count))
        to_openai_chat(kit)
        call = {
            "id": "c1",
            "type": "function",
            "function": {"name": f"tool_{count // 2}", "arguments": '{"a": 1}'},
        }
        response = {"tool_calls": [call]}
        best = measure(
            {
                "run": lambda r=response, k=kit: loop.run_until_complete(
                    run_openai_chat_tool_calls(r, k)
                )
            },
            rounds=5,
        )
        lines.append(f"{count:>6} {best['run'] * 1e6:36.1f}us")
    loop.close()
    return lines


def memory() -> list[str]:
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    kit = Toolkit(_tools(1_000))
    to_openai_chat(kit)
    to_mcp(kit)
    call = {"id": "c", "type": "function", "function": {"name": "tool_1", "arguments": "{}"}}
    asyncio.run(run_openai_chat_tool_calls({"tool_calls": [call]}, kit))
    held = tracemalloc.get_traced_memory()[0] - before
    del kit
    gc.collect()
    left = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    return [
        f"1,000-tool toolkit, converted and run: {held / 2**20:6.2f} MiB held",
        f"after del + gc.collect():              {left / 2**20:6.2f} MiB left",
    ]


def main() -> None:
    start = time.perf_counter()
    for block in (conversion(), runner(), memory()):
        print("\n".join(block))
        print()
    print(f"({time.perf_counter() - start:.1f} s)")


if __name__ == "__main__":
    main()
