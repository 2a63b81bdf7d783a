"""What a task costs in its store: MemoryTaskStore beside RedisTaskStore, in one process.

One task's life, as the server and one polling client go through it: created
(``set``), polled by the client (``get``), beaten by the running process (``set``),
finished (``set``) and read for its result (``get``). The Redis store talks to a real
``redis-server`` started here on 127.0.0.1 (Debian's package; the script says so and
measures the memory store alone when there is none). Lives are run in interleaved
rounds, best round kept; the ratio is Redis to memory.

Also what single use adds to a round of a multi-round call (``server(used_states=...)``):
one ``claim`` of the state the round sent back, measured the same way.

Run: ``python benchmarks/bench_task_store.py`` (``--lives N`` per round, default 2000).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import shutil
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "tests_integration" / "mcp_scale"))

from scale import redis_server  # type: ignore[import-not-found]  # noqa: E402

from standard_tool.mcp import MemoryTaskStore, RedisTaskStore  # noqa: E402


async def _lives(store: MemoryTaskStore | RedisTaskStore, count: int) -> float:
    """Seconds per task life in ``store``."""
    expires = time.time() + 600
    started = time.perf_counter()
    for n in range(count):
        task_id = f"bench-{n}"
        await store.set(task_id, {"task": json.dumps({"status": "working"})}, expires)
        await store.get(task_id)
        await store.set(task_id, {"beat": repr(time.time())}, expires)
        await store.set(
            task_id, {"task": json.dumps({"status": "completed"}), "result": "{}"}, expires
        )
        await store.get(task_id)
    return (time.perf_counter() - started) / count


async def _claims(store: MemoryTaskStore | RedisTaskStore, count: int, round_: int) -> float:
    """Seconds per ``claim`` of a new state in ``store``."""
    expires = time.time() + 600
    started = time.perf_counter()
    for n in range(count):
        await store.claim(f"bench-{round_}-{n}", expires)
    return (time.perf_counter() - started) / count


async def _measure(
    stores: dict[str, MemoryTaskStore | RedisTaskStore], lives: int, rounds: int
) -> dict[str, float]:
    best = dict.fromkeys(stores, float("inf"))
    for name in stores:
        best[f"{name} claim"] = float("inf")
    for round_ in range(rounds):
        for name, store in stores.items():
            best[name] = min(best[name], await _lives(store, lives))
            best[f"{name} claim"] = min(best[f"{name} claim"], await _claims(store, lives, round_))
    for store in stores.values():
        if isinstance(store, RedisTaskStore):
            await store.aclose()
    return best


def main(lives: int, rounds: int) -> None:
    stores: dict[str, MemoryTaskStore | RedisTaskStore] = {
        "memory": MemoryTaskStore(max_tasks=lives * rounds + 1)
    }
    with contextlib.ExitStack() as stack:
        if shutil.which("redis-server") is None:
            print("no redis-server on this machine: the memory store alone")
        else:
            redis = stack.enter_context(redis_server())
            stores["redis"] = RedisTaskStore(redis.url)
        best = asyncio.run(_measure(stores, lives, rounds))
    print(f"{'store':<8} {'per task life':>14}  {'per claim':>10}")
    for name in stores:
        life, claim = best[name] * 1e6, best[f"{name} claim"] * 1e6
        print(f"{name:<8} {life:>11.1f} us {claim:>7.1f} us")
    if "redis" in best:
        lives_ratio = best["redis"] / best["memory"]
        claims_ratio = best["redis claim"] / best["memory claim"]
        print(f"redis / memory: {lives_ratio:.1f}x a task life, {claims_ratio:.1f}x a claim")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lives", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=5)
    arguments = parser.parse_args()
    main(arguments.lives, arguments.rounds)
