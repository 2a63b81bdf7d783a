"""JSON Schema adapter: a JSON Schema dict as a Standard Schema, validated by ``jsonschema``.

Layer: schema adapters (imports the core, the dialects and ``jsonschema``).

This is what remote tools (MCP servers, OpenAPI operations) use: their schema is a
plain dict. The dialect is read from ``$schema`` (draft 2020-12 when absent, or
draft-07); the validator is compiled once, with formats checked where the schema
declares them. ``pattern``, ``patternProperties`` and ``additionalProperties``
match with ECMA-262 regular expressions, as JSON Schema specifies (``$`` only at
the very end), matched by the ``regex`` package within ``PATTERN_BUDGET`` seconds
per validation. Validation stops after 50 issues, and a value nested too deeply
(or holding itself) or holding an integer too long to print is an issue, never
an exception. A schema nested past ``MAX_SCHEMA_DEPTH``, of another dialect, or
with a ``$ref`` that points nowhere or outside it is refused when wrapped; a
reference is never fetched: the official metaschemas (draft 2020-12 and draft-07,
and their vocabularies) resolve from the copies ``jsonschema`` ships, as it does.

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

import functools
import importlib
import json
import marshal
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextvars import ContextVar
from typing import Any, cast
from urllib.parse import unquote, urljoin

from jsonschema import Draft7Validator, Draft202012Validator, validators
from jsonschema import exceptions as _exceptions
from referencing import Registry
from referencing.exceptions import NoSuchResource
from referencing.exceptions import Unresolvable as _Unresolvable

from standard_tool._core import FailureResult, Issue, SuccessResult
from standard_tool._shared import (
    MAX_ISSUES,
    MISSING,
    STOPPED,
    ecma_regex,
    ecma_source,
    pointer_text,
    resolve_pointer,
    truncate_text,
)
from standard_tool.dialects import SchemaConversionError, copy_schema, detect_dialect
from standard_tool.schemas._base import InvalidSchemaError, JSONSchemaEmitter, too_deep_issue

__all__ = [
    "ECMA_VALIDATORS",
    "MAX_SCHEMA_DEPTH",
    "PATTERN_BUDGET",
    "JSONSchema",
    "JSONSchemaProps",
    "from_json_schema",
]

# jsonschema's own annotations are partial; its errors are read as ``Any`` here.
_best_match: Callable[[Iterable[Any]], Any] = getattr(_exceptions, "best_match")  # noqa: B009
_ValidationError: Any = _exceptions.ValidationError
_MAX_SHOWN = 80


# --------------------------------------------------------------------------------------
# ECMA-262 patterns: the regex keywords of jsonschema, with JSON Schema's regex dialect
# --------------------------------------------------------------------------------------


#: Seconds one validation may spend matching patterns, all of them together. A
#: schema from elsewhere (an MCP server, a framework) may hold a pattern that
#: backtracks exponentially (``^(a|aa)+$`` on 41 characters takes minutes with
#: ``re``), so its patterns are matched with the ``regex`` package and a timeout:
#: past the budget, a string fails with "took too long to match".
PATTERN_BUDGET = 1.0

#: The current validation's pattern deadline (``time.monotonic()``), in a one-item list.
_DEADLINE: ContextVar[list[float] | None] = ContextVar(
    "standard_tool_pattern_deadline", default=None
)


@functools.lru_cache(maxsize=1024)
def _bounded_regex(pattern: str) -> Any:
    """Compile ``pattern`` (ECMA-262) with the ``regex`` package, whose matching takes a timeout."""
    regex: Any = importlib.import_module("regex")  # untyped; an optional dependency
    return regex.compile(ecma_source(pattern), regex.ASCII)


def _search(pattern: str, text: str) -> bool | None:
    """Whether ``pattern`` matches in ``text``; ``None`` when the time budget ran out."""
    budget = _DEADLINE.get()
    if budget is None:  # outside ``validate`` (``ECMA_VALIDATORS`` used directly)
        left = PATTERN_BUDGET
    else:
        left = budget[0] - time.monotonic()
        if left <= 0:
            return None
    try:
        compiled = _bounded_regex(pattern)
    except ImportError:  # ``ECMA_VALIDATORS`` used directly, on schemas one wrote oneself
        return ecma_regex(pattern).search(text) is not None
    try:
        return compiled.search(text, timeout=left) is not None
    except TimeoutError:
        if budget is not None:
            budget[0] = 0.0  # spent: every later match of this validation fails at once
        return None


#: The ``validator`` of the error for a match that ran out of time (our message kept).
_TOO_SLOW = "pattern (time budget)"


def _too_slow(pattern: str) -> Any:
    return _ValidationError(
        f"took too long to match the pattern {_json(pattern)} "
        f"(over {PATTERN_BUDGET:g} s of matching); send a shorter value",
        validator=_TOO_SLOW,
    )


def _pattern(validator: Any, pattern: str, instance: Any, schema: Any) -> Iterator[Any]:
    if validator.is_type(instance, "string"):
        found = _search(pattern, instance)
        if found is None:
            yield _too_slow(pattern)
        elif not found:
            yield _ValidationError(f"does not match {pattern!r}")


def _pattern_properties(
    validator: Any, patterns: Mapping[str, Any], instance: Any, schema: Any
) -> Iterator[Any]:
    if not validator.is_type(instance, "object"):
        return
    for pattern, subschema in patterns.items():
        for key, value in instance.items():
            found = _search(pattern, key)
            if found is None:
                yield _too_slow(pattern)
            elif found:
                yield from validator.descend(value, subschema, path=key, schema_path=pattern)


def _extras(instance: Mapping[str, Any], schema: Mapping[str, Any]) -> list[str]:
    """Return the keys of ``instance`` that ``properties`` and ``patternProperties`` miss.

    A key whose match ran out of time counts as missed: it is refused, never let through.
    """
    known = schema.get("properties", {})
    patterns = list(schema.get("patternProperties", {}))
    return [k for k in instance if k not in known and not any(_search(p, k) for p in patterns)]


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
#: patterns (``standard_tool.testing`` checks tools against these too), matched by
#: ``regex`` within ``PATTERN_BUDGET`` (by ``re``, unbounded, when ``regex`` is missing:
#: ``from_json_schema`` refuses a schema with patterns then).
ECMA_VALIDATORS: dict[str, Any] = {
    "draft-2020-12": _ecma(Draft202012Validator),
    "draft-07": _ecma(Draft7Validator),
}
_VALIDATORS = ECMA_VALIDATORS


# --------------------------------------------------------------------------------------
# What a schema from anywhere (an MCP server, a framework) must be before it is used
# --------------------------------------------------------------------------------------

#: How deep a schema document may nest (objects and arrays, counted before anything
#: walks it recursively): ``jsonschema`` checks a schema recursively, about eight
#: frames a level, and 122 levels of ``items`` exhausted Python's stack at a call
#: (issue 35: a tool then built and failed every call). 96 leaves a call 200 frames.
MAX_SCHEMA_DEPTH = 96

_REFERENCE_KEYS = ("$ref", "$dynamicRef")


def _no_retrieval(uri: str) -> Any:
    raise _no_such_resource(ref=uri)


# referencing's attrs classes: their keyword arguments are read as ``Any`` here.
_no_such_resource: Any = NoSuchResource
# The official metaschemas resolve from jsonschema's own copies (never fetched), as they
# do in jsonschema's default registry. (jsonschema_specifications, a dependency of
# jsonschema, has no type information.)
_METASCHEMAS: Any = importlib.import_module("jsonschema_specifications").REGISTRY
_LOCAL_ONLY: Any = cast("Any", Registry)(retrieve=_no_retrieval).combine(_METASCHEMAS)


def _metaschema(uri: str) -> object:
    """Return the official metaschema at ``uri`` from jsonschema's copies, or a marker."""
    try:
        return _METASCHEMAS.contents(uri)
    except NoSuchResource:
        return _MISSING_RESOURCE


