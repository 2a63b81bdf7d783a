"""standard_tool.dialects: conversions between JSON Schema dialects, checked by example.

Every converted schema is validated against the official metaschema of its target.
"""

from __future__ import annotations

import copy
from types import MappingProxyType
from typing import Any

import pytest
from jsonschema import Draft4Validator, Draft7Validator, Draft202012Validator

from standard_tool.dialects import (
    DRAFT_07_URI,
    DRAFT_2020_12_URI,
    SUPPORTED_TARGETS,
    convert,
    detect_dialect,
    inline_refs,
    to_draft07,
    to_draft202012,
    to_openapi30,
)
from standard_tool.types import SUPPORTED_TARGETS as CORE_TARGETS

# The Schema Object of OpenAPI 3.0, copied from the official OpenAPI 3.0 JSON Schema
# (https://spec.openapis.org/oas/3.0/schema/2021-09-28, a draft-04 document).
_SCHEMA_OR_REF = {"oneOf": [{"$ref": "#/definitions/Schema"}, {"$ref": "#/definitions/Reference"}]}
_EXT: dict[str, Any] = {"^x-": {}}
OPENAPI_30_SCHEMA_OBJECT: dict[str, Any] = {
    "$schema": "http://json-schema.org/draft-04/schema#",
    "$ref": "#/definitions/Schema",
    "definitions": {
        "Reference": {
            "type": "object",
            "required": ["$ref"],
            "patternProperties": {"^\\$ref$": {"type": "string", "format": "uri-reference"}},
        },
        "Discriminator": {
            "type": "object",
            "required": ["propertyName"],
            "properties": {
                "propertyName": {"type": "string"},
                "mapping": {"type": "object", "additionalProperties": {"type": "string"}},
            },
        },
        "XML": {
            "type": "object",
            "properties": {
                "name": {"type": "string"},
                "namespace": {"type": "string", "format": "uri"},
                "prefix": {"type": "string"},
                "attribute": {"type": "boolean", "default": False},
                "wrapped": {"type": "boolean", "default": False},
            },
            "patternProperties": _EXT,
            "additionalProperties": False,
        },
        "ExternalDocumentation": {
            "type": "object",
            "required": ["url"],
            "properties": {
                "description": {"type": "string"},
                "url": {"type": "string", "format": "uri-reference"},
            },
            "patternProperties": _EXT,
            "additionalProperties": False,
        },
        "Schema": {
            "type": "object",
            "properties": {
                "title": {"type": "string"},
                "multipleOf": {"type": "number", "minimum": 0, "exclusiveMinimum": True},
                "maximum": {"type": "number"},
                "exclusiveMaximum": {"type": "boolean", "default": False},
                "minimum": {"type": "number"},
                "exclusiveMinimum": {"type": "boolean", "default": False},
                "maxLength": {"type": "integer", "minimum": 0},
                "minLength": {"type": "integer", "minimum": 0, "default": 0},
                "pattern": {"type": "string", "format": "regex"},
                "maxItems": {"type": "integer", "minimum": 0},
                "minItems": {"type": "integer", "minimum": 0, "default": 0},
                "uniqueItems": {"type": "boolean", "default": False},
                "maxProperties": {"type": "integer", "minimum": 0},
                "minProperties": {"type": "integer", "minimum": 0, "default": 0},
                "required": {
                    "type": "array",
                    "items": {"type": "string"},
                    "minItems": 1,
                    "uniqueItems": True,
                },
                "enum": {"type": "array", "items": {}, "minItems": 1, "uniqueItems": False},
                "type": {
                    "type": "string",
                    "enum": ["array", "boolean", "integer", "number", "object", "string"],
                },
                "not": _SCHEMA_OR_REF,
                "allOf": {"type": "array", "items": _SCHEMA_OR_REF},
                "oneOf": {"type": "array", "items": _SCHEMA_OR_REF},
                "anyOf": {"type": "array", "items": _SCHEMA_OR_REF},
                "items": _SCHEMA_OR_REF,
                "properties": {"type": "object", "additionalProperties": _SCHEMA_OR_REF},
                "additionalProperties": {
                    "oneOf": [*_SCHEMA_OR_REF["oneOf"], {"type": "boolean"}],
                    "default": True,
                },
                "description": {"type": "string"},
                "format": {"type": "string"},
                "default": {},
                "nullable": {"type": "boolean", "default": False},
                "discriminator": {"$ref": "#/definitions/Discriminator"},
                "readOnly": {"type": "boolean", "default": False},
                "writeOnly": {"type": "boolean", "default": False},
                "example": {},
                "externalDocs": {"$ref": "#/definitions/ExternalDocumentation"},
                "deprecated": {"type": "boolean", "default": False},
                "xml": {"$ref": "#/definitions/XML"},
            },
            "patternProperties": _EXT,
            "additionalProperties": False,
        },
    },
}
_OPENAPI_30 = Draft4Validator(OPENAPI_30_SCHEMA_OBJECT)


