"""Gemini function parameters: the OpenAPI 3.0 subset Gemini accepts, and the decoder."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from standard_tool._core import StandardToolV0Definition, input_json_schema
from standard_tool._shared import truncate_text
from standard_tool.dialects import inline_refs
from standard_tool.providers._check import check_gemini
from standard_tool.providers._convert_common import (
    PREFIX,
    Plan,
    ProviderSchemaError,
    ToolCache,
)
from standard_tool.providers._walk import SchemaRules, Walker

__all__ = ["GeminiParameters", "gemini_parameters"]


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
)

_MAX_REASONS = 8


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
        return None if schema is None else copy.deepcopy(schema)

    def decode(self, arguments: Any) -> Any:
        """Turn the arguments of a Gemini ``functionCall`` back into the tool's input.

        Pass ``function_call.args`` (a dict). Never raises; values of an
        unexpected shape are passed through for the tool's validation to report.
        """
        if arguments is None and self._schema is None:
            return {}
        plan = self._plan
        if plan is None:
            return arguments
        decoded: Any = plan.decode(arguments)
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
        walker = Walker(root, GEMINI_RULES)
        out, plan = walker.run()
        problems = list(walker.problems)
        if not problems:
            problems = [str(p) for p in check_gemini(out)]
        if problems:
            shown = problems[:_MAX_REASONS]
            if len(problems) > _MAX_REASONS:
                shown.append(f"and {len(problems) - _MAX_REASONS} more")
            raise ProviderSchemaError(
                truncate_text(
                    f"{PREFIX}cannot declare tool {name!r} for Gemini: {'; '.join(shown)}", 2000
                )
            )
        if not out.get("properties"):
            return cls(schema=None, plan=None)
        return cls(schema=out, plan=plan)


# A failure is cached as its message: an exception would hold a traceback whose
# frames hold the tool, and the weak cache would then keep the tool alive.
_CACHE: ToolCache[GeminiParameters | str] = ToolCache()


def _build(tool: StandardToolV0Definition[Any, Any, Any, Any]) -> GeminiParameters | str:
    try:
        return GeminiParameters.from_json_schema(input_json_schema(tool), name=tool.name)
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
