"""One served toolkit as one or two processes, direct or behind HAProxy, beside the SDK's server.

Run: ``python benchmarks/bench_mcp_scale.py`` (a few minutes; needs ``haproxy`` on the
machine, ``apt-get install haproxy``), or ``--quick`` for a smoke run of a few seconds
per case (its figures are not worth comparing). Everything listens on 127.0.0.1.

Servers (``_scale_app.py``, stateless, one JSON body per answer, under uvicorn, each
process with the same ``STANDARD_TOOL_STATE_KEYS``), started afresh for every case
by the scale harness (``tests_integration/mcp_scale/scale.py``):

- ``ours x1``: one process of ours, called directly;
- ``ours x1 lb``: the same behind HAProxy (round robin, no affinity): the proxy's cost;
- ``ours x2 lb``: two processes behind HAProxy;
- ``sdk x1``: the official SDK's ``MCPServer``, one process, called directly.

This process is the load client: 64 concurrent callers over one ``httpx.AsyncClient``
(64 connections), each posting raw protocol 2026-07-28 ``tools/call`` requests one
after the other, for a fixed number of calls (``CALLS``) or ``SECONDS``, whichever
comes first, after a warm-up. The tools: ``quick`` (sync, adds two integers),
``wait`` (async, sleeps 100 ms) and ``ask`` (asks a name: two rounds, the client
answers the ``input_required`` result and calls again; latency is the whole call).

With ``--client wrk`` the one-request tools (``quick``, ``wait``) are loaded by
``wrk`` (Debian's ``wrk`` package: ``apt-get install wrk``) instead: one thread, 64
connections, for ``WRK_SECONDS`` after a one-second warm-up, every answer checked by
a Lua script (HTTP 200, ``"isError":false``; any other answer fails the run). It costs
about a quarter of the raw client's CPU per call (40 us against 150 to 210), which
leaves the servers more of the two cores; ``ask`` (two rounds, each answer read)
keeps the raw client.

Nothing is pinned to a CPU: two server processes need both cores, and so does the
client. Per case the table shows calls per second, p50/p99 latency in ms, and the
CPU time per call of the servers, of HAProxy and of this client (from ``/proc``), so
the ratio of two processes to one can be read against what was left for them: on a
2-core machine the client's and the proxy's share comes out of the same two cores.
The last line says the most two processes can do against one process that has a
core to itself, from the CPU per call measured behind HAProxy: with S, C and H the
servers', client's and HAProxy's CPU per call, two cores serve at most
2 / (S + C + H) calls a second, one process 1 / S, so the ratio is at most
2S / (S + C + H).
Each round also measures the machine itself (``machine``): how much pure-Python CPU
work (encoding and decoding one ``tools/call`` request as JSON, no I/O) two processes
running at once get done against one process alone, for ``CAL_SECONDS`` (3 s by
default). On a virtual machine whose two cores are not two whole cores (shared with
the host's other guests, or two threads of one physical core) this is below 2x, and
no server can scale past it.
Figures are medians over ``BENCH_ROUNDS`` rounds (3 by default), cases in a rotating
order; ratios are the medians of the per-round ratios. The load average is printed
before and after: on a shared machine, compare runs made under a similar load.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from time import perf_counter, process_time
from typing import Any

import httpx

HERE = Path(__file__).parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT / "tests_integration" / "mcp_scale"))
from scale import app_processes, haproxy  # type: ignore[import-not-found]  # noqa: E402

PROTOCOL = "2026-07-28"
WIDTH = 64
#: Case: (server kind, processes, behind HAProxy).
CASES: dict[str, tuple[str, int, bool]] = {
    "ours x1": ("ours", 1, False),
    "ours x1 lb": ("ours", 1, True),
    "ours x2 lb": ("ours", 2, True),
    "sdk x1": ("sdk", 1, False),
}
TOOLS = ("quick", "wait", "ask")
#: The machine's own measure: JSON work in ``count`` processes at once for ``seconds``.
_CPU_WORK = """
import json, sys, time
request = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
           "params": {"name": "quick", "arguments": {"a": 1, "b": 2}}}