def _walk(schema: Any) -> Any:
    yield schema
    if isinstance(schema, dict):
        for value in schema.values():
            yield from _walk(value)
    elif isinstance(schema, list):
        for value in schema:
            yield from _walk(value)


def assert_openapi_30(schema: dict[str, Any]) -> None:
    """The official Schema Object rules, plus the prose ones its JSON Schema cannot say."""
    errors = [e.message for e in _OPENAPI_30.iter_errors(schema)]
    assert not errors, errors
    for node in _walk(schema):
        if isinstance(node, dict) and node.get("type") == "array":
            assert "items" in node, f"OpenAPI 3.0: items MUST be present for an array: {node}"
        assert not (isinstance(node, dict) and "$ref" in node), "a $ref was left"


def assert_draft07(schema: dict[str, Any]) -> None:
    Draft7Validator.check_schema(schema)
    text = repr(schema)
    for keyword in ("$defs", "prefixItems", "dependentRequired", "dependentSchemas", "$anchor"):
        assert keyword not in text, f"{keyword} left in a draft-07 schema"


def assert_accepts_same(
    original: dict[str, Any], converted: dict[str, Any], instances: list[Any], *, draft07: bool
) -> None:
    before = Draft202012Validator(original)
    after = (Draft7Validator if draft07 else Draft202012Validator)(converted)
    for instance in instances:
        assert before.is_valid(instance) == after.is_valid(instance), instance


MODEL: dict[str, Any] = {
    "$defs": {
        "Color": {"enum": ["red", "green"], "title": "Color", "type": "string"},
        "Point": {
            "title": "Point",
            "type": "object",
            "properties": {
                "x": {"type": "integer", "exclusiveMinimum": 0},
                "y": {"anyOf": [{"type": "number"}, {"type": "null"}], "default": None},
            },
            "required": ["x"],
        },
    },
    "title": "Shape",
    "type": "object",
    "properties": {
        "color": {"$ref": "#/$defs/Color", "description": "Fill."},
        "points": {"type": "array", "items": {"$ref": "#/$defs/Point"}, "minItems": 1},
        "pair": {
            "type": "array",
            "prefixItems": [{"type": "string"}, {"type": "integer"}],
            "items": False,
            "minItems": 2,
        },
        "tag": {"const": "shape"},
        "note": {"type": ["string", "null"], "maxLength": 5},
    },
    "required": ["color", "points"],
}
MODEL_INSTANCES: list[Any] = [
    {"color": "red", "points": [{"x": 1}]},
    {"color": "blue", "points": [{"x": 1}]},
    {"color": "red", "points": []},
    {"color": "red", "points": [{"x": 0}]},
    {"color": "red", "points": [{"x": 1, "y": None}, {"x": 2, "y": 1.5}]},
    {"color": "red", "points": [{"x": 1, "y": "no"}]},
    {"color": "red", "points": [{"x": 1}], "pair": ["a", 1]},
    {"color": "red", "points": [{"x": 1}], "pair": ["a", 1, 2]},
    {"color": "red", "points": [{"x": 1}], "pair": [1, "a"]},
    {"color": "red", "points": [{"x": 1}], "tag": "shape", "note": None},
    {"color": "red", "points": [{"x": 1}], "tag": "other"},
    {"color": "red", "points": [{"x": 1}], "note": "too long"},
    {"points": [{"x": 1}]},
    None,
    [],
]


