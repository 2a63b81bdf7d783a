"""Regressions found by checking the dialect transforms against the JSON Schema Test Suite."""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest
from openapi_schema_validator import OAS30Validator

from standard_tool.dialects import (
    DRAFT_07_URI,
    SchemaConversionError,
    inline_refs,
    to_draft07,
    to_draft202012,
    to_openapi30,
)


def _agree(original: Any, converted: Any, instance: object, validator: Any) -> None:
    expected = jsonschema.Draft202012Validator(original).is_valid(instance)
    assert validator(converted).is_valid(instance) is expected


def test_inline_refs_resolves_an_anchor() -> None:
    schema: dict[str, Any] = {"$defs": {"A": {"$anchor": "foo", "type": "integer"}}, "$ref": "#foo"}
    assert inline_refs(schema) == {"$anchor": "foo", "type": "integer"}


def test_inline_refs_names_a_missing_anchor() -> None:
    with pytest.raises(SchemaConversionError, match="no \\$anchor 'foo'"):
        inline_refs({"$ref": "#foo"})


def test_inline_refs_resolves_a_ref_inside_an_embedded_resource() -> None:
    schema: dict[str, Any] = {
        "$defs": {
            "inner": {
                "$id": "http://example.com/inner",
                "$defs": {"x": {"type": "string"}},
                "$ref": "#/$defs/x",
            }
        },
        "properties": {"a": {"$ref": "#/$defs/inner"}},
    }
    assert inline_refs(schema)["properties"]["a"]["type"] == "string"


def test_draft07_rewrites_refs_into_prefix_items() -> None:
    schema: dict[str, Any] = {"prefixItems": [{"type": "integer"}, {"$ref": "#/prefixItems/0"}]}
    converted = to_draft07(schema)
    assert converted["items"][1] == {"$ref": "#/items/0"}
    _agree(schema, converted, [1, "x"], jsonschema.Draft7Validator)


def test_draft07_rewrites_refs_into_items_after_prefix_items() -> None:
    schema: dict[str, Any] = {
        "prefixItems": [{}],
        "items": {"type": "integer"},
        "contains": {"$ref": "#/items"},
    }
    assert to_draft07(schema)["contains"] == {"$ref": "#/additionalItems"}


def test_draft07_refuses_dynamic_ref() -> None:
    with pytest.raises(SchemaConversionError, match="no dynamic reference"):
        to_draft07({"$dynamicRef": "#meta"})


def test_draft07_refuses_an_anchor_beside_an_id() -> None:
    with pytest.raises(SchemaConversionError, match="one \\$id"):
        to_draft07({"$id": "http://example.com/a", "$anchor": "x"})


def test_draft07_drops_contains_with_min_contains_zero() -> None:
    schema: dict[str, Any] = {"contains": {"type": "integer"}, "minContains": 0, "maxContains": 1}
    _agree(schema, to_draft07(schema), [], jsonschema.Draft7Validator)


def test_draft07_keeps_items_contains_matched_under_unevaluated_items() -> None:
    schema: dict[str, Any] = {
        "prefixItems": [{"const": "a"}],
        "contains": {"const": "b"},
        "unevaluatedItems": False,
    }
    _agree(schema, to_draft07(schema), ["a", "b", "b"], jsonschema.Draft7Validator)


def test_openapi30_pattern_properties_loosen_additional_properties() -> None:
    schema: dict[str, Any] = {
        "properties": {"foo": {}},
        "patternProperties": {"^v": {}},
        "additionalProperties": False,
    }
    _agree(schema, to_openapi30(schema), {"foo": 1, "vroom": 2}, OAS30Validator)


def test_openapi30_integer_with_zero_fraction_is_the_documented_difference() -> None:
    """JSON Schema counts 1.0 as an integer, OpenAPI 3.0 validators do not (docs/dialects.md)."""
    converted = to_openapi30({"type": "integer"})
    assert jsonschema.Draft202012Validator({"type": "integer"}).is_valid(1.0)
    validator: Any = OAS30Validator(converted)
    assert not validator.is_valid(1.0)


def test_draft07_drops_a_not_whose_subschema_would_lose_a_keyword() -> None:
    schema: dict[str, Any] = {
        "not": {"anyOf": [True, {"properties": {"foo": True}}], "unevaluatedProperties": False}
    }
    _agree(schema, to_draft07(schema), {"bar": 1}, jsonschema.Draft7Validator)


def test_draft202012_rewrites_refs_into_array_form_items() -> None:
    schema: dict[str, Any] = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "items": [{"type": "integer"}, {"$ref": "#/items/0"}],
    }
    assert to_draft202012(schema)["prefixItems"][1] == {"$ref": "#/prefixItems/0"}


def test_draft07_drops_a_2020_12_dependencies_keyword() -> None:
    schema: dict[str, Any] = {"dependencies": {"bar": ["foo"]}}
    _agree(schema, to_draft07(schema), {"bar": 2}, jsonschema.Draft7Validator)


def test_inline_refs_refuses_dynamic_ref() -> None:
    with pytest.raises(SchemaConversionError, match="\\$dynamicRef"):
        inline_refs({"$dynamicAnchor": "n", "items": {"$dynamicRef": "#n"}})


def test_openapi30_makes_a_decimal_count_an_integer() -> None:
    assert to_openapi30({"maxItems": 2.0}) == {"maxItems": 2}


_URN = "urn:uuid:deadbeef-1234-ffff-ffff-4321feebdaed"


def test_to_draft07_repoints_a_ref_that_spells_the_root_id() -> None:
    """``$ref: "<root $id>#/$defs/bar"`` follows ``$defs`` to ``definitions``."""
    schema = {
        "$id": _URN,
        "$defs": {"bar": {"type": "string"}},
        "type": "object",
        "properties": {"foo": {"$ref": f"{_URN}#/$defs/bar"}},
    }
    out = to_draft07(schema)
    assert out["properties"]["foo"] == {"$ref": f"{_URN}#/definitions/bar"}
    validator = jsonschema.Draft7Validator(out)
    assert validator.is_valid({"foo": "a"})
    assert not validator.is_valid({"foo": 1})


def test_to_draft202012_repoints_a_ref_that_spells_the_root_id() -> None:
    schema = {
        "$schema": DRAFT_07_URI,
        "$id": _URN,
        "definitions": {"bar": {"type": "string"}},
        "type": "object",
        "properties": {"foo": {"$ref": f"{_URN}#/definitions/bar"}},
    }
    out = to_draft202012(schema)
    assert out["properties"]["foo"] == {"$ref": f"{_URN}#/$defs/bar"}
    validator = jsonschema.Draft202012Validator(out)
    assert validator.is_valid({"foo": "a"})
    assert not validator.is_valid({"foo": 1})