def _shape_problem(schema: Mapping[str, Any]) -> str | None:
    """Say why ``schema`` cannot be walked: nested past ``MAX_SCHEMA_DEPTH``, or holding itself.

    A walk without recursion that visits each container once.
    """
    open_ids: set[int] = set()
    done: set[int] = set()
    stack: list[tuple[object, tuple[str | int, ...]] | int] = [(schema, ())]
    while stack:
        entry = stack.pop()
        if isinstance(entry, int):
            open_ids.discard(entry)
            done.add(entry)
            continue
        node, path = entry
        if isinstance(node, Mapping):
            children: list[tuple[str | int, object]] = [
                (str(k), v) for k, v in cast("Mapping[object, object]", node).items()
            ]
        elif isinstance(node, (list, tuple)):
            children = list(enumerate(cast("list[object]", node)))
        else:
            continue
        key = id(cast(object, node))
        if key in open_ids:
            return f"the schema contains itself at {_where(path)}"
        if key in done:
            continue
        if len(path) > MAX_SCHEMA_DEPTH:
            return f"the schema nests more than {MAX_SCHEMA_DEPTH} levels deep at {_where(path)}"
        open_ids.add(key)
        stack.append(key)
        stack.extend((child, (*path, name)) for name, child in reversed(children))
    return None


