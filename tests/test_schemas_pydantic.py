"""standard_tool.schemas.pydantic against the real pydantic."""

from __future__ import annotations

import dataclasses
import enum
import pickle
from typing import Annotated, Any

import pytest
from jsonschema import Draft7Validator, Draft202012Validator
from pydantic import BaseModel, ConfigDict, Field
from typing_extensions import TypedDict

from standard_tool import (
    FailureResult,
    Issue,
    StandardToolValidationError,
    SuccessResult,
    is_standard_json_schema,
    is_standard_schema,
    standard_tool,
)
from standard_tool.schemas.pydantic import PydanticSchema, pydantic_schema
from tests.test_dialects import assert_openapi_30


class Color(enum.Enum):
    RED = "red"
    GREEN = "green"


class Address(BaseModel):
    street: str
    zip_code: str = Field(alias="zipCode", pattern=r"^\d{5}$")


class Person(BaseModel):
    name: str = Field(min_length=1, description="Full name.")
    age: int = Field(ge=0, le=150)
    color: Color = Color.RED
    nickname: str | None = None
    addresses: list[Address] = []


class Node(BaseModel):
    value: int
    children: list[Node] = []


class Movie(TypedDict):
    title: str
    year: int


@dataclasses.dataclass
class Pair:
    left: int
    right: int


def test_a_model_conforms_to_both_protocols() -> None:
    schema = pydantic_schema(Person)
    assert is_standard_schema(schema)
    assert is_standard_json_schema(schema)
    assert schema.__standard__.version == 1
    assert schema.__standard__.vendor == "pydantic"
    assert isinstance(schema, PydanticSchema)
    assert repr(schema) == "PydanticSchema(Person)"


def test_validate_returns_a_model_instance_with_defaults_and_aliases() -> None:
    result = pydantic_schema(Person).__standard__.validate(
        {"name": "Ada", "age": "36", "addresses": [{"street": "Main", "zipCode": "12345"}]}
    )
    assert isinstance(result, SuccessResult)
    assert result.issues is None
    person = result.value
    assert isinstance(person, Person)
    assert person.age == 36
    assert person.color is Color.RED
    assert person.nickname is None
    assert person.addresses[0].zip_code == "12345"


def test_failures_carry_nested_paths_and_short_messages() -> None:
    result = pydantic_schema(Person).__standard__.validate(
        {"age": -1, "color": "blue", "addresses": [{"street": "Main", "zipCode": "x"}]}
    )
    assert isinstance(result, FailureResult)
    paths = [issue.path for issue in result.issues]
    assert paths == [("name",), ("age",), ("color",), ("addresses", 0, "zipCode")]
    for issue in result.issues:
        assert isinstance(issue, Issue)
        assert "http" not in issue.message
        assert "-1" not in issue.message
        assert "blue" not in issue.message


def test_a_root_error_has_no_path() -> None:
    result = pydantic_schema(Person).__standard__.validate("not an object")
    assert result.issues is not None
    assert [issue.path for issue in result.issues] == [None]


def test_recursive_models_validate_at_depth() -> None:
    validate = pydantic_schema(Node).__standard__.validate
    ok = validate({"value": 1, "children": [{"value": 2, "children": [{"value": 3}]}]})
    assert isinstance(ok.value, Node)
    bad = validate({"value": 1, "children": [{"value": 2, "children": [{"value": "x"}]}]})
    assert bad.issues is not None
    assert bad.issues[0].path == ("children", 0, "children", 0, "value")


@pytest.mark.parametrize(
    ("tp", "good", "expected", "bad", "bad_path"),
    [
        (list[int], ["1", 2], [1, 2], [1, "x"], (1,)),
        (
            Movie,
            {"title": "Heat", "year": 1995},
            {"title": "Heat", "year": 1995},
            {"title": 1},
            ("title",),
        ),
        (Pair, {"left": 1, "right": 2}, Pair(1, 2), {"left": 1}, ("right",)),
        (Annotated[int, Field(gt=0)], 5, 5, 0, None),
        (int | None, None, None, "x", None),
    ],
)
def test_any_type_adapter_type(tp: Any, good: Any, expected: Any, bad: Any, bad_path: Any) -> None:
    validate = PydanticSchema(tp).__standard__.validate
    assert validate(good).value == expected
    failure = validate(bad)
    assert failure.issues is not None
    assert failure.issues[0].path == bad_path


def test_config_applies_to_types_that_are_not_models() -> None:
    validate = pydantic_schema(list[int], config=ConfigDict(strict=True)).__standard__.validate
    assert validate([1]).value == [1]
    assert validate(["1"]).issues is not None


def test_input_json_schema_is_validation_mode_and_output_serialization_mode() -> None:
    class Model(BaseModel):
        count: int = 0
        model_config = ConfigDict(json_schema_serialization_defaults_required=True)

    converter = pydantic_schema(Model).__standard__.json_schema
    assert "required" not in converter.input(target="draft-2020-12")
    assert converter.output(target="draft-2020-12")["required"] == ["count"]


def test_json_schema_for_every_target_is_valid_for_that_target() -> None:
    converter = pydantic_schema(Person).__standard__.json_schema
    draft2020 = converter.input(target="draft-2020-12")
    Draft202012Validator.check_schema(draft2020)
    assert draft2020["properties"]["name"]["description"] == "Full name."
    assert "zipCode" in draft2020["$defs"]["Address"]["properties"]
    draft07 = converter.input(target="draft-07")
    Draft7Validator.check_schema(draft07)
    assert "definitions" in draft07
    openapi = converter.input(target="openapi-3.0")
    assert_openapi_30(openapi)
    assert openapi["properties"]["nickname"]["nullable"] is True


def test_json_schema_is_a_fresh_copy_each_call() -> None:
    converter = pydantic_schema(Person).__standard__.json_schema
    first = converter.input(target="draft-2020-12")
    first["properties"].clear()
    assert converter.input(target="draft-2020-12")["properties"]


def test_library_options_reach_pydantic() -> None:
    converter = pydantic_schema(Person).__standard__.json_schema
    schema = converter.input(target="draft-2020-12", library_options={"by_alias": False})
    assert "zip_code" in schema["$defs"]["Address"]["properties"]


def test_unknown_target_raises_value_error() -> None:
    with pytest.raises(ValueError, match="supported targets: 'draft-2020-12'"):
        pydantic_schema(Person).__standard__.json_schema.input(target="draft-04")


def test_a_recursive_model_cannot_go_to_openapi_and_the_error_names_it() -> None:
    converter = pydantic_schema(Node).__standard__.json_schema
    assert "$defs" in converter.input(target="draft-2020-12")
    with pytest.raises(ValueError, match="'Node' is recursive"):
        converter.input(target="openapi-3.0")


def test_the_builder_accepts_a_model_class() -> None:
    tool = standard_tool(
        name="greet", description="Greet.", input_schema=Person, execute=lambda p: f"hi {p.name}"
    )
    assert tool.execute({"name": "Ada", "age": 36}) == "hi Ada"
    with pytest.raises(StandardToolValidationError) as info:
        tool.execute({"name": "", "age": 36})
    assert info.value.issues[0].path == ("name",)
    assert str(info.value).startswith("input validation failed: name: ")
    assert pickle.loads(pickle.dumps(info.value)).issues == info.value.issues
