"""Shared timing helpers for the benchmark scripts.

Cases are timed in interleaved rounds (every case once per round, best round
kept), so a burst of load on the machine hits all cases alike and the ratios
stay meaningful even when the nanoseconds move.
"""

from __future__ import annotations

import time
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


class Paired:
    """Per-round figures of one case against a base case measured in the same rounds."""

    def __init__(self, seconds: list[float], ratios: list[float], deltas: list[float]) -> None:
        self.seconds = sorted(seconds)
        self.ratios = sorted(ratios)
        self.deltas = sorted(deltas)

    @staticmethod
    def _median(values: list[float]) -> float:
        middle = len(values) // 2
        if len(values) % 2:
            return values[middle]
        return (values[middle - 1] + values[middle]) / 2

    @staticmethod
    def _quartiles(values: list[float]) -> tuple[float, float]:
        last = len(values) - 1
        return values[round(last * 0.25)], values[round(last * 0.75)]

    @property
    def us(self) -> float:
        """Median microseconds per run."""
        return self._median(self.seconds) * 1e6

    @property
    def ratio(self) -> float:
        """Median of the per-round ratios to the base."""
        return self._median(self.ratios)

    @property
    def spread(self) -> tuple[float, float]:
        """First and third quartiles of the per-round ratios."""
        return self._quartiles(self.ratios)

    @property
    def delta_us(self) -> float:
        """Median of the per-round differences to the base, in microseconds."""
        return self._median(self.deltas) * 1e6


def paired(
    cases: Mapping[str, Callable[[], Any]],
    base: str,
    *,
    rounds: int = 25,
    sample_seconds: float = 0.01,
) -> dict[str, Paired]:
    """Time every case in interleaved rounds and pair each with ``base`` per round.

    Every round runs each case once (a fixed number of loops sized to take about
    ``sample_seconds``), starting from a different case each round so no case
    always follows the same neighbour. A burst of load then hits the base and the
    case of a round alike, and the median of the per-round ratios stays stable
    where raw times move.
    """
    timers = {name: timeit.Timer(stmt) for name, stmt in cases.items()}
    loops: dict[str, int] = {}
    for name, timer in timers.items():
        number, elapsed = timer.autorange()
        loops[name] = max(1, int(number * sample_seconds / max(elapsed, 1e-9)))
    names = list(timers)
    samples: dict[str, list[float]] = {name: [] for name in names}
    for index in range(rounds):
        start = index % len(names)
        for name in names[start:] + names[:start]:
            samples[name].append(timers[name].timeit(loops[name]) / loops[name])
    base_samples = samples[base]
    return {
        name: Paired(
            values,
            [v / b for v, b in zip(values, base_samples, strict=True)],
            [v - b for v, b in zip(values, base_samples, strict=True)],
        )
        for name, values in samples.items()
    }


class CpuWall:
    """CPU time over wall time of a block: near 1.0 means the process had a core to itself."""

    def __enter__(self) -> CpuWall:
        self._cpu = time.process_time()
        self._wall = time.perf_counter()
        return self

    def __exit__(self, *exc: object) -> None:
        self.ratio = (time.process_time() - self._cpu) / (time.perf_counter() - self._wall)