def _where(path: tuple[str | int, ...]) -> str:
    return truncate_text(pointer_text(path), _MAX_SHOWN) or "the root"


def _reference_problem(schema: dict[str, Any]) -> str | None:
    """Say which ``$ref`` (or ``$dynamicRef``) of ``schema`` cannot be resolved within it.

    A reference resolves when it points into the schema: a JSON Pointer fragment
    that leads somewhere in its resource (the document, or the subschema whose
    ``$id`` it is under), an anchor the schema defines, or the ``$id`` of one of its
    subschemas. Anything else would have to be fetched, which never happens.
    """
    resources: dict[str, object] = {}  # absolute $id (without fragment) -> its subschema
    anchors: set[str] = set()
    refs: list[tuple[str, str, object, tuple[str | int, ...]]] = []  # ref, base, root, path
    stack: list[tuple[object, str, object, tuple[str | int, ...]]] = [(schema, "", schema, ())]
    while stack:
        node, base, root, path = stack.pop()
        if isinstance(node, list):
            items = cast("list[object]", node)
            stack.extend((item, base, root, (*path, i)) for i, item in enumerate(items))
            continue
        if not isinstance(node, dict):
            continue
        obj = cast("dict[str, object]", node)
        own = obj.get("$id")
        if isinstance(own, str):
            if own.startswith("#"):  # draft-07: a plain-name $id is an anchor
                anchors.add(own[1:])
            else:
                base = urljoin(base, own.split("#", 1)[0])
                resources[base] = obj
                root = obj
        for name in ("$anchor", "$dynamicAnchor"):
            anchor = obj.get(name)
            if isinstance(anchor, str):
                anchors.add(anchor)
        for name in _REFERENCE_KEYS:
            ref = obj.get(name)
            if isinstance(ref, str):
                refs.append((ref, base, root, (*path, name)))
        for key, child in obj.items():
            if key not in ("enum", "const", "default", "examples"):  # data, not schemas
                stack.append((child, base, root, (*path, key)))
    for ref, base, root, path in refs:
        address, _, fragment = ref.partition("#")
        target = root
        if address:
            absolute = urljoin(base, address)
            target = resources.get(absolute, _MISSING_RESOURCE)
            if target is _MISSING_RESOURCE:
                target = _metaschema(absolute)
            if target is _MISSING_RESOURCE:
                return (
                    f"$ref {_bounded(ref)!r} at {_where(path)} points outside the schema; "
                    "references are never fetched: put the definition in $defs"
                )
        if fragment.startswith("/") or not fragment:
            if resolve_pointer(target, "#" + fragment) is MISSING:
                return f"$ref {_bounded(ref)!r} at {_where(path)} points nowhere in the schema"
        elif unquote(fragment) not in anchors:
            return f"$ref {_bounded(ref)!r} at {_where(path)} names no anchor of the schema"
    return None


_MISSING_RESOURCE = object()


