"""standard_tool.schemas.msgspec against the real msgspec."""

from __future__ import annotations

import dataclasses
import enum
from typing import Annotated, Any, Literal

import msgspec
import pytest
from jsonschema import Draft7Validator, Draft202012Validator

from standard_tool import (
    FailureResult,
    Issue,
    StandardToolValidationError,
    SuccessResult,
    is_standard_json_schema,
    is_standard_schema,
    standard_tool,
)
from standard_tool.schemas.msgspec import UNKNOWN_KEY, MsgspecSchema, msgspec_schema
from tests.test_dialects import assert_openapi_30


class Color(enum.Enum):
    RED = "red"
    GREEN = "green"


class Address(msgspec.Struct, rename="camel"):
    street: str
    zip_code: Annotated[str, msgspec.Meta(pattern=r"^\d{5}$")]


class Person(msgspec.Struct):
    name: Annotated[str, msgspec.Meta(min_length=1, description="Full name.")]
    age: Annotated[int, msgspec.Meta(ge=0)]
    color: Color = Color.RED
    nickname: str | None = None
    addresses: list[Address] = []
    tags: dict[str, int] = {}


class Node(msgspec.Struct):
    value: int
    children: list[Node] = []


@dataclasses.dataclass
class Pair:
    left: int
    right: int


def issue_of(result: Any) -> tuple[str, Any]:
    assert isinstance(result, FailureResult)
    assert len(result.issues) == 1
    return result.issues[0].message, result.issues[0].path


def test_a_struct_conforms_to_both_protocols() -> None:
    schema = msgspec_schema(Person)
    assert is_standard_schema(schema)
    assert is_standard_json_schema(schema)
    assert schema.__standard__.version == 1
    assert schema.__standard__.vendor == "msgspec"
    assert isinstance(schema, MsgspecSchema)
    assert repr(schema) == "MsgspecSchema(Person)"


def test_validate_returns_a_struct_with_defaults_and_renamed_fields() -> None:
    result = msgspec_schema(Person).__standard__.validate(
        {"name": "Ada", "age": 36, "addresses": [{"street": "Main", "zipCode": "12345"}]}
    )
    assert isinstance(result, SuccessResult)
    person = result.value
    assert isinstance(person, Person)
    assert person.color is Color.RED
    assert person.nickname is None
    assert person.addresses[0].zip_code == "12345"


@pytest.mark.parametrize(
    ("value", "path"),
    [
        ({"name": "Ada", "age": "36"}, ("age",)),
        ({"name": "", "age": 1}, ("name",)),
        ({"name": "Ada", "age": -1}, ("age",)),
        ({"name": "Ada", "age": 1, "color": "blue"}, ("color",)),
        (
            {"name": "Ada", "age": 1, "addresses": [{"street": "M", "zipCode": "x"}]},
            ("addresses", 0, "zipCode"),
        ),
        ({"name": "Ada", "age": 1, "addresses": [{"street": "M"}]}, ("addresses", 0, "zipCode")),
        ({"name": "Ada", "age": 1, "tags": {"a": "b"}}, ("tags", UNKNOWN_KEY)),
        ({"name": "Ada", "age": 1, "tags": {1: 2}}, ("tags",)),
        ([], None),
    ],
)
def test_failures_carry_structured_paths(value: Any, path: Any) -> None:
    message, actual = issue_of(msgspec_schema(Person).__standard__.validate(value))
    assert actual == path
    assert " - at " not in message


def test_a_missing_field_is_named_in_path_and_message() -> None:
    message, path = issue_of(msgspec_schema(Person).__standard__.validate({"age": 1}))
    assert path == ("name",)
    assert "`name`" in message


def test_an_invalid_key_says_so() -> None:
    message, _ = issue_of(msgspec_schema(dict[int, int]).__standard__.validate({"a": 1}))
    assert message.startswith("invalid key: ")


def test_recursive_structs_validate_at_depth() -> None:
    validate = msgspec_schema(Node).__standard__.validate
    assert isinstance(validate({"value": 1, "children": [{"value": 2}]}).value, Node)
    _, path = issue_of(
        validate({"value": 1, "children": [{"value": 2, "children": [{"value": "x"}]}]})
    )
    assert path == ("children", 0, "children", 0, "value")


