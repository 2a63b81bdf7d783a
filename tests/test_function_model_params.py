"""A ``Param`` inside a pydantic model or msgspec Struct is refused, not ignored (issue 9).

The library validates its own model and knows nothing of ``Param``: ``qty=0`` would
run although the author wrote ``Param(gt=0)``. The tool refuses to be defined and
says which field and what to use instead.
"""

from __future__ import annotations

from typing import Annotated

import msgspec
import pydantic
import pytest

from standard_tool import Param, ToolDefinitionError, tool


class Line(pydantic.BaseModel):
    sku: str
    qty: Annotated[int, Param(gt=0)] = 1


class Order(pydantic.BaseModel):
    lines: list[Line]


class GoodLine(pydantic.BaseModel):
    sku: str
    qty: Annotated[int, pydantic.Field(gt=0)] = 1


class Point(msgspec.Struct):
    x: Annotated[int, Param(ge=0)]


class Shape(msgspec.Struct):
    points: dict[str, Point]


def test_param_on_a_pydantic_field_is_refused_with_the_field_named() -> None:
    def place(line: Line) -> str:
        """Place."""
        return line.sku

    with pytest.raises(ToolDefinitionError, match=r"parameter 'line': Line\.qty: Param\(\.\.\.\) "):
        tool(place)


def test_param_in_a_nested_pydantic_model_is_refused_too() -> None:
    def place(order: Order) -> int:
        """Place."""
        return len(order.lines)

    with pytest.raises(ToolDefinitionError, match=r"Line\.qty: .*use pydantic\.Field\(\.\.\.\)"):
        tool(place)


def test_param_in_a_msgspec_struct_is_refused() -> None:
    def draw(shape: Shape) -> int:
        """Draw."""
        return len(shape.points)

    with pytest.raises(ToolDefinitionError, match=r"Point\.x: .*use msgspec\.Meta\(\.\.\.\)"):
        tool(draw)


def test_pydantic_field_constraints_are_shown_and_enforced() -> None:
    def place(line: GoodLine) -> int:
        """Place."""
        return line.qty

    placed = tool(place)
    assert placed.execute({"line": {"sku": "a", "qty": 2}}) == 2
    result = placed.input_schema.__standard__.validate({"line": {"sku": "a", "qty": 0}})
    assert result.issues is not None
    assert result.issues[0].path == ("line", "qty")
    schema = placed.input_schema.__standard__.json_schema.input(target="draft-2020-12")
    assert schema["$defs"]["GoodLine"]["properties"]["qty"]["exclusiveMinimum"] == 0