# --- entry point --------------------------------------------------------------------------


def test_supported_targets_match_the_core() -> None:
    assert SUPPORTED_TARGETS == ("draft-2020-12", "draft-07", "openapi-3.0")
    assert tuple(CORE_TARGETS) == SUPPORTED_TARGETS


def test_unknown_target_raises_value_error_naming_the_supported_ones() -> None:
    with pytest.raises(ValueError, match="unsupported JSON Schema target 'draft-04'") as info:
        convert({"type": "string"}, "draft-04")
    for target in SUPPORTED_TARGETS:
        assert repr(target) in str(info.value)


@pytest.mark.parametrize("target", SUPPORTED_TARGETS)
def test_convert_never_mutates_its_input_and_returns_a_fresh_dict(target: str) -> None:
    original = copy.deepcopy(MODEL)
    first = convert(MODEL, target)
    assert original == MODEL
    first["mutated"] = True
    assert "mutated" not in convert(MODEL, target)


def test_convert_to_2020_12_is_a_deep_copy() -> None:
    result = convert(MODEL, "draft-2020-12")
    assert result == MODEL
    result["properties"]["color"]["description"] = "changed"
    assert MODEL["properties"]["color"]["description"] == "Fill."


def test_convert_accepts_any_mapping_and_tuples() -> None:
    schema = MappingProxyType({"type": "array", "prefixItems": ({"type": "string"},)})
    assert convert(schema, "draft-2020-12") == {
        "type": "array",
        "prefixItems": [{"type": "string"}],
    }


def test_dialect_is_read_from_dollar_schema() -> None:
    assert detect_dialect({}) == "draft-2020-12"
    assert detect_dialect({"$schema": DRAFT_2020_12_URI}) == "draft-2020-12"
    assert detect_dialect({"$schema": DRAFT_07_URI}) == "draft-07"
    assert detect_dialect({"$schema": "https://json-schema.org/draft-07/schema"}) == "draft-07"
    with pytest.raises(ValueError, match="unsupported \\$schema"):
        detect_dialect({"$schema": "http://json-schema.org/draft-04/schema#"})


# --- draft-07 ------------------------------------------------------------------------------


def test_draft07_renames_defs_and_rewrites_refs() -> None:
    result = to_draft07(MODEL)
    assert_draft07(result)
    assert set(result["definitions"]) == {"Color", "Point"}
    assert result["properties"]["points"]["items"] == {"$ref": "#/definitions/Point"}
    assert_accepts_same(MODEL, result, MODEL_INSTANCES, draft07=True)


def test_draft07_wraps_a_ref_with_siblings_in_all_of() -> None:
    result = to_draft07(MODEL)
    assert result["properties"]["color"] == {
        "description": "Fill.",
        "allOf": [{"$ref": "#/definitions/Color"}],
    }


def test_draft07_keeps_a_root_ref_beside_its_definitions() -> None:
    schema = {"$ref": "#/$defs/A", "$defs": {"A": {"type": "integer"}}}
    assert to_draft07(schema) == {
        "$ref": "#/definitions/A",
        "definitions": {"A": {"type": "integer"}},
    }


def test_draft07_turns_prefix_items_into_array_items() -> None:
    schema = {"prefixItems": [{"type": "string"}], "items": {"type": "integer"}}
    result = to_draft07(schema)
    assert result == {"items": [{"type": "string"}], "additionalItems": {"type": "integer"}}
    assert_draft07(result)
    assert_accepts_same(schema, result, [["a"], ["a", 1, 2], [1], ["a", "b"], []], draft07=True)


def test_draft07_merges_dependent_keywords_into_dependencies() -> None:
    schema = {
        "dependentRequired": {"a": ["b"]},
        "dependentSchemas": {
            "a": {"properties": {"c": {"type": "string"}}},
            "d": {"required": ["e"]},
        },
    }
    result = to_draft07(schema)
    assert_draft07(result)
    instances = [{"a": 1}, {"a": 1, "b": 2}, {"a": 1, "b": 2, "c": 3}, {"d": 1}, {"d": 1, "e": 1}]
    assert_accepts_same(schema, result, instances, draft07=True)