@pytest.mark.parametrize(
    ("tp", "good", "expected", "bad"),
    [
        (list[int], [1, 2], [1, 2], [1, "x"]),
        (Pair, {"left": 1, "right": 2}, Pair(1, 2), {"left": 1}),
        (Annotated[int, msgspec.Meta(gt=0)], 5, 5, 0),
        (tuple[int, str], [1, "a"], (1, "a"), [1, 2]),
    ],
)
def test_any_convert_type(tp: Any, good: Any, expected: Any, bad: Any) -> None:
    validate = MsgspecSchema(tp).__standard__.validate
    assert validate(good).value == expected
    assert validate(bad).issues is not None


def test_strict_is_the_default_and_can_be_turned_off() -> None:
    assert msgspec_schema(int).__standard__.validate("1").issues is not None
    assert msgspec_schema(int, strict=False).__standard__.validate("1").value == 1


def test_from_attributes_and_dec_hook_reach_msgspec() -> None:
    @dataclasses.dataclass
    class Source:
        left: int
        right: int

    lenient = msgspec_schema(Pair, from_attributes=True)
    assert lenient.__standard__.validate(Source(1, 2)).value == Pair(1, 2)

    class Celsius(float):
        pass

    def dec_hook(tp: type, obj: Any) -> Any:
        if tp is Celsius:
            return Celsius(obj)
        raise NotImplementedError

    value = msgspec_schema(list[Celsius], dec_hook=dec_hook).__standard__.validate([1.5]).value
    assert type(value[0]) is Celsius


def test_a_type_msgspec_cannot_handle_fails_at_wrap_time() -> None:
    with pytest.raises(TypeError):
        msgspec_schema(object())


def test_json_schema_for_every_target_is_valid_for_that_target() -> None:
    converter = msgspec_schema(Person).__standard__.json_schema
    draft2020 = converter.input(target="draft-2020-12")
    Draft202012Validator.check_schema(draft2020)
    assert draft2020["properties"]["name"]["description"] == "Full name."
    assert converter.output(target="draft-2020-12") == draft2020
    Draft7Validator.check_schema(converter.input(target="draft-07"))
    openapi = converter.input(target="openapi-3.0")
    assert_openapi_30(openapi)
    assert openapi["properties"]["nickname"]["nullable"] is True


def test_json_schema_is_a_fresh_copy_each_call() -> None:
    converter = msgspec_schema(Person).__standard__.json_schema
    converter.input(target="draft-07").clear()
    assert converter.input(target="draft-07")


def test_library_options_reach_msgspec() -> None:
    class Money:
        pass

    def schema_hook(tp: type) -> dict[str, Any]:
        assert tp is Money
        return {"type": "string", "pattern": "^[0-9]+$"}

    converter = msgspec_schema(
        list[Money], dec_hook=lambda tp, obj: Money()
    ).__standard__.json_schema
    schema = converter.input(target="draft-07", library_options={"schema_hook": schema_hook})
    assert schema == {"type": "array", "items": {"type": "string", "pattern": "^[0-9]+$"}}


def test_unknown_target_raises_value_error() -> None:
    with pytest.raises(ValueError, match="supported targets"):
        msgspec_schema(Person).__standard__.json_schema.output(target="openapi-3.1")


def test_a_recursive_struct_cannot_go_to_openapi_and_the_error_names_it() -> None:
    with pytest.raises(ValueError, match="'Node' is recursive"):
        msgspec_schema(Node).__standard__.json_schema.input(target="openapi-3.0")


def test_the_builder_accepts_a_struct_type() -> None:
    tool = standard_tool(
        name="greet", description="Greet.", input_schema=Person, execute=lambda p: f"hi {p.name}"
    )
    assert tool.execute({"name": "Ada", "age": 36}) == "hi Ada"
    with pytest.raises(StandardToolValidationError, match=r"^input validation failed: age: "):
        tool.execute({"name": "Ada", "age": "x"})


