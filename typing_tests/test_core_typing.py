"""Inference promises of the core, checked by pyright strict and mypy strict.

Never executed. Each ``assert_type`` is a promise; each ignore comment marks a
use that must stay a type error (an unused ignore fails the check).
"""

from __future__ import annotations

from collections.abc import Coroutine
from typing import Any

from typing_extensions import TypedDict, assert_type

from standard_tool import (
    AsyncTool,
    FailureResult,
    Issue,
    StandardSchemaV1,
    StandardToolV0,
    SuccessResult,
    Tool,
    ToolSchema,
    run_tool_sync,
    standard_tool,
)
from standard_tool.types import ErrorEnvelope


class Point(TypedDict):
    x: int
    y: int


class Locale(TypedDict):
    locale: str


class _Converter:
    def input(self, *, target: str, library_options: Any = None) -> dict[str, Any]:
        return {"type": "object"}

    def output(self, *, target: str, library_options: Any = None) -> dict[str, Any]:
        return {"type": "object"}


class _PointProps:
    version = 1
    vendor = "typing-tests"
    json_schema = _Converter()

    def validate(self, value: Point) -> SuccessResult[Point] | FailureResult:
        return SuccessResult(value)


class PointSchema:
    """Callers pass a ``Point``; the handler receives a ``Point``."""

    __standard__ = _PointProps()


class _IntProps:
    version = 1
    vendor = "typing-tests"
    json_schema = _Converter()

    def validate(self, value: object) -> SuccessResult[int] | FailureResult:
        return FailureResult((Issue("no"),))


class IntSchema:
    """Accepts any object; validates to ``int``."""

    __standard__ = _IntProps()


# Conforming schemas satisfy the protocols structurally.
_s1: ToolSchema[Point, Point] = PointSchema()
_s2: StandardSchemaV1[object, int] = IntSchema()


# The handler's input type comes from input_schema's type parameters ---------------------


def describe(p: Point, meta: Locale) -> str:
    return f"{p['x']}{meta['locale']}"


t = standard_tool(name="a", description="d", input_schema=PointSchema(), execute=describe)
assert_type(t, Tool[Point, str, str, Locale])
assert_type(t.execute({"x": 1, "y": 2}, {"locale": "fr"}), str)


# ...or from the handler's annotation when there is no input schema.


def plain(n: int) -> float:
    return n / 2


t_plain = standard_tool(name="p", description="d", execute=plain)
assert_type(t_plain, Tool[int, float, float, Any])


def no_args() -> bool:
    return True


assert_type(standard_tool(name="n", description="d", execute=no_args), Tool[Any, bool, bool, Any])

# The output type comes from output_schema, or the handler's return ----------------------

t_out = standard_tool(
    name="a",
    description="d",
    input_schema=PointSchema(),
    output_schema=IntSchema(),
    execute=describe,
)
assert_type(t_out, Tool[Point, int, int, Locale])
assert_type(t_out.execute({"x": 1, "y": 2}), int)

# A sync handler gives a sync execute; an async one an awaitable --------------------------


async def adescribe(p: Point) -> str:
    return str(p)


t_async = standard_tool(name="a", description="d", input_schema=PointSchema(), execute=adescribe)
assert_type(t_async, AsyncTool[Point, str, str, Any])
_pending = assert_type(t_async.execute({"x": 1, "y": 2}), Coroutine[Any, Any, str])


async def ameta(n: int, meta: Locale) -> list[int]:
    return [n]


t_ameta = standard_tool(name="a", description="d", execute=ameta)
assert_type(t_ameta, AsyncTool[int, list[int], list[int], Locale])

# formatted() changes only the formatted-output type -------------------------------------

assert_type(t.formatted(), Tool[Point, str, str | ErrorEnvelope, Locale])
assert_type(t.formatted().execute({"x": 1, "y": 2}), str | ErrorEnvelope)


def as_len(result: str | Exception) -> int:
    return 0 if isinstance(result, Exception) else len(result)


assert_type(t.formatted(as_len), Tool[Point, str, int, Locale])


async def as_bytes(result: str | Exception) -> bytes:
    return str(result).encode()


assert_type(t.formatted(as_bytes), AsyncTool[Point, str, bytes, Locale])
assert_type(t_async.formatted(), AsyncTool[Point, str, str | ErrorEnvelope, Any])
assert_type(t_async.formatted(as_len), AsyncTool[Point, str, int, Any])
assert_type(t_async.formatted(as_bytes), AsyncTool[Point, str, bytes, Any])
# Non-stacking shows in the types too: formatting a formatted tool starts from Output.
assert_type(t.formatted(as_len).formatted(as_len), Tool[Point, str, int, Locale])

# The decorator form ---------------------------------------------------------------------


@standard_tool(description="d", input_schema=IntSchema())
def deco(n: int, meta: Locale) -> str:
    return str(n)


assert_type(deco, Tool[object, str, str, Locale])


@standard_tool(description="d", input_schema=PointSchema(), output_schema=IntSchema())
async def adeco(p: Point) -> int:
    return p["x"]


assert_type(adeco, AsyncTool[Point, int, int, Any])

# A bare StandardToolV0 holds tools of different types -----------------------------------

tools: list[StandardToolV0] = [t, t_out, t_async, t.formatted(), t.formatted(as_bytes), deco]
first: StandardToolV0[Point, str, str, Locale] = t
assert_type(run_tool_sync(t, {"x": 1, "y": 2}), str)

# Wrong uses are type errors -------------------------------------------------------------

t.execute("not a point")  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
t.execute({"x": 1, "y": 2}, {"locale": 7})  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
t_plain.execute("x")  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
# A handler that does not take what the input schema validates to:
standard_tool(  # pyright: ignore[reportCallIssue]
    name="a",
    description="d",
    input_schema=PointSchema(),
    execute=plain,  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
)


# --- execute() without input only where the input may be None --------------------------


def echo_point(p: Point) -> Point:
    return p


needs_point = standard_tool(
    name="p", description="d", input_schema=PointSchema(), execute=echo_point
)
needs_point.execute()  # type: ignore[call-arg]  # pyright: ignore[reportCallIssue]
assert_type(needs_point.execute({"x": 1, "y": 2}), Point)
needs_nothing = standard_tool(name="n", description="d", execute=lambda: 1)
assert_type(needs_nothing.execute(), int)

# A built tool is callable: ``t(input, meta)`` is ``t.execute(input, meta)``.
assert_type(t_plain(3), float)
t_plain("x")  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
assert_type(needs_point({"x": 1, "y": 2}), Point)
needs_point()  # type: ignore[call-arg]  # pyright: ignore[reportCallIssue]
assert_type(needs_nothing(), int)


async def call_async_tool() -> None:
    assert_type(await t_async({"x": 1, "y": 2}), str)
