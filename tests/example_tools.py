"""Example tools every provider test converts, checks and validates with the SDKs.

Shared with the runner's tests. Each tool covers one shape a provider may
struggle with; ``ALL_TOOLS`` lists them, ``PLAIN_TOOL`` is a conforming tool
written without importing the package at all.
"""

from __future__ import annotations

import asyncio
import enum
from dataclasses import dataclass
from typing import Any, Literal

import jsonschema
import pydantic
from annotated_types import Gt
from typing_extensions import Annotated, TypedDict

from standard_tool import Param, tool

# ----------------------------------------------------------------------- flat


@tool
def get_weather(city: str, unit: Literal["celsius", "fahrenheit"] = "celsius") -> str:
    """Get the current weather in a city.

    Args:
        city: The city name, e.g. "Paris".
        unit: The temperature unit.
    """
    return f"21 degrees {unit} in {city}"


@tool
def lookup_user(
    username: Annotated[
        str, Param("A login name", min_length=3, max_length=20, pattern="^[a-z_]+$")
    ],
    limit: Annotated[int, Param(ge=1, le=100)] = 10,
) -> dict[str, Any]:
    """Look a user up by login name."""
    return {"username": username, "limit": limit}


# ----------------------------------------------------------------------- nested orders


class AddressTD(TypedDict):
    street: str
    city: str


class ItemTD(TypedDict):
    sku: str
    qty: Annotated[int, Gt(0)]


@tool
def order_typeddict(items: list[ItemTD], address: AddressTD, note: str | None = None) -> int:
    """Place an order (TypedDict items)."""
    return sum(i["qty"] for i in items)


@dataclass
class AddressDC:
    street: str
    city: str


@dataclass
class ItemDC:
    sku: str
    qty: Annotated[int, Gt(0)]


@tool
def order_dataclass(items: list[ItemDC], address: AddressDC, note: str | None = None) -> int:
    """Place an order (dataclass items)."""
    return sum(i.qty for i in items)


class AddressPM(pydantic.BaseModel):
    street: str
    city: str


class ItemPM(pydantic.BaseModel):
    sku: str
    qty: Annotated[int, pydantic.Field(gt=0)]


class OrderPM(pydantic.BaseModel):
    items: list[ItemPM]
    address: AddressPM
    note: str | None = None


@tool
def order_pydantic(items: list[ItemPM], address: AddressPM, note: str | None = None) -> int:
    """Place an order (Pydantic items)."""
    return sum(i.qty for i in items)


# ----------------------------------------------------------------------- enum, map, recursion


class Color(enum.Enum):
    RED = "red"
    GREEN = "green"
    BLUE = "blue"


@tool
def paint(color: Color, coats: int = 1) -> str:
    """Paint the wall."""
    return f"{coats} coats of {color.value}"


@tool
def tag_resource(resource_id: str, tags: dict[str, str]) -> dict[str, str]:
    """Set tags on a resource."""
    return tags


class TreeNode(TypedDict):
    name: str
    children: list[TreeNode]


@tool
def count_nodes(tree: TreeNode) -> int:
    """Count the nodes of a tree."""
    return 1 + sum(count_nodes.execute({"tree": c}) for c in tree["children"])


# ----------------------------------------------------------------------- no parameters, async


@tool
def ping() -> str:
    """Check the service is up."""
    return "pong"


@tool
async def fetch_page(url: str, timeout: float = 10.0) -> dict[str, int]:
    """Fetch a page and report its size."""
    await asyncio.sleep(0)
    return {"status": 200, "bytes": len(url)}


# ----------------------------------------------------------------------- a plain object tool


class _Result:
    def __init__(self, value: Any = None, issues: Any = None) -> None:
        self.value = value
        self.issues = issues


class _Issue:
    def __init__(self, message: str, path: tuple[Any, ...]) -> None:
        self.message = message
        self.path = path


class _Converter:
    def __init__(self, schema: dict[str, Any]) -> None:
        self._schema = schema

    def input(self, *, target: str, library_options: Any = None) -> dict[str, Any]:
        if target != "draft-2020-12":
            raise ValueError(f"unsupported target {target!r}")
        return dict(self._schema)

    output = input


class _Props:
    version = 1
    vendor = "plain"

    def __init__(self, schema: dict[str, Any]) -> None:
        self.json_schema = _Converter(schema)
        self._validator = jsonschema.Draft202012Validator(schema)

    def validate(self, value: Any) -> _Result:
        errors = list(self._validator.iter_errors(value))
        if errors:
            return _Result(issues=tuple(_Issue(e.message, tuple(e.absolute_path)) for e in errors))
        return _Result(value=value)


class PlainSchema:
    """A Standard Schema written by hand over jsonschema."""

    def __init__(self, schema: dict[str, Any]) -> None:
        self.__standard__ = _Props(schema)


class PlainTool:
    """A conforming tool that never imports standard_tool."""

    name = "add_numbers"
    title: str | None = "Add numbers"
    description = "Add two numbers."
    input_schema = PlainSchema(
        {
            "type": "object",
            "properties": {"a": {"type": "number"}, "b": {"type": "number", "default": 0}},
            "required": ["a"],
        }
    )
    output_schema = PlainSchema({"type": "number"})

    def execute(self, input: Any = None, meta: Any = None) -> Any:
        checked = self.input_schema.__standard__.validate(input)
        if checked.issues is not None:
            raise ValueError(checked.issues[0].message)
        return checked.value["a"] + checked.value.get("b", 0)

    def formatted(self, format: Any = None) -> Any:
        raise NotImplementedError


PLAIN_TOOL = PlainTool()

#: Every example tool, the plain one last.
ALL_TOOLS: tuple[Any, ...] = (
    get_weather,
    lookup_user,
    order_typeddict,
    order_dataclass,
    order_pydantic,
    paint,
    tag_resource,
    count_nodes,
    ping,
    fetch_page,
    PLAIN_TOOL,
)

#: Tools whose input schema is recursive (Gemini refuses them).
RECURSIVE_TOOLS: tuple[Any, ...] = (count_nodes,)
