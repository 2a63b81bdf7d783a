"""Core overhead: a built tool's ``execute`` against the calls it wraps.

Run: ``python benchmarks/bench_core.py``. Everything runs side by side in one
process, in interleaved rounds; the figures that matter are the ratios.

- no schema: ``tool.execute(x)`` against the raw handler call ``handler(x, None)``;
- with a schema: ``tool.execute(x)`` against ``validate`` plus the handler call,
  written out by hand the way a careful caller would.

Targets (issue 2): at most 1.5x and 1.10x respectively.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from _timing import measure, table
from standard_tool import (
    FailureResult,
    Issue,
    StandardToolValidationError,
    SuccessResult,
    standard_tool,
)

_BAD = FailureResult((Issue("expected integers a and b"),))


class _Converter:
    def input(self, *, target: str, library_options: Any = None) -> dict[str, Any]:
        return {"type": "object"}

    output = input


class _Props:
    version = 1
    vendor = "bench"
    json_schema = _Converter()

    def validate(self, value: Any) -> Any:
        if type(value) is dict and type(value.get("a")) is int and type(value.get("b")) is int:
            return SuccessResult(value)
        return _BAD


class PairSchema:
    __standard__ = _Props()


def add(pair: Any, meta: Any) -> dict[str, int]:
    return {"sum": pair["a"] + pair["b"]}


async def aadd(pair: Any, meta: Any) -> dict[str, int]:
    return {"sum": pair["a"] + pair["b"]}


validate = PairSchema.__standard__.validate


def by_hand(value: Any) -> Any:
    result = validate(value)
    if result.issues is not None:
        raise StandardToolValidationError("input", result.issues)
    return add(result.value, None)


async def aby_hand(value: Any) -> Any:
    result = validate(value)
    if result.issues is not None:
        raise StandardToolValidationError("input", result.issues)
    return await aadd(result.value, None)


def main() -> None:
    value = {"a": 2, "b": 3}
    bare = standard_tool(name="add", description="d", execute=add)
    checked = standard_tool(name="add", description="d", input_schema=PairSchema(), execute=add)
    formatted = checked.formatted()
    atool = standard_tool(name="add", description="d", input_schema=PairSchema(), execute=aadd)
    loop = asyncio.new_event_loop()
    n = 2_000

    async def drive(fn: Any) -> None:
        for _ in range(n):
            await fn(value)

    ns = dict(globals(), **locals())
    t = measure(
        {
            "raw": "add(value, None)",
            "bare": "bare.execute(value)",
            "hand": "by_hand(value)",
            "tool": "checked.execute(value)",
            "fmt": "formatted.execute(value)",
            "ahand": "loop.run_until_complete(drive(aby_hand))",
            "atool": "loop.run_until_complete(drive(atool.execute))",
        },
        ns,
    )
    loop.close()
    t["ahand"] /= n
    t["atool"] /= n
    print(
        table(
            [
                ("raw handler call", t["raw"], None, ""),
                ("tool.execute, no schema", t["bare"], t["bare"] / t["raw"], "raw (target 1.5x)"),
                ("validate + handler, by hand", t["hand"], None, ""),
                (
                    "tool.execute, input schema",
                    t["tool"],
                    t["tool"] / t["hand"],
                    "by hand (target 1.10x)",
                ),
                (
                    "tool.formatted().execute, input schema",
                    t["fmt"],
                    t["fmt"] / t["hand"],
                    "by hand",
                ),
                ("async: validate + await handler, by hand", t["ahand"], None, ""),
                (
                    "async: await tool.execute, input schema",
                    t["atool"],
                    t["atool"] / t["ahand"],
                    "by hand",
                ),
            ]
        )
    )


if __name__ == "__main__":
    main()
