"""OpenAI strict mode: the rewritten schema, why it could not be, and the decoder."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from standard_tool._core import StandardToolV0Definition, input_json_schema
from standard_tool._shared import truncate_text
from standard_tool.providers._check import check_openai_strict
from standard_tool.providers._convert_common import (
    PREFIX,
    Plan,
    ProviderSchemaError,
    ToolCache,
    is_object,
    object_root,
)
from standard_tool.providers._walk import SchemaRules, Walker

__all__ = ["OpenAIStrictError", "OpenAIStrictSchema", "openai_strict", "plain_parameters"]


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


def plain_parameters(schema: Mapping[str, Any]) -> dict[str, Any]:
    """Return the schema as plain (non-strict) ``parameters``: an object root, no ``$schema``."""
    root = object_root(copy.deepcopy(dict(schema)))
    if root is None:
        raise ProviderSchemaError(
            f"{PREFIX}the input schema must describe a JSON object at its root "
            "(give the tool an object input with named properties)"
        )
    root.pop("$schema", None)
    if "properties" not in root:
        root["properties"] = {}
    if is_object(schema.get("$defs")) and "$defs" not in root:
        root["$defs"] = copy.deepcopy(schema["$defs"])
    return root


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
