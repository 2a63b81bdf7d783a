"""MCP over Streamable HTTP: our one-call server, the official SDK's and fastmcp's.

Run: ``python benchmarks/bench_serve.py`` (a few minutes). Each server is its own
process (``_serve_app.py``) under uvicorn on 127.0.0.1, pinned to CPU 0; this
process is the load client (the official SDK's ``ClientSession``), pinned to CPU 1.
All three serve the same tools, built each library's own way from the same
functions. Each round starts every server afresh, in a rotating order, and
measures:

- start-up: from spawning the process to the first answered ``tools/list``, and
  the server's resident memory then;
- ``tools/call`` of ``add`` and of a nested ``order`` (10 items) at 1, 8 and 64
  calls in flight on one session: the server's CPU time per call (the sum over
  its threads, from ``/proc``), calls per second, and p50/p99 latency;
- eight concurrent calls of a sync tool that sleeps 100 ms: the wall time;
- ``tools/list`` of a server with 1,000 more tools: server CPU per request;
- our stateless app under two uvicorn workers, started as ``uvicorn --factory
  --workers 2`` starts it and as docs/mcp.md's recipe does (``TCP_NODELAY`` on the
  listening socket): p50 latency of ``add`` over plain JSON-RPC posts.

Two floors answer ``tools/call`` only: the SDK's low-level server under its own
transport answering every call with a constant (what is left is the transport,
the same for every server here), and the same with one hop to anyio's worker
thread and back (what any server that runs a sync tool off the event loop pays).

With ``BENCH_BEFORE_SRC`` set to the ``src`` directory of another checkout (an
earlier commit, made with ``git worktree add``), a server named ``before`` joins
the rounds: ours as that tree builds it, measured side by side with the others.

Figures are medians over rounds (``BENCH_ROUNDS``, 3 by default); ratios are to the
SDK's server in the same round
(median of the per-round ratios). The run ends with this process's CPU/wall.
"""

from __future__ import annotations

import asyncio
import os
import socket
import statistics
import subprocess
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from time import perf_counter
from typing import Any

from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

