"""The adapters' raising fast path agrees with their ``validate``, and the builder uses it."""

from __future__ import annotations

from typing import Any

import msgspec
import pydantic
import pytest
from typing_extensions import TypedDict

from standard_tool import FastPath, StandardToolValidationError, standard_tool
from standard_tool.schemas.msgspec import msgspec_schema
from standard_tool.schemas.pydantic import pydantic_schema


class Line(TypedDict):
    sku: str
    qty: int


class Order(msgspec.Struct):
    lines: list[Line]
    note: str | None = None


class POrder(pydantic.BaseModel):
    lines: list[Line]
    note: str | None = None


SCHEMAS = {"msgspec": msgspec_schema(Order), "pydantic": pydantic_schema(POrder)}
BAD = [
    None,
    [],
    {"lines": "x"},
    {"lines": [{"sku": "a"}]},
    {"lines": [{"sku": "a", "qty": "one"}], "note": 3},
    {"lines": [{"sku": 1, "qty": 1}] * 3},
]


@pytest.mark.parametrize("library", sorted(SCHEMAS))
@pytest.mark.parametrize("value", BAD)
def test_tool_errors_through_the_fast_path_match_validate(library: str, value: Any) -> None:
    schema = SCHEMAS[library]
    assert isinstance(schema.__standard__.fast_path, FastPath)
    expected = schema.__standard__.validate(value).issues
    assert expected
    tool = standard_tool(name="t", description="d", input_schema=schema, execute=lambda o: o)
    with pytest.raises(StandardToolValidationError) as info:
        tool.execute(value)
    assert info.value.issues == tuple(expected)
    assert isinstance(info.value.__cause__, (msgspec.ValidationError, pydantic.ValidationError))


@pytest.mark.parametrize("library", sorted(SCHEMAS))
def test_tool_values_through_the_fast_path_match_validate(library: str) -> None:
    schema = SCHEMAS[library]
    good = {"lines": [{"sku": "a", "qty": 2}]}
    tool = standard_tool(name="t", description="d", input_schema=schema, execute=lambda o: o)
    assert tool.execute(good) == schema.__standard__.validate(good).value
