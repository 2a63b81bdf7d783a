"""OpenAI: the strict-mode rules and rewrite, its checker, and the Chat/Responses declarations.

Layer: providers (imports the core, the shared helpers, the neutral walk and the
declaration helpers; never the package root).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping
from typing import Any

from typing_extensions import Literal, overload

from standard_tool._core import StandardToolV0Definition, input_json_schema
from standard_tool._shared import truncate_text
from standard_tool.providers._check import TYPES, Path, Problems, SchemaProblem
from standard_tool.providers._convert_common import (
    PREFIX,
    Plan,
    ProviderOptionError,
    ProviderSchemaError,
    ToolCache,
    is_array,
    is_object,
    resolve_local_ref,
    value_text,
)
from standard_tool.providers._declare import (
    AnyTool,
    ManyTools,
    check_name,
    each,
    parameters,
    plain_parameters,
)
from standard_tool.providers._walk import SchemaRules, Walker

__all__ = [
    "OPENAI_STRICT_RULES",
    "OpenAIStrictError",
    "OpenAIStrictSchema",
    "check_openai_strict",
    "openai_strict",
    "plain_parameters",
]


#: String formats OpenAI strict mode understands.
OPENAI_FORMATS = frozenset(
    {"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}
)

#: OpenAI strict mode (structured outputs), as its documentation states it: every
#: property required and objects closed, ``$defs`` kept, null said with ``type``
#: lists or ``anyOf``, at most 5,000 properties, 10 levels and 1,000 enum values.
OPENAI_STRICT_RULES = SchemaRules(
    provider="OpenAI",
    keeps={
        "string": frozenset({"pattern", "format"}),
        "number": frozenset(
            {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"}
        ),
        "array": frozenset({"minItems", "maxItems"}),
    },
    formats={"string": OPENAI_FORMATS},
    refs=True,
    nullable_keyword=False,
    null_alone=True,
    mixed_enums=True,
    string_enums_only=False,
    exclusive_bounds_inclusive=False,
    all_required=True,
    closed_objects=True,
    property_ordering=False,
    max_properties=5000,
    max_depth=10,
    max_enum_values=1000,
)

_MAX_REASONS = 8
_MAX_REASON = 2000


class OpenAIStrictError(ProviderSchemaError):
    """``strict=True`` was asked for a tool whose schema OpenAI strict mode cannot represent.

    The message starts with ``"standard_tool.providers: "`` and lists where and why.
    """


class OpenAIStrictSchema:
    """A tool's input schema for OpenAI strict mode, and how to read the model's arguments.

    Build one with ``openai_strict`` (cached per tool) or
    ``from_json_schema``. It is immutable.

    Attributes:
        strict: whether the schema can be sent with ``"strict": true``.
        reason: when ``strict`` is false, why (each problem with its JSON pointer);
            ``None`` otherwise.

    Strict mode needs every object closed and every property required, and it
    cannot express ``dict[str, T]``. The rewrite therefore makes optional
    properties nullable, sends maps as lists of ``{"key", "value"}`` entries and
    moves defaults and unsupported constraints into descriptions. ``decode``
    undoes this on the arguments the model sends, so the tool sees its own
    shape: entries become a dict again, and ``null`` for a property that was
    optional (and did not itself accept ``null``) removes the key so the tool's
    default applies.

    Examples:
        >>> s = OpenAIStrictSchema.from_json_schema({
        ...     "type": "object",
        ...     "properties": {
        ...         "tags": {"type": "object", "additionalProperties": {"type": "string"}},
        ...         "limit": {"type": "integer", "default": 10},
        ...     },
        ...     "required": ["tags"],
        ... })
        >>> s.strict
        True
        >>> s.decode({"tags": [{"key": "env", "value": "prod"}], "limit": None})
        {'tags': {'env': 'prod'}}
    """

    __slots__ = ("_plan", "_schema", "reason", "strict")

    strict: bool
    reason: str | None
    _schema: dict[str, Any]
    _plan: Plan | None

    def __init__(
        self, *, schema: dict[str, Any], strict: bool, reason: str | None, plan: Plan | None
    ) -> None:
        object.__setattr__(self, "_schema", schema)
        object.__setattr__(self, "strict", strict)
        object.__setattr__(self, "reason", reason)
        object.__setattr__(self, "_plan", plan)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __repr__(self) -> str:
        if self.strict:
            return "OpenAIStrictSchema(strict=True)"
        return f"OpenAIStrictSchema(strict=False, reason={truncate_text(str(self.reason), 120)!r})"

    @property
    def schema(self) -> dict[str, Any]:
        """The ``parameters`` to send: the strict rewrite, or the plain schema when not strict.

        A fresh copy on every access; the caller may mutate it.
        """
        return copy.deepcopy(self._schema)

    def decode(self, arguments: Any) -> Any:
        """Turn the arguments a model sent under ``schema`` back into the tool's input.

        Pass the parsed JSON arguments (a dict). Returns a new dict and never
        raises: a value that does not have the expected shape is passed through
        unchanged for the tool's own validation to report. When ``strict``
        is false this returns ``arguments`` unchanged.
        """
        plan = self._plan
        if plan is None or not self.strict:
            return arguments
        decoded: Any = plan.decode(arguments)
        return decoded

    @classmethod
    def from_json_schema(cls, schema: Mapping[str, Any]) -> OpenAIStrictSchema:
        """Rewrite a draft 2020-12 input schema (not modified) for OpenAI strict mode."""
        root = copy.deepcopy(dict(schema))
        walker = Walker(root, OPENAI_STRICT_RULES)
        out, plan = walker.run()
        problems = list(walker.problems)
        if not problems:
            problems = [str(p) for p in check_openai_strict(out)]
        if not problems:
            return cls(schema=out, strict=True, reason=None, plan=plan)
        shown = problems[:_MAX_REASONS]
        if len(problems) > _MAX_REASONS:
            shown.append(f"and {len(problems) - _MAX_REASONS} more")
        reason = truncate_text("; ".join(shown), _MAX_REASON)
        return cls(schema=plain_parameters(root), strict=False, reason=reason, plan=None)


_CACHE: ToolCache[OpenAIStrictSchema] = ToolCache()


def openai_strict(tool: StandardToolV0Definition[Any, Any, Any, Any]) -> OpenAIStrictSchema:
    """Return the OpenAI strict-mode view of ``tool``'s input schema (cached per tool).

    Works for any conforming tool: it reads ``input_json_schema(tool)``. Use
    ``.strict`` and ``.reason`` to see whether strict mode is possible, and call
    ``.decode(arguments)`` on a model's parsed arguments before
    ``tool.execute(...)`` whenever the tool was sent with ``"strict": true``
    (which ``to_openai_chat`` and ``to_openai_responses`` do exactly when
    ``strict`` is ``"auto"`` or ``True`` and ``.strict`` is true).

    Examples:
        >>> from standard_tool import standard_tool
        >>> ping = standard_tool(name="ping", description="Ping.", execute=lambda: "pong")
        >>> openai_strict(ping).strict
        True
    """
    return _CACHE.get(tool, lambda: OpenAIStrictSchema.from_json_schema(input_json_schema(tool)))


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
    problems = Problems()
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
    problems: Problems,
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
    if any(k not in TYPES for k in kinds):
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
    if fmt is not None and fmt not in OPENAI_FORMATS:
        problems.add(path, f"format {value_text(fmt)} is not supported in strict mode")


# --------------------------------------------------------------------------------------
# Declarations
# --------------------------------------------------------------------------------------

_OPENAI_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")


def _openai_parameters(
    tool: AnyTool, strict: bool | Literal["auto"]
) -> tuple[dict[str, Any], bool]:
    if strict is False:
        return parameters(tool), False
    if strict not in (True, "auto"):
        raise ProviderOptionError(f"{PREFIX}strict must be True, False or 'auto', not {strict!r}")
    view = openai_strict(tool)
    if view.strict:
        return view.schema, True
    if strict is True:
        raise OpenAIStrictError(
            f"{PREFIX}tool {tool.name!r} cannot use OpenAI strict mode: {view.reason}. "
            "Pass strict='auto' or strict=False to send it without strict mode"
        )
    return parameters(tool), False


@overload
def to_openai_chat(tool: AnyTool, *, strict: bool | Literal["auto"] = "auto") -> dict[str, Any]: ...
@overload
def to_openai_chat(
    tool: ManyTools, *, strict: bool | Literal["auto"] = "auto"
) -> list[dict[str, Any]]: ...
def to_openai_chat(
    tool: AnyTool | ManyTools, *, strict: bool | Literal["auto"] = "auto"
) -> dict[str, Any] | list[dict[str, Any]]:
    """Declare ``tool`` for the OpenAI Chat Completions API.

    Args:
        tool: any conforming tool, or a ``Toolkit`` or iterable of tools (then
            the result is a list of declarations, in order).
        strict: ``"auto"`` (default) uses strict mode when the input schema can
            be represented there (see ``openai_strict`` for why not
            otherwise); ``True`` insists and raises ``OpenAIStrictError``
            if it cannot; ``False`` sends the plain JSON Schema.

    Returns:
        ``{"type": "function", "function": {"name", "description", "parameters",
        "strict"}}``. When ``"strict"`` is true, decode the model's arguments with
        ``openai_strict(tool).decode(arguments)`` before running the tool.

    Raises:
        ProviderSchemaError: the name is not ``[A-Za-z0-9_-]{1,64}`` or the input
            is not an object.

    Examples:
        >>> from standard_tool import standard_tool
        >>> ping = standard_tool(name="ping", description="Ping.", execute=lambda: "pong")
        >>> to_openai_chat(ping)["function"]["strict"]
        True
    """
    return each(tool, lambda t: _openai_chat(t, strict))


def _openai_chat(tool: AnyTool, strict: bool | Literal["auto"]) -> dict[str, Any]:
    name = check_name(tool, _OPENAI_NAME, "OpenAI", "1 to 64 of A-Z, a-z, 0-9, '_' and '-'")
    parameters, is_strict = _openai_parameters(tool, strict)
    function: dict[str, Any] = {"name": name}
    if tool.description:
        function["description"] = tool.description
    function["parameters"] = parameters
    function["strict"] = is_strict
    return {"type": "function", "function": function}


@overload
def to_openai_responses(
    tool: AnyTool, *, strict: bool | Literal["auto"] = "auto"
) -> dict[str, Any]: ...
@overload
def to_openai_responses(
    tool: ManyTools, *, strict: bool | Literal["auto"] = "auto"
) -> list[dict[str, Any]]: ...
def to_openai_responses(
    tool: AnyTool | ManyTools, *, strict: bool | Literal["auto"] = "auto"
) -> dict[str, Any] | list[dict[str, Any]]:
    """Declare ``tool`` (or each of a ``Toolkit`` or iterable) for the OpenAI Responses API.

    Same rules as ``to_openai_chat``; the shape is flat:
    ``{"type": "function", "name", "description", "parameters", "strict"}``.
    """
    return each(tool, lambda t: _openai_responses(t, strict))


def _openai_responses(tool: AnyTool, strict: bool | Literal["auto"]) -> dict[str, Any]:
    name = check_name(tool, _OPENAI_NAME, "OpenAI", "1 to 64 of A-Z, a-z, 0-9, '_' and '-'")
    parameters, is_strict = _openai_parameters(tool, strict)
    out: dict[str, Any] = {"type": "function", "name": name}
    if tool.description:
        out["description"] = tool.description
    out["parameters"] = parameters
    out["strict"] = is_strict
    return out