done, end = 0, time.perf_counter() + float(sys.argv[1])
while time.perf_counter() < end:
    for _ in range(50):
        json.loads(json.dumps(request))
    done += 50
print(done)
"""


def _machine(seconds: float) -> dict[str, float]:
    """Pure-Python work done by one process alone, then by two at once (work per second)."""
    figures: dict[str, float] = {}
    for count in (1, 2):
        command = [sys.executable, "-c", _CPU_WORK, str(seconds)]
        workers = [
            subprocess.Popen(command, stdout=subprocess.PIPE, text=True) for _ in range(count)
        ]
        done = sum(int(worker.communicate(timeout=seconds + 60)[0]) for worker in workers)
        figures[f"x{count} work/s"] = done / seconds
    return figures


ARGUMENTS: dict[str, dict[str, Any]] = {"quick": {"a": 1, "b": 2}, "wait": {}, "ask": {}}


def _cpu_seconds(pid: int) -> float:
    """CPU time of every thread of ``pid`` so far (nanosecond schedstat)."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            total += int((task / "schedstat").read_text().split()[0])
        except (FileNotFoundError, ProcessLookupError):
            continue
    return total / 1e9


def _request(name: str, call_id: int, **params: Any) -> tuple[dict[str, Any], dict[str, str]]:
    meta = {
        "io.modelcontextprotocol/protocolVersion": PROTOCOL,
        "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}},
    }
    body = {
        "jsonrpc": "2.0",
        "id": call_id,
        "method": "tools/call",
        "params": {"name": name, "arguments": ARGUMENTS[name], "_meta": meta, **params},
    }
    headers = {
        "Accept": "application/json, text/event-stream",
        "MCP-Protocol-Version": PROTOCOL,
        "Mcp-Method": "tools/call",
        "Mcp-Name": name,
    }
    return body, headers


