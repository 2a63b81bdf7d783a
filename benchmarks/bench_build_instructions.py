"""``bench_build.py``'s cases counted in instructions by callgrind: repeatable on a busy machine.

Run: ``python benchmarks/bench_build_instructions.py [CASE ...]`` (needs valgrind;
half an hour on a 2-core machine; naming cases, such as ``"build + convert"``, counts
only those and the base). Each case runs in a fresh interpreter under ``valgrind --tool=callgrind``,
once with one pass over the corpus and once with three; the difference, halved and
divided by the corpus size, is one pass's instructions per schema, without the
interpreter's start-up and imports. A pass starts from fresh copies of the schemas
(as in ``bench_build.py``); the ``copies only`` case makes those copies and nothing
else, and is subtracted from every other case. The collector is off while a case
runs: what is counted is the work itself (``bench_build.py`` times it with the
collector on).

Instructions leave out what a memory-bound program waits for (allocation spreading
objects over memory, cache misses): ours allocates more than openai-agents' in-place
transform, so its time ratio is higher than its instruction ratio.
"""

from __future__ import annotations

import contextlib
import gc
import marshal
import re
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import _bfcl
from bench_build import _echo, _name, agents_declare

HERE = Path(__file__).parent
CASES = (
    "openai-agents",
    "build",
    "build + convert",
    "tool without schema",
    "copies (floor)",
    "tool + copy + their transform",
    "openai-agents FunctionTool",
)


def child(case: str, passes: int) -> None:
    """Run ``case`` ``passes`` times over fresh copies of the corpus (under callgrind)."""
    from agents.strict_schema import ensure_strict_json_schema

    from standard_tool import standard_tool
    from standard_tool.providers import to_openai_chat

    corpus = _bfcl.load()
    frozen = marshal.dumps([d["parameters"] for d in corpus])
    names = [_name(d["name"]) for d in corpus]
    descriptions = [d["description"] for d in corpus]
    gc.collect()
    gc.disable()
    for _ in range(passes):
        schemas = marshal.loads(frozen)
        rows = zip(names, descriptions, schemas, strict=True)
        if case == "openai-agents":
            for schema in schemas:
                with contextlib.suppress(Exception):  # one it cannot make strict
                    ensure_strict_json_schema(schema)
        elif case in ("build", "build + convert"):
            tools = [standard_tool(name=n, description=d, input_schema=s, execute=_echo)
                     for n, d, s in rows]  # fmt: skip
            if case == "build + convert":
                for built in tools:
                    to_openai_chat(built)
        elif case == "tool without schema":
            [standard_tool(name=n, description=d, execute=_echo) for n, d, _ in rows]
        elif case == "copies (floor)":
            for schema in schemas:
                marshal.loads(marshal.dumps(schema, 2))
        elif case == "tool + copy + their transform":
            for n, d, s in rows:
                standard_tool(name=n, description=d, execute=_echo)
                with contextlib.suppress(Exception):  # one it cannot make strict
                    ensure_strict_json_schema(marshal.loads(marshal.dumps(s, 2)))
        elif case == "openai-agents FunctionTool":
            for n, d, s in rows:
                agents_declare(n, d, s)
    gc.enable()


def _instructions(case: str, passes: int) -> int:
    out = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
         sys.executable, __file__, "--child", case, str(passes)],
        capture_output=True, text=True, check=True,
    ).stderr  # fmt: skip
    found = re.search(r"Collected : (\d+)", out)
    if found is None:
        raise SystemExit(f"no instruction count for {case!r}: {out[-500:]}")
    return int(found.group(1))


def main(chosen: list[str]) -> None:
    unknown = [case for case in chosen if case not in CASES]
    if unknown:
        raise SystemExit(f"unknown case(s) {unknown}; the cases are {list(CASES)}")
    cases = [case for case in CASES if not chosen or case in chosen or case == "openai-agents"]
    count = len(_bfcl.load())
    per: dict[str, float] = {}
    for case in ("copies only", *cases):
        per[case] = (_instructions(case, 3) - _instructions(case, 1)) / 2 / count
    base = per["openai-agents"] - per["copies only"]
    print(f"{count} schemas; thousands of instructions per schema (one pass, fresh copies")
    print("of the schemas not counted), and the ratio to openai-agents' transform")
    for case in cases:
        value = per[case] - per["copies only"]
        print(f"{case:<28} {value / 1000:8.1f}k {value / base:6.2f}x")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        child(sys.argv[2], int(sys.argv[3]))
    else:
        main(sys.argv[1:])
