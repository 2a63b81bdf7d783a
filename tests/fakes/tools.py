"""Tools for the toolkit and runner tests, validated by the real ``jsonschema`` library.

``JSONSchema`` follows the ``__standard__`` binding by hand (as a third-party schema
library would), so these tests need nothing from the schema adapters layer.
"""

from __future__ import annotations

import asyncio
from typing import Any

import jsonschema

from standard_tool import FailureResult, Issue, SuccessResult, standard_tool


class _Converter:
    def __init__(self, schema: dict[str, Any]) -> None:
        self._schema = schema

    def input(self, *, target: str, library_options: Any = None) -> dict[str, Any]:
        if target not in ("draft-2020-12", "draft-07", "openapi-3.0"):
            raise ValueError(f"unsupported target {target!r}")
        return {k: v for k, v in self._schema.items() if k != "$schema"}

    output = input


class _Props:
    version = 1
    vendor = "tests-jsonschema"

    def __init__(self, schema: dict[str, Any]) -> None:
        self._validator: Any = jsonschema.Draft202012Validator(schema)
        self.json_schema = _Converter(schema)

    def validate(self, value: Any) -> Any:
        errors = sorted(self._validator.iter_errors(value), key=lambda e: list(e.absolute_path))
        if not errors:
            return SuccessResult(value)
        return FailureResult(tuple(Issue(e.message, tuple(e.absolute_path)) for e in errors))


class JSONSchema:
    """A conforming schema validating with ``jsonschema.Draft202012Validator``."""

    def __init__(self, schema: dict[str, Any]) -> None:
        self.__standard__ = _Props(schema)


WEATHER_INPUT = JSONSchema(
    {
        "type": "object",
        "properties": {
            "city": {"type": "string", "description": "City name"},
            "unit": {"enum": ["c", "f"]},
        },
        "required": ["city", "unit"],
        "additionalProperties": False,
    }
)

ADD_INPUT = JSONSchema(
    {
        "type": "object",
        "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
        "required": ["a", "b"],
        "additionalProperties": False,
    }
)


def _weather(args: dict[str, Any]) -> dict[str, Any]:
    return {"city": args["city"], "temperature": 21 if args["unit"] == "c" else 70}


async def _add(args: dict[str, Any]) -> int:
    await asyncio.sleep(0)
    return int(args["a"]) + int(args["b"])


weather = standard_tool(
    name="get_weather",
    description="Current weather in a city.",
    input_schema=WEATHER_INPUT,
    execute=_weather,
)

add = standard_tool(
    name="add",
    description="Add two integers.",
    input_schema=ADD_INPUT,
    execute=_add,
)

# The scripted turn the end-to-end runner tests play: the model calls ``weather`` well
# and ``add`` badly, sees our error text, and answers FINAL.
GOOD_ARGS = {"city": "Paris", "unit": "c"}
BAD_ARGS = {"a": 1, "b": "two"}
BAD_ARGS_ERROR = "input validation failed: b: 'two' is not of type 'integer'"
FINAL = "It is 21 degrees in Paris; I could not add those."


class PlainTool:
    """A tool that is a plain object: no builder, no base class."""

    name = "echo"
    title = None
    description = "Echo the input back."
    input_schema = None
    output_schema = None

    def execute(self, input: Any = None, meta: Any = None) -> Any:
        return {"input": input, "meta": meta}


class Gate:
    """A barrier for asyncio on Python 3.10 (no ``asyncio.Barrier``): an Event and a counter.

    ``await gate.arrive()`` returns once ``parties`` callers have arrived. The wait is
    bounded by one deadline, ``timeout`` seconds after the first arrival: past it every
    waiter raises ``TimeoutError``, so callers run one after another fail quickly
    instead of hanging.
    """

    def __init__(self, parties: int, timeout: float = 10.0) -> None:
        self.parties = parties
        self.arrived = 0
        self.timeout = timeout
        self._deadline: float | None = None
        self._open = asyncio.Event()

    async def arrive(self) -> None:
        loop = asyncio.get_running_loop()
        if self._deadline is None:
            self._deadline = loop.time() + self.timeout
        self.arrived += 1
        if self.arrived >= self.parties:
            self._open.set()
        try:
            await asyncio.wait_for(self._open.wait(), max(self._deadline - loop.time(), 0))
        except asyncio.TimeoutError:
            raise TimeoutError(
                f"gate: only {self.arrived} of {self.parties} callers arrived"
            ) from None
