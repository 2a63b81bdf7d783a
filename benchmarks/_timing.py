"""Shared timing helpers for the benchmark scripts.

Cases are timed in interleaved rounds (every case once per round, best round
kept), so a burst of load on the machine hits all cases alike and the ratios
stay meaningful even when the nanoseconds move.
"""

from __future__ import annotations

import timeit
from collections.abc import Callable, Mapping
from typing import Any

Stmt = str | Callable[[], Any]


def measure(
    cases: Mapping[str, Stmt],
    namespace: dict[str, Any] | None = None,
    *,
    rounds: int = 9,
    round_seconds: float = 0.05,
) -> dict[str, float]:
    """Best seconds per run of each statement, over interleaved rounds."""
    timers = {name: timeit.Timer(stmt, globals=namespace) for name, stmt in cases.items()}
    numbers = {}
    for name, timer in timers.items():
        number, elapsed = timer.autorange()
        numbers[name] = max(1, int(number * round_seconds / max(elapsed, 1e-9)))
    best = dict.fromkeys(timers, float("inf"))
    for _ in range(rounds):
        for name, timer in timers.items():
            best[name] = min(best[name], timer.timeit(numbers[name]) / numbers[name])
    return best


def table(rows: list[tuple[str, float, float | None, str]]) -> str:
    """Format rows of (case, seconds per call, ratio or None, what the ratio is to)."""
    lines = [f"{'case':<50} {'per call':>10} {'ratio':>7}  to"]
    for name, seconds, ratio, base in rows:
        shown = "" if ratio is None else f"{ratio:6.2f}x"
        lines.append(f"{name:<50} {seconds * 1e9:8.0f}ns {shown:>7}  {base}")
    return "\n".join(lines)
