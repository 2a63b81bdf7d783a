"""The JSON Schema emitter: one flat chain from an intermediate-form node to draft 2020-12.

Layer: function tools (imports only standard_tool._core, standard_tool._shared and this
package; pydantic/msgspec lazily).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any

from standard_tool._function._nodes import (
    AnyNode,
    ArrayNode,
    BooleanNode,
    ChoiceNode,
    Constrained,
    Described,
    FormatNode,
    IntegerNode,
    LibraryNode,
    MappingNode,
    Node,
    NullNode,
    NumberNode,
    ObjectNode,
    Prop,
    RefNode,
    StringNode,
    TupleNode,
    UnionNode,
)

__all__ = ["to_root_schema", "to_schema"]

_JSON_TYPES = {NullNode: "null", BooleanNode: "boolean", IntegerNode: "integer"}
_BOUNDS = (("gt", "exclusiveMinimum"), ("ge", "minimum"), ("lt", "exclusiveMaximum"))
_LENGTH_WORD = {"string": "Length", "array": "Items", "object": "Properties"}


def to_root_schema(node: Node, defs: Mapping[str, Node]) -> dict[str, Any]:
    """Return the schema of ``node`` with the named types it refers to under ``$defs``."""
    schema = to_schema(node)
    if not defs:
        return schema
    return {**schema, "$defs": {name: to_schema(d) for name, d in defs.items()}}


def to_schema(node: Node) -> dict[str, Any]:
    """Return the JSON Schema of ``node`` (a new dict)."""
    if isinstance(node, AnyNode):
        return {}
    if isinstance(node, (NullNode, BooleanNode, IntegerNode)):
        return {"type": _JSON_TYPES[type(node)]}
    if isinstance(node, NumberNode):
        return {"type": "number"}
    if isinstance(node, StringNode):
        return {"type": "string"}
    if isinstance(node, FormatNode):
        schema: dict[str, Any] = {"type": "string", "format": node.format}
        if node.pattern is not None:
            schema["pattern"] = node.pattern
        return schema
    if isinstance(node, ChoiceNode):
        return _choice(node)
    if isinstance(node, ArrayNode):
        schema = {"type": "array", "items": to_schema(node.item)}
        if node.unique:
            schema["uniqueItems"] = True
        return schema
    if isinstance(node, TupleNode):
        n = len(node.items)
        schema = {"type": "array", "minItems": n, "maxItems": n}
        if node.items:
            schema["prefixItems"] = [to_schema(i) for i in node.items]
        schema["items"] = False
        return schema
    if isinstance(node, MappingNode):
        return {"type": "object", "additionalProperties": to_schema(node.value)}
    if isinstance(node, ObjectNode):
        return _object(node)
    if isinstance(node, UnionNode):
        return {"anyOf": [to_schema(b) for b in node.branches]}
    if isinstance(node, RefNode):
        return {"$ref": f"#/$defs/{node.name}"}
    if isinstance(node, LibraryNode):
        return dict(node.schema)
    if isinstance(node, Constrained):
        return _constrained(node)
    return _described(node)


def _choice(node: ChoiceNode) -> dict[str, Any]:
    kinds: list[str] = []
    for v in node.values:
        kind = _json_type(v)
        if kind not in kinds:
            kinds.append(kind)
    type_: Any = kinds[0] if len(kinds) == 1 else kinds
    schema: dict[str, Any] = {"type": type_}
    if len(node.values) == 1:
        schema["const"] = node.values[0]
    else:
        schema["enum"] = list(node.values)
    if node.description:
        schema["description"] = node.description
    return schema


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    return "string"


def _object(node: ObjectNode) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object"}
    if node.description:
        schema["description"] = node.description
    schema["properties"] = {p.key: _prop(p) for p in node.props}
    required = [p.key for p in node.props if p.required]
    if required:
        schema["required"] = required
    schema["additionalProperties"] = (
        False if node.additional is None else to_schema(node.additional)
    )
    return schema


def _prop(prop: Prop) -> dict[str, Any]:
    schema = to_schema(prop.node)
    if prop.description is not None and "description" not in schema:
        schema["description"] = prop.description
    if prop.has_default:
        schema["default"] = prop.default
    return schema


def _constrained(node: Constrained) -> dict[str, Any]:
    schema = to_schema(node.node)
    kind = schema.get("type")
    if kind in ("integer", "number"):
        for key, keyword in (*_BOUNDS, ("le", "maximum")):
            bound = getattr(node, key)
            # JSON has no infinity: a bound every JSON number meets is left out.
            if bound is not None and not (isinstance(bound, float) and math.isinf(bound)):
                schema[keyword] = bound
        if node.multiple_of is not None:
            schema["multipleOf"] = node.multiple_of
        return schema
    word = _LENGTH_WORD[str(kind)]
    if node.min_length is not None:
        schema[f"min{word}"] = node.min_length
    if node.max_length is not None:
        schema[f"max{word}"] = node.max_length
    if node.pattern is not None:
        schema["pattern"] = node.pattern
    return schema


def _described(node: Described) -> dict[str, Any]:
    schema = to_schema(node.node)
    if node.title is not None:
        schema["title"] = node.title
    if node.description is not None:
        schema["description"] = node.description
    if node.examples:
        schema["examples"] = list(node.examples)
    for key, text in node.extra:
        schema[key] = json.loads(text)
    return schema
