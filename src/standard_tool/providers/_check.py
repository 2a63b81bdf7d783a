"""Checkers: what OpenAI strict mode, Gemini or an MCP client would reject."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from standard_tool.providers._convert_common import (
    is_array,
    is_object,
    path_text,
    resolve_local_ref,
    value_text,
)

__all__ = ["SchemaProblem", "check_gemini", "check_mcp_tool", "check_openai_strict"]

Path = tuple[str | int, ...]

_MAX_PROBLEMS = 200
_OPENAI_KEYWORDS = frozenset(
    {
        "type",
        "description",
        "title",
        "enum",
        "properties",
        "required",
        "additionalProperties",
        "items",
        "anyOf",
        "$ref",
        "$defs",
        "definitions",
        "pattern",
        "format",
        "multipleOf",
        "maximum",
        "exclusiveMaximum",
        "minimum",
        "exclusiveMinimum",
        "minItems",
        "maxItems",
    }
)
_TYPES = frozenset({"string", "number", "integer", "boolean", "object", "array", "null"})
_GEMINI_KEYWORDS = frozenset(
    {
        "type",
        "format",
        "title",
        "description",
        "nullable",
        "enum",
        "properties",
        "required",
        "propertyOrdering",
        "items",
        "minItems",
        "maxItems",
        "minimum",
        "maximum",
        "minLength",
        "maxLength",
        "pattern",
        "minProperties",
        "maxProperties",
        "anyOf",
        "example",
        "default",
    }
)
_GEMINI_FORMATS: dict[str, frozenset[str]] = {
    "string": frozenset({"enum", "date-time"}),
    "number": frozenset({"float", "double"}),
    "integer": frozenset({"int32", "int64"}),
}
_GEMINI_PARAMETER = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,63}")
_MCP_NAME = re.compile(r"[A-Za-z0-9._-]{1,128}")


@dataclass(frozen=True, slots=True)
class SchemaProblem:
    """One thing a target would reject.

    Attributes:
        path: where, as a tuple of keys from the checked object's root.
        message: why, in a short sentence.

    ``str(problem)`` is ``"<JSON pointer> <message>"``.
    """

    path: tuple[str | int, ...]
    message: str

    def __str__(self) -> str:
        return f"{path_text(self.path)} {self.message}"


class _Problems:
    def __init__(self) -> None:
        self.items: list[SchemaProblem] = []

    def add(self, path: Path, message: str) -> None:
        if len(self.items) < _MAX_PROBLEMS:
            self.items.append(SchemaProblem(path, message))


# --------------------------------------------------------------------------------------
# OpenAI strict mode
# --------------------------------------------------------------------------------------


def check_openai_strict(schema: Mapping[str, Any]) -> list[SchemaProblem]:
    """List what OpenAI strict mode would reject in a ``parameters`` schema.

    Checks the documented rules: an object root that is not ``anyOf``; every
    object with ``additionalProperties: false`` and every property required;
    only the supported keywords (no ``default``, ``allOf``, ``oneOf``, ``not``,
    ``minLength``...); every value typed; local ``$ref``s that resolve; at
    most 10 levels of nested objects, 5000 properties and 1000 enum values.

    Returns:
        The problems found, empty when the schema is acceptable (at most 200).
    """
    problems = _Problems()
    if not is_object(schema):
        problems.add((), "is not a JSON object")
        return problems.items
    if schema.get("type") != "object":
        problems.add((), 'the root must have "type": "object"')
    if "anyOf" in schema:
        problems.add((), "the root must not be anyOf")
    counts = {"properties": 0, "enum": 0}
    for group in ("$defs", "definitions"):
        defs = schema.get(group)
        if is_object(defs):
            for name, sub in defs.items():
                _openai_node(schema, sub, (group, name), 0, problems, counts)
    body = {k: v for k, v in schema.items() if k not in ("$defs", "definitions")}
    _openai_node(schema, body, (), 0, problems, counts)
    if counts["properties"] > 5000:
        problems.add((), f"has {counts['properties']} properties; at most 5000 are allowed")
    if counts["enum"] > 1000:
        problems.add((), f"has {counts['enum']} enum values; at most 1000 are allowed")
    return problems.items


def _openai_node(
    root: Mapping[str, Any],
    node: Any,
    path: Path,
    depth: int,
    problems: _Problems,
    counts: dict[str, int],
) -> None:
    if not is_object(node):
        problems.add(path, "must be a schema object")
        return
    for key in node:
        if key not in _OPENAI_KEYWORDS:
            problems.add(path, f"keyword {value_text(key)} is not supported in strict mode")
    ref = node.get("$ref")
    if ref is not None:
        if not isinstance(ref, str) or resolve_local_ref(root, ref) is None:
            problems.add(path, f"$ref {value_text(ref)} does not resolve")
        if len(node) > 1:
            problems.add(path, "$ref must not have sibling keywords")
        return
    kind = node.get("type")
    kinds = kind if is_array(kind) else [kind]
    if "anyOf" in node:
        branches = node["anyOf"]
        if not is_array(branches) or not branches:
            problems.add(path, "anyOf must be a non-empty list")
            return
        for index, branch in enumerate(branches):
            _openai_node(root, branch, (*path, "anyOf", index), depth, problems, counts)
        return
    if kind is None:
        problems.add(path, "has no type")
        return
    if any(k not in _TYPES for k in kinds):
        problems.add(path, f"has an unknown type {value_text(kind)}")
    enum = node.get("enum")
    if enum is not None:
        if not is_array(enum) or not enum:
            problems.add(path, "enum must be a non-empty list")
        else:
            counts["enum"] += len(enum)
            if any(is_object(v) or is_array(v) for v in enum):
                problems.add(path, "enum values must be strings, numbers, booleans or null")
    if "object" in kinds:
        depth += 1
        if depth > 10:
            problems.add(path, "nests objects more than 10 levels deep")
        props = node.get("properties")
        if not is_object(props):
            problems.add(path, "an object must list its properties")
            props = {}
        counts["properties"] += len(props)
        if node.get("additionalProperties") is not False:
            problems.add(path, "an object must set additionalProperties to false")
        required = node.get("required")
        if not is_array(required) or set(required) != set(props) or len(required) != len(props):
            problems.add(path, "every property must be listed in required")
        for name, sub in props.items():
            _openai_node(root, sub, (*path, "properties", name), depth, problems, counts)
    if "array" in kinds:
        if "items" not in node:
            problems.add(path, "an array must have items")
        else:
            _openai_node(root, node["items"], (*path, "items"), depth, problems, counts)
    fmt = node.get("format")
    if fmt is not None and fmt not in (
        "date-time",
        "time",
        "date",
        "duration",
        "email",
        "hostname",
        "ipv4",
        "ipv6",
        "uuid",
    ):
        problems.add(path, f"format {value_text(fmt)} is not supported in strict mode")


# --------------------------------------------------------------------------------------
# Gemini
# --------------------------------------------------------------------------------------


def check_gemini(schema: Mapping[str, Any]) -> list[SchemaProblem]:
    """List what Gemini would reject in a function declaration's ``parameters``.

    Checks: an object root whose parameter names start with a letter or ``_``
    and use only letters, digits and ``_`` (at most 64); only the keywords of
    Gemini's OpenAPI subset (no ``$ref``, ``$defs``, ``additionalProperties``,
    ``const``, ``allOf``, ``oneOf``...); one type per node (no type lists);
    string-only ``enum``; the formats Gemini knows for each type; no empty
    ``properties``; ``required`` naming declared properties.

    Returns:
        The problems found, empty when the schema is acceptable (at most 200).
    """
    problems = _Problems()
    if not is_object(schema):
        problems.add((), "is not a JSON object")
        return problems.items
    if str(schema.get("type", "")).lower() != "object":
        problems.add((), 'parameters must have "type": "object"')
    props = schema.get("properties")
    if is_object(props):
        for name in props:
            if not _GEMINI_PARAMETER.fullmatch(name):
                problems.add(
                    ("properties", name),
                    "a parameter name must start with a letter or '_' and use only letters, "
                    "digits and '_' (at most 64)",
                )
    _gemini_node(schema, (), problems)
    return problems.items


def _gemini_node(node: Any, path: Path, problems: _Problems) -> None:
    if not is_object(node):
        problems.add(path, "must be a schema object")
        return
    for key in node:
        if key not in _GEMINI_KEYWORDS:
            problems.add(path, f"keyword {value_text(key)} is not supported by Gemini")
    kind = node.get("type")
    if kind is None and "anyOf" not in node:
        problems.add(path, "has no type")
    if kind is not None:
        if not isinstance(kind, str) or kind.lower() not in _TYPES - {"null"}:
            problems.add(path, f"type must be one type name, not {value_text(kind)}")
            kind = None
        else:
            kind = kind.lower()
    nullable = node.get("nullable")
    if nullable is not None and not isinstance(nullable, bool):
        problems.add(path, "nullable must be a boolean")
    enum = node.get("enum")
    if enum is not None and (not is_array(enum) or not all(isinstance(v, str) for v in enum)):
        problems.add(path, "enum values must be strings")
    fmt = node.get("format")
    if fmt is not None and (kind is None or fmt not in _GEMINI_FORMATS.get(kind, frozenset())):
        problems.add(path, f"format {value_text(fmt)} is not supported for type {kind}")
    props = node.get("properties")
    if props is not None:
        if not is_object(props) or not props:
            problems.add(path, "properties must be a non-empty object")
        else:
            for name, sub in props.items():
                _gemini_node(sub, (*path, "properties", name), problems)
            required = node.get("required", [])
            if not is_array(required) or any(r not in props for r in required):
                problems.add(path, "required must name declared properties")
            ordering = node.get("propertyOrdering")
            if ordering is not None and (not is_array(ordering) or set(ordering) != set(props)):
                problems.add(path, "propertyOrdering must list the declared properties")
    if "items" in node:
        _gemini_node(node["items"], (*path, "items"), problems)
    elif kind == "array":
        problems.add(path, "an array must have items")
    branches = node.get("anyOf")
    if branches is not None:
        if not is_array(branches) or not branches:
            problems.add(path, "anyOf must be a non-empty list")
        else:
            for index, branch in enumerate(branches):
                _gemini_node(branch, (*path, "anyOf", index), problems)


# --------------------------------------------------------------------------------------
# MCP
# --------------------------------------------------------------------------------------


def check_mcp_tool(payload: Mapping[str, Any]) -> list[SchemaProblem]:
    """List what an MCP client would reject in a ``tools/list`` entry.

    Checks: ``name`` of 1 to 128 characters from ``A-Z a-z 0-9 _ - .``
    (SEP-986); ``title`` and ``description`` strings when present;
    ``inputSchema`` an object schema with ``"type": "object"`` at its root;
    ``outputSchema``, when present, the same (protocol versions up to
    2025-11-25 require an object root; structured results must be objects).

    Returns:
        The problems found, empty when the entry is acceptable.
    """
    problems = _Problems()
    if not is_object(payload):
        problems.add((), "is not a JSON object")
        return problems.items
    name = payload.get("name")
    if not isinstance(name, str) or not _MCP_NAME.fullmatch(name):
        problems.add(
            ("name",),
            "must be 1 to 128 characters from A-Z, a-z, 0-9, '_', '-' and '.'",
        )
    for key in ("title", "description"):
        if key in payload and payload[key] is not None and not isinstance(payload[key], str):
            problems.add((key,), "must be a string")
    for key, required in (("inputSchema", True), ("outputSchema", False)):
        if key not in payload or payload[key] is None:
            if required:
                problems.add((key,), "is required")
            continue
        schema = payload[key]
        if not is_object(schema):
            problems.add((key,), "must be a JSON Schema object")
        elif schema.get("type") != "object":
            problems.add((key, "type"), 'must be "object" at the root')
    unknown = set(payload) - {
        "name",
        "title",
        "description",
        "inputSchema",
        "outputSchema",
        "annotations",
        "icons",
        "execution",
        "_meta",
    }
    for key in sorted(unknown):
        problems.add((key,), "is not a field of an MCP tool")
    return problems.items
