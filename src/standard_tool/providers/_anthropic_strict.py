"""Anthropic strict tool use: its schema rules, the rewrite, the decoder and the checker.

Layer: providers (imports the core, the shared helpers and the neutral walk; never the
package root). The rules follow what the installed ``anthropic`` SDK's own strict
transform (``anthropic.lib._parse._transform.transform_schema``) keeps: one type or
``anyOf``/``allOf`` per node, every object closed, the string formats it lists,
``minItems`` of 0 or 1 only, no numeric or length bounds; plus the API's documented
refusal of recursive schemas. What is not kept moves into the description, and a
schema that cannot be represented is refused, never sent weakened.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from standard_tool._core import StandardToolV0Definition, input_json_schema
from standard_tool._shared import Snapshot, fresh_copy, truncate_text
from standard_tool.providers._check import (
    Path,
    Problems,
    SchemaProblem,
    check_branches,
    check_keywords,
    check_root,
    check_type_names,
)
from standard_tool.providers._convert_common import (
    PREFIX,
    Plan,
    ProviderSchemaError,
    ToolCache,
    checked_json_schema,
    is_array,
    is_object,
    reasons_text,
    value_text,
)
from standard_tool.providers._walk import SchemaRules, rewrite

__all__ = [
    "ANTHROPIC_STRICT_RULES",
    "AnthropicStrictError",
    "AnthropicStrictSchema",
    "anthropic_strict",
    "check_anthropic_strict",
]

#: String formats Anthropic strict mode accepts (the SDK's ``SupportedStringFormats``).
ANTHROPIC_FORMATS = frozenset(
    {"date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6", "uuid"}
)

#: Anthropic strict tool use: objects closed, ``$defs`` kept, optional properties
#: allowed, string ``pattern``/``format`` kept, every bound moved into descriptions.
ANTHROPIC_STRICT_RULES = SchemaRules(
    provider="Anthropic strict mode",
    keeps={"string": frozenset({"pattern", "format"})},
    formats={"string": ANTHROPIC_FORMATS},
    refs=True,
    nullable_keyword=False,
    null_alone=True,
    mixed_enums=False,
    string_enums_only=False,
    exclusive_bounds_inclusive=False,
    all_required=False,
    closed_objects=True,
    property_ordering=False,
)

#: Documented per-request limits of strict tools, checked per tool.
MAX_OPTIONAL_PROPERTIES = 24
MAX_UNION_PROPERTIES = 16

_MAX_DEPTH = 64


class AnthropicStrictError(ProviderSchemaError):
    """``strict=True`` was asked for a tool whose schema Anthropic strict mode cannot represent.

    The message starts with ``"standard_tool.providers: "`` and lists where and why.
    """


class AnthropicStrictSchema:
    """A tool's input schema for Anthropic strict tool use, and how to read the model's input.

    Build one with ``anthropic_strict`` (cached per tool). It is immutable.
    ``dict[str, T]`` is sent as a list of ``{"key", "value"}`` entries (strict
    mode closes every object); ``decode`` turns them back into a dict.
    """

    __slots__ = ("_plan", "_schema")

    _schema: Snapshot[dict[str, Any]]
    _plan: Plan | None

    def __init__(self, *, schema: dict[str, Any], plan: Plan | None) -> None:
        object.__setattr__(self, "_schema", Snapshot(schema))
        object.__setattr__(self, "_plan", plan)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __repr__(self) -> str:
        return "AnthropicStrictSchema()"

    @property
    def schema(self) -> dict[str, Any]:
        """The ``input_schema`` to send with ``"strict": true`` (a fresh copy each time)."""
        return self._schema.get()

    def decode(self, arguments: Any) -> Any:
        """Turn a ``tool_use`` block's ``input`` back into the tool's input.

        Raises:
            StandardToolValidationError: a map's entries repeat a key.
        """
        plan = self._plan
        return arguments if plan is None else plan.decode(arguments)

    @classmethod
    def from_json_schema(
        cls, schema: Mapping[str, Any], *, name: str = "tool"
    ) -> AnthropicStrictSchema:
        """Rewrite a draft 2020-12 input schema (not modified) for Anthropic strict mode.

        Raises:
            AnthropicStrictError: the schema cannot be represented (each problem
                named with its JSON pointer).
        """
        out, plan, problems = rewrite(
            fresh_copy(dict(schema)), ANTHROPIC_STRICT_RULES, check_anthropic_strict
        )
        if problems:
            raise AnthropicStrictError(
                truncate_text(
                    f"{PREFIX}cannot declare tool {name!r} for Anthropic strict mode: "
                    f"{reasons_text(problems)} (send it with strict=False instead)",
                    2000,
                )
            )
        return cls(schema=out, plan=plan)


_CACHE: ToolCache[AnthropicStrictSchema | str] = ToolCache()


def _build(tool: StandardToolV0Definition[Any, Any, Any, Any]) -> AnthropicStrictSchema | str:
    try:
        schema = checked_json_schema(input_json_schema(tool), tool.name)
        return AnthropicStrictSchema.from_json_schema(schema, name=tool.name)
    except AnthropicStrictError as err:
        return str(err)


def anthropic_strict(tool: StandardToolV0Definition[Any, Any, Any, Any]) -> AnthropicStrictSchema:
    """Return the Anthropic strict-mode view of ``tool``'s input schema (cached per tool).

    ``to_anthropic(tool, strict=True)`` sends ``.schema``; call
    ``.decode(block.input)`` before ``tool.execute(...)`` (as
    ``run_anthropic_tool_calls(..., strict=True)`` does).

    Raises:
        AnthropicStrictError: the schema cannot be represented in strict mode.
    """
    result = _CACHE.get(tool, lambda: _build(tool))
    if isinstance(result, str):
        raise AnthropicStrictError(result)
    return result


_STRICT_KEYWORDS = frozenset(
    {
        "type",
        "description",
        "title",
        "default",
        "enum",
        "const",
        "anyOf",
        "allOf",
        "properties",
        "required",
        "additionalProperties",
        "items",
        "minItems",
        "pattern",
        "format",
        "$ref",
        "$defs",
        "definitions",
    }
)


def check_anthropic_strict(schema: Mapping[str, Any]) -> list[SchemaProblem]:
    """List what Anthropic strict tool use would reject in an ``input_schema``.

    Checks: an object root; only the keywords strict mode keeps (no numeric or
    length bounds, ``oneOf``, ``patternProperties``, ``prefixItems``...);
    ``additionalProperties: false`` on every object; type names; enums of
    strings, numbers, booleans and null only; the string formats it lists;
    ``minItems`` of 0 or 1; ``$ref`` into ``$defs`` and no recursion; at most
    24 optional properties and 16 properties with a union type.

    Returns:
        The problems found, empty when the schema is acceptable (at most 200).
    """
    problems = Problems()
    if not check_root(schema, problems, "input_schema"):
        return problems.items
    counts = {"optional": 0, "union": 0}
    _node(schema, (), problems, counts, 0)
    if counts["optional"] > MAX_OPTIONAL_PROPERTIES:
        problems.add(
            (),
            f"has {counts['optional']} optional properties; strict mode allows "
            f"{MAX_OPTIONAL_PROPERTIES}",
        )
    if counts["union"] > MAX_UNION_PROPERTIES:
        problems.add(
            (),
            f"has {counts['union']} properties with a union type; strict mode allows "
            f"{MAX_UNION_PROPERTIES}",
        )
    cycle = _recursion(schema)
    if cycle is not None:
        problems.add(("$defs", cycle), "is recursive; strict mode cannot express recursion")
    return problems.items


def _is_union(node: Any) -> bool:
    return is_object(node) and (
        "anyOf" in node or (is_array(node.get("type")) and len(node["type"]) > 1)
    )


def _node(node: Any, path: Path, problems: Problems, counts: dict[str, int], depth: int) -> None:
    if not is_object(node):
        problems.add(path, "must be a schema object")
        return
    if depth > _MAX_DEPTH:
        problems.add(path, f"nests deeper than {_MAX_DEPTH} levels")
        return
    check_keywords(node, path, problems, _STRICT_KEYWORDS, "in strict mode")
    check_type_names(node, path, problems)
    kind = node.get("type")
    enum = node.get("enum")
    if enum is not None and (
        not is_array(enum) or any(is_object(v) or is_array(v) for v in enum) or not enum
    ):
        problems.add(path, "enum must list strings, numbers, booleans or null")
    fmt = node.get("format")
    if fmt is not None and fmt not in ANTHROPIC_FORMATS:
        problems.add(path, f"format {value_text(fmt)} is not supported in strict mode")
    if "minItems" in node and node["minItems"] not in (0, 1):
        problems.add(path, "minItems must be 0 or 1 in strict mode")
    ref = node.get("$ref")
    if ref is not None and not (
        isinstance(ref, str) and (ref.startswith(("#/$defs/", "#/definitions/")) or ref == "#")
    ):
        problems.add(path, f"$ref {value_text(ref)} must point into $defs")
    props = node.get("properties")
    is_object_node = kind == "object" or (is_array(kind) and "object" in kind) or props is not None
    if is_object_node and node.get("additionalProperties") is not False:
        problems.add(path, "objects must say additionalProperties: false")
    if props is not None:
        if not is_object(props):
            problems.add(path, "properties must be an object")
        else:
            required = node.get("required", [])
            if not is_array(required) or any(r not in props for r in required):
                problems.add(path, "required must name declared properties")
                required = []
            for name, sub in props.items():
                if name not in required:
                    counts["optional"] += 1
                if _is_union(sub):
                    counts["union"] += 1
                _node(sub, (*path, "properties", name), problems, counts, depth + 1)
    if "items" in node:
        _node(node["items"], (*path, "items"), problems, counts, depth + 1)
    for key in ("anyOf", "allOf"):
        for index, branch in enumerate(check_branches(node, key, path, problems)):
            _node(branch, (*path, key, index), problems, counts, depth + 1)
    for group in ("$defs", "definitions"):
        defs = node.get(group)
        if is_object(defs):
            for name, sub in defs.items():
                _node(sub, (*path, group, name), problems, counts, depth + 1)


def _refs(node: Any, found: set[str], depth: int = 0) -> None:
    if depth > _MAX_DEPTH:
        return
    if is_object(node):
        ref = node.get("$ref")
        if isinstance(ref, str):
            found.add(ref)
        for key, value in node.items():
            if key not in ("$defs", "definitions"):
                _refs(value, found, depth + 1)
    elif is_array(node):
        for value in node:
            _refs(value, found, depth + 1)


def _recursion(schema: Mapping[str, Any]) -> str | None:
    """Name a ``$defs`` entry that reaches itself through ``$ref``, or ``None``."""
    edges: dict[str, set[str]] = {}
    for group in ("$defs", "definitions"):
        defs = schema.get(group)
        if is_object(defs):
            for name, sub in defs.items():
                found: set[str] = set()
                _refs(sub, found)
                edges[f"#/{group}/{name}"] = found
    root: set[str] = set()
    _refs({k: v for k, v in schema.items() if k not in ("$defs", "definitions")}, root)
    if "#" in root or any("#" in targets for targets in edges.values()):
        return "#"
    for start in edges:
        seen: set[str] = set()
        stack = list(edges[start])
        while stack:
            ref = stack.pop()
            if ref == start:
                return start.rsplit("/", 1)[-1]
            if ref in seen:
                continue
            seen.add(ref)
            stack.extend(edges.get(ref, ()))
    return None
