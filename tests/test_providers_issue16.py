"""Issue 16, the provider examples: one regression test each.

An anchor reference, a reference with a URI before ``#``, Gemini integers sent as
``1.0``, and the types the Gemini/OpenAI rewrite used to invent for untyped nodes;
then the other classes the provider suite found (enum values a type excludes, the
constraints beside ``anyOf``, ``properties`` beside ``patternProperties``,
``$dynamicRef``) and the draft-07 reference the dialect conversion left behind.
"""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest

from standard_tool import run_tool_sync, standard_tool, tool
from standard_tool.dialects import DRAFT_07_URI, to_draft202012
from standard_tool.providers import (
    GeminiParameters,
    OpenAIStrictSchema,
    ProviderSchemaError,
    gemini_parameters,
    to_gemini,
    to_openai_chat,
    to_openai_responses,
)
from tests.test_providers_suite import GeminiValidator


def _input(v: Any, **extra: Any) -> dict[str, Any]:
    return {"type": "object", "properties": {"v": v}, "required": ["v"], **extra}


def _tool(schema: dict[str, Any]) -> Any:
    return standard_tool(name="t", description="d", input_schema=schema, execute=dict)


# -- an anchor reference (#a) is resolved, not read as the root -----------------------

ANCHOR = _input(
    {"$ref": "#a", "description": "d"}, **{"$defs": {"x": {"$anchor": "a", "type": "integer"}}}
)


def test_an_anchor_reference_is_resolved_for_openai_strict() -> None:
    strict = OpenAIStrictSchema.from_json_schema(ANCHOR)
    assert strict.strict, strict.reason
    assert strict.schema["properties"]["v"]["type"] == "integer"
    assert strict.decode({"v": 3}) == {"v": 3}


@pytest.mark.parametrize("declare", [to_openai_chat, to_openai_responses])
def test_an_anchor_reference_declares_for_openai_with_the_default_strict_auto(declare: Any) -> None:
    declaration = declare(_tool(ANCHOR))
    strict = declaration.get("strict", declaration.get("function", {}).get("strict"))
    assert strict is True


def test_an_anchor_reference_is_inlined_for_gemini() -> None:
    params = GeminiParameters.from_json_schema(ANCHOR)
    assert params.schema is not None
    assert params.schema["properties"]["v"]["type"] == "integer"


# -- a reference with a URI before '#' is refused with the real reason ------------------

URI_REF = _input({"$ref": "http://x.invalid/s#/$defs/x"}, **{"$defs": {"x": {"type": "integer"}}})


def test_a_uri_before_the_fragment_falls_back_from_strict_mode_saying_so() -> None:
    strict = OpenAIStrictSchema.from_json_schema(URI_REF)
    assert not strict.strict
    assert "/properties/v" in str(strict.reason)
    assert "a URI before '#' is not this schema" in str(strict.reason)


def test_a_uri_before_the_fragment_is_refused_for_gemini_saying_so() -> None:
    with pytest.raises(ProviderSchemaError, match="only local references"):
        GeminiParameters.from_json_schema(URI_REF)


# -- Gemini integers: 1.0 is the integer 1 ---------------------------------------------


def test_gemini_declares_an_integer_and_the_tool_accepts_what_the_model_sends_as_1_0() -> None:
    schema = _input({"type": "integer", "minimum": 1})
    json_tool = standard_tool(
        name="t", description="d", input_schema=schema, execute=lambda args: args["v"] * 2
    )
    params = gemini_parameters(json_tool)
    assert params.schema is not None
    assert params.schema["properties"]["v"] == {"type": "integer", "minimum": 1}
    arguments = params.decode({"v": 3.0})  # a whole number may arrive as a float
    assert GeminiValidator(params.schema).is_valid(arguments)
    assert run_tool_sync(json_tool, arguments) == 6.0
    # 1.5 is no integer for the tool either: the declared and the enforced schema agree
    assert not GeminiValidator(params.schema).is_valid({"v": 1.5})
    with pytest.raises(Exception, match="integer"):
        run_tool_sync(json_tool, {"v": 1.5})


def test_a_python_int_parameter_gets_an_int_from_gemini_s_1_0() -> None:
    @tool
    def double(n: int) -> str:
        """Double n.

        Args:
            n: a whole number.
        """
        return repr(n * 2)

    assert to_gemini(double)["parameters"]["properties"]["n"]["type"] == "integer"
    assert run_tool_sync(double, gemini_parameters(double).decode({"n": 3.0})) == "6"


# -- no invented types ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("node", "keyword", "kind"),
    [
        ({"items": {"type": "integer"}}, "items", "array"),
        ({"properties": {"a": {"type": "string"}}}, "properties", "object"),
        ({"additionalProperties": {"type": "string"}}, "additionalProperties", "object"),
        ({"minItems": 1}, "minItems", "array"),
    ],
)
def test_an_untyped_node_is_not_declared_an_array_or_an_object(
    node: dict[str, Any], keyword: str, kind: str
) -> None:
    # {"items": ...} alone also accepts 3 and "x": "array" would show the model less
    reason = f'has no type: {keyword} constrains only {kind}s, any other value passes; add "type"'
    assert jsonschema.Draft202012Validator(_input(node)).is_valid({"v": "x"})
    with pytest.raises(ProviderSchemaError) as refused:
        GeminiParameters.from_json_schema(_input(node))
    assert "/properties/v" in str(refused.value)
    assert reason in str(refused.value)
    strict = OpenAIStrictSchema.from_json_schema(_input(node))
    assert not strict.strict
    assert reason in str(strict.reason)
    assert to_openai_chat(_tool(_input(node)))["function"]["strict"] is False


