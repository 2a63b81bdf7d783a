"""Static inference of the schema adapters (type-checked, never executed)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

import msgspec
from pydantic import BaseModel
from typing_extensions import TypedDict, assert_type

from standard_tool import FailureResult, SuccessResult, Tool, ToolSchema, standard_tool
from standard_tool.schemas import as_standard_schema
from standard_tool.schemas.jsonschema import JSONSchema, from_json_schema
from standard_tool.schemas.msgspec import MsgspecSchema, msgspec_schema
from standard_tool.schemas.pydantic import PydanticSchema, pydantic_schema


class User(BaseModel):
    name: str


class Point(msgspec.Struct):
    x: int


# --- pydantic -------------------------------------------------------------------------

user_schema = pydantic_schema(User)
assert_type(user_schema, PydanticSchema[User, User | Mapping[str, Any]])
assert_type(PydanticSchema(User), PydanticSchema[User, User | Mapping[str, Any]])
assert_type(user_schema.__standard__.validate({}), SuccessResult[User] | FailureResult)
assert_type(pydantic_schema(list[int]), PydanticSchema[list[int]])
assert_type(user_schema.__standard__.json_schema.input(target="draft-07"), dict[str, Any])

# --- msgspec --------------------------------------------------------------------------

point_schema = msgspec_schema(Point)
assert_type(point_schema, MsgspecSchema[Point, Point | Mapping[str, Any]])
assert_type(MsgspecSchema(Point), MsgspecSchema[Point, Point | Mapping[str, Any]])
assert_type(point_schema.__standard__.validate({}), SuccessResult[Point] | FailureResult)
assert_type(msgspec_schema(dict[str, int]), MsgspecSchema[dict[str, int]])

# --- JSON Schema ----------------------------------------------------------------------

json_schema = from_json_schema({"type": "object"})
assert_type(json_schema, JSONSchema)
assert_type(json_schema.__standard__.validate({}), SuccessResult[Any] | FailureResult)

# --- as_standard_schema ---------------------------------------------------------------

assert_type(as_standard_schema({"type": "integer"}), JSONSchema)
assert_type(as_standard_schema(User), ToolSchema[object, User])
assert_type(as_standard_schema(Point), ToolSchema[object, Point])

# --- conformance: adapters are tool schemas -------------------------------------------

as_tool_schema: ToolSchema[User | Mapping[str, Any], User] = user_schema
as_tool_schema_point: ToolSchema[Point | Mapping[str, Any], Point] = point_schema
as_tool_schema_json: ToolSchema[object, Any] = json_schema

# --- the builder infers the handler's input from an adapter ---------------------------


def greet(user: User) -> str:
    assert_type(user, User)
    return user.name


def move(point: Point) -> int:
    assert_type(point, Point)
    return point.x


greeter = standard_tool(name="greet", description="d", input_schema=user_schema, execute=greet)
mover = standard_tool(name="move", description="d", input_schema=point_schema, execute=move)


@standard_tool(description="Greet.", input_schema=pydantic_schema(User))
def hello(user: User) -> str:
    return f"hi {user.name}"


@standard_tool(description="Move.", input_schema=msgspec_schema(Point))
def shift(point: Point) -> int:
    return point.x + 1


assert_type(greeter.execute({"name": "Ada"}), str)
assert_type(mover.execute({"x": 1}), int)

# --- the builder takes the model class or Struct type itself --------------------------

direct_model = standard_tool(name="greet", description="d", input_schema=User, execute=greet)
assert_type(direct_model, Tool[Any, str, str, Any])
direct_struct = standard_tool(name="move", description="d", input_schema=Point, execute=move)
assert_type(direct_struct, Tool[Any, int, int, Any])
as_output = standard_tool(
    name="make", description="d", output_schema=User, execute=lambda: {"name": "Ada"}
)
assert_type(as_output, Tool[Any, User, User, Any])
from_dict = standard_tool(
    name="any", description="d", input_schema={"type": "object"}, execute=greet
)
assert_type(from_dict, Tool[Any, str, str, Any])

# A handler that does not take the model is a type error:
standard_tool(  # pyright: ignore[reportCallIssue]
    name="greet",
    description="d",
    input_schema=User,
    execute=move,  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
)


# --- the tool's input type comes from the adapter -------------------------------------


class Weather(TypedDict):
    city: str


@dataclasses.dataclass
class Spot:
    lat: float


def forecast(w: Weather) -> str:
    return w["city"]


def locate(s: Spot) -> float:
    return s.lat


assert_type(pydantic_schema(Weather), PydanticSchema[Weather, Weather])
assert_type(pydantic_schema(Spot), PydanticSchema[Spot, Spot | Mapping[str, Any]])
assert_type(msgspec_schema(Weather), MsgspecSchema[Weather, Weather])
assert_type(msgspec_schema(Spot), MsgspecSchema[Spot, Spot | Mapping[str, Any]])

weather = standard_tool(
    name="w", description="d", input_schema=pydantic_schema(Weather), execute=forecast
)
assert_type(weather, Tool[Weather, str, str, Any])
weather.execute({"city": "Paris"})
weather.execute({"city": 123})  # type: ignore[typeddict-item]  # pyright: ignore[reportArgumentType]
greeter.execute({"name": "Ada"})  # a model also takes the JSON object it is validated from
greeter.execute(3)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
spot = standard_tool(name="s", description="d", input_schema=msgspec_schema(Spot), execute=locate)
spot.execute({"lat": 1.0})
spot.execute(Spot(1.0))
