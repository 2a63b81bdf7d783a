"""Gemini: the OpenAPI subset, refused schemas, and decoding arguments back."""

from __future__ import annotations

from typing import Any

import pytest
from google.genai import types as genai_types
from hypothesis import given
from hypothesis import strategies as st

from standard_tool import run_tool_sync
from standard_tool.providers import (
    GeminiParameters,
    ProviderSchemaError,
    check_gemini,
    gemini_parameters,
)
from tests.example_tools import count_nodes, fetch_page, lookup_user, paint, tag_resource


def gemini(schema: dict[str, Any]) -> dict[str, Any]:
    out = GeminiParameters.from_json_schema(schema).schema
    assert out is not None
    assert check_gemini(out) == []
    genai_types.FunctionDeclaration.model_validate({"name": "t", "parameters": out})
    return out


def obj(props: dict[str, Any], required: list[str] | None = None) -> dict[str, Any]:
    return {"type": "object", "properties": props, "required": required or []}


def test_null_unions_become_nullable() -> None:
    out = gemini(obj({"a": {"anyOf": [{"type": "string"}, {"type": "null"}]}}))
    assert out["properties"]["a"] == {"type": "string", "nullable": True}


def test_string_enums_are_kept_and_other_enums_described() -> None:
    out = gemini(obj({"s": {"enum": ["x", "y"]}, "n": {"type": "integer", "enum": [1, 2]}}))
    assert out["properties"]["s"] == {"type": "string", "enum": ["x", "y"]}
    assert out["properties"]["n"] == {"type": "integer", "description": "(one of: [1, 2])"}


def test_unknown_formats_and_defaults_move_into_descriptions() -> None:
    out = gemini(
        obj(
            {
                "u": {"type": "string", "format": "uri", "default": "x"},
                "d": {"type": "string", "format": "date-time"},
                "f": {"type": "number", "multipleOf": 0.5},
            }
        )
    )
    assert out["properties"]["u"] == {
        "type": "string",
        "description": '(format: "uri"; default: "x")',
    }
    assert out["properties"]["d"] == {"type": "string", "format": "date-time"}
    assert out["properties"]["f"] == {"type": "number", "description": "(multipleOf: 0.5)"}


def test_string_and_number_bounds_stay() -> None:
    params = gemini_parameters(lookup_user).schema
    assert params is not None
    username = params["properties"]["username"]
    assert username["minLength"] == 3
    assert username["maxLength"] == 20
    assert username["pattern"] == "^[a-z_]+$"
    assert params["properties"]["limit"]["minimum"] == 1


def test_enum_parameters_keep_their_values() -> None:
    params = gemini_parameters(paint).schema
    assert params is not None
    assert params["properties"]["color"]["enum"] == ["red", "green", "blue"]


def test_maps_are_sent_as_entries_and_decoded_back() -> None:
    view = gemini_parameters(tag_resource)
    params = view.schema
    assert params is not None
    assert params["properties"]["tags"]["type"] == "array"
    decoded = view.decode({"resource_id": "r", "tags": [{"key": "a", "value": "b"}]})
    assert decoded == {"resource_id": "r", "tags": {"a": "b"}}
    assert run_tool_sync(tag_resource, decoded) == {"a": "b"}


def test_a_tool_without_parameters_decodes_missing_args_to_an_empty_input() -> None:
    view = GeminiParameters.from_json_schema({"type": "object", "properties": {}})
    assert view.schema is None
    assert view.decode(None) == {}


def test_optional_properties_stay_optional() -> None:
    params = gemini_parameters(fetch_page).schema
    assert params is not None
    assert params["required"] == ["url"]
    assert params["properties"]["timeout"]["description"] == "(default: 10.0)"


@pytest.mark.parametrize(
    ("prop", "words"),
    [
        ({"type": "object"}, "any keys and any values"),
        ({}, "accepts any value"),
        ({"type": "array", "prefixItems": [{"type": "string"}]}, "tuple"),
        ({"type": "null"}, "accepts only null"),
        ({"enum": ["a", 1]}, "mixing kinds"),
    ],
)
def test_schemas_gemini_cannot_express_are_refused_naming_the_path(prop: Any, words: str) -> None:
    with pytest.raises(ProviderSchemaError) as info:
        GeminiParameters.from_json_schema(obj({"p": prop}, ["p"]), name="my_tool")
    message = str(info.value)
    assert message.startswith("standard_tool.providers: cannot declare tool 'my_tool' for Gemini")
    assert "/properties/p" in message
    assert words in message


