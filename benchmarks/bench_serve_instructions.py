"""Server instructions per ``tools/call``, counted by callgrind: repeatable on a busy machine.

Run: ``python benchmarks/bench_serve_instructions.py [calls]`` (needs valgrind; about a
minute per case). Each server of ``bench_serve.py`` (ours, the SDK's ``MCPServer``
and the two floors) runs under ``valgrind --tool=callgrind`` with instrumentation
off; once it answers, a warm-up runs, instrumentation is switched on
(``callgrind_control -i on``), the official SDK client makes ``calls`` calls at the
given concurrency, and instrumentation is switched off again. The figure is the
server process's user-space instructions (every thread) divided by the calls:
unlike CPU time it does not move with the machine's load, but it leaves out the
kernel (system calls, thread wake-ups) and counts every instruction the same.

The floors are ``_serve_app.py``'s: the SDK's low-level server under its own
transport answering every call with a constant (``floor``), and the same with one
hop to anyio's worker thread and back (``floor-thread``): what any server that runs
a sync tool off its event loop pays before it runs the tool.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path
from time import perf_counter
from typing import Any

from mcp import ClientSession

from bench_serve import ORDER, _calls, _first_list, _free_port, _session

HERE = Path(__file__).parent
KINDS = ("sdk", "ours", "floor", "floor-thread")
CASES = (("add", 1), ("add", 8), ("order", 1))


class _Valgrind:
    """A ``_serve_app.py`` server under callgrind, with what ``_first_list`` reads."""

    def __init__(self, kind: str, out: Path) -> None:
        self.kind = kind
        port = _free_port()
        self.url = f"http://127.0.0.1:{port}/mcp"
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(HERE.parent / "src"), str(HERE)])}
        self.started = perf_counter()
        self.process = subprocess.Popen(
            [
                "valgrind",
                "--tool=callgrind",
                "--instr-atstart=no",
                f"--callgrind-out-file={out}",
                sys.executable,
                str(HERE / "_serve_app.py"),
                kind,
                str(port),
                "0",
            ],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )


def _instrument(pid: int, on: bool) -> None:
    subprocess.run(
        ["callgrind_control", "-i", "on" if on else "off", str(pid)],
        check=True,
        stdout=subprocess.DEVNULL,
    )


def _total(out: Path) -> int:
    for line in out.read_text().splitlines():
        if line.startswith("totals:"):
            return int(line.split()[1])
    raise SystemExit(f"no totals in {out}")


async def _count(kind: str, tool: str, width: int, calls: int, folder: Path) -> float:
    """Millions of server instructions per call of ``tool`` with ``width`` calls in flight."""
    out = folder / f"{kind}.{tool}.{width}.out"
    server: Any = _Valgrind(kind, out)
    await _first_list(server)
    args = {"a": 1, "b": 2} if tool == "add" else ORDER
    pid = server.process.pid

    async def body(session: ClientSession) -> None:
        await _calls(session, tool, args, 40, min(width, 8))  # warm up
        _instrument(pid, True)
        await _calls(session, tool, args, calls, width)
        _instrument(pid, False)

    await _session(server.url, body)
    server.process.send_signal(signal.SIGINT)
    server.process.wait(300)
    return _total(out) / calls / 1e6


def main() -> None:
    calls = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    print(f"server instructions per tools/call (millions, callgrind), {calls} calls a case")
    print(f"{'case':<12}" + "".join(f"{k:>14}" for k in KINDS) + f"{'ours/sdk':>10}")
    with tempfile.TemporaryDirectory() as folder:
        for tool, width in CASES:
            counts = {k: asyncio.run(_count(k, tool, width, calls, Path(folder))) for k in KINDS}
            print(
                f"{tool + ' x' + str(width):<12}"
                + "".join(f"{counts[k]:14.3f}" for k in KINDS)
                + f"{counts['ours'] / counts['sdk']:9.3f}x"
            )
            ratios = ", ".join(f"{k} {counts[k] / counts['sdk']:.3f}x" for k in KINDS[2:])
            print(f"{'':<12}to the SDK's: {ratios}")


if __name__ == "__main__":
    main()