class RawConnection:
    """One keep-alive HTTP/1.1 connection that posts JSON and reads a ``Content-Length`` answer.

    The load client by default, written here because it must cost far less CPU than
    the servers it loads: on this 2-core machine, with 64 connections, httpx's
    ``AsyncClient`` spent 5.6 to 7.8 ms of CPU per call, more than the servers
    (2.1 ms), and this one 0.17 ms (``--quick --client httpx`` against ``--quick``),
    so with httpx the benchmark measured the client. Our servers answer
    ``json_response=True`` calls with a ``Content-Length`` body, which is all this reads.
    """

    def __init__(self, url: str) -> None:
        parts = httpx.URL(url)
        self.host, self.port, self.path = parts.host, parts.port or 80, parts.path
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def post(self, body: bytes, headers: dict[str, str]) -> tuple[int, bytes]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        assert self.reader is not None
        lines = [f"POST {self.path} HTTP/1.1", f"Host: {self.host}:{self.port}"]
        lines += [f"{k}: {v}" for k, v in headers.items()]
        lines += ["Content-Type: application/json", f"Content-Length: {len(body)}", "", ""]
        self.writer.write("\r\n".join(lines).encode() + body)
        head = (await self.reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
        fields = dict(line.lower().split(": ", 1) for line in head[1:] if ": " in line)
        if "content-length" not in fields:
            raise SystemExit(f"an answer without Content-Length: {head!r:.300}")
        return int(head[0].split()[1]), await self.reader.readexactly(int(fields["content-length"]))

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            await self.writer.wait_closed()


#: wrk's script: POST one call, check every answer, report what the benchmark reads as JSON.
_WRK_SCRIPT = """
wrk.method = "POST"
wrk.body = BODY
wrk.headers = HEADERS
local threads = {}
function setup(thread) table.insert(threads, thread) end
function init(args) bad = 0; first = nil end
function response(status, headers, body)
  if status ~= 200 or not string.find(body, '"isError":%s*false') then
    bad = bad + 1
    if first == nil then first = status .. " " .. string.sub(body, 1, 300) end
  end
end
function done(summary, latency, requests)
  local bad, first = 0, ""
  for _, thread in ipairs(threads) do
    bad = bad + thread:get("bad")
    first = first .. string.gsub(thread:get("first") or "", '[^%w :,._-]', "?")
  end
  io.write(string.format(
    '{"done": %d, "socket_errors": %d, "bad": %d, "first": "%s", "p50_us": %d, "p99_us": %d}\\n',
    summary.requests, summary.errors.connect + summary.errors.read + summary.errors.write
      + summary.errors.timeout, bad, first, latency:percentile(50), latency:percentile(99)))
end
"""


def _wrk_script(name: str) -> str:
    body, headers = _request(name, 1)
    headers["Content-Type"] = "application/json"
    lua_headers = "{" + ", ".join(
        f"[{json.dumps(k)}] = {json.dumps(v)}" for k, v in headers.items()
    )
    return _WRK_SCRIPT.replace("BODY", json.dumps(json.dumps(body))).replace(
        "HEADERS", lua_headers + "}"
    )


def _wrk(url: str, name: str, seconds: float, sample: Any) -> tuple[dict[str, Any], Sample, Sample]:
    """Load ``url`` with wrk (one thread, ``WIDTH`` connections) calling ``name`` for ``seconds``.

    Returns wrk's report and the samples around the measured run; the client CPU of
    the samples is wrk's (this process's children), not this process's.
    """
    wrk = shutil.which("wrk")
    if wrk is None:
        raise SystemExit("--client wrk needs wrk on PATH (apt-get install wrk)")
    with tempfile.NamedTemporaryFile("w", suffix=".lua") as script:
        script.write(_wrk_script(name))
        script.flush()

        def run(duration: float) -> dict[str, Any]:
            command = [wrk, "-t1", f"-c{WIDTH}", f"-d{duration:g}s", "--timeout", "30s"]
            command += ["-s", script.name, url]
            out = subprocess.run(command, capture_output=True, text=True, timeout=duration + 60)
            report: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
            if report["bad"] or report["socket_errors"] or not report["done"]:
                raise SystemExit(f"{name} through wrk: {report!r:.500}")
            return report

        run(1)  # warm up: every connection opened, every path run
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        before = sample()
        report = run(seconds)
        after = sample()
        spent = resource.getrusage(resource.RUSAGE_CHILDREN)
    client = (spent.ru_utime + spent.ru_stime) - (children.ru_utime + children.ru_stime)
    # the client's CPU is wrk's: put it where the samples keep this process's
    after = (after[0], before[1] + client, after[2], after[3])
    return report, before, after


class HttpxConnection:
    """The same calls through a shared ``httpx.AsyncClient`` (``--client httpx``)."""

    def __init__(self, client: httpx.AsyncClient, url: str) -> None:
        self.client, self.url = client, url

    async def post(self, body: bytes, headers: dict[str, str]) -> tuple[int, bytes]:
        headers = {**headers, "Content-Type": "application/json"}
        reply = await self.client.post(self.url, content=body, headers=headers)
        return reply.status_code, reply.content

    async def close(self) -> None:
        return None


async def _post(connection: Any, name: str, **params: Any) -> dict[str, Any]:
    body, headers = _request(name, 1, **params)
    status, raw = await connection.post(json.dumps(body).encode(), headers)
    if status != 200:
        raise SystemExit(f"{name}: HTTP {status} {raw[:300]!r}")
    result: dict[str, Any] = json.loads(raw).get("result") or {}
    if not result or result.get("isError"):
        raise SystemExit(f"{name} failed: {raw[:300]!r}")
    return result


async def _one_call(connection: Any, name: str) -> None:
    result = await _post(connection, name)
    if name != "ask":
        return
    if result.get("resultType") != "input_required":
        raise SystemExit(f"ask did not ask: {result!r:.300}")
    (key,) = result["inputRequests"]
    answer = {key: {"action": "accept", "content": {"name": "Ada"}}}
    done = await _post(connection, name, inputResponses=answer, requestState=result["requestState"])
    if done["content"][0]["text"] != "Hello, Ada!":
        raise SystemExit(f"ask answered {done!r:.300}")


Sample = tuple[float, float, float, float]


async def _load(
    url: str, name: str, calls: int, seconds: float, client: str, sample: Any
) -> tuple[list[float], Sample, Sample]:
    """Latencies of ``calls`` calls by ``WIDTH`` concurrent callers, stopping after ``seconds``.

    ``sample()`` is read after the warm-up and at the end: what the figures are between.
    """
    limits = httpx.Limits(max_connections=WIDTH, max_keepalive_connections=WIDTH)
    latencies: list[float] = []
    async with httpx.AsyncClient(limits=limits, timeout=60) as shared:
        if client == "raw":
            connections: list[Any] = [RawConnection(url) for _ in range(WIDTH)]
        else:
            connections = [HttpxConnection(shared, url) for _ in range(WIDTH)]
        for _ in range(2):  # warm up: every connection opened, every path run
            await asyncio.gather(*(_one_call(c, name) for c in connections))
        before = sample()
        deadline = perf_counter() + seconds

        async def caller(connection: Any) -> None:
            for _ in range(calls // WIDTH):
                if perf_counter() > deadline:
                    return
                began = perf_counter()
                await _one_call(connection, name)
                latencies.append(perf_counter() - began)

        await asyncio.gather(*(caller(c) for c in connections))
        after = sample()
        for connection in connections:
            await connection.close()
    return latencies, before, after


@contextmanager
def _served(kind: str, count: int, balanced: bool) -> Iterator[tuple[str, list[int], int | None]]:
    """The URL to call, the server processes' pids and HAProxy's pid (or None)."""
    env = {"PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(HERE)])}
    with app_processes(f"_scale_app:{kind}", count, env=env) as backends:
        pids = [b.process.pid for b in backends]
        if not balanced:
            yield backends[0].url, pids, None
            return
        with haproxy(backends) as balancer:
            yield balancer.url, pids, balancer.process.pid


def _measure(
    case: str, calls: dict[str, int], seconds: float, client: str, wrk_seconds: float
) -> dict[str, float]:
    kind, count, balanced = CASES[case]
    figures: dict[str, float] = {}
    with _served(kind, count, balanced) as (url, pids, proxy):

        def sample() -> Sample:
            servers = sum(_cpu_seconds(pid) for pid in pids)
            return perf_counter(), process_time(), servers, _cpu_seconds(proxy) if proxy else 0.0

        for name in TOOLS:
            if client == "wrk" and name != "ask":
                report, before, after = _wrk(url, name, wrk_seconds, sample)
                done = report["done"]
                p50, p99 = report["p50_us"] / 1e3, report["p99_us"] / 1e3
            else:
                latencies, before, after = asyncio.run(
                    _load(
                        url,
                        name,
                        calls[name],
                        seconds,
                        "raw" if client == "wrk" else client,
                        sample,
                    )
                )
                latencies.sort()
                done = len(latencies)
                p50 = latencies[done // 2] * 1e3
                p99 = latencies[min(done - 1, int(done * 0.99))] * 1e3
            spent = [a - b for a, b in zip(after, before, strict=True)]
            wall, client_cpu, servers, proxy_cpu = spent
            figures[f"{name} calls/s"] = done / wall
            figures[f"{name} p50 ms"] = p50
            figures[f"{name} p99 ms"] = p99
            figures[f"{name} server CPU us/call"] = servers / done * 1e6
            figures[f"{name} server cores"] = servers / wall
            if proxy:
                figures[f"{name} HAProxy CPU us/call"] = proxy_cpu / done * 1e6
            figures[f"{name} client CPU us/call"] = client_cpu / done * 1e6
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run: few calls, 1 round")
    parser.add_argument(
        "--client",
        choices=("raw", "httpx", "wrk"),
        default="raw",
        help="the load client (default raw; wrk: wrk for quick and wait)",
    )
    options = parser.parse_args()
    # SIGTERM ends the run through the harness's with blocks, which stop the servers.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    rounds = 1 if options.quick else int(os.environ.get("BENCH_ROUNDS", "3"))
    if options.quick:
        calls, seconds = {"quick": 4 * WIDTH, "wait": 2 * WIDTH, "ask": 2 * WIDTH}, 5.0
    else:
        calls, seconds = {"quick": 40 * WIDTH, "wait": 10 * WIDTH, "ask": 20 * WIDTH}, 30.0
    wrk_seconds = 2.0 if options.quick else float(os.environ.get("WRK_SECONDS", "5"))
    machine_seconds = 1.0 if options.quick else float(os.environ.get("CAL_SECONDS", "3"))
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    names = list(CASES)
    results: list[dict[str, dict[str, float]]] = []
    machine: list[dict[str, float]] = []
    for index in range(rounds):
        order = names[index % len(names) :] + names[: index % len(names)]
        machine.append(_machine(machine_seconds))
        results.append(
            {case: _measure(case, calls, seconds, options.client, wrk_seconds) for case in order}
        )
    print(f"load average after:  {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(
        f"{rounds} round(s), {WIDTH} concurrent callers ({options.client} client); "
        "figures are medians over rounds"
    )
    print(f"{'figure':<30}" + "".join(f"{case:>12}" for case in names))
    keys = list(dict.fromkeys(key for r in results for f in r.values() for key in f))
    for key in keys:
        cells = []
        for case in names:
            values = [r[case][key] for r in results if key in r[case]]
            cells.append(f"{statistics.median(values):12.2f}" if values else f"{'-':>12}")
        print(f"{key:<30}" + "".join(cells))

    def ratio(case: str, base: str, key: str) -> float:
        return statistics.median(r[case][key] / r[base][key] for r in results)

    print("ratios of calls per second (median of per-round ratios):")
    for name in TOOLS:
        key = f"{name} calls/s"
        print(
            f"  {name:<6} two processes behind HAProxy / one direct "
            f"{ratio('ours x2 lb', 'ours x1', key):5.2f}x; "
            f"one behind HAProxy / one direct {ratio('ours x1 lb', 'ours x1', key):5.2f}x; "
            f"ours / the SDK's, one process {ratio('ours x1', 'sdk x1', key):5.2f}x"
        )

    spread = sorted(m["x2 work/s"] / m["x1 work/s"] for m in machine)
    ceiling = statistics.median(spread)
    scaled = ratio("ours x2 lb", "ours x1", "quick calls/s")
    rounds_scaled = sorted(
        r["ours x2 lb"]["quick calls/s"] / r["ours x1"]["quick calls/s"] for r in results
    )
    print(
        "quick, two processes behind HAProxy / one direct, round by round: "
        + ", ".join(f"{x:.2f}" for x in rounds_scaled)
    )
    print(
        f"the machine: two CPU-bound Python processes at once do {ceiling:.2f}x the work of "
        f"one (rounds: {', '.join(f'{x:.2f}' for x in spread)}); two server processes "
        f"behind HAProxy reach {scaled / ceiling:.0%} of that for quick"
    )

    def cpu(case: str, what: str) -> float:
        return statistics.median(r[case][f"quick {what} CPU us/call"] for r in results)

    server, client, proxy = (cpu("ours x2 lb", w) for w in ("server", "client", "HAProxy"))
    cores = min(2, os.cpu_count() or 1)
    print(
        f"the most two processes can do on {cores} cores, quick tool: "
        f"{cores * server / (server + client + proxy):.2f}x one process that has a core "
        f"to itself (the cores shared by the servers at {server:.0f} us a call, this "
        f"client at {client:.0f} us and HAProxy at {proxy:.0f} us)"
    )


if __name__ == "__main__":
    main()
