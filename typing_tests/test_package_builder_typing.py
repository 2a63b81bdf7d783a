"""Inference promises of the package's ``standard_tool()``: what it adds to the core's.

Never executed. ``timeout=`` and ``metadata=`` are accepted, a built tool has typed
``timeout``, ``metadata`` and ``stream``, ``formatted()`` keeps them, and a generator
handler's result is what it yields. Each ignore marks a use that must stay an error.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator, Mapping
from typing import Any

from typing_extensions import TypedDict, assert_type

from standard_tool import AsyncTool, ProgressEvent, ResultEvent, Tool, standard_tool


class Point(TypedDict):
    x: int
    y: int


def norm(p: Point) -> float:
    return float(abs(p["x"]) + abs(p["y"]))


built = standard_tool(
    name="norm", description="Norm.", execute=norm, timeout=2.5, metadata={"owner": "geo"}
)
assert_type(built, Tool[Point, float, float, Any])
assert_type(built.timeout, float | None)
assert_type(built.metadata, Mapping[str, Any])
assert_type(built.stream({"x": 1, "y": 2}), AsyncIterator[ProgressEvent | ResultEvent])

formatted = built.formatted()
assert_type(formatted.timeout, float | None)
assert_type(formatted.metadata, Mapping[str, Any])


async def fetch(url: str) -> bytes:
    return url.encode()


fetched = standard_tool(name="fetch", description="Fetch.", execute=fetch, timeout=10)
assert_type(fetched, AsyncTool[str, bytes, bytes, Any])
assert_type(fetched.timeout, float | None)
assert_type(fetched.formatted(repr).metadata, Mapping[str, Any])


def steps(n: int) -> Iterator[str]:
    yield from (f"step {i}" for i in range(n))


async def ticks(n: int) -> AsyncIterator[int]:
    for i in range(n):
        yield i


assert_type(
    standard_tool(name="steps", description="Steps.", execute=steps), Tool[int, str, str, Any]
)
assert_type(
    standard_tool(name="ticks", description="Ticks.", execute=ticks), AsyncTool[int, int, int, Any]
)


@standard_tool(name="shout", description="Shout.", timeout=1, metadata={"tag": "demo"})
def shout(text: str) -> str:
    return text.upper()


assert_type(shout, Tool[Any, str, str, Any])  # as the core: no input_schema, no input type
assert_type(shout.metadata, Mapping[str, Any])

standard_tool(name="n", description="d", execute=norm, timeout="soon")  # type: ignore[call-overload]  # pyright: ignore[reportCallIssue, reportArgumentType]
standard_tool(name="n", description="d", execute=norm, metadata=[1])  # type: ignore[call-overload]  # pyright: ignore[reportCallIssue, reportArgumentType]
