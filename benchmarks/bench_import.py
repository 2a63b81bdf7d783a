"""Import cost: ``import standard_tool`` against ``import typing_extensions``.

Run: ``python benchmarks/bench_import.py [rounds]``. Each round starts two fresh
interpreters with ``-X importtime``, one running ``import typing_extensions`` (the
package's one dependency: the floor) and one running ``import standard_tool``, and
reads the cumulative microseconds of that top-level import. The ratio is taken
within each round, so a slow moment hits both sides, and the median over the
rounds is reported, with the package's own modules that cost the most.

Target (issue 8): ``import standard_tool`` costs at most twice ``import typing_extensions``.

For context the same rounds time ``import mcp`` and ``import fastmcp``, and a cold
start: from spawning a stdio MCP server to its first answered ``tools/list`` (the
official SDK's client), for ``standard-tool serve`` (``python -m standard_tool serve
_stdio_ours:toolkit``), the SDK's ``MCPServer`` and fastmcp, each serving the same
three tools (``_stdio_ours.py``, ``_stdio_peer.py``). Target (issue 25): ours at
most the SDK's.

With ``BENCH_BEFORE_SRC`` set to the ``src`` directory of another checkout (an
earlier commit), the same rounds also import that tree's package and cold-start its
``standard-tool serve``, labelled "before".
"""

from __future__ import annotations

import asyncio
import os
import statistics
import subprocess
import sys
from pathlib import Path
from time import perf_counter

HERE = Path(__file__).parent
DEVNULL = open(os.devnull, "w")  # noqa: SIM115 (servers' logs, for the whole run)

#: Users' installs have byte-code on disk; a shell with PYTHONDONTWRITEBYTECODE set would
#: otherwise time the compiler, not the import.
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
#: ``BENCH_BEFORE_SRC``: the ``src`` of an earlier tree, measured beside this one.
BEFORE_SRC = os.environ.get("BENCH_BEFORE_SRC")


def importtime(statement: str, src: str | None = None) -> dict[str, int]:
    """Cumulative microseconds per module that ``statement`` loads in a new interpreter.

    With ``src``, the package is imported from there (``PYTHONPATH``).
    """
    out = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", statement],
        capture_output=True,
        text=True,
        check=True,
        env=ENV if src is None else {**ENV, "PYTHONPATH": src},
    ).stderr
    cumulative: dict[str, int] = {}
    for line in out.splitlines():
        if line.startswith("import time:") and "cumulative" not in line:
            _, total, name = line.split("|")
            cumulative[name.strip()] = int(total)
    return cumulative


def cold_start(args: list[str], src: str | None = None) -> float:
    """Seconds from spawning a stdio MCP server to its first answered ``tools/list``.

    With ``src``, the server imports the package from there.
    """
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    path = os.pathsep.join([src or str(HERE.parent / "src"), str(HERE)])
    params = StdioServerParameters(
        command=sys.executable, args=args, env={**ENV, "PYTHONPATH": path}, cwd=str(HERE)
    )

    async def first_list() -> float:
        began = perf_counter()
        async with (
            stdio_client(params, errlog=DEVNULL) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            await session.list_tools()
            return perf_counter() - began

    return asyncio.run(first_list())


COLD = {
    "standard-tool serve": ["-m", "standard_tool", "serve", "_stdio_ours:toolkit"],
    "MCP SDK MCPServer": [str(HERE / "_stdio_peer.py"), "sdk"],
    "fastmcp": [str(HERE / "_stdio_peer.py"), "fastmcp"],
}
if BEFORE_SRC:
    COLD["standard-tool serve (before)"] = COLD["standard-tool serve"]


def _src(name: str) -> str | None:
    return BEFORE_SRC if name.endswith("(before)") else None


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    ratios: list[float] = []
    package: list[int] = []
    floor: list[int] = []
    with_tool: list[int] = []
    modules: dict[str, list[int]] = {}
    importtime("from standard_tool import tool, Toolkit")  # writes the byte-code once
    peers: dict[str, list[float]] = {"mcp": [], "fastmcp": []}
    cold: dict[str, list[float]] = {name: [] for name in COLD}
    for name, args in COLD.items():
        cold_start(args, _src(name))  # byte-code once
    before: list[float] = []
    for index in range(rounds):
        base = importtime("import typing_extensions")["typing_extensions"]
        times = importtime("import standard_tool")
        for peer, totals in peers.items():
            totals.append(importtime(f"import {peer}")[peer] / base)
        names = list(COLD)
        for name in names[index % len(names) :] + names[: index % len(names)]:
            cold[name].append(cold_start(COLD[name], _src(name)))
        if BEFORE_SRC:
            before.append(importtime("import standard_tool", BEFORE_SRC)["standard_tool"] / base)
        floor.append(base)
        package.append(times["standard_tool"])
        ratios.append(times["standard_tool"] / base)
        loaded = importtime("from standard_tool import tool")
        # The lazy attribute loads function tools after the package import returns, so
        # they are a second top-level entry beside ``standard_tool``.
        with_tool.append(loaded["standard_tool"] + loaded["standard_tool._function"])
        for name, total in times.items():
            if name.startswith("standard_tool."):
                modules.setdefault(name, []).append(total)
    median = statistics.median
    print(f"Python {sys.version.split()[0]}, {rounds} rounds, medians (cumulative, -X importtime)")
    print(f"import typing_extensions {median(floor) / 1000:7.1f} ms")
    print(f"import standard_tool     {median(package) / 1000:7.1f} ms")
    spread = f"{min(ratios):.2f}-{max(ratios):.2f}"
    print(f"ratio                    {median(ratios):7.2f}x  (spread {spread}; target 2x)")
    if before:
        spread = f"{min(before):.2f}-{max(before):.2f}"
        print(f"ratio before             {median(before):7.2f}x  (spread {spread})")
    print(
        f"from standard_tool import tool  {median(with_tool) / 1000:.1f} ms"
        f" ({median(with_tool) / median(floor):.2f}x; function tools loaded)"
    )
    for peer, totals in peers.items():
        print(f"import {peer:<18} {median(totals):7.2f}x typing_extensions")
    sdk = cold["MCP SDK MCPServer"]
    print("cold start, spawn to first answered tools/list (stdio), median s and ratio to the SDK:")
    for name, seconds in cold.items():
        ratio = median(s / b for s, b in zip(seconds, sdk, strict=True))
        print(f"  {name:<22} {median(seconds):6.3f} s {ratio:6.2f}x")
    print("the package's own modules, cumulative ms:")
    for name, totals in sorted(modules.items(), key=lambda kv: -median(kv[1])):
        print(f"  {name:<40} {median(totals) / 1000:6.1f}")


if __name__ == "__main__":
    main()