def test_the_same_node_with_its_type_is_declared() -> None:
    params = GeminiParameters.from_json_schema(
        _input({"type": "array", "items": {"type": "integer"}})
    )
    assert params.schema is not None
    assert params.schema["properties"]["v"] == {"type": "array", "items": {"type": "integer"}}
    assert OpenAIStrictSchema.from_json_schema(
        _input({"type": "array", "items": {"type": "integer"}})
    ).strict


def test_an_untyped_whole_number_enum_is_a_number_and_accepts_0_0() -> None:
    # JSON Schema compares enum numbers by value: 0.0 is in [0]
    schema = _input({"enum": [0, 1]})
    assert jsonschema.Draft202012Validator(schema).is_valid({"v": 0.0})
    strict = OpenAIStrictSchema.from_json_schema(schema)
    assert strict.schema["properties"]["v"] == {"type": "number", "enum": [0, 1]}
    assert jsonschema.Draft202012Validator(strict.schema).is_valid({"v": 0.0})
    params = GeminiParameters.from_json_schema(schema)
    assert params.schema is not None
    assert params.schema["properties"]["v"]["type"] == "number"
    assert GeminiValidator(params.schema).is_valid({"v": 0.0})


# -- the other classes the suite found -------------------------------------------------


def test_enum_values_the_type_excludes_are_left_out_null_included() -> None:
    strict = OpenAIStrictSchema.from_json_schema(_input({"type": "string", "enum": ["a", None, 6]}))
    assert strict.schema["properties"]["v"] == {"type": "string", "enum": ["a"]}
    nullable = OpenAIStrictSchema.from_json_schema(
        _input({"type": ["string", "null"], "enum": ["a", None]})
    )
    assert nullable.schema["properties"]["v"] == {"type": ["string", "null"], "enum": ["a", None]}
    with pytest.raises(ProviderSchemaError, match="has an enum with no string value"):
        GeminiParameters.from_json_schema(_input({"type": "string", "enum": [6]}))


def test_a_type_beside_anyof_is_moved_into_the_branches() -> None:
    # the type excludes null: the null branch goes, rather than the type
    schema = _input({"type": "integer", "anyOf": [{"minimum": 2}, {"type": "null"}]})
    assert not jsonschema.Draft202012Validator(schema).is_valid({"v": None})
    strict = OpenAIStrictSchema.from_json_schema(schema)
    assert strict.schema["properties"]["v"] == {"type": "integer", "minimum": 2}
    params = GeminiParameters.from_json_schema(schema)
    assert params.schema is not None
    assert params.schema["properties"]["v"] == {"type": "integer", "minimum": 2}


def test_a_keyword_both_beside_anyof_and_in_a_branch_is_refused() -> None:
    schema = _input({"type": "integer", "minimum": 0, "anyOf": [{"minimum": 2}, {"maximum": -5}]})
    strict = OpenAIStrictSchema.from_json_schema(schema)
    assert not strict.strict
    assert "has minimum both beside anyOf and in a branch" in str(strict.reason)


@pytest.mark.parametrize("other", ["patternProperties", "unevaluatedProperties"])
def test_properties_beside_schemas_for_the_other_keys_are_refused(other: str) -> None:
    # issue 16: {"foo": 1, "vroom": 2} is valid; a closed object would refuse "vroom"
    extra = {"^v": {"type": "integer"}} if other == "patternProperties" else {"type": "integer"}
    node = {"type": "object", "properties": {"foo": {"type": "integer"}}, other: extra}
    schema = _input(
        {**node, "additionalProperties": False} if other == "patternProperties" else node
    )
    if other == "patternProperties":
        assert jsonschema.Draft202012Validator(schema).is_valid({"v": {"foo": 1, "vroom": 2}})
    strict = OpenAIStrictSchema.from_json_schema(schema)
    assert not strict.strict
    assert f"/properties/v has both properties and {other}" in str(strict.reason)
    with pytest.raises(ProviderSchemaError, match=f"has both properties and {other}"):
        GeminiParameters.from_json_schema(schema)


def test_a_dynamic_reference_is_refused_not_dropped() -> None:
    schema = _input(
        {"type": "integer", "$dynamicRef": "#n"},
        **{"$defs": {"n": {"$dynamicAnchor": "n", "type": "integer", "minimum": 3}}},
    )
    strict = OpenAIStrictSchema.from_json_schema(schema)
    assert not strict.strict
    assert "has a $dynamicRef: OpenAI has no dynamic reference" in str(strict.reason)


def test_a_draft07_reference_into_nested_array_items_follows_the_rename() -> None:
    schema = {
        "$schema": DRAFT_07_URI,
        "type": "object",
        "properties": {"v": {"items": [{"type": "integer"}, {"$ref": "#/properties/v/items/0"}]}},
    }
    converted = to_draft202012(schema)
    assert converted["properties"]["v"]["prefixItems"][1] == {
        "$ref": "#/properties/v/prefixItems/0"
    }
    validator = jsonschema.Draft202012Validator(converted)
    assert validator.is_valid({"v": [1, 2]})
    assert not validator.is_valid({"v": [1, "x"]})
