"""Types defined inside a function resolve under ``from __future__ import annotations`` (issue 9).

This module uses the future import, so every annotation below is a string; a type
defined in the enclosing function is found in that function's frame while the
decorator runs, as pydantic's ``validate_call`` does.
"""

from __future__ import annotations

import dataclasses
from typing import Annotated, Any

import pytest

from standard_tool import Param, ToolDefinitionError, tool


def _point_tool() -> Any:
    @dataclasses.dataclass
    class Point:
        x: int
        y: int = 0

    @tool
    def norm(p: Point) -> int:
        """Manhattan norm."""
        return abs(p.x) + abs(p.y)

    return norm


def test_a_dataclass_defined_in_the_enclosing_function_resolves() -> None:
    norm = _point_tool()
    assert norm.execute({"p": {"x": -2, "y": 3}}) == 5
    schema = norm.input_schema.__standard__.json_schema.input(target="draft-2020-12")
    assert schema["required"] == ["p"]


def test_a_local_variable_in_annotated_metadata_resolves() -> None:
    lowest = 10

    @tool
    def pick(n: Annotated[int, Param(ge=lowest)]) -> int:
        """Pick."""
        return n

    assert pick.execute({"n": 10}) == 10
    result = pick.input_schema.__standard__.validate({"n": 9})
    assert result.issues is not None
    assert result.issues[0].path == ("n",)


def _undecorated() -> Any:
    class Hidden:
        pass

    def use(h: Hidden) -> None:
        """Use."""

    return use


def test_a_name_gone_with_its_frame_is_still_a_clear_error() -> None:
    with pytest.raises(ToolDefinitionError, match="cannot resolve 'Hidden'"):
        tool(_undecorated())
