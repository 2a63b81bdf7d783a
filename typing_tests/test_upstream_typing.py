"""The proposal's type-level tests (``expectType`` in index, adapters, trpc-example), in Python.

Never executed. pydantic plays Zod; ``validate_call`` functions play procedures.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, validate_call
from typing_extensions import TypedDict, assert_type

from standard_tool import (
    AsyncTool,
    StandardToolV0,
    Tool,
    run_tool_sync,
    standard_tool,
    with_formatted_output,
)
from standard_tool.schemas.pydantic import pydantic_schema


class City(BaseModel):
    city: str


class Temp(BaseModel):
    temp_c: float


class Locale(TypedDict):
    locale: str


async def sunny(place: City) -> Temp:
    return Temp(temp_c=21)


# A neutral tool: execute returns the output itself.
weather = standard_tool(
    name="get_weather",
    description="Current temperature for a city",
    input_schema=City,
    output_schema=pydantic_schema(Temp),
    execute=sunny,
)


async def awaited() -> None:
    assert_type(await weather.execute({"city": "Paris"}), Temp)


_w: StandardToolV0[Any, Temp] = weather
_w2: StandardToolV0[Any, Temp, Temp] = weather


# No schemas: input and output come from the handler.
def add_one(point: dict[str, int]) -> dict[str, int]:
    return {"y": point["x"] + 1}


echo = standard_tool(name="echo", description="adds one", execute=add_one)
assert_type(echo, Tool[dict[str, int], dict[str, int], dict[str, int], Any])


def to_str(result: Temp | Exception) -> str:
    return str(result)


weather_str = with_formatted_output(weather, to_str)
assert_type(run_tool_sync(weather_str, {"city": "Paris"}), str)
# The output type of a formatted async tool is what its format takes under mypy
# (Temp | Exception): no required member names it, since the schemas are optional.
_ws: StandardToolV0[Any, Any, str] = weather_str


# Per-call meta from the handler's annotation.
def greeting(person: City, meta: Locale) -> str:
    return "hi"


greet = standard_tool(name="greet", description="d", input_schema=City, execute=greeting)
assert_type(greet, Tool[Any, str, str, Locale])
greet.execute({"city": "x"}, {"locale": 7})  # type: ignore[call-overload]  # pyright: ignore[reportCallIssue, reportArgumentType]


# No input schema and a parameterless handler: execute() takes no argument.
now = standard_tool(name="now", description="d", execute=lambda: {"iso": "2026"})
assert_type(now.execute(), dict[str, str])
assert_type(now.execute(None), dict[str, str])

# A tool with an input schema needs its argument.
typed = standard_tool(
    name="typed", description="d", input_schema=pydantic_schema(City), execute=lambda: 1
)
typed.execute()  # type: ignore[call-arg]  # pyright: ignore[reportCallIssue]


# Procedures you already have: the handler's return type is the tool's output.
@validate_call
def get_weather_procedure(place: City) -> Temp:
    return Temp(temp_c=21)


procedure_tool = standard_tool(
    name="get_weather", description="d", input_schema=City, execute=get_weather_procedure
)
assert_type(procedure_tool.execute({"city": "Paris"}), Temp)


async def async_procedure(place: City) -> Temp:
    return Temp(temp_c=21)


async_tool = standard_tool(name="w", description="d", input_schema=City, execute=async_procedure)
assert_type(async_tool, AsyncTool[Any, Temp, Temp, Any])