def test_draft07_sets_dollar_schema_only_when_present() -> None:
    assert to_draft07({"$schema": DRAFT_2020_12_URI})["$schema"] == DRAFT_07_URI
    assert "$schema" not in to_draft07({"type": "string"})


def test_draft07_maps_unevaluated_properties_when_exact() -> None:
    schema = {"properties": {"a": {}}, "unevaluatedProperties": False}
    result = to_draft07(schema)
    assert result == {"properties": {"a": {}}, "additionalProperties": False}
    assert_accepts_same(schema, result, [{"a": 1}, {"a": 1, "b": 2}], draft07=True)


def test_draft07_anchor_becomes_a_plain_name_id() -> None:
    assert to_draft07({"$anchor": "node"}) == {"$id": "#node"}


def test_draft07_refs_into_nested_defs_are_rewritten() -> None:
    schema = {
        "properties": {"a": {"$defs": {"X": {"type": "string"}}}},
        "items": {"$ref": "#/properties/a/$defs/X"},
    }
    result = to_draft07(schema)
    assert result["items"] == {"$ref": "#/properties/a/definitions/X"}
    assert_accepts_same(schema, result, [["s"], [1]], draft07=True)


def test_a_property_named_like_a_keyword_is_left_alone() -> None:
    schema = {
        "properties": {"$defs": {"type": "string"}},
        "items": {"$ref": "#/properties/$defs"},
    }
    assert to_draft07(schema)["items"] == {"$ref": "#/properties/$defs"}


def test_draft07_input_converts_back_to_2020_12() -> None:
    draft07 = {
        "$schema": DRAFT_07_URI,
        "definitions": {"A": {"type": "integer"}},
        "type": "object",
        "properties": {
            "a": {"$ref": "#/definitions/A", "minimum": 100},
            "t": {"items": [{"type": "string"}], "additionalItems": False},
        },
        "dependencies": {"a": ["t"], "t": {"required": ["a"]}},
    }
    result = to_draft202012(draft07)
    Draft202012Validator.check_schema(result)
    assert result["$schema"] == DRAFT_2020_12_URI
    assert result["properties"]["a"] == {"$ref": "#/$defs/A"}
    assert result["properties"]["t"] == {"prefixItems": [{"type": "string"}], "items": False}
    assert result["dependentRequired"] == {"a": ["t"]}
    instances = [{"a": 1, "t": ["x"]}, {"a": 1}, {"t": ["x", "y"]}, {"a": "s", "t": []}]
    before = Draft7Validator(draft07)
    after = Draft202012Validator(result)
    for instance in instances:
        assert before.is_valid(instance) == after.is_valid(instance), instance


def test_a_draft07_round_trip_is_stable() -> None:
    source = {"$schema": DRAFT_2020_12_URI, **MODEL}
    assert to_draft202012(to_draft07(source)) == {
        **source,
        "properties": {
            **MODEL["properties"],
            "color": {"description": "Fill.", "allOf": [{"$ref": "#/$defs/Color"}]},
        },
    }


# --- inlining -------------------------------------------------------------------------------


def test_inline_refs_replaces_every_ref_and_drops_defs() -> None:
    result = inline_refs(MODEL)
    Draft202012Validator.check_schema(result)
    assert "$defs" not in result
    assert "$ref" not in repr(result)
    assert result["properties"]["color"] == {
        "enum": ["red", "green"],
        "title": "Color",
        "type": "string",
        "description": "Fill.",
    }
    assert_accepts_same(MODEL, result, MODEL_INSTANCES, draft07=False)


def test_inline_refs_combines_overlapping_siblings_with_all_of() -> None:
    schema = {
        "$defs": {"Big": {"type": "integer", "minimum": 10}},
        "properties": {"n": {"$ref": "#/$defs/Big", "minimum": 20}},
    }
    result = inline_refs(schema)
    assert result["properties"]["n"] == {
        "minimum": 20,
        "allOf": [{"type": "integer", "minimum": 10}],
    }
    instances = [{"n": 5}, {"n": 15}, {"n": 25}]
    assert_accepts_same(schema, result, instances, draft07=False)