HERE = Path(__file__).parent
#: ``BENCH_BEFORE_SRC``: the ``src`` of an earlier tree, served as the kind ``before``.
BEFORE_SRC = os.environ.get("BENCH_BEFORE_SRC")
KINDS = ("sdk", "fastmcp", "ours", *(("before",) if BEFORE_SRC else ()))
#: Servers that only answer ``tools/call`` (``_serve_app.py``'s floors): the SDK's transport
#: answering a constant, and the same with one hop to anyio's worker thread and back.
FLOORS = ("floor", "floor-thread")
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "3"))
CONCURRENCY = (1, 8, 64)
CALLS = {1: 200, 8: 400, 64: 640}
LIST_FILLERS = 1000
LIST_REQUESTS = 30
WORKER_CALLS = 100
ORDER = {
    "order": {
        "id": "o-1",
        "items": [{"sku": f"sku-{i}", "qty": i + 1} for i in range(10)],
        "ship_to": {"street": "1 Main St", "city": "Paris", "zip": "75001"},
        "note": None,
    }
}


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _cpu_seconds(pid: int) -> float:
    """CPU time of every thread of ``pid`` so far (nanosecond schedstat, not ticks)."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            total += int((task / "schedstat").read_text().split()[0])
        except (FileNotFoundError, ProcessLookupError):  # a thread that just ended
            continue
    return total / 1e9


def _rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


class Server:
    def __init__(self, kind: str, fillers: int) -> None:
        self.kind = kind
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}/mcp"
        src = BEFORE_SRC if kind == "before" and BEFORE_SRC else str(HERE.parent / "src")
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([src, str(HERE)])}
        self.started = perf_counter()
        served = "ours" if kind == "before" else kind
        self.process = subprocess.Popen(
            [sys.executable, str(HERE / "_serve_app.py"), served, str(self.port), str(fillers)],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


async def _session(url: str, body: Callable[[ClientSession], Awaitable[Any]]) -> Any:
    async with (
        streamable_http_client(url) as (read, write, *_),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        return await body(session)


async def _first_list(server: Server) -> float:
    """Seconds from spawning the server to its first answered ``tools/list``."""
    while True:
        if server.process.poll() is not None:
            raise SystemExit(f"{server.kind} server died: {server.process.stderr.read()!r}")  # type: ignore[union-attr]
        try:
            await _session(server.url, lambda s: s.list_tools())
        except Exception:  # not listening yet
            await asyncio.sleep(0.01)
            continue
        return perf_counter() - server.started


async def _calls(
    session: ClientSession, name: str, args: dict[str, Any], total: int, width: int
) -> list[float]:
    latencies: list[float] = []

    async def worker(count: int) -> None:
        for _ in range(count):
            began = perf_counter()
            result = await session.call_tool(name, args)
            latencies.append(perf_counter() - began)
            if result.is_error:
                raise SystemExit(f"{name} failed: {result.content!r}")

    await asyncio.gather(*(worker(total // width) for _ in range(width)))
    return latencies


async def _measure(kind: str) -> dict[str, float]:
    figures: dict[str, float] = {}
    floor = kind in FLOORS
    server = Server(kind, 0)
    try:
        started = await _first_list(server)
        if not floor:
            figures["start-up s"] = started
            figures["RSS MiB"] = _rss_mib(server.process.pid)
        pid = server.process.pid

        async def body(session: ClientSession) -> None:
            for name, args in (("add", {"a": 1, "b": 2}), ("order", ORDER)):
                await _calls(session, name, args, 20, 1)  # warm up
                for width in CONCURRENCY:
                    total = CALLS[width]
                    cpu = _cpu_seconds(pid)
                    began = perf_counter()
                    latencies = sorted(await _calls(session, name, args, total, width))
                    wall = perf_counter() - began
                    figures[f"{name} x{width} CPU us/call"] = (
                        (_cpu_seconds(pid) - cpu) / total * 1e6
                    )
                    figures[f"{name} x{width} calls/s"] = total / wall
                    figures[f"{name} x{width} p50 ms"] = latencies[len(latencies) // 2] * 1e3
                    figures[f"{name} x{width} p99 ms"] = latencies[int(len(latencies) * 0.99)] * 1e3
            if floor:
                return
            began = perf_counter()
            await _calls(session, "nap", {}, 8, 8)
            figures["8 x sync 100 ms nap, wall s"] = perf_counter() - began

        await _session(server.url, body)
    finally:
        server.stop()
    if floor:
        return figures
    big = Server(kind, LIST_FILLERS)
    try:
        await _first_list(big)

        async def lists(session: ClientSession) -> None:
            await session.list_tools()
            cpu = _cpu_seconds(big.process.pid)
            for _ in range(LIST_REQUESTS):
                await session.list_tools()
            figures[f"tools/list ({LIST_FILLERS + 3} tools) CPU ms"] = (
                (_cpu_seconds(big.process.pid) - cpu) / LIST_REQUESTS * 1e3
            )

        await _session(big.url, lists)
    finally:
        big.stop()
    return figures


async def _worker_latency(kind: str) -> float:
    """p50 milliseconds of one ``add`` call posted to a multi-worker server."""
    import httpx

    server = Server(kind, 2)
    body = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": "add", "arguments": {"a": 1, "b": 2}},
    }
    headers = {
        "accept": "application/json, text/event-stream",
        "mcp-protocol-version": "2025-06-18",
    }
    try:
        await _first_list(server)
        latencies: list[float] = []
        async with httpx.AsyncClient() as client:
            for _ in range(WORKER_CALLS):
                began = perf_counter()
                response = await client.post(server.url, json=body, headers=headers)
                latencies.append(perf_counter() - began)
                response.raise_for_status()
        return statistics.median(latencies) * 1e3
    finally:
        server.stop()


def main() -> None:
    if hasattr(os, "sched_setaffinity") and (os.cpu_count() or 1) > 1:
        os.sched_setaffinity(0, {1})
    for kind, label in (
        ("workers", "uvicorn --factory --workers 2"),
        ("workers-nodelay", "docs/mcp.md recipe (TCP_NODELAY)"),
    ):
        print(f"{label:<38} add p50 {asyncio.run(_worker_latency(kind)):8.2f} ms")
    rounds: list[dict[str, dict[str, float]]] = []
    cpu0, wall0 = os.times(), perf_counter()
    everyone = KINDS + FLOORS
    for index in range(ROUNDS):
        order = everyone[index % len(everyone) :] + everyone[: index % len(everyone)]
        rounds.append({kind: asyncio.run(_measure(kind)) for kind in order})
    cpu1 = os.times()
    keys = list(rounds[0]["sdk"])
    print(f"{ROUNDS} rounds; figures are medians; ratios to the SDK's server per round")
    print("floor: the SDK's transport answering a constant; floor-thread: the same plus one")
    print("hop to anyio's worker thread (what serving a sync tool off the event loop costs)")

    def width(kind: str) -> int:
        return max(len(kind) + 2, 10)

    print(
        f"{'figure':<32}"
        + "".join(f"{k:>{width(k)}}" for k in everyone)
        + "".join(f"{k + '/sdk':>{width(k) + 4}}" for k in everyone[1:])
    )

    def cell(kind: str, key: str) -> str:
        return f"{statistics.median(r[kind][key] for r in rounds):{width(kind)}.2f}"

    def ratio(kind: str, key: str) -> str:
        value = statistics.median(r[kind][key] / r["sdk"][key] for r in rounds)
        return f"{value:{width(kind) + 3}.2f}x"

    for key in keys:
        present = [k for k in everyone if key in rounds[0][k]]
        print(
            f"{key:<32}"
            + "".join(cell(k, key) if k in present else f"{'-':>{width(k)}}" for k in everyone)
            + "".join(
                ratio(k, key) if k in present else f"{'-':>{width(k) + 4}}" for k in everyone[1:]
            )
        )
    used = (cpu1.user + cpu1.system) - (cpu0.user + cpu0.system)
    print(f"client CPU/wall: {used / (perf_counter() - wall0):.3f}")


if __name__ == "__main__":
    main()
