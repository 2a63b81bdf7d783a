"""Issue codes: every validator says what kind of problem each issue is, the same way."""

from __future__ import annotations

import datetime
from typing import Annotated, Any, Literal

import msgspec
import pydantic
import pytest
from typing_extensions import TypedDict

from standard_tool import Issue, Param, StandardToolValidationError, tool
from standard_tool.schemas.jsonschema import from_json_schema
from standard_tool.schemas.msgspec import msgspec_schema
from standard_tool.schemas.pydantic import pydantic_schema


class Order(TypedDict):
    sku: str
    qty: Annotated[int, Param(ge=1)]


@tool
def place(
    order: Order,
    size: Literal["s", "m", "l"],
    when: datetime.date,
    code: Annotated[str, Param(pattern="^[a-z]+$")] = "x",
    pair: tuple[int, int] = (0, 0),
    either: int | list[int] = 0,
) -> str:
    """Place an order."""
    return "ok"


def _codes(issues: tuple[Any, ...]) -> dict[str, str | None]:
    return {".".join(map(str, i.path or ())): i.code for i in issues}


def _function_issues(value: Any) -> tuple[Issue, ...]:
    with pytest.raises(StandardToolValidationError) as info:
        place.execute(value)
    return tuple(info.value.issues)


GOOD = {"order": {"sku": "a", "qty": 1}, "size": "s", "when": "2026-01-01"}


@pytest.mark.parametrize(
    ("change", "path", "code"),
    [
        ({"order": {"sku": "a"}}, "order.qty", "required"),
        ({"order": {"sku": 1, "qty": 1}}, "order.sku", "type"),
        ({"order": {"sku": "a", "qty": 0}}, "order.qty", "constraint"),
        ({"order": {"sku": "a", "qty": 1, "x": 1}}, "order.x", "additional_property"),
        ({"size": "xl"}, "size", "enum"),
        ({"when": "tomorrow"}, "when", "format"),
        ({"code": "ABC"}, "code", "constraint"),
        ({"pair": [1, 2, 3]}, "pair", "constraint"),
        ({"either": "x"}, "either", "type"),  # no alternative has that JSON type
    ],
)
def test_function_tool_issues_carry_codes(change: dict[str, Any], path: str, code: str) -> None:
    codes = _codes(_function_issues({**GOOD, **change}))
    assert codes[path] == code


def test_a_missing_parameter_is_required_and_the_message_format_is_unchanged() -> None:
    with pytest.raises(StandardToolValidationError) as info:
        place.execute({"size": "s", "when": "2026-01-01"})
    assert str(info.value) == "input validation failed: order: missing required property"
    assert info.value.issues[0].code == "required"


def test_codes_stay_out_of_equality_and_repr() -> None:
    assert Issue("m", ("a",), "type") == Issue("m", ("a",))
    assert repr(Issue("m", None, "type")) == "Issue(message='m', path=None)"


class Model(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(extra="forbid")
    sku: str
    qty: int = pydantic.Field(ge=1)
    size: Literal["s", "m"] = "s"
    when: datetime.date = datetime.date(2026, 1, 1)


@pytest.mark.parametrize(
    ("value", "path", "code"),
    [
        ({"qty": 1}, "sku", "required"),
        ({"sku": 1, "qty": 1}, "sku", "type"),
        ({"sku": "a", "qty": 0}, "qty", "constraint"),
        ({"sku": "a", "qty": 1, "x": 1}, "x", "additional_property"),
        ({"sku": "a", "qty": 1, "size": "xl"}, "size", "enum"),
        ({"sku": "a", "qty": 1, "when": "tomorrow"}, "when", "format"),
    ],
)
def test_pydantic_errors_map_onto_the_codes(value: Any, path: str, code: str) -> None:
    result = pydantic_schema(Model).__standard__.validate(value)
    assert result.issues is not None
    assert _codes(tuple(result.issues))[path] == code


class Struct(msgspec.Struct, forbid_unknown_fields=True):
    sku: str
    qty: Annotated[int, msgspec.Meta(ge=1)]
    size: Literal["s", "m"] = "s"


@pytest.mark.parametrize(
    ("value", "path", "code"),
    [
        ({"qty": 1}, "sku", "required"),
        ({"sku": 1, "qty": 1}, "sku", "type"),
        ({"sku": "a", "qty": 0}, "qty", "constraint"),
        ({"sku": "a", "qty": 1, "x": 1}, "", "additional_property"),
        ({"sku": "a", "qty": 1, "size": "xl"}, "size", "enum"),
    ],
)
def test_msgspec_errors_map_onto_the_codes(value: Any, path: str, code: str) -> None:
    result = msgspec_schema(Struct).__standard__.validate(value)
    assert result.issues is not None
    assert _codes(tuple(result.issues))[path] == code


SCHEMA = {
    "type": "object",
    "properties": {
        "sku": {"type": "string"},
        "qty": {"type": "integer", "minimum": 1},
        "size": {"enum": ["s", "m"]},
        "either": {"anyOf": [{"type": "integer"}, {"type": "array"}]},
    },
    "required": ["sku"],
    "additionalProperties": False,
}


@pytest.mark.parametrize(
    ("value", "path", "code"),
    [
        ({}, "sku", "required"),
        ({"sku": 1}, "sku", "type"),
        ({"sku": "a", "qty": 0}, "qty", "constraint"),
        ({"sku": "a", "x": 1}, "x", "additional_property"),
        ({"sku": "a", "size": "xl"}, "size", "enum"),
        ({"sku": "a", "either": "x"}, "either", "type"),  # reported as the closest branch
    ],
)
def test_json_schema_errors_map_onto_the_codes(value: Any, path: str, code: str) -> None:
    result = from_json_schema(SCHEMA).__standard__.validate(value)
    assert result.issues is not None
    assert _codes(tuple(result.issues))[path] == code


def _code_in_order(message: str) -> str:
    """The rule ``issue_code`` must keep: the first opening that matches, in ``_CODES`` order."""
    from standard_tool._function._tool import _CODES

    for opening, code in _CODES:
        if message.startswith(opening):
            return code
    if message.startswith("expected "):
        return "constraint" if message[9:10].isdigit() else "type"
    return "invalid"


@pytest.mark.parametrize(
    "message",
    [
        "must be greater than 0, got 0",
        "must",
        "expected one of 'a', 'b', got 'c'",
        "expected a JSON value, got Python set",
        "expected a YYYY-MM-DD date, got string 'x'",
        "expected 2 items, got 3",
        "expected string, got integer 5",
        "expected",
        "expectation failed",
        "missing required property",
        "unexpected property 'x'",
        "object keys must be strings",
        "matches none of the 2 options",
        "invalid UUID",
        "items must be unique",
        "validation stopped after 50 issues",
        "",
        "mus",
    ],
)
def test_the_quick_code_lookup_answers_as_the_ordered_table(message: str) -> None:
    from standard_tool._function._tool import issue_code

    assert issue_code(message) == _code_in_order(message)
