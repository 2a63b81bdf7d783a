"""Small conforming schemas for the core tests: no schema library needed.

Each follows the ``__standard__`` binding by hand, the way a third-party schema
library would, so the tests prove the core accepts any conforming object.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from standard_tool import FailureResult, Issue, PathSegment, SuccessResult

JSON_TARGETS = ("draft-2020-12", "draft-07", "openapi-3.0")


class Converter:
    """Emits a fixed JSON Schema for the supported targets."""

    def __init__(self, schema: dict[str, Any]) -> None:
        self._schema = schema

    def _emit(self, target: str) -> dict[str, Any]:
        if target not in JSON_TARGETS:
            raise ValueError(f"unsupported target {target!r}")
        return {**self._schema}

    def input(self, *, target: str, library_options: Any = None) -> dict[str, Any]:
        return self._emit(target)

    def output(self, *, target: str, library_options: Any = None) -> dict[str, Any]:
        return self._emit(target)


class Props:
    version = 1
    vendor = "tests"

    def __init__(self, check: Callable[[Any], Any], schema: dict[str, Any]) -> None:
        self._check = check
        self.json_schema = Converter(schema)

    def validate(self, value: Any) -> Any:
        return self._check(value)


class Schema:
    """A conforming schema built from a check function and a JSON Schema."""

    def __init__(self, check: Callable[[Any], Any], schema: dict[str, Any]) -> None:
        self.__standard__ = Props(check, schema)


def _int(value: Any) -> Any:
    if isinstance(value, int) and not isinstance(value, bool):
        return SuccessResult(value)
    return FailureResult((Issue("expected an integer"),))


def _coerce_int(value: Any) -> Any:
    """Accepts numeric strings too, returning an int: proves the validated value is used."""
    if isinstance(value, str) and value.isdigit():
        return SuccessResult(int(value))
    return _int(value)


def _point(value: Any) -> Any:
    if not isinstance(value, dict):
        return FailureResult((Issue("expected an object"),))
    issues = [
        Issue("expected an integer", (key,))
        for key in ("x", "y")
        if not isinstance(value.get(key), int)
    ]
    return FailureResult(tuple(issues)) if issues else SuccessResult(Point(value["x"], value["y"]))


@dataclass(frozen=True)
class Point:
    x: int
    y: int


INT = Schema(_int, {"type": "integer"})
COERCING_INT = Schema(_coerce_int, {"type": "integer"})
POINT = Schema(
    _point,
    {
        "type": "object",
        "properties": {"x": {"type": "integer"}, "y": {"type": "integer"}},
        "required": ["x", "y"],
    },
)
#: Fails every value with an empty issues tuple: still a failure.
EMPTY_ISSUES = Schema(lambda value: FailureResult(()), {})
#: Fails with int keys and segment objects in the path.
NESTED_PATH = Schema(
    lambda value: FailureResult(
        (Issue("too small", ("items", 3, PathSegment("qty"))), Issue("no path here"))
    ),
    {"type": "object"},
)


async def _async_int(value: Any) -> Any:
    await asyncio.sleep(0)
    return _int(value)


class AsyncProps(Props):
    async def validate(self, value: Any) -> Any:  # type: ignore[override]
        return await self._check(value)


class AsyncSchema:
    """A conforming schema whose validate is a coroutine function."""

    def __init__(self, check: Callable[[Any], Any], schema: dict[str, Any]) -> None:
        self.__standard__ = AsyncProps(check, schema)


ASYNC_INT = AsyncSchema(_async_int, {"type": "integer"})


class SneakyAsyncProps(Props):
    """A sync-looking validate that returns an awaitable at run time."""

    def validate(self, value: Any) -> Any:
        return _async_int(value)


class SneakySchema:
    def __init__(self) -> None:
        self.__standard__ = SneakyAsyncProps(_int, {"type": "integer"})


@dataclass(frozen=True)
class PlainIssue:
    """An issue that is not the library's dataclass: plain attributes conform."""

    message: str
    path: Any = None


@dataclass(frozen=True)
class PlainFailure:
    issues: Any
    value: Any = None


@dataclass(frozen=True)
class PlainSuccess:
    value: Any
    issues: Any = None