def _pattern_values(schema: object) -> Iterator[str]:
    """Yield every ``pattern`` and ``patternProperties`` key of ``schema`` (no recursion)."""
    stack: list[object] = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, list):
            stack.extend(cast("list[object]", node))
        elif isinstance(node, dict):
            obj = cast("dict[str, object]", node)
            pattern = obj.get("pattern")
            if isinstance(pattern, str):
                yield pattern
            found = obj.get("patternProperties")
            if isinstance(found, dict):
                yield from (k for k in cast("dict[object, object]", found) if isinstance(k, str))
            stack.extend(
                v for k, v in obj.items() if k not in ("enum", "const", "default", "examples")
            )


def _has_patterns(schema: object) -> bool:
    return next(_pattern_values(schema), None) is not None


def _pattern_problem(schema: object) -> str | None:
    """Compile every pattern of ``schema`` for bounded matching; say which one cannot be."""
    for pattern in _pattern_values(schema):
        try:
            _bounded_regex(pattern)
        except ImportError:
            raise ImportError(
                "from_json_schema: a schema with patterns needs the 'regex' package, which "
                "matches them within a time budget; install the 'standard-tool[jsonschema]' "
                "extra"
            ) from None
        except Exception as err:  # regex.error: refused as the schema's own mistake
            return f"the pattern {_bounded(pattern)!r} cannot be compiled: {_bounded(str(err))}"
    return None


_PLAIN_SCALARS = frozenset({str, int, float, bool, type(None)})


class _NotPlain(Exception):
    """Raised inside ``_copy_dict`` at the first value that is not plain JSON."""


def _copy_dict(source: dict[Any, Any], depth: int) -> dict[Any, Any]:
    """Return a deep copy of ``source`` when it is plain JSON, else raise ``_NotPlain``.

    Plain JSON is dicts, lists, strings, numbers, booleans and ``None`` (exactly
    these classes), within ``depth`` levels as ``copy_schema`` counts them (one that
    contains itself is not): the copy is then the one ``copy_schema`` makes, made in
    one pass that checks as it copies. Anything else goes to ``copy_schema`` instead,
    which refuses what cannot be copied.
    """
    # Copied in C first; only the dicts and lists within are replaced by their copies.
    # Keys are kept as they are, as ``copy_schema`` keeps them.
    if depth < 0:
        raise _NotPlain
    copy = source.copy()
    for key, value in source.items():
        cls = value.__class__
        if cls is dict:
            copy[key] = _copy_dict(value, depth - 1)
        elif cls is list:
            copy[key] = _copy_list(value, depth - 1)
        elif cls not in _PLAIN_SCALARS:
            raise _NotPlain
    return copy


def _copy_list(source: list[Any], depth: int) -> list[Any]:
    if depth < 0:
        raise _NotPlain
    copy = source[:]
    for index, value in enumerate(source):
        cls = value.__class__
        if cls is dict:
            copy[index] = _copy_dict(value, depth - 1)
        elif cls is list:
            copy[index] = _copy_list(value, depth - 1)
        elif cls not in _PLAIN_SCALARS:
            raise _NotPlain
    return copy


