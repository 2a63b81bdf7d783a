"""CONTRACT.md section 3, item 8: no per-call state; safe across threads and tasks."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from standard_tool import standard_tool
from tests.core_schemas import INT, POINT


def test_eight_threads_call_one_tool_concurrently() -> None:
    barrier = threading.Barrier(8, timeout=10)

    def handler(p: Any, meta: Any) -> tuple[int, int, Any]:
        return (p.x, p.y, meta)

    tool = standard_tool(name="t", description="d", input_schema=POINT, execute=handler).formatted()

    def worker(n: int) -> list[Any]:
        barrier.wait()
        return [tool.execute({"x": n, "y": i}, (n, i)) for i in range(500)]

    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(worker, range(8)))
    for n, rows in enumerate(results):
        assert rows == [(n, i, (n, i)) for i in range(500)]


async def test_two_hundred_concurrent_async_calls_keep_their_own_input_and_meta() -> None:
    in_flight = 0
    peak = 0

    async def handler(n: int, meta: Any) -> Any:
        nonlocal in_flight, peak
        in_flight += 1
        peak = max(peak, in_flight)
        await asyncio.sleep(0.01)
        in_flight -= 1
        return (n, meta)

    tool = standard_tool(
        name="t", description="d", input_schema=INT, output_schema=None, execute=handler
    )
    results = await asyncio.gather(*(tool.execute(i, f"m{i}") for i in range(200)))
    assert results == [(i, f"m{i}") for i in range(200)]
    assert peak == 200

    bad = await asyncio.gather(
        *(tool.formatted().execute("x" if i % 2 else i, i) for i in range(200))
    )
    for i, value in enumerate(bad):
        assert value == (
            {"error": "input validation failed: expected an integer"} if i % 2 else (i, i)
        )