def test_a_struct_schema_has_an_object_root_not_a_bare_ref() -> None:
    schema = msgspec_schema(Person).__standard__.json_schema.input(target="draft-2020-12")
    assert schema["type"] == "object"
    assert "$ref" not in schema
    assert "Person" not in schema.get("$defs", {})


def test_a_recursive_struct_keeps_its_definition_for_the_inner_references() -> None:
    schema = msgspec_schema(Node).__standard__.json_schema.input(target="draft-2020-12")
    assert schema["type"] == "object"
    ref = schema["properties"]["children"]["items"]["$ref"]
    assert ref.removeprefix("#/$defs/") in schema["$defs"]
    Draft202012Validator.check_schema(schema)
    validator = Draft202012Validator(schema)
    assert validator.is_valid({"value": 1, "children": [{"value": 2, "children": []}]})
    assert not validator.is_valid({"value": 1, "children": [{"value": 2, "children": [1]}]})


_SURROGATE_ISSUE = Issue("contains a lone surrogate, which is not valid Unicode text")


@pytest.mark.parametrize(
    ("value", "issue"),
    [
        (
            {"name\ud800": 1, "name": "x"},
            Issue(_SURROGATE_ISSUE.message, ("name\ud800",)),  # the key, named
        ),
        ("\ud800", _SURROGATE_ISSUE),
        ({"name": 3, "\udfff": 1}, Issue("Expected `str`, got `int`", ("name",))),
    ],
)
@pytest.mark.parametrize("options", [{}, {"strict": False}])
def test_a_lone_surrogate_is_an_issue_not_a_crash(
    value: Any, issue: Issue, options: dict[str, Any]
) -> None:
    schema = msgspec_schema(Person, **options)
    result = schema.__standard__.validate(value)
    assert result.issues == (issue,)
    tool = standard_tool(name="p", description="d", input_schema=schema, execute=lambda p: p)
    with pytest.raises(StandardToolValidationError) as raised:
        tool.execute(value)
    assert raised.value.issues == (issue,)


# -- issue 26: values msgspec cannot walk are bounded issues naming the path ------------


class Tree(msgspec.Struct):
    children: list[Tree]


class Choice(msgspec.Struct):
    label: str
    picks: list[Literal["a", "b"]]


def _nested(levels: int) -> dict[str, Any]:
    value: dict[str, Any] = {"children": []}
    for _ in range(levels):
        value = {"children": [value]}
    return value


@pytest.mark.parametrize("options", [{}, {"strict": False}])
def test_a_value_nested_too_deep_or_containing_itself_is_an_issue_with_its_path(
    options: dict[str, Any],
) -> None:
    looped: dict[str, Any] = {"children": []}
    looped["children"].append(looped)
    schema = msgspec_schema(Tree, **options)
    tool = standard_tool(name="t", description="d", input_schema=schema, execute=lambda t: t)
    for value, message, path in (
        (_nested(2_000), "nested more than 100 levels deep", ("children", 0) * 50),
        (looped, "contains itself", ("children", 0)),
    ):
        result = schema.__standard__.validate(value)
        if result.issues is None and value is not looped:
            # msgspec converts this depth where the interpreter's stack allows it (3.13):
            # no crash and no issue is the right answer there.
            continue
        assert result.issues is not None
        assert [(i.message, i.path) for i in result.issues] == [(message, path)]
        with pytest.raises(StandardToolValidationError) as raised:
            tool.execute(value)
        assert raised.value.issues == result.issues
        assert len(str(raised.value)) < 1_000


@pytest.mark.parametrize("options", [{}, {"strict": False}])
def test_a_lone_surrogate_msgspec_cannot_encode_is_named_by_its_path(
    options: dict[str, Any],
) -> None:
    schema = msgspec_schema(Choice, **options)
    bad = "".join(["b", "\udc00"])  # a string of its own, not an interned constant
    result = schema.__standard__.validate({"label": "x\ud800", "picks": ["a", bad]})
    assert result.issues == (Issue(_SURROGATE_ISSUE.message, ("picks", 1)),)