def test_inline_refs_keeps_properties_and_additional_properties_together() -> None:
    schema = {
        "$defs": {"Closed": {"additionalProperties": False}},
        "$ref": "#/$defs/Closed",
        "properties": {"a": {}},
    }
    result = inline_refs(schema)
    assert_accepts_same(schema, result, [{}, {"a": 1}], draft07=False)


def test_inline_refs_drops_ref_siblings_in_draft07() -> None:
    schema = {
        "$schema": DRAFT_07_URI,
        "definitions": {"A": {"type": "integer"}},
        "properties": {"a": {"$ref": "#/definitions/A", "minimum": 5}},
    }
    assert inline_refs(schema)["properties"]["a"] == {"type": "integer"}


def test_inline_refs_resolves_escaped_pointers() -> None:
    schema = {"$defs": {"a/b~c d": {"type": "string"}}, "items": {"$ref": "#/$defs/a~1b~0c%20d"}}
    assert inline_refs(schema) == {"items": {"type": "string"}}


def test_inline_refs_names_the_recursive_type() -> None:
    schema = {
        "$defs": {
            "Node": {
                "title": "TreeNode",
                "type": "object",
                "properties": {"children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}},
            }
        },
        "$ref": "#/$defs/Node",
    }
    with pytest.raises(ValueError, match="the schema 'TreeNode' is recursive") as info:
        inline_refs(schema)
    assert "#/$defs/Node -> #/$defs/Node" in str(info.value)


def test_inline_refs_names_a_recursive_type_without_title_by_its_key() -> None:
    schema = {
        "$defs": {
            "A": {"properties": {"b": {"$ref": "#/$defs/B"}}},
            "B": {"properties": {"a": {"$ref": "#/$defs/A"}}},
        },
        "properties": {"start": {"$ref": "#/$defs/A"}},
    }
    with pytest.raises(ValueError, match="the schema 'A' is recursive"):
        inline_refs(schema)


def test_inline_refs_ignores_unused_recursive_definitions() -> None:
    schema = {"$defs": {"N": {"items": {"$ref": "#/$defs/N"}}}, "type": "string"}
    assert inline_refs(schema) == {"type": "string"}


def test_inline_refs_recursion_to_the_root_is_named() -> None:
    with pytest.raises(ValueError, match="the schema 'the root schema' is recursive"):
        inline_refs({"items": {"$ref": "#"}})


@pytest.mark.parametrize(
    ("ref", "message"),
    [
        ("https://example.com/s.json", "only local references"),
        ("#/$defs/Missing", "points nowhere"),
    ],
)
def test_inline_refs_rejects_refs_it_cannot_resolve(ref: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        inline_refs({"items": {"$ref": ref}})


def test_inline_refs_gives_independent_copies_for_a_repeated_ref() -> None:
    schema = {
        "$defs": {"A": {"type": "object", "properties": {"x": {"type": "integer"}}}},
        "properties": {"p": {"$ref": "#/$defs/A"}, "q": {"$ref": "#/$defs/A"}},
    }
    result = inline_refs(schema)
    result["properties"]["p"]["properties"]["x"]["type"] = "string"
    assert result["properties"]["q"]["properties"]["x"]["type"] == "integer"


# --- OpenAPI 3.0 ----------------------------------------------------------------------------


def test_openapi_model_is_a_valid_schema_object() -> None:
    result = to_openapi30(MODEL)
    assert_openapi_30(result)
    props = result["properties"]
    assert props["color"] == {
        "enum": ["red", "green"],
        "title": "Color",
        "type": "string",
        "description": "Fill.",
    }
    assert props["points"]["items"]["properties"]["x"] == {
        "type": "integer",
        "minimum": 0,
        "exclusiveMinimum": True,
    }
    assert props["points"]["items"]["properties"]["y"] == {
        "type": "number",
        "nullable": True,
        "default": None,
    }
    assert props["tag"] == {"enum": ["shape"]}
    assert props["note"] == {"type": "string", "maxLength": 5, "nullable": True}


def test_openapi_drops_dollar_schema_and_unknown_keywords_but_keeps_extensions() -> None:
    schema = {
        "$schema": DRAFT_2020_12_URI,
        "$id": "https://example.com/s",
        "$comment": "c",
        "type": "object",
        "propertyNames": {"pattern": "^a"},
        "x-internal": True,
    }
    result = to_openapi30(schema)
    assert result == {"type": "object", "x-internal": True}
    assert_openapi_30(result)


@pytest.mark.parametrize(
    ("schema", "expected"),
    [
        ({"type": "null"}, {"enum": [None], "nullable": True}),
        ({"const": None}, {"enum": [None], "nullable": True}),
        ({"enum": ["a", None]}, {"enum": ["a", None], "nullable": True}),
        (
            {"type": ["string", "integer", "null"]},
            {
                "anyOf": [
                    {"type": "string", "nullable": True},
                    {"type": "integer", "nullable": True},
                ]
            },
        ),
        (
            {"anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "null"}]},
            {"anyOf": [{"type": "string", "nullable": True}, {"type": "integer"}]},
        ),
        (
            {"oneOf": [{"type": "null"}, {"enum": ["a", "b"]}]},
            {"enum": ["a", "b", None], "nullable": True},
        ),
        (
            {"anyOf": [{"type": "null"}, {"allOf": [{"type": "string"}]}], "title": "T"},
            {
                "anyOf": [{"allOf": [{"type": "string"}]}, {"nullable": True, "enum": [None]}],
                "title": "T",
            },
        ),
        ({"minimum": 5, "exclusiveMinimum": 3}, {"minimum": 5}),
        ({"minimum": 2, "exclusiveMinimum": 3}, {"minimum": 3, "exclusiveMinimum": True}),
        ({"maximum": 2, "exclusiveMaximum": 3}, {"maximum": 2}),
        ({"exclusiveMaximum": 3.5}, {"maximum": 3.5, "exclusiveMaximum": True}),
        ({"examples": [1, 2]}, {"example": 1}),
        ({"required": []}, {}),
        ({"enum": []}, {"not": {}}),
        (
            {"not": False, "additionalProperties": True},
            {"not": {"not": {}}, "additionalProperties": True},
        ),
        ({"type": "array"}, {"type": "array", "items": {}}),
        ({"type": "array", "items": False}, {"type": "array", "maxItems": 0, "items": {}}),
        (
            {
                "type": "array",
                "prefixItems": [{"type": "string"}, {"type": "integer"}],
                "items": False,
            },
            {
                "type": "array",
                "maxItems": 2,
                "items": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
            },
        ),
        (
            {"type": "array", "prefixItems": [{"type": "string"}]},
            {"type": "array", "items": {}},
        ),
        (
            {"discriminator": {"propertyName": "k", "mapping": {"a": "#/$defs/A"}}, "oneOf": []},
            {"oneOf": []},
        ),
    ],
)
def test_openapi_conversions(schema: dict[str, Any], expected: dict[str, Any]) -> None:
    result = to_openapi30(schema)
    assert result == expected
    assert_openapi_30(result)


def test_openapi_refuses_a_recursive_schema_with_the_type_name() -> None:
    schema = {
        "$defs": {"Node": {"title": "Node", "properties": {"next": {"$ref": "#/$defs/Node"}}}},
        "$ref": "#/$defs/Node",
    }
    with pytest.raises(ValueError, match="the schema 'Node' is recursive"):
        to_openapi30(schema)


def test_openapi_from_a_draft07_schema() -> None:
    schema = {
        "$schema": DRAFT_07_URI,
        "definitions": {"A": {"type": "string"}},
        "type": "array",
        "items": [{"$ref": "#/definitions/A"}],
        "additionalItems": False,
    }
    result = to_openapi30(schema)
    assert result == {"type": "array", "items": {"type": "string"}, "maxItems": 1}
    assert_openapi_30(result)