class JSONSchemaProps:
    """The ``__standard__`` object of a ``JSONSchema``.

    Attributes:
        version: always ``1``.
        vendor: ``"jsonschema"``.
        json_schema: ``input``/``output`` JSON Schema for a target: the schema
            itself (both sides), converted by ``standard_tool.dialects``.
    """

    __slots__ = (
        "_check_formats",
        "_draft_2020_12",
        "_emitter",
        "_iter_errors",
        "_json",
        "_patterns",
        "_schema",
    )

    version: int = 1
    vendor: str = "jsonschema"
    #: No fast path: said here, so the builder's look-up raises nothing inside ``getattr``.
    fast_path: None = None

    def __init__(self, schema: dict[str, Any], *, check_formats: bool, defer_check: bool) -> None:
        self._setup(schema, schema, False, check_formats, defer_check)

    def _setup(
        self,
        source: Mapping[str, Any],
        schema: dict[str, Any],
        plain: bool,
        check_formats: bool,
        defer_check: bool,
    ) -> None:
        """Set up from ``schema``, a copy nobody else holds; ``plain``: it is plain JSON.

        ``source`` is the schema as given, for its dialect.
        """
        try:
            dialect = detect_dialect(source)  # another dialect: refused now, deferred or not
        except SchemaConversionError as err:
            raise InvalidSchemaError(f"from_json_schema: {err}") from None
        self._schema = schema
        self._json = plain
        self._check_formats = check_formats
        self._patterns = False
        self._draft_2020_12 = dialect == "draft-2020-12"
        self._emitter: JSONSchemaEmitter | None = None  # made when first asked for
        # Checking a schema against its metaschema costs about a millisecond (most of
        # building a tool from a dict); a deferred check runs on the first validate.
        self._iter_errors: Callable[[object], Iterator[Any]] | None = None  # None: unchecked
        if not defer_check:
            self.check()

    def _plain(self) -> dict[str, Any]:
        """Return the schema (the copy this object keeps: never to be modified)."""
        return self._schema

    def native_schema(self) -> dict[str, Any] | None:
        """Return the schema itself when it is plain draft 2020-12 JSON, else ``None``.

        Such a schema is sent as it is: ``json_schema.input(target="draft-2020-12")``
        is a copy of it. A provider that reads it without modifying it or letting any
        part of it out (``providers._convert_common.native_input``) needs no copy.
        """
        return self._schema if self._json and self._draft_2020_12 else None

    @property
    def json_schema(self) -> JSONSchemaEmitter:
        """``input``/``output`` JSON Schema for a target (see the class)."""
        emitter = self._emitter
        if emitter is None:
            schema = self._schema
            if self._json:  # copies read from its bytes (plain draft 2020-12: as it is)
                frozen = marshal.dumps(schema, 2)
                emitter = JSONSchemaEmitter(frozen=frozen, native=self._draft_2020_12)
            else:
                emitter = JSONSchemaEmitter(lambda side, options: schema)
            self._emitter = emitter
        return emitter

    def check(self) -> None:
        """Check the schema (metaschema, references, patterns) and compile the validator.

        Runs once; ``validate`` runs it first when it has not run yet.

        Raises:
            InvalidSchemaError: the schema is not valid for its dialect, or has a
                reference or a pattern that cannot be used.
        """
        if self._iter_errors is not None:
            return
        schema = self._plain()
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
        except RecursionError:  # nested less than MAX_SCHEMA_DEPTH, on a deep stack
            raise InvalidSchemaError(
                "from_json_schema: the schema nests too deeply to check"
            ) from None
        problem = _reference_problem(schema) or _pattern_problem(schema)
        if problem is not None:
            raise InvalidSchemaError(f"from_json_schema: {problem}")
        self._patterns = _has_patterns(schema)
        format_checker = cls.FORMAT_CHECKER if self._check_formats else None
        # Our own registry: a reference is never fetched from the network.
        validator: Any = cls(schema, format_checker=format_checker, registry=_LOCAL_ONLY)
        self._iter_errors = validator.iter_errors

    def validate(self, value: object, /) -> SuccessResult[Any] | FailureResult:
        """Validate ``value``; return it unchanged, or one issue per problem found.

        Each issue's ``path`` is where the problem is in ``value`` (a missing or
        unexpected property included); its ``message`` is short and never repeats
        the value.
        """
        iter_errors = self._iter_errors
        if iter_errors is None:
            self.check()  # a deferred schema check raises here
            iter_errors = cast("Callable[[object], Iterator[Any]]", self._iter_errors)
        found = iter_errors(value)
        token = _DEADLINE.set([time.monotonic() + PATTERN_BUDGET]) if self._patterns else None
        try:
            return self._validate(value, found)
        finally:
            if token is not None:
                _DEADLINE.reset(token)

    def _validate(self, value: object, found: Iterator[Any]) -> SuccessResult[Any] | FailureResult:
        errors: list[Any] = []
        try:
            for error in found:
                errors.append(error)
                if len(errors) >= MAX_ISSUES:  # a million bad items must not cost GBs
                    issues = [*_issues(errors)][: MAX_ISSUES - 1]
                    issues.append(Issue(STOPPED, None, "invalid"))
                    return FailureResult(tuple(issues))
        except RecursionError:
            return FailureResult((_too_deep(value),))
        except _Unresolvable as err:  # checked when built: only a reference we missed
            return FailureResult(
                (Issue(_bounded(f"the schema's reference {err.ref!r} cannot be resolved"), None),)
            )
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
        defer_check: check the schema against its dialect's metaschema, its
            references and its patterns on the first ``validate`` (or an explicit
            ``check()``) instead of now. The builder defers it for a JSON Schema
            dict, so a tool that is never called costs next to nothing; the error
            is the same, raised then.

    Attributes:
        schema: the (copied) JSON Schema: the copy validation and the providers
            read, not to be modified.

    Raises:
        InvalidSchemaError: (a ``ValueError``) the schema names another dialect,
            nests more than ``MAX_SCHEMA_DEPTH`` levels deep or contains itself; and,
            unless the check is deferred, it is not valid for its dialect or has a
            ``$ref`` that points nowhere or outside the schema (a reference is never
            fetched).
    """

    __slots__ = ("__standard__",)

    __standard__: JSONSchemaProps

    def __init__(
        self, schema: Mapping[str, Any], *, check_formats: bool = True, defer_check: bool = False
    ) -> None:
        if schema.__class__ is not dict and not isinstance(schema, Mapping):  # pyright: ignore[reportUnnecessaryIsInstance]
            raise TypeError(
                f"from_json_schema: expected a JSON Schema dict, got {type(schema).__qualname__}"
            )
        copied = None
        if schema.__class__ is dict:
            try:
                copied = _copy_dict(cast("dict[str, Any]", schema), MAX_SCHEMA_DEPTH)
            except _NotPlain:  # not plain JSON: ``copy_schema`` below
                copied = None
        plain = copied is not None
        if copied is None:
            try:  # bounded: a deep or self-containing schema stops the copy early
                copied = copy_schema(schema, max_depth=MAX_SCHEMA_DEPTH)
            except SchemaConversionError:
                problem = _shape_problem(schema) or "the schema nests too deeply"
                raise InvalidSchemaError(f"from_json_schema: {problem}") from None
        props = JSONSchemaProps.__new__(JSONSchemaProps)
        props._setup(schema, copied, plain, check_formats, defer_check)  # pyright: ignore[reportPrivateUsage]
        self.__standard__ = props

    @property
    def schema(self) -> dict[str, Any]:
        """The (copied) JSON Schema."""
        return self.__standard__._plain()  # pyright: ignore[reportPrivateUsage]

    def check(self) -> None:
        """Check the schema now, if it has not been checked yet (see ``defer_check``).

        Raises:
            InvalidSchemaError: the schema is not valid for its dialect, or has a
                reference or a pattern that cannot be used.
        """
        self.__standard__.check()

    def __repr__(self) -> str:
        title = self.schema.get("title")
        return f"JSONSchema({_bounded(title) if isinstance(title, str) else '...'})"


def from_json_schema(
    schema: Mapping[str, Any], *, check_formats: bool = True, defer_check: bool = False
) -> JSONSchema:
    """Wrap a JSON Schema dict. Same as ``JSONSchema``."""
    return JSONSchema(schema, check_formats=check_formats, defer_check=defer_check)


def tool_schema(schema: Mapping[str, Any], where: str, tool_name: object) -> JSONSchema:
    """``from_json_schema(schema)`` for a tool made elsewhere: a refusal names the tool.

    Raises:
        InvalidSchemaError: as ``JSONSchema``; the message starts with
            ``"<where>: tool '<name>': "``.
    """
    try:
        return JSONSchema(schema)
    except InvalidSchemaError as err:
        shown = truncate_text(str(tool_name), 100)
        raise InvalidSchemaError(f"{where}: tool {shown!r}: {err}") from None


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
    if keyword == _TOO_SLOW:
        return str(error.message)
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
