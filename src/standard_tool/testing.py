"""Test helpers for tool authors: prove a tool enforces the schema it advertises.

Layer: top (imports the core and function tools; ``hypothesis`` and ``jsonschema``
lazily).

``check_schema_agreement`` generates JSON values (hypothesis), some shaped
like the tool's input schema and some arbitrary, and checks that the tool's
input validation accepts exactly the values the ``jsonschema`` library accepts
against the tool's advertised JSON Schema, its ``pattern`` keywords read as the
ECMA-262 regular expressions JSON Schema specifies
(``standard_tool.schemas.jsonschema.ECMA_VALIDATORS``). It works on any
conforming tool.

Requires ``hypothesis`` and ``jsonschema`` (the ``testing`` extra; imported when the helper runs).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import inspect
import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from standard_tool._core import StandardToolV0Definition, input_json_schema, optional_member

if TYPE_CHECKING:
    from hypothesis.strategies import SearchStrategy

__all__ = ["check_schema_agreement", "json_values_for"]

_SHOWN = 300


def _short_json(value: Any) -> str:
    try:
        text = json.dumps(value, default=repr)
    except (ValueError, RecursionError):  # pragma: no cover - generated values are JSON
        text = repr(value)
    return text if len(text) <= _SHOWN else text[: _SHOWN - 3] + "..."


def _format_checker(validator_cls: Any) -> Any:
    from jsonschema import FormatChecker

    from standard_tool._function._formats import parse_datetime, parse_time

    checker = FormatChecker()
    checker.checkers = dict(validator_cls.FORMAT_CHECKER.checkers)

    # jsonschema checks date-time and time only when rfc3339-validator is installed;
    # without it, fall back to a strict stdlib RFC 3339 check.
    def is_datetime(value: object) -> bool:
        return not isinstance(value, str) or parse_datetime(value) is not None

    def is_time(value: object) -> bool:
        return not isinstance(value, str) or parse_time(value) is not None

    if "date-time" not in checker.checkers:
        checker.checks("date-time")(is_datetime)
    if "time" not in checker.checkers:
        checker.checks("time")(is_time)
    return checker


def _validate(tool: StandardToolV0Definition[Any, Any, Any, Any], value: Any) -> Any:
    schema = optional_member(tool, "input_schema")
    if schema is None:
        return None
    result: Any = schema.__standard__.validate(value)
    if inspect.isawaitable(result):

        async def wait() -> Any:
            return await result

        result = asyncio.run(wait())
    return result


def check_schema_agreement(
    tool: StandardToolV0Definition[Any, Any, Any, Any],
    *,
    max_examples: int = 200,
    target: str = "draft-2020-12",
) -> None:
    """Check that a tool accepts exactly the inputs its JSON Schema accepts.

    Generates JSON values (hypothesis) shaped by the tool's input schema, plus
    arbitrary ones, and compares the tool's input validation
    (``tool.input_schema.__standard__.validate``, what ``execute`` runs before
    calling the handler; the handler itself is never called) with ``jsonschema``
    validating against ``input_json_schema(tool, target)`` with formats asserted.

    Examples:
        >>> from standard_tool._function import tool
        >>> @tool
        ... def add(a: int, b: int = 0) -> int:
        ...     '''Add two integers.'''
        ...     return a + b
        >>> check_schema_agreement(add, max_examples=50)

    Args:
        tool: any conforming tool.
        max_examples: how many values hypothesis tries.
        target: the JSON Schema dialect to check (``"draft-2020-12"`` or ``"draft-07"``).

    Raises:
        AssertionError: a value one side accepts and the other rejects; the
            message shows the (shrunk) value and both verdicts.
        ValueError: ``target`` is not one ``jsonschema`` can validate with.
    """
    from hypothesis import HealthCheck, given, settings

    from standard_tool.schemas.jsonschema import ECMA_VALIDATORS

    schema = input_json_schema(tool, target)
    # JSON Schema patterns are ECMA-262: the reference validator reads them so too
    validator_cls: Any = ECMA_VALIDATORS.get(target)
    if validator_cls is None:
        raise ValueError(
            f"check_schema_agreement: target must be draft-2020-12 or draft-07, got {target!r:.60}"
        )
    validator = validator_cls(schema, format_checker=_format_checker(validator_cls))
    canonical = input_json_schema(tool, "draft-2020-12")

    @settings(
        max_examples=max_examples,
        deadline=None,
        database=None,
        suppress_health_check=[
            HealthCheck.too_slow,
            HealthCheck.filter_too_much,
            HealthCheck.data_too_large,
            HealthCheck.large_base_example,
        ],
    )
    @given(json_values_for(canonical))
    def agree(value: Any) -> None:
        expected = validator.is_valid(value)
        result = _validate(tool, value)
        accepted = result is None or result.issues is None
        if accepted == expected:
            return
        if expected:
            found: Any = getattr(result, "issues", None) or ()
            issues = "; ".join(
                f"{'.'.join(str(getattr(k, 'key', k)) for k in (i.path or ()))}: {i.message}"
                for i in found
            )
            raise AssertionError(
                f"tool {tool.name!r} rejects a value its JSON Schema accepts: "
                f"{_short_json(value)}; the tool said: {issues[:_SHOWN]}"
            )
        error = next(iter(validator.iter_errors(value)))
        where = ".".join(str(p) for p in error.absolute_path)
        raise AssertionError(
            f"tool {tool.name!r} accepts a value its JSON Schema rejects: "
            f"{_short_json(value)}; jsonschema said at {where or '(root)'}: "
            f"{error.message[:_SHOWN]}"
        )

    agree()


def json_values_for(schema: Mapping[str, Any]) -> SearchStrategy[Any]:
    """Return a hypothesis strategy of JSON values near a draft 2020-12 schema.

    Mixes values built from the schema (mostly valid, often slightly wrong) with
    arbitrary JSON, so both acceptance and rejection are exercised.
    """
    from hypothesis import strategies as st

    defs: Mapping[str, Any] = schema.get("$defs", {})
    leaves = (
        st.none()
        | st.booleans()
        | st.integers()
        | st.floats(allow_nan=False, allow_infinity=False)
        | st.text(max_size=8)
    )
    anything = st.recursive(
        leaves,
        lambda inner: (
            st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
        ),
        max_leaves=8,
    )
    refs: dict[str, SearchStrategy[Any]] = {}

    def build(node: Any, depth: int) -> SearchStrategy[Any]:
        if node is True or node == {} or depth > 6:
            return anything
        if node is False:
            return leaves
        if "$ref" in node:
            name = str(node["$ref"]).rsplit("/", 1)[-1]
            if name not in refs:
                refs[name] = st.deferred(lambda: build(defs.get(name, {}), depth + 1))
            return refs[name]
        if "anyOf" in node:
            return st.one_of([build(b, depth + 1) for b in node["anyOf"]])
        if "const" in node:
            return st.just(node["const"])
        if "enum" in node:
            return st.sampled_from(list(node["enum"]))
        kind: Any = node.get("type")
        kinds: list[Any] = list(kind) if isinstance(kind, list) else [kind]  # pyright: ignore[reportUnknownArgumentType]
        return st.one_of([_typed(node, k, depth) for k in kinds])

    def _typed(node: Mapping[str, Any], kind: Any, depth: int) -> SearchStrategy[Any]:
        if kind == "string":
            return _string(node)
        if kind == "integer":
            lo = node.get("minimum", node.get("exclusiveMinimum"))
            hi = node.get("maximum", node.get("exclusiveMaximum"))
            near = st.integers(
                min_value=None if lo is None else int(lo) - 2,
                max_value=None if hi is None else int(hi) + 2,
            )
            return near | near.map(float)
        if kind == "number":
            return st.integers() | st.floats(allow_nan=False, allow_infinity=False)
        if kind == "boolean":
            return st.booleans()
        if kind == "null":
            return st.none()
        if kind == "array":
            prefix = node.get("prefixItems")
            if prefix is not None:
                return st.tuples(*(build(p, depth + 1) for p in prefix)).map(list)
            items = build(node.get("items", True), depth + 1)
            return st.lists(items, max_size=4)
        if kind == "object":
            return _object(node, depth)
        return anything

    def _string(node: Mapping[str, Any]) -> SearchStrategy[Any]:
        fmt = node.get("format")
        text = st.text(max_size=12)
        if fmt == "date-time":
            zones = st.sampled_from(
                [dt.timezone.utc, dt.timezone(dt.timedelta(hours=5, minutes=30))]
            )
            aware = st.datetimes(timezones=zones)
            return aware.map(lambda d: d.isoformat()) | text
        if fmt == "date":
            return st.dates().map(lambda d: d.isoformat()) | text
        if fmt == "time":
            return st.times().map(lambda t: t.isoformat() + "Z") | text
        if fmt == "uuid":
            return st.uuids().map(str) | text
        if "pattern" in node:
            return st.from_regex(str(node["pattern"])) | text
        return text

    def _object(node: Mapping[str, Any], depth: int) -> SearchStrategy[Any]:
        props: Mapping[str, Any] = node.get("properties", {})
        required = set(node.get("required", ()))
        fixed = {k: build(v, depth + 1) for k, v in props.items() if k in required}
        optional = {k: build(v, depth + 1) for k, v in props.items() if k not in required}
        extra = node.get("additionalProperties", True)
        base = st.fixed_dictionaries(fixed, optional=optional)
        extra_values = build(extra, depth + 1) if isinstance(extra, dict) else anything
        with_extra = st.tuples(
            base, st.dictionaries(st.text(max_size=5), extra_values, max_size=2)
        ).map(lambda pair: {**pair[1], **pair[0]})
        return base | with_extra | base.map(lambda d: dict(list(d.items())[1:]))

    return build(schema, 0)
