"""JSON Schema adapter: a JSON Schema dict as a Standard Schema, validated by ``jsonschema``.

Layer: schema adapters (imports the core, the dialects and ``jsonschema``).

This is what remote tools (MCP servers, OpenAPI operations) use: their schema is a
plain dict. The dialect is read from ``$schema`` (draft 2020-12 when absent, or
draft-07); the validator is compiled once, with formats checked where the schema
declares them. ``pattern``, ``patternProperties`` and ``additionalProperties``
match with ECMA-262 regular expressions, as JSON Schema specifies (``$`` only at
the very end). Validation stops after 100 issues, and a value nested too deeply
(or holding itself) or holding an integer too long to print is an issue, never
an exception.

Examples:
    >>> from standard_tool.schemas.jsonschema import from_json_schema
    >>> schema = from_json_schema(
    ...     {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}
    ... )
    >>> schema.__standard__.validate({"n": 1}).value
    {'n': 1}
    >>> schema.__standard__.validate({"n": "1"}).issues
    (Issue(message='expected integer', path=('n',)),)
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any, cast

from jsonschema import Draft7Validator, Draft202012Validator, validators
from jsonschema import exceptions as _exceptions

from standard_tool._core import FailureResult, Issue, SuccessResult
from standard_tool._shared import MAX_ISSUES, STOPPED, ecma_regex, truncate_text
from standard_tool.dialects import copy_schema, detect_dialect
from standard_tool.schemas._base import InvalidSchemaError, JSONSchemaEmitter, too_deep_issue

__all__ = ["ECMA_VALIDATORS", "JSONSchema", "JSONSchemaProps", "from_json_schema"]

# jsonschema's own annotations are partial; its errors are read as ``Any`` here.
_best_match: Callable[[Iterable[Any]], Any] = getattr(_exceptions, "best_match")  # noqa: B009
_ValidationError: Any = _exceptions.ValidationError
_MAX_SHOWN = 80


# --------------------------------------------------------------------------------------
# ECMA-262 patterns: the regex keywords of jsonschema, with JSON Schema's regex dialect
# --------------------------------------------------------------------------------------


def _pattern(validator: Any, pattern: str, instance: Any, schema: Any) -> Iterator[Any]:
    if validator.is_type(instance, "string") and not ecma_regex(pattern).search(instance):
        yield _ValidationError(f"does not match {pattern!r}")


def _pattern_properties(
    validator: Any, patterns: Mapping[str, Any], instance: Any, schema: Any
) -> Iterator[Any]:
    if not validator.is_type(instance, "object"):
        return
    for pattern, subschema in patterns.items():
        regex = ecma_regex(pattern)
        for key, value in instance.items():
            if regex.search(key):
                yield from validator.descend(value, subschema, path=key, schema_path=pattern)


def _extras(instance: Mapping[str, Any], schema: Mapping[str, Any]) -> list[str]:
    """Return the keys of ``instance`` that ``properties`` and ``patternProperties`` miss."""
    known = schema.get("properties", {})
    patterns = [ecma_regex(p) for p in schema.get("patternProperties", {})]
    return [k for k in instance if k not in known and not any(p.search(k) for p in patterns)]


def _additional_properties(validator: Any, additional: Any, instance: Any, schema: Any) -> Any:
    if not validator.is_type(instance, "object"):
        return
    extras = _extras(instance, schema)
    if validator.is_type(additional, "object"):
        for extra in extras:
            yield from validator.descend(instance[extra], additional, path=extra)
    elif not additional and extras:
        yield _ValidationError("unexpected properties")


# jsonschema's ``extend`` is unannotated; it is read as ``Any`` here.
_extend: Callable[..., Any] = getattr(validators, "extend")  # noqa: B009


def _ecma(cls: Any) -> Any:
    return _extend(
        cls,
        {
            "pattern": _pattern,
            "patternProperties": _pattern_properties,
            "additionalProperties": _additional_properties,
        },
    )


#: ``jsonschema`` validator classes per dialect whose regex keywords use ECMA-262
#: patterns (``standard_tool.testing`` checks tools against these too).
ECMA_VALIDATORS: dict[str, Any] = {
    "draft-2020-12": _ecma(Draft202012Validator),
    "draft-07": _ecma(Draft7Validator),
}
_VALIDATORS = ECMA_VALIDATORS


class JSONSchemaProps:
    """The ``__standard__`` object of a ``JSONSchema``.

    Attributes:
        version: always ``1``.
        vendor: ``"jsonschema"``.
        json_schema: ``input``/``output`` JSON Schema for a target: the schema
            itself (both sides), converted by ``standard_tool.dialects``.
    """

    __slots__ = ("_iter_errors", "json_schema")

    version: int = 1
    vendor: str = "jsonschema"

    def __init__(self, schema: dict[str, Any], *, check_formats: bool) -> None:
        dialect = detect_dialect(schema)
        cls = _VALIDATORS[dialect]
        try:
            cls.check_schema(schema)
        except _exceptions.SchemaError as err:
            where = "/".join(str(p) for p in err.absolute_path) or "the root"
            raise InvalidSchemaError(
                f"from_json_schema: not a valid {dialect} JSON Schema at {where}: "
                f"{_bounded(err.message)}"
            ) from err
        format_checker = cls.FORMAT_CHECKER if check_formats else None
        validator: Any = cls(schema, format_checker=format_checker)
        self._iter_errors: Callable[[object], Iterator[Any]] = validator.iter_errors
        self.json_schema = JSONSchemaEmitter(lambda side, options: schema)

    def validate(self, value: object, /) -> SuccessResult[Any] | FailureResult:
        """Validate ``value``; return it unchanged, or one issue per problem found.

        Each issue's ``path`` is where the problem is in ``value`` (a missing or
        unexpected property included); its ``message`` is short and never repeats
        the value.
        """
        errors: list[Any] = []
        try:
            for error in self._iter_errors(value):
                errors.append(error)
                if len(errors) >= MAX_ISSUES:  # a million bad items must not cost GBs
                    issues = [*_issues(errors)][: MAX_ISSUES - 1]
                    issues.append(Issue(STOPPED, None, "invalid"))
                    return FailureResult(tuple(issues))
        except RecursionError:
            return FailureResult((_too_deep(value),))
        except ValueError as err:  # an int past the interpreter's digit limit
            text = str(err)
            if "digit" in text:
                text = "an integer has too many digits to check"
            return FailureResult(
                (Issue(_bounded(f"cannot be validated: {text}"), None, "invalid"),)
            )
        if not errors:
            return SuccessResult(value)
        return FailureResult(tuple(_issues(errors)))


#: The issue for a value the validator could not walk (``schemas._base.too_deep_issue``).
_too_deep = too_deep_issue


class JSONSchema:
    """A JSON Schema dict as a Standard Schema (and Standard JSON Schema).

    ``validate`` checks a value with the ``jsonschema`` library and returns it
    unchanged; JSON Schema for every target of ``standard_tool.dialects`` is the
    schema itself, converted.

    Args:
        schema: a draft 2020-12 or draft-07 JSON Schema, by its ``$schema``
            (2020-12 when absent). It is copied; later changes to it have no effect.
        check_formats: check ``format`` (``"email"``, ``"date"``, ...) where the
            schema declares it, for the formats ``jsonschema`` can check.

    Attributes:
        schema: the (copied) JSON Schema.

    Raises:
        ValueError: the schema is not valid for its dialect, or names another dialect.
    """

    __slots__ = ("__standard__", "schema")

    __standard__: JSONSchemaProps

    def __init__(self, schema: Mapping[str, Any], *, check_formats: bool = True) -> None:
        if not isinstance(schema, Mapping):  # pyright: ignore[reportUnnecessaryIsInstance]
            raise TypeError(
                f"from_json_schema: expected a JSON Schema dict, got {type(schema).__qualname__}"
            )
        self.schema = copy_schema(schema)
        self.__standard__ = JSONSchemaProps(self.schema, check_formats=check_formats)

    def __repr__(self) -> str:
        title = self.schema.get("title")
        return f"JSONSchema({_bounded(title) if isinstance(title, str) else '...'})"


def from_json_schema(schema: Mapping[str, Any], *, check_formats: bool = True) -> JSONSchema:
    """Wrap a JSON Schema dict. Same as ``JSONSchema``."""
    return JSONSchema(schema, check_formats=check_formats)


# --------------------------------------------------------------------------------------
# Issues: our own short messages, the path from the validator's errors
# --------------------------------------------------------------------------------------


def _issues(errors: Iterable[Any]) -> Iterator[Issue]:
    for error in errors:
        if error.validator in ("anyOf", "oneOf") and error.context:
            deepest = _best_match(error.context)
            if deepest is not None and deepest.validator not in ("anyOf", "oneOf"):
                # best_match's path is relative to the branch; make it absolute.
                yield from _issues([_rebased(deepest, error)])
                continue
        path = tuple(error.absolute_path)
        if error.validator == "required":
            yield from _required(error, path)
        elif error.validator in ("additionalProperties", "unevaluatedProperties") and (
            error.validator_value is False
        ):
            yield from _unexpected(error, path)
        else:
            yield Issue(_message(error), path or None, _CODES.get(error.validator, "constraint"))


#: JSON Schema keywords and the issue code a failure of each means (else "constraint").
_CODES = {
    "type": "type",
    "enum": "enum",
    "const": "enum",
    "format": "format",
    "anyOf": "union",
    "oneOf": "union",
    "additionalProperties": "additional_property",
    "unevaluatedProperties": "additional_property",
    "required": "required",
    "$ref": "invalid",
    "not": "invalid",
    "if": "invalid",
    "allOf": "invalid",
}


def _rebased(inner: Any, outer: Any) -> Any:
    inner.path.extendleft(reversed(outer.absolute_path))
    inner.parent = None
    return inner


def _required(error: Any, path: tuple[Any, ...]) -> Iterator[Issue]:
    for name in error.validator_value:
        if error.message == f"{name!r} is a required property":
            yield Issue("missing required property", (*path, name), "required")
            return
    yield Issue("missing required property", path or None, "required")


def _unexpected(error: Any, path: tuple[Any, ...]) -> Iterator[Issue]:
    extras = _extras(_object(error.instance), _object(error.schema))
    if not extras:
        yield Issue("unexpected property", path or None, "additional_property")
    for name in extras:
        yield Issue("unexpected property", (*path, name), "additional_property")


def _object(value: object) -> dict[str, Any]:
    return cast("dict[str, Any]", value) if isinstance(value, dict) else {}


def _message(error: Any) -> str:
    keyword: Any = error.validator
    expected: Any = error.validator_value
    if keyword == "type":
        names: list[Any] = [expected] if isinstance(expected, str) else list(expected)
        return f"expected {' or '.join(str(n) for n in names)}"
    simple = _SIMPLE.get(str(keyword))
    if simple is not None:
        return simple.format(_json(expected))
    if keyword is None or error.schema is False:
        return "no value is allowed here"
    return _bounded(error.message)


_SIMPLE = {
    "enum": "expected one of {}",
    "const": "expected {}",
    "minimum": "must be >= {}",
    "exclusiveMinimum": "must be > {}",
    "maximum": "must be <= {}",
    "exclusiveMaximum": "must be < {}",
    "multipleOf": "must be a multiple of {}",
    "minLength": "must have at least {} characters",
    "maxLength": "must have at most {} characters",
    "pattern": "must match the pattern {}",
    "format": "must be a valid {}",
    "minItems": "must have at least {} items",
    "maxItems": "must have at most {} items",
    "uniqueItems": "items must be unique",
    "minProperties": "must have at least {} properties",
    "maxProperties": "must have at most {} properties",
    "contains": "must contain at least one matching item",
    "anyOf": "does not match any of the allowed schemas",
    "oneOf": "must match exactly one of the allowed schemas",
    "not": "matches a schema it must not match",
    "additionalProperties": "has an invalid additional property",
}


def _json(value: Any) -> str:
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return _bounded(text)


def _bounded(text: str) -> str:
    return truncate_text(text, _MAX_SHOWN)
