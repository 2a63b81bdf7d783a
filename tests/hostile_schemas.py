"""Tool schemas a bridge must refuse by name, for every bridge's tests (no framework imported)."""

from __future__ import annotations

from typing import Any


def nested_schema(levels: int) -> dict[str, Any]:
    """An object schema nested ``levels`` deep."""
    schema: dict[str, Any] = {"type": "string"}
    for _ in range(levels):
        schema = {"type": "object", "properties": {"a": schema}}
    return schema


HOSTILE_SCHEMAS = {
    "nests more than 96 levels deep": nested_schema(150),
    "unsupported \\$schema": {"$schema": "http://json-schema.org/draft-04/schema#"},
    "points nowhere": {"type": "object", "properties": {"x": {"$ref": "#/$defs/gone"}}},
    "points outside the schema": {"properties": {"x": {"$ref": "https://example.com/x.json"}}},
}
