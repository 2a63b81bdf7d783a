"""Import cost: ``import standard_tool`` against ``import typing_extensions``.

Run: ``python benchmarks/bench_import.py [rounds]``. Each round starts two fresh
interpreters with ``-X importtime``, one running ``import typing_extensions`` (the
package's one dependency: the floor) and one running ``import standard_tool``, and
reads the cumulative microseconds of that top-level import. The ratio is taken
within each round, so a slow moment hits both sides, and the median over the
rounds is reported, with the package's own modules that cost the most.

Target (issue 8): ``import standard_tool`` costs at most twice ``import typing_extensions``.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys

#: Users' installs have byte-code on disk; a shell with PYTHONDONTWRITEBYTECODE set would
#: otherwise time the compiler, not the import.
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def importtime(statement: str) -> dict[str, int]:
    """Cumulative microseconds per module that ``statement`` loads in a new interpreter."""
    out = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", statement],
        capture_output=True,
        text=True,
        check=True,
        env=ENV,
    ).stderr
    cumulative: dict[str, int] = {}
    for line in out.splitlines():
        if line.startswith("import time:") and "cumulative" not in line:
            _, total, name = line.split("|")
            cumulative[name.strip()] = int(total)
    return cumulative


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    ratios: list[float] = []
    package: list[int] = []
    floor: list[int] = []
    with_tool: list[int] = []
    modules: dict[str, list[int]] = {}
    importtime("from standard_tool import tool, Toolkit")  # writes the byte-code once
    for _ in range(rounds):
        base = importtime("import typing_extensions")["typing_extensions"]
        times = importtime("import standard_tool")
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
    print(
        f"from standard_tool import tool  {median(with_tool) / 1000:.1f} ms"
        f" ({median(with_tool) / median(floor):.2f}x; function tools loaded)"
    )
    print("the package's own modules, cumulative ms:")
    for name, totals in sorted(modules.items(), key=lambda kv: -median(kv[1])):
        print(f"  {name:<40} {median(totals) / 1000:6.1f}")


if __name__ == "__main__":
    main()
