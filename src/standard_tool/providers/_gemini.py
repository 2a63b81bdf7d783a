"""Gemini: schema rules, parameters in its OpenAPI subset, decoder, checker, declaration.

Layer: providers (imports the core, the shared helpers, dialects, the neutral walk and
the declaration helpers; never the package root).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from typing_extensions import overload

from standard_tool._core import StandardToolV0Definition, input_json_schema, output_json_schema
from standard_tool._shared import fresh_copy, truncate_text
from standard_tool.dialects import inline_refs
from standard_tool.providers._check import (
    TYPES,
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
from standard_tool.providers._declare import (
    AnyTool,
    ManyTools,
    check_name,
    each,
)
from standard_tool.providers._walk import SchemaRules, rewrite

__all__ = [
    "GEMINI_JSON_RULES",
    "GEMINI_RULES",
    "GeminiParameters",
    "check_gemini",
    "check_gemini_json_schema",
    "gemini_json_parameters",
    "gemini_parameters",
]


#: Formats Gemini accepts, by type.
GEMINI_FORMATS: dict[str, frozenset[str]] = {
    "string": frozenset({"enum", "date-time"}),
    "number": frozenset({"float", "double"}),
    "integer": frozenset({"int32", "int64"}),
}

#: Gemini's OpenAPI 3.0 subset: no ``$ref`` (inlined before the walk), ``nullable``,
#: enums on strings only, no exclusive bounds, ``propertyOrdering`` on objects.
GEMINI_RULES = SchemaRules(
    provider="Gemini",
    keeps={
        "string": frozenset({"pattern", "format", "minLength", "maxLength"}),
        "number": frozenset({"minimum", "maximum", "format"}),
        "array": frozenset({"minItems", "maxItems"}),
        "object": frozenset({"minProperties", "maxProperties"}),
    },
    formats=GEMINI_FORMATS,
    refs=False,
    nullable_keyword=True,
    null_alone=False,
    mixed_enums=False,
    string_enums_only=True,
    exclusive_bounds_inclusive=True,
    all_required=False,
    closed_objects=False,
    property_ordering=True,
    empty_objects=False,
)

#: Gemini's JSON Schema fields (``parametersJsonSchema``): the keywords of
#: ``google.genai.types.JSONSchema``. ``$defs``/``$ref`` are kept, so recursive types
#: can be declared; null is said with ``type`` lists or ``anyOf``; no exclusive bounds.
GEMINI_JSON_RULES = SchemaRules(
    provider="Gemini",
    keeps={
        "string": frozenset({"pattern", "format", "minLength", "maxLength"}),
        "number": frozenset({"minimum", "maximum"}),
        "array": frozenset({"minItems", "maxItems", "uniqueItems"}),
        "object": frozenset({"minProperties", "maxProperties"}),
    },
    formats={"string": frozenset({"date-time", "date", "time"})},
    refs=True,
    nullable_keyword=False,
    null_alone=True,
    mixed_enums=True,
    string_enums_only=False,
    exclusive_bounds_inclusive=True,
    all_required=False,
    closed_objects=False,
    property_ordering=False,
)


class GeminiParameters:
    """A tool's input schema in Gemini's OpenAPI subset, and how to read the model's arguments.

    Build one with ``gemini_parameters`` (cached per tool) or
    ``from_json_schema``. It is immutable.

    The rewrite inlines every ``$ref`` (a recursive schema is refused with
    ``ProviderSchemaError`` naming the recursive type: Gemini's
    ``parameters`` cannot express recursion and cutting it at a depth would
    silently change the tool), turns ``null`` unions into ``nullable``, keeps
    Gemini's keywords (``type``, ``format``, ``description``, ``nullable``,
    ``enum`` of strings, ``properties``, ``required``, ``propertyOrdering``,
    ``items``, ``minItems``/``maxItems``, ``minimum``/``maximum``,
    ``minLength``/``maxLength``, ``pattern``, ``anyOf``, ``title``) and moves the
    rest (defaults, ``const`` of non-strings, ``multipleOf``, exclusive bounds,
    unknown formats...) into descriptions. ``dict[str, T]`` is sent as a list of
    ``{"key", "value"}`` entries, which ``decode`` turns back into a dict.
    """

    __slots__ = ("_plan", "_schema")

    _schema: dict[str, Any] | None
    _plan: Plan | None

    def __init__(self, *, schema: dict[str, Any] | None, plan: Plan | None) -> None:
        object.__setattr__(self, "_schema", schema)
        object.__setattr__(self, "_plan", plan)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __repr__(self) -> str:
        return f"GeminiParameters(has_parameters={self._schema is not None})"

    @property
    def schema(self) -> dict[str, Any] | None:
        """The ``parameters`` to send, or ``None`` for a tool without parameters.

        Gemini rejects an object with empty ``properties``, so a tool without
        parameters is declared without ``parameters``. A fresh copy each time.
        """
        schema = self._schema
        return None if schema is None else fresh_copy(schema)

    def decode(self, arguments: Any) -> Any:
        """Turn the arguments of a Gemini ``functionCall`` back into the tool's input.

        Pass ``function_call.args`` (a dict). Values of an unexpected shape are
        passed through for the tool's validation to report.

        Raises:
            StandardToolValidationError: a map's entries repeat a key (the path names
                the entry); as a dict it would silently keep only the last.
        """
        if arguments is None and self._schema is None:
            return {}
        plan = self._plan
        if plan is None:
            return arguments
        try:
            decoded: Any = plan.decode(arguments)
        except RecursionError:  # nested past the interpreter's limit: validation says so
            return arguments
        return decoded

    @classmethod
    def from_json_schema(cls, schema: Mapping[str, Any], *, name: str = "tool") -> GeminiParameters:
        """Rewrite a draft 2020-12 input schema (not modified) into Gemini's subset.

        Raises:
            ProviderSchemaError: the schema is recursive or has parts Gemini cannot
                express (values of any type, tuples, free-form objects).
        """
        try:
            root = inline_refs(schema)
        except ValueError as err:
            hint = (
                "Gemini parameters are written out in full, without references, so a "
                "recursive type cannot be declared; break the recursion (e.g. a fixed-depth "
                "type). Details: "
                if "recursive" in str(err)
                else ""
            )
            raise ProviderSchemaError(
                truncate_text(f"{PREFIX}cannot declare tool {name!r} for Gemini: {hint}{err}", 2000)
            ) from err
        out, plan, problems = rewrite(root, GEMINI_RULES, check_gemini)
        if problems:
            raise _refuse(name, problems)
        if not out.get("properties"):
            return cls(schema=None, plan=None)
        return cls(schema=out, plan=plan)


# A failure is cached as its message: an exception would hold a traceback whose
# frames hold the tool, and the weak cache would then keep the tool alive.
_CACHE: ToolCache[GeminiParameters | str] = ToolCache()


def _build(tool: StandardToolV0Definition[Any, Any, Any, Any]) -> GeminiParameters | str:
    try:
        schema = checked_json_schema(input_json_schema(tool), tool.name)
        return GeminiParameters.from_json_schema(schema, name=tool.name)
    except ProviderSchemaError as err:
        return str(err)


def gemini_parameters(tool: StandardToolV0Definition[Any, Any, Any, Any]) -> GeminiParameters:
    """Return ``tool``'s parameters in Gemini's OpenAPI subset (cached per tool).

    Call ``.decode(function_call.args)`` before ``tool.execute(...)``.

    Raises:
        ProviderSchemaError: the input schema cannot be expressed for Gemini.
    """
    result = _CACHE.get(tool, lambda: _build(tool))
    if isinstance(result, str):
        raise ProviderSchemaError(result)
    return result


def _refuse(name: str, problems: list[str]) -> ProviderSchemaError:
    return ProviderSchemaError(
        truncate_text(
            f"{PREFIX}cannot declare tool {name!r} for Gemini: {reasons_text(problems)}", 2000
        )
    )


_JSON_CACHE: ToolCache[GeminiParameters | str] = ToolCache()


def _build_json(tool: StandardToolV0Definition[Any, Any, Any, Any]) -> GeminiParameters | str:
    try:
        schema = checked_json_schema(input_json_schema(tool), tool.name)
    except ProviderSchemaError as err:
        return str(err)
    out, plan, problems = rewrite(schema, GEMINI_JSON_RULES, check_gemini_json_schema)
    if problems:
        return str(_refuse(tool.name, problems))
    if not out.get("properties"):
        return GeminiParameters(schema=None, plan=None)
    return GeminiParameters(schema=out, plan=plan)


def gemini_json_parameters(
    tool: StandardToolV0Definition[Any, Any, Any, Any],
) -> GeminiParameters:
    """Return ``tool``'s parameters as Gemini's JSON Schema variant (cached per tool).

    This is what ``to_gemini(tool, json_schema=True)`` sends as
    ``parametersJsonSchema``: the tool's draft 2020-12 schema with ``$defs`` and
    ``$ref`` kept (so recursive types can be declared), ``dict[str, T]`` sent as
    ``{"key", "value"}`` entries, and the keywords Gemini lacks (``const`` aside,
    which becomes an ``enum``) moved into descriptions. Call
    ``.decode(function_call.args)`` before ``tool.execute(...)``.

    Raises:
        ProviderSchemaError: parts Gemini cannot express (values of any type,
            tuples, free-form objects), each named with its path.
    """
    result = _JSON_CACHE.get(tool, lambda: _build_json(tool))
    if isinstance(result, str):
        raise ProviderSchemaError(result)
    return result


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
_GEMINI_PARAMETER = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,63}")


# --------------------------------------------------------------------------------------
# Gemini
# --------------------------------------------------------------------------------------


def check_gemini(schema: Mapping[str, Any]) -> list[SchemaProblem]:
    """List what Gemini would reject in a function declaration's ``parameters``.

    Checks: an object root whose parameter names start with an ASCII letter or
    ``_`` and use only ASCII letters, digits and ``_`` (at most 64); only the keywords of
    Gemini's OpenAPI subset (no ``$ref``, ``$defs``, ``additionalProperties``,
    ``const``, ``allOf``, ``oneOf``...); one type per node (no type lists);
    string-only ``enum``; the formats Gemini knows for each type; no empty
    ``properties``, and named properties on every object below the root;
    ``required`` naming declared properties.

    Returns:
        The problems found, empty when the schema is acceptable (at most 200).
    """
    problems = Problems()
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
                    "a parameter name must start with an ASCII letter (A-Z, a-z) or '_' and "
                    "use only ASCII letters, digits 0-9 and '_' (at most 64)",
                )
    _gemini_node(schema, (), problems)
    return problems.items


def _gemini_node(node: Any, path: Path, problems: Problems) -> None:
    if not is_object(node):
        problems.add(path, "must be a schema object")
        return
    check_keywords(node, path, problems, _GEMINI_KEYWORDS, "by Gemini")
    kind = node.get("type")
    if kind is None and "anyOf" not in node:
        problems.add(path, "has no type")
    if kind is not None:
        if not isinstance(kind, str) or kind.lower() not in TYPES - {"null"}:
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
    if fmt is not None and (kind is None or fmt not in GEMINI_FORMATS.get(kind, frozenset())):
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
    elif kind == "object" and path:
        # Below the root such an object has nothing the model can fill: it sends {},
        # whatever the tool would accept (any keys, for a JSON Schema {"type": "object"}).
        problems.add(path, "an object below the root must have named properties")
    if "items" in node:
        _gemini_node(node["items"], (*path, "items"), problems)
    elif kind == "array":
        problems.add(path, "an array must have items")
    for index, branch in enumerate(check_branches(node, "anyOf", path, problems)):
        _gemini_node(branch, (*path, "anyOf", index), problems)


#: The keywords of ``google.genai.types.JSONSchema`` (its wire names).
_GEMINI_JSON_KEYWORDS = frozenset(
    {
        "type",
        "format",
        "title",
        "description",
        "default",
        "items",
        "minItems",
        "maxItems",
        "enum",
        "properties",
        "required",
        "minProperties",
        "maxProperties",
        "minimum",
        "maximum",
        "minLength",
        "maxLength",
        "pattern",
        "additionalProperties",
        "anyOf",
        "uniqueItems",
        "$ref",
        "$defs",
        "oneOf",
    }
)
_MAX_CHECK_DEPTH = 64


def check_gemini_json_schema(schema: Mapping[str, Any]) -> list[SchemaProblem]:
    """List what Gemini would reject in a declaration's ``parametersJsonSchema``.

    Checks: an object root; only the keywords of Gemini's JSON Schema (those of
    ``google.genai.types.JSONSchema``: no ``allOf``, ``const``, ``prefixItems``,
    ``patternProperties``, exclusive bounds...); type names (one or a list);
    every ``$ref`` pointing at a ``$defs`` entry of the root; ``required``
    naming declared properties.

    Returns:
        The problems found, empty when the schema is acceptable (at most 200).
    """
    problems = Problems()
    if not check_root(schema, problems, "parametersJsonSchema"):
        return problems.items
    defs = schema.get("$defs")
    names = set(defs) if is_object(defs) else set[str]()
    _gemini_json_node(schema, (), problems, names, 0)
    return problems.items


def _gemini_json_node(
    node: Any, path: Path, problems: Problems, defs: set[str], depth: int
) -> None:
    if isinstance(node, bool):
        return
    if not is_object(node):
        problems.add(path, "must be a schema object")
        return
    if depth > _MAX_CHECK_DEPTH:
        problems.add(path, f"nests deeper than {_MAX_CHECK_DEPTH} levels")
        return
    check_keywords(node, path, problems, _GEMINI_JSON_KEYWORDS, "by Gemini")
    check_type_names(node, path, problems)
    ref = node.get("$ref")
    if ref is not None and (
        not isinstance(ref, str)
        or not ref.startswith("#/$defs/")
        or ref.removeprefix("#/$defs/") not in defs
    ):
        problems.add(path, f"$ref {value_text(ref)} must point at an entry of the root's $defs")
    props = node.get("properties")
    if props is not None:
        if not is_object(props):
            problems.add(path, "properties must be an object")
        else:
            for name, sub in props.items():
                _gemini_json_node(sub, (*path, "properties", name), problems, defs, depth + 1)
            required = node.get("required", [])
            if not is_array(required) or any(r not in props for r in required):
                problems.add(path, "required must name declared properties")
    for key in ("items", "additionalProperties"):
        if key in node:
            _gemini_json_node(node[key], (*path, key), problems, defs, depth + 1)
    for key in ("anyOf", "oneOf"):
        for index, branch in enumerate(check_branches(node, key, path, problems)):
            _gemini_json_node(branch, (*path, key, index), problems, defs, depth + 1)
    sub_defs = node.get("$defs")
    if is_object(sub_defs):
        for name, sub in sub_defs.items():
            _gemini_json_node(sub, (*path, "$defs", name), problems, defs, depth + 1)


# --------------------------------------------------------------------------------------
# Declarations
# --------------------------------------------------------------------------------------

_GEMINI_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.:-]{0,127}")


@overload
def to_gemini(tool: AnyTool, *, json_schema: bool = False) -> dict[str, Any]: ...
@overload
def to_gemini(tool: ManyTools, *, json_schema: bool = False) -> list[dict[str, Any]]: ...
def to_gemini(
    tool: AnyTool | ManyTools, *, json_schema: bool = False
) -> dict[str, Any] | list[dict[str, Any]]:
    """Declare ``tool`` (or each of a ``Toolkit`` or iterable) as a Gemini function declaration.

    Args:
        tool: any conforming tool, or a ``Toolkit`` or iterable of tools.
        json_schema: declare with Gemini's JSON Schema fields instead of its
            OpenAPI subset: ``parametersJsonSchema`` (see
            ``gemini_json_parameters``; ``$defs`` and ``$ref`` are kept, so a
            recursive type can be declared) and, for a tool with an output
            schema, ``responseJsonSchema`` describing the ``{"output": ...}``
            response the runner sends back. Run the calls with
            ``run_gemini_function_calls(..., json_schema=True)``.

    Returns:
        ``{"name", "description", "parameters"}`` with ``parameters`` in
        Gemini's OpenAPI subset (see ``GeminiParameters``), omitted for a
        tool without parameters. It validates with
        ``google.genai.types.FunctionDeclaration.model_validate``. Decode the
        model's ``function_call.args`` with ``gemini_parameters(tool).decode``.

    Raises:
        ProviderSchemaError: a bad name, a recursive input schema (named in the
            message) or parts Gemini cannot express.
    """
    if json_schema:
        return each(tool, _gemini_json)
    return each(tool, _gemini)


def _declaration(
    tool: AnyTool, key: str, build: Callable[[AnyTool], GeminiParameters]
) -> dict[str, Any]:
    """``{"name", "description", key: build(tool).schema}``, the empty parts left out."""
    name = check_name(
        tool,
        _GEMINI_NAME,
        "Gemini",
        "an ASCII letter or '_' then up to 127 of A-Z, a-z, 0-9, '_', '.', ':' and '-'",
    )
    parameters = build(tool).schema
    out: dict[str, Any] = {"name": name}
    if tool.description:
        out["description"] = tool.description
    if parameters is not None:
        out[key] = parameters
    return out


def _gemini_json(tool: AnyTool) -> dict[str, Any]:
    out = _declaration(tool, "parametersJsonSchema", gemini_json_parameters)
    output = output_json_schema(tool)
    if output is not None:
        out["responseJsonSchema"] = _response_schema(
            checked_json_schema(output, tool.name, "output")
        )
    return out


def _response_schema(output: dict[str, Any]) -> dict[str, Any]:
    """Describe the runner's ``{"output": <value>}`` response, ``$defs`` kept at the root."""
    inner = {k: v for k, v in output.items() if k not in ("$schema", "$defs")}
    wrapped: dict[str, Any] = {
        "type": "object",
        "properties": {"output": inner},
        "required": ["output"],
    }
    if is_object(output.get("$defs")):
        wrapped["$defs"] = output["$defs"]
    return wrapped


def _gemini(tool: AnyTool) -> dict[str, Any]:
    return _declaration(tool, "parameters", gemini_parameters)