def test_recursion_is_refused_every_time_from_the_cache() -> None:
    for _ in range(2):
        with pytest.raises(ProviderSchemaError, match="recursive"):
            gemini_parameters(count_nodes)


def test_the_view_is_immutable_and_cached() -> None:
    view = gemini_parameters(tag_resource)
    assert view is gemini_parameters(tag_resource)
    with pytest.raises(AttributeError):
        view._plan = None  # pyright: ignore[reportAttributeAccessIssue]
    assert repr(view) == "GeminiParameters(has_parameters=True)"


_LEAVES = st.sampled_from(
    [
        {"type": "string"},
        {"type": "integer", "minimum": 1},
        {"type": "boolean"},
        {"type": "string", "enum": ["a", "b"]},
        {"type": "string", "format": "uuid"},
        {"type": "number", "exclusiveMaximum": 3},
    ]
)
_SCHEMAS = st.recursive(
    _LEAVES,
    lambda children: st.one_of(
        children.map(lambda c: {"type": "array", "items": c}),
        children.map(lambda c: {"type": "object", "additionalProperties": c}),
        children.map(lambda c: {"anyOf": [c, {"type": "null"}]}),
        st.dictionaries(st.sampled_from("abcd"), children, min_size=1, max_size=3).map(
            lambda d: obj(d, list(d)[:1])
        ),
    ),
    max_leaves=6,
)


@given(props=st.dictionaries(st.sampled_from(["x", "y", "z_1"]), _SCHEMAS, min_size=1, max_size=3))
def test_every_rewrite_passes_the_checker_and_the_sdk(props: dict[str, Any]) -> None:
    first = next(iter(props.values()))
    schema = {
        **obj({**props, "ref": {"$ref": "#/$defs/D", "description": "via a ref"}}),
        "$defs": {"D": first},
    }
    out = gemini(schema)
    assert "$ref" not in str(out)
    assert out["properties"]["ref"]["description"].startswith("via a ref")


@pytest.mark.parametrize(
    ("prop", "words"),
    [
        ({"type": "object"}, "any keys and any values"),
        ({"type": "object", "properties": {}}, "any keys and any values"),
        ({"type": "object", "properties": {}, "additionalProperties": {}}, "accepts any value"),
    ],
    ids=["no properties", "empty properties", "empty properties, any extra"],
)
def test_an_open_object_without_properties_is_refused_however_it_is_spelled(
    prop: Any, words: str
) -> None:
    """``"properties": {}`` says no more than nothing: the tool accepts any object."""
    with pytest.raises(ProviderSchemaError, match=words):
        GeminiParameters.from_json_schema(obj({"p": prop}, ["p"]))


def test_a_closed_empty_object_below_the_root_is_refused_for_gemini() -> None:
    closed = {"type": "object", "properties": {}, "additionalProperties": False}
    words = "Gemini objects below the root must have named properties"
    with pytest.raises(ProviderSchemaError, match=words):
        GeminiParameters.from_json_schema(obj({"p": closed}, ["p"]))


def test_check_gemini_flags_an_object_without_properties_below_the_root() -> None:
    problems = check_gemini(obj({"p": {"type": "object"}}, ["p"]))
    assert [(p.path, p.message) for p in problems] == [
        (("properties", "p"), "an object below the root must have named properties")
    ]
    assert check_gemini({"type": "object"}) == []  # the root: a tool without parameters


def test_the_parameter_name_rule_says_ascii_letters() -> None:
    (problem,) = check_gemini(obj({"café": {"type": "string"}}))
    assert problem.path == ("properties", "café")
    assert problem.message.startswith("a parameter name must start with an ASCII letter")


@pytest.mark.parametrize(
    "root",
    [
        {"type": "object"},
        {"type": "object", "properties": {}},
        {"type": "object", "properties": {}, "additionalProperties": False},
    ],
)
def test_a_root_without_properties_is_declared_without_parameters(root: dict[str, Any]) -> None:
    """docs/dialects.md: the model sends no arguments; an open root would take more."""
    view = GeminiParameters.from_json_schema(root)
    assert view.schema is None
    assert view.decode(None) == {}
