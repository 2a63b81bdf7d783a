"""Building tools from real JSON Schemas, and converting them for OpenAI strict mode.

Run: ``python benchmarks/bench_build.py`` (about a minute, 7 rounds; ``BENCH_ROUNDS``
sets another number, and ``BENCH_NO_GC=1`` turns the collector off while the cases
run; needs the ``bench`` dependency group, ``openai-agents`` and ``pydantic-ai``;
the first run downloads the ``bfcl-eval`` package's data once, see ``_bfcl.py``).

The corpus is every distinct function declaration of the Berkeley Function
Calling Leaderboard. Each case processes the whole corpus once per round; rounds
interleave the cases, starting from a different one each time, and every case is
divided by openai-agents' strict transform *in the same round*. What a case needs
that is not the work being measured (fresh copies of the schemas, which the peers'
transforms modify in place; tools built in advance for the conversion-only case)
is made before its timer starts, and the garbage it leaves is collected then
(``gc.collect()``): a case's timer starts on a collected heap, so a full collection
owed to the untimed copies does not fall into it, while the collections a case's
own objects cause still do. Figures are the median per-round ratio with its
quartiles, the median microseconds per schema, and the run's CPU/wall ratio.

Cases:

- ``openai-agents``: ``agents.strict_schema.ensure_strict_json_schema`` (the base);
- ``pydantic-ai``: ``OpenAIJsonSchemaTransformer(schema, strict=True).walk()``;
- ``build``: ``standard_tool(name=..., description=..., input_schema=schema, ...)``:
  a tool that is never called;
- ``convert``: ``to_openai_chat`` of tools built in advance (its first conversion);
- ``build + convert``: both, as a program declaring its tools does.

And, in the same rounds, what bounds the last from below or puts it in context:

- ``tool without schema``: ``standard_tool(...)`` with no ``input_schema``: the tool
  object and its ``execute`` alone;
- ``copies (floor)``: the copy a tool that its caller cannot change must make of
  each schema, as ``marshal`` makes it, the cheapest copy there is (written and
  read back); the tool rewrites its copy for OpenAI without copying it again;
- ``tool + copy + their transform``: the two above and openai-agents' transform,
  run in place on the copy: building plus converting if our rewrite cost what
  theirs does and nothing else did (theirs leaves optional properties required and
  not nullable, with no plan to decode the model's arguments back);
- ``openai-agents FunctionTool``: what openai-agents itself does for the same job:
  ``FunctionTool(..., params_json_schema=schema, strict_json_schema=True)`` (which
  copies the schema before its transform) and ``Converter.tool_to_openai``.
"""

from __future__ import annotations

import contextlib
import gc
import marshal
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path
from time import perf_counter
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from agents import FunctionTool
from agents.models.chatcmpl_converter import Converter

import _bfcl
from _timing import CpuWall, Paired
from standard_tool import standard_tool
from standard_tool.providers import to_openai_chat

ROUNDS = int(os.environ.get("BENCH_ROUNDS", "7"))
#: ``BENCH_NO_GC=1``: the collector off while the cases run (what it costs them).
NO_GC = os.environ.get("BENCH_NO_GC") == "1"


def _name(text: str) -> str:
    return re.sub(r"[^a-zA-Z0-9_-]", "_", text)[:64]


def main() -> None:
    corpus = _bfcl.load()
    frozen = marshal.dumps([d["parameters"] for d in corpus])
    names = [_name(d["name"]) for d in corpus]
    descriptions = [d["description"] for d in corpus]

    def fresh() -> list[Any]:
        return marshal.loads(frozen)  # type: ignore[no-any-return]

    def build(schemas: list[Any]) -> list[Any]:
        return [
            standard_tool(name=n, description=d, input_schema=s, execute=_echo)
            for n, d, s in zip(names, descriptions, schemas, strict=True)
        ]

    from agents.strict_schema import ensure_strict_json_schema
    from pydantic_ai.profiles.openai import OpenAIJsonSchemaTransformer

    refused = {
        "openai-agents": 0,
        "pydantic-ai": 0,
        "ours (not strict)": 0,
        "openai-agents FunctionTool": 0,
    }

    def agents(schemas: list[Any]) -> None:
        for schema in schemas:
            try:
                ensure_strict_json_schema(schema)
            except Exception:  # a schema it cannot make strict
                refused["openai-agents"] += 1

    def pydantic_ai(schemas: list[Any]) -> None:
        for schema in schemas:
            try:
                OpenAIJsonSchemaTransformer(schema, strict=True).walk()
            except Exception:  # a schema it cannot make strict
                refused["pydantic-ai"] += 1

    def declare(tools: list[Any], counted: bool) -> None:
        for built in tools:
            if not to_openai_chat(built)["function"].get("strict") and counted:
                refused["ours (not strict)"] += 1

    def convert(tools: list[Any]) -> None:
        declare(tools, True)

    def build_and_convert(schemas: list[Any]) -> None:  # counted once, by ``convert``
        declare(build(schemas), False)

    def bare(schemas: list[Any]) -> list[Any]:
        return [
            standard_tool(name=n, description=d, execute=_echo)
            for n, d, _ in zip(names, descriptions, schemas, strict=True)
        ]

    def copies(schemas: list[Any]) -> None:
        for schema in schemas:
            marshal.loads(marshal.dumps(schema, 2))

    def floor(schemas: list[Any]) -> list[Any]:
        tools = []
        for n, d, s in zip(names, descriptions, schemas, strict=True):
            tools.append(standard_tool(name=n, description=d, execute=_echo))
            with contextlib.suppress(Exception):  # a schema it cannot make strict
                ensure_strict_json_schema(marshal.loads(marshal.dumps(s, 2)))
        return tools

    def agents_tools(schemas: list[Any]) -> None:
        for n, d, s in zip(names, descriptions, schemas, strict=True):
            if not agents_declare(n, d, s):
                refused["openai-agents FunctionTool"] += 1

    # name -> (prepare, run): prepare is untimed.
    cases: dict[str, tuple[Callable[[], Any], Callable[[Any], Any]]] = {
        "openai-agents": (fresh, agents),
        "pydantic-ai": (fresh, pydantic_ai),
        "build": (fresh, build),
        "convert": (lambda: build(fresh()), convert),
        "build + convert": (fresh, build_and_convert),
        "tool without schema": (fresh, bare),
        "copies (floor)": (fresh, copies),
        "tool + copy + their transform": (fresh, floor),
        "openai-agents FunctionTool": (fresh, agents_tools),
    }
    samples: dict[str, list[float]] = {name: [] for name in cases}
    order = list(cases)
    with CpuWall() as cpu:
        for index in range(ROUNDS):
            start = index % len(order)
            for name in order[start:] + order[:start]:
                prepare, run = cases[name]
                argument = prepare()
                gc.collect()
                if NO_GC:
                    gc.disable()
                began = perf_counter()
                run(argument)
                samples[name].append(perf_counter() - began)
                gc.enable()
    base = samples["openai-agents"]
    per = len(corpus)
    collector = ", the collector off" if NO_GC else ""
    print(f"{per} distinct tool schemas (bfcl-eval {_bfcl.VERSION}), {ROUNDS} rounds{collector}")
    print(f"{'case':<30} {'us/schema':>10} {'ratio':>7}  quartiles")
    for name, values in samples.items():
        paired = Paired(values, [v / b for v, b in zip(values, base, strict=True)], [])
        low, high = paired.spread
        print(f"{name:<30} {paired.us / per:10.1f} {paired.ratio:6.2f}x  [{low:.2f}-{high:.2f}]")
    print("refused or not strict, per pass:", {k: v // ROUNDS for k, v in refused.items()})
    print(f"CPU/wall: {cpu.ratio:.3f}")


def _echo(value: Any) -> Any:
    return value


async def _invoke(context: Any, arguments: str) -> str:
    return arguments


def agents_declare(name: str, description: str, schema: Any) -> bool:
    """Build openai-agents' strict ``FunctionTool`` and its Chat declaration; refused: False."""
    try:
        tool = FunctionTool(
            name=name,
            description=description,
            params_json_schema=schema,
            on_invoke_tool=_invoke,
            strict_json_schema=True,
        )
    except Exception:  # a schema it cannot make strict
        return False
    Converter.tool_to_openai(tool)
    return True


if __name__ == "__main__":
    main()
