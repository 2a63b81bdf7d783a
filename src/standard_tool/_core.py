"""Standard Tool for Python: the core contract and its reference builder.

Layer: core, the bottom (imports nothing from the package).

Implements the Python binding of Standard Schema V1 and Standard JSON Schema V1
(the cross-library hook is the attribute ``__standard__``) and the Standard Tool
V0 interface, following the TypeScript Standard Tool proposal (interface version
0). This module is meant to be vendored: it imports only the standard library and
``typing_extensions``, has no relative imports, and works under any file name.

Sections, in order: the schema and tool protocols, results and issues, errors,
the builder, consumer helpers, and last the typing-only overloads of the builder.
"""

# The builder's overloads overlap on purpose: an async handler is also a callable that
# returns something, and the async overloads come first so they win.
# pyright: reportOverlappingOverload=false
# mypy: disable-error-code="overload-overlap"

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Coroutine, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, cast

from typing_extensions import (
    Literal,
    Protocol,
    TypeAlias,
    TypedDict,
    TypeVar,
    overload,
    runtime_checkable,
)

__all__ = [
    "SUPPORTED_TARGETS",
    "AsyncTool",
    "ErrorEnvelope",
    "FailureResult",
    "FastPath",
    "Issue",
    "IssueLike",
    "JSONSchemaConverter",
    "PathSegment",
    "PathSegmentLike",
    "StandardJSONSchemaV1",
    "StandardJSONSchemaV1Props",
    "StandardResult",
    "StandardSchemaV1",
    "StandardSchemaV1Props",
    "StandardToolError",
    "StandardToolV0",
    "StandardToolV0Definition",
    "StandardToolValidationError",
    "SuccessResult",
    "Tool",
    "ToolDefinitionError",
    "ToolSchema",
    "ToolSchemaProps",
    "call_execute",
    "input_json_schema",
    "is_standard_json_schema",
    "is_standard_schema",
    "is_standard_tool",
    "optional_member",
    "output_json_schema",
    "run_tool",
    "run_tool_sync",
    "standard_tool",
]

#: The JSON Schema targets every conforming schema of this library understands.
SUPPORTED_TARGETS: tuple[str, ...] = ("draft-2020-12", "draft-07", "openapi-3.0")

In_contra = TypeVar("In_contra", contravariant=True, default=Any)
Out_co = TypeVar("Out_co", covariant=True, default=Any)
InputT = TypeVar("InputT", contravariant=True, default=Any)
OutputT = TypeVar("OutputT", covariant=True, default=Any)
FormattedT = TypeVar("FormattedT", covariant=True, default=OutputT)
MetaT = TypeVar("MetaT", contravariant=True, default=Any)
_JIn_co = TypeVar("_JIn_co", covariant=True, default=Any)
_JOut_co = TypeVar("_JOut_co", covariant=True, default=Any)
_F_co = TypeVar("_F_co", covariant=True, default=Any)

_T = TypeVar("_T")
_V = TypeVar("_V")
_O = TypeVar("_O")
_F = TypeVar("_F")
_M = TypeVar("_M")
# Defaulted, and so first used after the others in every signature (PEP 696 order).
_I = TypeVar("_I", default=Any)
_OS = TypeVar("_OS", default=Any)


# --------------------------------------------------------------------------------------
# Standard Schema V1 and Standard JSON Schema V1 (the ``__standard__`` binding)
# --------------------------------------------------------------------------------------


class PathSegmentLike(Protocol):
    """A path segment object: anything with a ``key``."""

    @property
    def key(self) -> Any: ...


class IssueLike(Protocol):
    """One validation problem: a message and where it happened."""

    @property
    def message(self) -> str: ...

    @property
    def path(self) -> Sequence[Any] | None: ...


class _SuccessLike(Protocol[Out_co]):
    @property
    def value(self) -> Out_co: ...

    @property
    def issues(self) -> None: ...


class _FailureLike(Protocol):
    @property
    def issues(self) -> Sequence[IssueLike]: ...


#: What ``validate`` returns: a success carrying the validated value, or a failure.
StandardResult: TypeAlias = "_SuccessLike[_T] | _FailureLike"


class StandardSchemaV1Props(Protocol[In_contra, Out_co]):
    """The ``__standard__`` object of a Standard Schema: identity and ``validate``."""

    @property
    def version(self) -> int: ...

    @property
    def vendor(self) -> str: ...

    def validate(
        self, value: In_contra, /
    ) -> _SuccessLike[Out_co] | _FailureLike | Awaitable[_SuccessLike[Out_co] | _FailureLike]: ...


class JSONSchemaConverter(Protocol):
    """Emits the JSON Schema of a schema's input or output for a target dialect."""

    def input(self, *, target: str, library_options: Any = None) -> dict[str, Any]: ...

    def output(self, *, target: str, library_options: Any = None) -> dict[str, Any]: ...


class StandardJSONSchemaV1Props(Protocol):
    """The ``__standard__`` object of a Standard JSON Schema: identity and ``json_schema``."""

    @property
    def version(self) -> int: ...

    @property
    def vendor(self) -> str: ...

    @property
    def json_schema(self) -> JSONSchemaConverter: ...


class ToolSchemaProps(StandardSchemaV1Props[In_contra, Out_co], Protocol[In_contra, Out_co]):
    """A ``__standard__`` object that both validates and emits JSON Schema."""

    @property
    def json_schema(self) -> JSONSchemaConverter: ...


@runtime_checkable
class StandardSchemaV1(Protocol[In_contra, Out_co]):
    """A schema that validates: ``schema.__standard__.validate(value)``.

    ``In_contra`` is what callers may pass, ``Out_co`` the validated value's type.
    """

    @property
    def __standard__(self) -> StandardSchemaV1Props[In_contra, Out_co]: ...


@runtime_checkable
class StandardJSONSchemaV1(Protocol[_JIn_co, _JOut_co]):
    """A schema that emits JSON Schema: ``schema.__standard__.json_schema.input(target=...)``.

    The type parameters only document what the described data looks like.
    """

    @property
    def __standard__(self) -> StandardJSONSchemaV1Props: ...


@runtime_checkable
class ToolSchema(Protocol[In_contra, Out_co]):
    """A schema a tool accepts: a Standard Schema and a Standard JSON Schema at once."""

    @property
    def __standard__(self) -> ToolSchemaProps[In_contra, Out_co]: ...


# --------------------------------------------------------------------------------------
# The tool protocols
# --------------------------------------------------------------------------------------


class ErrorEnvelope(TypedDict):
    """What the default formatter returns for a failure: ``{"error": str(exc)}``."""

    error: str


class StandardToolV0Definition(Protocol[InputT, OutputT, FormattedT, MetaT]):
    """A tool without ``formatted``: what the builder and the helpers need to run it."""

    @property
    def name(self) -> str: ...

    @property
    def title(self) -> str | None: ...

    @property
    def description(self) -> str: ...

    @property
    def input_schema(self) -> ToolSchema[InputT, Any] | None: ...

    @property
    def output_schema(self) -> ToolSchema[Any, OutputT] | None: ...

    # Consumers pass the input explicitly (``None`` for a tool without input); a
    # tool may still allow calling ``execute()`` with nothing, as built tools do.
    def execute(
        self, input: InputT, meta: MetaT | None = None
    ) -> FormattedT | Awaitable[FormattedT]: ...


class StandardToolV0(
    StandardToolV0Definition[InputT, OutputT, FormattedT, MetaT],
    Protocol[InputT, OutputT, FormattedT, MetaT],
):
    """A Standard Tool: any object with these attributes is one; no subclassing needed.

    Type parameters: ``InputT`` (what ``execute`` takes), ``OutputT`` (the validated
    result), ``FormattedT`` (what ``execute`` returns) and ``MetaT`` (the
    per-call context passed through untouched).
    """

    def formatted(
        self, format: Callable[[OutputT | Exception], Any] | None = None
    ) -> StandardToolV0[InputT, OutputT, Any, MetaT]:
        """Return a tool whose ``execute`` passes results and exceptions to ``format``."""
        ...


# --------------------------------------------------------------------------------------
# Results and issues
# --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PathSegment:
    """A path segment object, for keys that need wrapping. Its ``key`` is the key."""

    key: Hashable


@dataclass(frozen=True, slots=True)
class Issue:
    """One validation problem: ``message``, and ``path`` (``None`` or a tuple of keys).

    ``code`` says what kind of problem it is, for callers that branch on it:
    ``"required"`` (a missing property), ``"type"`` (the wrong JSON type),
    ``"enum"`` (not one of the allowed values), ``"constraint"`` (a bound, length,
    pattern, multiple or uniqueness rule), ``"additional_property"`` (a property
    the schema does not allow), ``"format"`` (a string format such as a date),
    ``"union"`` (no alternative matched), ``"invalid"`` (anything else), or
    ``None`` when the schema does not say. It is left out of ``repr`` and of
    comparisons, so issues compare by message and path as before.
    """

    message: str
    path: tuple[Hashable | PathSegment, ...] | None = None
    code: str | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True, slots=True, init=False)
class SuccessResult(Generic[_T]):
    """A successful validation: ``value`` is the validated (possibly coerced) value.

    ``issues`` is always ``None``. Built once per validated call, so it is kept
    to one field with a lean ``__init__``.
    """

    value: _T

    if TYPE_CHECKING:

        @property
        def issues(self) -> None:
            """Always ``None``: a success has no issues."""

    else:
        # A plain class attribute, not a field: the cheapest read on the hot path.
        issues = None

    def __init__(self, value: _T) -> None:
        _set_success_value(self, value)


# The slot's own setter: skips the frozen ``__setattr__`` guard, as dataclasses do.
_set_success_value: Callable[[Any, Any], None] = vars(SuccessResult)["value"].__set__


@dataclass(frozen=True, slots=True)
class FailureResult:
    """A failed validation. Failure means ``issues is not None``, even when it is empty."""

    issues: tuple[IssueLike, ...]
    value: None = None


@dataclass(frozen=True, slots=True)
class FastPath:
    """An optional extension of ``__standard__``: validation that raises.

    A schema whose ``__standard__`` has a ``fast_path`` attribute holding one of
    these lets a builder skip the result object: ``convert(value)`` returns the
    validated value or raises one of ``errors``, and ``issues(error)`` turns
    that error into the issues ``validate`` would have reported. The builder
    calls ``issues`` only when the issues of the error it raises are first read
    (``err.issues``, ``str(err)``), so a rejected call that nobody inspects
    skips the mapping; if ``issues`` fails, the error reports that in one issue
    instead of raising. ``convert`` can
    be the schema library's own compiled function, so a validated call costs
    what the library costs. It must agree with ``validate`` exactly; the
    schema adapters of this package build ``validate`` on top of it.

    Attributes:
        convert: ``value -> validated value``; raises ``errors`` on failure.
        errors: the exception type (or tuple of types) that means "invalid".
        issues: ``error -> issues``, for an error ``convert`` raised.
        raising: optional, ``target -> convert``: the same conversion, raising
            ``StandardToolValidationError`` for ``target`` (``"input"`` or
            ``"output"``) itself on failure, with the issues ``validate`` would
            report. The builder calls it on a tool's first call (so it may
            compile code then, not at decoration), then calls what it returned
            with nothing to catch and translate (the function tools' generated
            code raises the final error directly); ``None``: the builder
            translates ``errors``.
    """

    convert: Callable[[Any], Any]
    errors: type[Exception] | tuple[type[Exception], ...]
    issues: Callable[[Any], Sequence[IssueLike]]
    raising: Callable[[Literal["input", "output"]], Callable[[Any], Any]] | None = None


# --------------------------------------------------------------------------------------
# Errors
# --------------------------------------------------------------------------------------

_MAX_ISSUES_SHOWN = 20
_MAX_MESSAGE = 400


def truncate_text(text: str, limit: int) -> str:
    """Cut ``text`` to at most ``limit`` characters, saying how many were dropped.

    The one truncation rule of the package: a cut text ends in
    ``... [truncated N characters]`` (just ``...`` when ``limit`` is too small
    for that), and the result is never longer than ``limit``.
    """
    if len(text) <= limit:
        return text
    room = limit - len("... [truncated  characters]") - len(str(len(text)))
    if room < 1:
        return "." * max(limit, 0) if limit <= 3 else f"{text[: limit - 3]}..."
    return f"{text[:room]}... [truncated {len(text) - room} characters]"


def safe_str(obj: object, limit: int = _MAX_MESSAGE) -> str:
    """Return ``str(obj)`` cut to ``limit`` characters, never raising.

    A value whose ``__str__`` raises (or an int past the interpreter's digit limit)
    is described by its type instead, and lone surrogates (which no UTF-8 encoder
    accepts) are escaped, so the text can always be sent on.
    """
    if type(obj) is str and len(obj) <= limit and obj.isascii():
        return obj  # the common case: nothing to cut or escape
    text = truncate_text(_str_or_describe(obj), limit)
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text


def _str_or_describe(obj: object) -> str:
    try:
        return str(obj)
    except Exception:  # a hostile __str__ must not turn a result into a crash
        return f"<{type(obj).__name__} object: str() failed>"


def is_async_callable(fn: object) -> bool:
    """Tell whether calling ``fn`` returns a coroutine.

    True for an async function, a partial of one, or an object whose ``__call__``
    is async.
    """
    if inspect.iscoroutinefunction(fn):
        return True
    call = getattr(fn, "__call__", None)  # noqa: B004 -- an async __call__ on an instance
    return call is not None and not inspect.isroutine(fn) and inspect.iscoroutinefunction(call)


def _path_text(path: Sequence[Any] | None) -> str:
    if not path:
        return ""
    parts: list[str] = []
    for step in path:
        if step.__class__ is int and -_SHORT_INT < step < _SHORT_INT:
            parts.append(str(step))  # an index: its digits, nothing to bound or escape
        else:  # a key, or a ``PathSegment`` (its key)
            key = step if isinstance(step, (str, int)) else getattr(step, "key", step)
            parts.append(safe_str(key))
    return ".".join(parts)


#: Integers this far from zero print in a few digits (never past the digit limit).
_SHORT_INT = 10**15


def _issue_text(issue: Any) -> str:
    message = safe_str(getattr(issue, "message", issue))
    where = _path_text(getattr(issue, "path", None))
    return f"{truncate_text(where, _MAX_MESSAGE)}: {message}" if where else message


#: How a validator that stops collecting says so: a last issue, without a path, whose
#: message starts with this (the function tools and the JSON Schema adapter do).
STOPPED_PREFIX = "validation stopped after "


def _stopped(issues: Sequence[Any]) -> bool:
    last = issues[-1] if issues else None
    message = getattr(last, "message", None)
    return (
        getattr(last, "path", None) is None
        and isinstance(message, str)
        and message.startswith(STOPPED_PREFIX)
    )


def _error_message(target: str, issues: Sequence[Any]) -> str:
    stopped = _stopped(issues)
    found = issues[:-1] if stopped else issues
    shown = "; ".join(_issue_text(i) for i in found[:_MAX_ISSUES_SHOWN])
    more = len(found) - _MAX_ISSUES_SHOWN
    if stopped:
        # the validator stopped looking: there may be many more than it found
        if more > 0:
            shown += f"; and at least {more} more issue{'s' if more > 1 else ''}"
        shown += f" ({issues[-1].message})"
    elif more > 0:
        shown += f"; and {more} more issue{'s' if more > 1 else ''}"
    return f"{target} validation failed: {shown}"


class StandardToolError(Exception):
    """Base class of every exception this library raises on purpose.

    Catch it to handle anything standard-tool reports; each subclass also derives
    from the built-in exception a caller would expect (``ValueError``, ``TypeError``).
    """

    __slots__ = ()


class ToolDefinitionError(StandardToolError, TypeError):
    """A tool cannot be built as defined; the message lists every problem at once.

    Raised by ``standard_tool()`` and by ``@tool`` at definition time, never per call.
    """

    __slots__ = ()


# BaseException's own ``args`` descriptor (the C storage under the ``args`` property).
_BASE_ARGS: Any = vars(BaseException)["args"]

#: ``DEFERRED_ISSUES``: the first item of the "issues" of an error raised from a fast
#: path, ``(DEFERRED_ISSUES, issues, error)``: the mapping, run when the issues are first
#: read. Package-internal (the function tools' generated code raises it too).
DEFERRED_ISSUES: Any = object()

#: ``new_error(StandardToolValidationError, target, (DEFERRED_ISSUES, issues, error))``:
#: the error built by the exception's C constructor alone (no ``__init__`` frame), for
#: the reject paths; every attribute is read from ``args`` until it is set.
new_error: Any = BaseException.__new__


def _is_deferred(issues: Any) -> bool:
    return type(issues) is tuple and len(issues) == 3 and issues[0] is DEFERRED_ISSUES  # pyright: ignore[reportUnknownArgumentType]


class StandardToolValidationError(StandardToolError, ValueError):
    """Input or output of a tool failed validation.

    Attributes:
        target: ``"input"`` or ``"output"``.
        issues: the schema's issues, as a tuple.

    The message is ``"<target> validation failed: <path>: <message>; ..."``, each
    part bounded in length so a hostile value never produces a huge message. It
    is built when first read (``str(err)``), not when the error is raised: a
    model loop that rejects bad input pays for the text only if it uses it. When
    the builder raises it from a schema's ``FastPath``, ``issues`` too are built
    on first read, from the schema library's own error (kept as ``__cause__``);
    ``args`` is ``(target, issues)`` either way.
    """

    # Kept in the instance's ``__dict__`` (every exception has one), not in slots: until
    # one is set, the class's ``None`` is read and the value comes from ``args``. The
    # reject paths build the error with ``new_error`` (the C constructor, no
    # ``__init__``), so a rejection costs what raising a bare ``ValueError`` costs, and
    # reading it raises nothing internally.
    __slots__ = ()

    _target: Literal["input", "output"] | None = None
    _issues: tuple[IssueLike, ...] | None = None
    _message: str | None = None

    def __init__(self, target: Literal["input", "output"], issues: Sequence[IssueLike]) -> None:
        self._target = target
        if type(issues) is tuple:
            if not _is_deferred(issues):
                self._issues = issues
        else:
            self._issues = tuple(issues)
            _BASE_ARGS.__set__(self, (target, self._issues))

    @property
    def target(self) -> Literal["input", "output"]:
        """``"input"`` or ``"output"``."""
        target = self._target
        if target is None:
            target = _BASE_ARGS.__get__(self)[0]
        return target

    @target.setter
    def target(self, value: Literal["input", "output"]) -> None:
        self._target = value

    @property
    def issues(self) -> tuple[IssueLike, ...]:
        """The schema's issues, as a tuple (built from the fast path's error on first read)."""
        found = self._issues
        if found is not None:
            return found
        issues: tuple[IssueLike, ...]
        stored = _BASE_ARGS.__get__(self)
        source: Any = stored[1] if len(stored) == 2 else ()
        if _is_deferred(source):
            issues = _issues_of(source[1], source[2])
        else:
            issues = source if type(source) is tuple else tuple(source)  # pyright: ignore[reportUnknownVariableType]
        self._issues = issues
        return issues

    @issues.setter
    def issues(self, value: tuple[IssueLike, ...]) -> None:
        self._issues = value

    if not TYPE_CHECKING:
        # The base class holds ``(target, (DEFERRED_ISSUES, ...))`` for an error raised from
        # a fast path until the issues are read; ``args`` shows ``(target, issues)`` always.
        @property
        def args(self):
            stored = _BASE_ARGS.__get__(self)
            if len(stored) == 2 and _is_deferred(stored[1]):
                stored = (self.target, self.issues)
                _BASE_ARGS.__set__(self, stored)
            return stored

        @args.setter
        def args(self, value):
            # Both are read from the stored source until set: set them before it goes.
            self._target, self._issues = self.target, self.issues
            _BASE_ARGS.__set__(self, value)

    def __str__(self) -> str:
        message = self._message
        if message is None:
            message = self._message = _error_message(self.target, self.issues)
        return message

    def __repr__(self) -> str:
        return f"{type(self).__name__}({str(self)!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.target, self.issues))


def _issues_of(issues: Callable[[Any], Sequence[IssueLike]], error: Any) -> tuple[IssueLike, ...]:
    """Run a fast path's ``issues(error)``; a mapping that fails is reported, not raised."""
    try:
        found = issues(error)
        return found if type(found) is tuple else tuple(found)  # pyright: ignore[reportUnknownVariableType]
    except Exception as exc:  # a hostile schema's mapping must not break reading the error
        message = f"the schema's issues could not be read ({type(exc).__name__}): {safe_str(error)}"
        return (Issue(truncate_text(message, _MAX_MESSAGE)),)


# --------------------------------------------------------------------------------------
# The builder
# --------------------------------------------------------------------------------------


# ``execute()`` without input is allowed only when the input type admits ``None``
# (a tool without ``input_schema``): the first overload's ``self`` says so.
class _SyncExecute(Protocol[InputT, _F_co, MetaT]):
    @overload
    def __call__(
        self: _SyncExecute[None, _F_co, MetaT], input: None = None, meta: MetaT | None = None
    ) -> _F_co: ...
    @overload
    def __call__(self, input: InputT, meta: MetaT | None = None) -> _F_co: ...


class _AsyncExecute(Protocol[InputT, _F_co, MetaT]):
    @overload
    def __call__(
        self: _AsyncExecute[None, _F_co, MetaT], input: None = None, meta: MetaT | None = None
    ) -> Coroutine[Any, Any, _F_co]: ...
    @overload
    def __call__(self, input: InputT, meta: MetaT | None = None) -> Coroutine[Any, Any, _F_co]: ...


_Run: TypeAlias = Callable[[Any, Any], Any]
_Format: TypeAlias = Callable[[Any], Any]

_ASYNC_HINT = "make the handler async (async def) or use a schema whose validate is synchronous"


def _arity(handler: Callable[..., Any]) -> int:
    """How many positional arguments (0, 1 or 2) the handler wants."""
    try:
        params = inspect.signature(handler).parameters.values()
    except (TypeError, ValueError):
        return 2
    positional = 0
    required = 0
    for p in params:
        if p.kind is p.VAR_POSITIONAL:
            return 2
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            positional += 1
            required += p.default is p.empty
        elif p.kind is p.KEYWORD_ONLY and p.default is p.empty:
            raise TypeError(
                f"keyword-only parameter {p.name!r} has no default; "
                "a handler takes (), (input) or (input, meta)"
            )
    if required > 2:
        raise TypeError(
            f"the handler requires {required} positional arguments; "
            "it must take (), (input) or (input, meta)"
        )
    return min(positional, 2)


def _validator(schema: Any) -> Callable[[Any], Any] | None:
    return None if schema is None else schema.__standard__.validate


def _fast_path(schema: Any) -> FastPath | None:
    """Return the schema's ``fast_path`` when it has one, recognised by its attributes.

    Duck-typed, not ``isinstance``: a copy of this module vendored next to the
    installed package still takes the package adapters' fast path.
    """
    fast = None if schema is None else getattr(schema.__standard__, "fast_path", None)
    if fast is None:
        return None
    convert = getattr(fast, "convert", None)
    errors = getattr(fast, "errors", None)
    issues = getattr(fast, "issues", None)
    if not (callable(convert) and callable(issues) and _is_exception_spec(errors)):
        return None
    if type(fast) is FastPath:
        return fast
    raising = getattr(fast, "raising", None)
    return FastPath(
        convert,
        cast("type[Exception]", errors),
        cast("Any", issues),
        cast("Any", raising) if callable(raising) else None,
    )


def _is_exception_spec(errors: object) -> bool:
    if isinstance(errors, tuple):
        return all(_is_exception_spec(e) for e in cast("tuple[object, ...]", errors))
    return isinstance(errors, type) and issubclass(errors, Exception)


def _not_a_result(target: str, result: Any) -> TypeError:
    """Build the error for a ``validate`` that returned something other than a result."""
    if inspect.isawaitable(result):
        if inspect.iscoroutine(result):
            result.close()
        return TypeError(
            f"standard_tool: the {target} schema's validate returned an awaitable "
            f"in a synchronous tool; {_ASYNC_HINT}"
        )
    return TypeError(
        f"standard_tool: the {target} schema's validate returned "
        f"{type(result).__name__}, not a result with .value and .issues"
    )


def _value(target: Literal["input", "output"], result: Any) -> Any:
    """Unwrap a validation result: its value, or raise for its issues."""
    try:
        issues = result.issues
    except AttributeError:
        raise _not_a_result(target, result) from None
    if issues is not None:
        raise StandardToolValidationError(target, issues)
    return result.value


# The per-call paths below are closures chosen once at build time, with the happy
# path inlined: a call costs one extra frame over validate plus the handler.


def _unchecked(value: Any) -> Any:
    return value


def _build_sync_run(
    handler: Callable[..., Any],
    arity: int,
    check_in: Callable[[Any], Any] | None,
    check_out: Callable[[Any], Any] | None,
    fast_in: FastPath | None = None,
    fast_out: FastPath | None = None,
) -> _Run:
    def call1(value: Any = None, meta: Any = None) -> Any:
        return handler(value)

    def call0(value: Any = None, meta: Any = None) -> Any:
        return handler()

    call: _Run = handler if arity == 2 else call1 if arity == 1 else call0
    # A ``FastPath.raising`` convert is made on the first call (generating it costs
    # more than a decoration should), then bound into the cell the paths below read:
    # no stub frame between a call and the generated code from then on.
    unwrap_in: Callable[[Any], Any] = _unchecked
    unwrap_out: Callable[[Any], Any] = _unchecked
    if check_in is None:
        pass
    elif fast_in is not None and fast_in.raising is not None:
        make_in = fast_in.raising

        def bind_in(value: Any) -> Any:
            nonlocal unwrap_in
            unwrap_in = made = make_in("input")
            return made(value)

        unwrap_in = bind_in
    else:
        unwrap_in = _unwrapper("input", check_in, fast_in)
    if check_out is None:
        pass
    elif fast_out is not None and fast_out.raising is not None:
        make_out = fast_out.raising

        def bind_out(value: Any) -> Any:
            nonlocal unwrap_out
            unwrap_out = made = make_out("output")
            return made(value)

        unwrap_out = bind_out
    else:
        unwrap_out = _unwrapper("output", check_out, fast_out)

    if check_out is None:
        if check_in is None:
            if arity != 2:
                return call

            def run(input: Any = None, meta: Any = None) -> Any:
                return handler(input, meta)

            return run
        if fast_in is not None and fast_in.raising is not None:

            def run_raising(input: Any = None, meta: Any = None) -> Any:
                return call(unwrap_in(input), meta)

            return run_raising
        if fast_in is not None:
            convert, errors, issues = fast_in.convert, fast_in.errors, fast_in.issues

            def run_fast(input: Any = None, meta: Any = None) -> Any:
                try:
                    value = convert(input)
                except errors as err:
                    raise new_error(
                        StandardToolValidationError, "input", (DEFERRED_ISSUES, issues, err)
                    ) from err
                return call(value, meta)

            return run_fast
        validate_in = check_in

        def run_in(input: Any = None, meta: Any = None) -> Any:
            result = validate_in(input)
            try:
                failed = result.issues is not None
            except AttributeError:
                raise _not_a_result("input", result) from None
            if failed:
                raise StandardToolValidationError("input", result.issues)
            return call(result.value, meta)

        return run_in
    if check_in is None:

        def run_out(input: Any = None, meta: Any = None) -> Any:
            return unwrap_out(call(input, meta))

        return run_out
    if fast_in is not None and fast_in.raising is None:  # else ``unwrap_in`` raises itself
        convert_in, errors_in, issues_in = fast_in.convert, fast_in.errors, fast_in.issues

        def run_both_fast(input: Any = None, meta: Any = None) -> Any:
            try:
                value = convert_in(input)
            except errors_in as err:
                raise new_error(
                    StandardToolValidationError, "input", (DEFERRED_ISSUES, issues_in, err)
                ) from err
            return unwrap_out(call(value, meta))

        return run_both_fast

    def run_both(input: Any = None, meta: Any = None) -> Any:
        return unwrap_out(call(unwrap_in(input), meta))

    return run_both


def _unwrapper(
    target: Literal["input", "output"],
    validate: Callable[[Any], Any],
    fast: FastPath | None,
) -> Callable[[Any], Any]:
    """One function from a value to its validated value, raising on failure."""
    if fast is not None:
        return _fast_unwrapper(target, fast)

    def unwrap(value: Any) -> Any:
        return _value(target, validate(value))

    return unwrap


def _fast_unwrapper(target: Literal["input", "output"], fast: FastPath) -> Callable[[Any], Any]:
    if fast.raising is not None:
        return _late(fast.raising, target)
    convert, errors, issues = fast.convert, fast.errors, fast.issues

    def unwrap_fast(value: Any) -> Any:
        try:
            return convert(value)
        except errors as err:
            raise new_error(
                StandardToolValidationError, target, (DEFERRED_ISSUES, issues, err)
            ) from err

    return unwrap_fast


def _late(
    make: Callable[[Literal["input", "output"]], Callable[[Any], Any]],
    target: Literal["input", "output"],
) -> Callable[[Any], Any]:
    """``make(target)``, made on the first call rather than now (one frame per call)."""
    made: list[Callable[[Any], Any]] = []

    def late(value: Any) -> Any:
        if not made:
            made.append(make(target))
        return made[0](value)

    return late


def _build_async_run(
    handler: Callable[..., Any],
    arity: int,
    check_in: Callable[[Any], Any] | None,
    check_out: Callable[[Any], Any] | None,
    handler_async: bool,
    fast_in: FastPath | None = None,
    fast_out: FastPath | None = None,
) -> Callable[..., Coroutine[Any, Any, Any]]:
    in_async = is_async_callable(check_in)
    out_async = is_async_callable(check_out)
    fast_unwrap_in = None if in_async or fast_in is None else _fast_unwrapper("input", fast_in)
    fast_unwrap_out = None if out_async or fast_out is None else _fast_unwrapper("output", fast_out)

    async def run(input: Any = None, meta: Any = None) -> Any:
        if fast_unwrap_in is not None:
            input = fast_unwrap_in(input)
        elif check_in is not None:
            result = check_in(input)
            if in_async or (not hasattr(result, "issues") and inspect.isawaitable(result)):
                result = await result
            input = _value("input", result)
        output = handler(input, meta) if arity == 2 else handler(input) if arity else handler()
        if handler_async or inspect.isawaitable(output):
            output = await output
        if fast_unwrap_out is not None:
            return fast_unwrap_out(output)
        if check_out is None:
            return output
        result = check_out(output)
        if out_async or (not hasattr(result, "issues") and inspect.isawaitable(result)):
            result = await result
        return _value("output", result)

    return run


def _default_format(result: Any) -> Any:
    if isinstance(result, Exception):
        return {"error": _str_or_describe(result)}
    return result


def _conforming_schema(
    schema: Any, role: str, problems: list[str], coerce: Callable[[Any], Any] | None
) -> Any:
    """Return a conforming schema; ``coerce`` (the package's adapters) wraps anything else."""
    if schema is None or (is_standard_schema(schema) and is_standard_json_schema(schema)):
        return schema
    if is_standard_schema(schema):
        problems.append(
            f"{role}: {_describe(schema)} validates but has no __standard__.json_schema; "
            "a tool's schemas must also emit JSON Schema"
        )
        return None
    if coerce is None:
        problems.append(
            f"{role}: {_describe(schema)} is not a Standard Schema (no __standard__ attribute)"
        )
        return None
    try:
        return coerce(schema)
    except (TypeError, ValueError, ImportError) as err:
        problems.append(f"{role}: {err}")
        return None


def _describe(obj: object) -> str:
    name = getattr(obj, "__qualname__", None) or type(obj).__qualname__
    return truncate_text(str(name), 80)


class _BaseTool:
    # ``__weakref__``: caches of derived data (provider payloads, per-tool plans) key
    # on the tool weakly, so they never keep a dropped tool alive.
    __slots__ = (
        "__weakref__",
        "_format",
        "_run",
        "_runs_async",
        "description",
        "execute",
        "input_schema",
        "name",
        "output_schema",
        "title",
    )

    name: str
    title: str | None
    description: str
    input_schema: Any
    output_schema: Any
    _run: _Run
    _runs_async: bool
    _format: _Format | None

    def __init__(
        self,
        *,
        name: str,
        title: str | None,
        description: str,
        input_schema: Any,
        output_schema: Any,
        run: _Run,
        runs_async: bool,
        format: _Format | None,
        execute: Callable[..., Any],
    ) -> None:
        setattr_ = object.__setattr__
        setattr_(self, "name", name)
        setattr_(self, "title", title)
        setattr_(self, "description", description)
        setattr_(self, "input_schema", input_schema)
        setattr_(self, "output_schema", output_schema)
        setattr_(self, "_run", run)
        setattr_(self, "_runs_async", runs_async)
        setattr_(self, "_format", format)
        setattr_(self, "execute", execute)

    if not TYPE_CHECKING:  # typed per class below (Tool, AsyncTool)

        def __call__(self, input=None, meta=None):
            """``tool(input, meta)`` is ``tool.execute(input, meta)``."""
            return self.execute(input, meta)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable; cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable; cannot delete {name!r}")

    def __repr__(self) -> str:
        parts = [f"name={self.name!r}"]
        if self.title is not None:
            parts.append(f"title={self.title!r}")
        parts.append(f"description={truncate_text(self.description, 60)!r}")
        for role in ("input_schema", "output_schema"):
            schema = getattr(self, role)
            if schema is not None:
                parts.append(f"{role}={_describe(schema)}")
        if self._format is not None:
            parts.append("formatted=True")
        return f"{type(self).__name__}({', '.join(parts)})"

    def _formatted(self, format: _Format | None) -> _BaseTool:
        fmt = _default_format if format is None else format
        run = self._run
        if self._runs_async or is_async_callable(fmt):
            fmt_async = is_async_callable(fmt)
            run_async = self._runs_async

            async def execute_async(input: Any = None, meta: Any = None) -> Any:
                try:
                    output = run(input, meta)
                    if run_async:
                        output = await output
                except Exception as exc:
                    result = fmt(exc)
                else:
                    result = fmt(output)
                return (await result) if fmt_async else result

            return cast("_BaseTool", AsyncTool._make(self, run, execute_async, fmt))

        def execute(input: Any = None, meta: Any = None) -> Any:
            try:
                output = run(input, meta)
            except Exception as exc:
                return fmt(exc)
            return fmt(output)

        return cast("_BaseTool", Tool._make(self, run, execute, fmt))

    @classmethod
    def _make(cls, base: _BaseTool, run: _Run, execute: Callable[..., Any], fmt: _Format) -> Any:
        return cls(
            name=base.name,
            title=base.title,
            description=base.description,
            input_schema=base.input_schema,
            output_schema=base.output_schema,
            run=run,
            runs_async=base._runs_async,
            format=fmt,
            execute=execute,
        )


class Tool(_BaseTool, Generic[InputT, OutputT, FormattedT, MetaT]):
    """A tool built by ``standard_tool`` whose ``execute`` is synchronous.

    Immutable, safe to share between threads. ``execute(input, meta)`` validates
    the input, runs the handler, validates the output and returns it; calling the
    tool, ``tool(input, meta)``, is the same as ``execute``. ``formatted(format)``
    returns a re-targeted copy (see ``formatted``).
    """

    __slots__ = ()

    if TYPE_CHECKING:
        name: str
        title: str | None
        description: str
        input_schema: ToolSchema[InputT, Any] | None
        output_schema: ToolSchema[Any, OutputT] | None
        execute: _SyncExecute[InputT, FormattedT, MetaT]

        @overload
        def __call__(
            self: Tool[None, OutputT, FormattedT, MetaT],
            input: None = None,
            meta: MetaT | None = None,
        ) -> FormattedT: ...
        @overload
        def __call__(self, input: InputT, meta: MetaT | None = None) -> FormattedT: ...
        def __call__(self, input: Any = None, meta: Any = None) -> Any:
            """``tool(input, meta)`` is ``tool.execute(input, meta)``."""

    @overload
    def formatted(self) -> Tool[InputT, OutputT, OutputT | ErrorEnvelope, MetaT]: ...
    @overload
    def formatted(
        self, format: Callable[[OutputT | Exception], Coroutine[Any, Any, _F]]
    ) -> AsyncTool[InputT, OutputT, _F, MetaT]: ...
    @overload
    def formatted(
        self, format: Callable[[OutputT | Exception], _F]
    ) -> Tool[InputT, OutputT, _F, MetaT]: ...
    @overload
    def formatted(
        self, format: Callable[[OutputT | Exception], Any] | None = None
    ) -> Tool[InputT, OutputT, Any, MetaT]: ...
    def formatted(self, format: Callable[[Any], Any] | None = None) -> Any:
        """Return a copy whose ``execute`` turns failures into data.

        On success ``format`` receives the validated output; on an ``Exception``
        (validation error or handler error) it receives the exception. The default
        returns the output unchanged or ``{"error": str(exc)}``. Re-formatting
        replaces the previous formatter instead of stacking on it.

        Args:
            format: ``(OutputT | Exception) -> F``, sync or async.
        """
        return self._formatted(format)


class AsyncTool(_BaseTool, Generic[InputT, OutputT, FormattedT, MetaT]):
    """A tool built by ``standard_tool`` whose ``execute`` is a coroutine function.

    Built when the handler, a schema's ``validate`` or the formatter is async.
    """

    __slots__ = ()

    if TYPE_CHECKING:
        name: str
        title: str | None
        description: str
        input_schema: ToolSchema[InputT, Any] | None
        output_schema: ToolSchema[Any, OutputT] | None
        execute: _AsyncExecute[InputT, FormattedT, MetaT]

        @overload
        def __call__(
            self: AsyncTool[None, OutputT, FormattedT, MetaT],
            input: None = None,
            meta: MetaT | None = None,
        ) -> Coroutine[Any, Any, FormattedT]: ...
        @overload
        def __call__(
            self, input: InputT, meta: MetaT | None = None
        ) -> Coroutine[Any, Any, FormattedT]: ...
        def __call__(self, input: Any = None, meta: Any = None) -> Any:
            """``tool(input, meta)`` is ``tool.execute(input, meta)``."""

    @overload
    def formatted(self) -> AsyncTool[InputT, OutputT, OutputT | ErrorEnvelope, MetaT]: ...
    @overload
    def formatted(
        self, format: Callable[[OutputT | Exception], Awaitable[_F]]
    ) -> AsyncTool[InputT, OutputT, _F, MetaT]: ...
    @overload
    def formatted(
        self, format: Callable[[OutputT | Exception], _F]
    ) -> AsyncTool[InputT, OutputT, _F, MetaT]: ...
    @overload
    def formatted(
        self, format: Callable[[OutputT | Exception], Any] | None = None
    ) -> AsyncTool[InputT, OutputT, Any, MetaT]: ...
    def formatted(self, format: Callable[[Any], Any] | None = None) -> Any:
        """Return a copy whose ``execute`` turns failures into data.

        Same as ``Tool.formatted``; the copy stays async.

        Args:
            format: ``(OutputT | Exception) -> F``, sync or async.
        """
        return self._formatted(format)


def _build(
    *,
    execute: Callable[..., Any],
    name: object,
    description: object,
    title: object,
    input_schema: Any,
    output_schema: Any,
    coerce: Callable[[Any], Any] | None = None,
    classes: tuple[type[Tool[Any, Any, Any, Any]], type[AsyncTool[Any, Any, Any, Any]]]
    | None = None,
) -> Any:
    problems: list[str] = []
    if not callable(execute):
        raise ToolDefinitionError(
            f"standard_tool: execute must be callable, got {_describe(execute)}"
        )
    if name is None:
        name = getattr(execute, "__name__", None)
        if name is None or name == "<lambda>":
            problems.append("name: required (the handler has no usable __name__)")
    if name is not None and (not isinstance(name, str) or not name):
        problems.append(f"name: must be a non-empty string, got {name!r:.80}")
    if description is None:
        description = inspect.getdoc(execute) if inspect.isroutine(execute) else None
        if not description:
            problems.append("description: required (pass description= or give a docstring)")
    elif not isinstance(description, str):
        problems.append(f"description: must be a string, got {type(description).__name__}")
    if title is not None and not isinstance(title, str):
        problems.append(f"title: must be a string or None, got {type(title).__name__}")
    input_schema = _conforming_schema(input_schema, "input_schema", problems, coerce)
    output_schema = _conforming_schema(output_schema, "output_schema", problems, coerce)
    try:
        arity = _arity(execute)
    except TypeError as err:
        problems.append(f"execute: {err}")
        arity = 2
    if problems:
        raise ToolDefinitionError("standard_tool: invalid definition: " + "; ".join(problems))

    check_in = _validator(input_schema)
    fast_in = _fast_path(input_schema)
    fast_out = _fast_path(output_schema)
    check_out = _validator(output_schema)
    handler_async = is_async_callable(execute)
    runs_async = handler_async or is_async_callable(check_in) or is_async_callable(check_out)
    common: dict[str, Any] = {
        "name": name,
        "title": title,
        "description": description,
        "input_schema": input_schema,
        "output_schema": output_schema,
        "runs_async": runs_async,
        "format": None,
    }
    if runs_async:
        run_async = _build_async_run(
            execute, arity, check_in, check_out, handler_async, fast_in, fast_out
        )
        async_cls = AsyncTool if classes is None else classes[1]
        return async_cls(run=run_async, execute=run_async, **common)
    run = _build_sync_run(execute, arity, check_in, check_out, fast_in, fast_out)
    sync_cls = Tool if classes is None else classes[0]
    return sync_cls(run=run, execute=run, **common)


def build_tool(
    *,
    name: str | None = None,
    description: str | None = None,
    execute: Callable[..., Any] | None = None,
    input_schema: object = None,
    output_schema: object = None,
    title: str | None = None,
    coerce: Callable[[Any], Any] | None = None,
    classes: tuple[type[Tool[Any, Any, Any, Any]], type[AsyncTool[Any, Any, Any, Any]]]
    | None = None,
) -> Any:
    """Build a tool as ``standard_tool()`` does, untyped, with a schema hook.

    ``coerce`` turns a schema that does not conform into one that does: the
    package passes its schema adapters; a vendored copy of this module passes none.
    ``classes`` names the ``Tool`` and ``AsyncTool`` subclasses to build (function
    tools add direct calls and method binding this way).
    """
    options: dict[str, Any] = {
        "name": name,
        "description": description,
        "title": title,
        "input_schema": input_schema,
        "output_schema": output_schema,
        "coerce": coerce,
        "classes": classes,
    }
    if execute is None:
        return _Decorator[Any, Any, Any](options)
    return _build(execute=execute, **options)


# --------------------------------------------------------------------------------------
# Consumer helpers
# --------------------------------------------------------------------------------------


def _has_props(obj: object, *names: str) -> Any:
    props = getattr(obj, "__standard__", None)
    if props is None:
        return None
    for attr in names:
        if getattr(props, attr, None) is None:
            return None
    return props


def is_standard_schema(obj: object) -> bool:
    """Tell whether ``obj`` is a Standard Schema.

    True when it has ``__standard__`` with ``version``, ``vendor`` and a callable
    ``validate``.
    """
    props = _has_props(obj, "version", "vendor", "validate")
    return props is not None and callable(props.validate)


def is_standard_json_schema(obj: object) -> bool:
    """Tell whether ``obj`` is a Standard JSON Schema.

    True when it has ``__standard__`` with ``version``, ``vendor`` and a
    ``json_schema`` whose ``input`` and ``output`` are callable.
    """
    props = _has_props(obj, "version", "vendor", "json_schema")
    if props is None:
        return False
    converter = props.json_schema
    return callable(getattr(converter, "input", None)) and callable(
        getattr(converter, "output", None)
    )


def optional_member(tool: object, name: str) -> Any:
    """Read a member the interface marks optional: its value, or ``None`` when absent.

    The optional members are ``title``, ``input_schema`` and ``output_schema``.

    Every consumer in the package reads optional members through this function, so
    a tool written to the TypeScript proposal's shape, with those members simply
    absent, works everywhere.
    """
    return getattr(tool, name, None)


def _positional_capacity(fn: Any) -> float:
    """How many positional arguments ``fn`` takes (``inf`` with ``*args``)."""
    code = getattr(getattr(fn, "__func__", fn), "__code__", None)
    if code is not None and not hasattr(fn, "__wrapped__"):
        count = code.co_argcount - (1 if hasattr(fn, "__func__") else 0)
        return float("inf") if code.co_flags & inspect.CO_VARARGS else count
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return float("inf")
    count = 0
    for param in params:
        if param.kind is param.VAR_POSITIONAL:
            return float("inf")
        if param.kind in (param.POSITIONAL_ONLY, param.POSITIONAL_OR_KEYWORD):
            count += 1
    return count


def call_execute(tool: Any, input: Any = None, meta: Any = None) -> Any:
    """Call ``tool.execute`` with what its signature takes.

    ``execute(input, meta)`` when it takes both; a tool that takes no input may
    define ``execute()`` (or ``execute(input)``), and is then called without the
    arguments that are ``None``. Returns what ``execute`` returns (a value or an
    awaitable). Raises ``TypeError`` when a non-``None`` argument cannot be passed.
    """
    execute = tool.execute
    capacity = _positional_capacity(execute)
    if capacity >= 2:
        return execute(input, meta)
    if meta is not None or (capacity < 1 and input is not None):
        raise TypeError(
            f"tool {safe_str(getattr(tool, 'name', '?'), 80)!r}: its execute takes "
            f"{int(capacity)} argument(s), so it cannot be given "
            f"{'meta' if meta is not None else 'an input'}"
        )
    return execute(input) if capacity >= 1 else execute()


def is_standard_tool(obj: object) -> bool:
    """Tell whether ``obj`` has the attributes of a ``StandardToolV0``.

    Checks ``name`` and ``description`` are strings and ``execute`` is callable.
    The optional members may be absent; when present, ``title`` is a string or
    ``None`` and each schema is ``None`` or a Standard Schema that also emits JSON
    Schema.
    """
    tool: Any = obj
    try:
        if not isinstance(tool.name, str) or not isinstance(tool.description, str):
            return False
        if not callable(tool.execute):
            return False
    except AttributeError:
        return False
    title: object = optional_member(tool, "title")
    if title is not None and not isinstance(title, str):
        return False
    schemas = (optional_member(tool, "input_schema"), optional_member(tool, "output_schema"))
    return all(s is None or (is_standard_schema(s) and is_standard_json_schema(s)) for s in schemas)


def input_json_schema(
    tool: StandardToolV0Definition[Any, Any, Any, Any], target: str = "draft-2020-12"
) -> dict[str, Any]:
    """Return the JSON Schema of a tool's input for ``target``.

    Returns ``{"type": "object", "properties": {}}`` for a tool without an
    ``input_schema`` (``None`` or absent). The dict is fresh; the caller may mutate it.
    """
    schema = optional_member(tool, "input_schema")
    if schema is None:
        return {"type": "object", "properties": {}}
    emitted: dict[str, Any] = schema.__standard__.json_schema.input(target=target)
    return emitted


def output_json_schema(
    tool: StandardToolV0Definition[Any, Any, Any, Any], target: str = "draft-2020-12"
) -> dict[str, Any] | None:
    """Return the JSON Schema of a tool's output for ``target``.

    Returns ``None`` for a tool without an ``output_schema`` (``None`` or absent).
    """
    schema = optional_member(tool, "output_schema")
    if schema is None:
        return None
    emitted: dict[str, Any] = schema.__standard__.json_schema.output(target=target)
    return emitted


async def run_tool(
    tool: StandardToolV0Definition[Any, Any, _F, Any], input: Any = None, meta: Any = None
) -> _F:
    """Run any conforming tool and return its result, awaiting it when it is awaitable."""
    result = call_execute(tool, input, meta)
    if inspect.isawaitable(result):
        return await cast("Awaitable[_F]", result)
    return cast("_F", result)


def run_tool_sync(
    tool: StandardToolV0Definition[Any, Any, _F, Any], input: Any = None, meta: Any = None
) -> _F:
    """Run any conforming tool from synchronous code.

    An async tool is run to completion in a new event loop. Inside a running
    event loop that is impossible without blocking it, so this raises
    ``RuntimeError``: use ``await run_tool(...)`` there.
    """
    # asyncio is imported here, not at the top: it costs more than this whole module.
    import asyncio

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        running = False
    else:
        running = True
    result = call_execute(tool, input, meta)
    if not inspect.isawaitable(result):
        return cast("_F", result)
    if running:
        if inspect.iscoroutine(result):
            result.close()
        raise RuntimeError(
            f"run_tool_sync: tool {tool.name!r} is async and an event loop is running "
            "in this thread; use `await run_tool(...)` instead"
        )

    async def wait() -> _F:
        return await cast("Awaitable[_F]", result)

    return asyncio.run(wait())


# --------------------------------------------------------------------------------------
# Typing only: the builder's signature
# ``standard_tool`` spelled out for type checkers: the decorator's overloaded ``__call__``
# and one overload per combination of handler and schemas. At run time the builder is
# ``build_tool`` above; these definitions only make inference work.
# --------------------------------------------------------------------------------------


class _NoOutput:
    """Marks a decorator built without ``output_schema``: the handler's return is the output."""


class _Decorator(Generic[_V, _I, _OS]):
    """The decorator ``standard_tool(...)`` returns when ``execute`` is omitted."""

    __slots__ = ("_options",)

    def __init__(self, options: dict[str, Any]) -> None:
        self._options = options

    @overload
    def __call__(
        self: _Decorator[_V, _I, _NoOutput],
        fn: Callable[[_V, _M], Awaitable[_O]],
    ) -> AsyncTool[_I, _O, _O, _M]: ...
    @overload
    def __call__(
        self: _Decorator[_V, _I, _OS],
        fn: Callable[[_V, _M], Awaitable[Any]],
    ) -> AsyncTool[_I, _OS, _OS, _M]: ...
    @overload
    def __call__(
        self: _Decorator[_V, _I, _NoOutput],
        fn: Callable[[_V], Awaitable[_O]],
    ) -> AsyncTool[_I, _O, _O, Any]: ...
    @overload
    def __call__(
        self: _Decorator[_V, _I, _OS],
        fn: Callable[[_V], Awaitable[Any]],
    ) -> AsyncTool[_I, _OS, _OS, Any]: ...
    @overload
    def __call__(
        self: _Decorator[_V, _I, _NoOutput],
        fn: Callable[[], Awaitable[_O]],
    ) -> AsyncTool[_I, _O, _O, Any]: ...
    @overload
    def __call__(
        self: _Decorator[_V, _I, _OS],
        fn: Callable[[], Awaitable[Any]],
    ) -> AsyncTool[_I, _OS, _OS, Any]: ...
    @overload
    def __call__(
        self: _Decorator[_V, _I, _NoOutput],
        fn: Callable[[_V, _M], _O],
    ) -> Tool[_I, _O, _O, _M]: ...
    @overload
    def __call__(
        self: _Decorator[_V, _I, _OS],
        fn: Callable[[_V, _M], Any],
    ) -> Tool[_I, _OS, _OS, _M]: ...
    @overload
    def __call__(
        self: _Decorator[_V, _I, _NoOutput],
        fn: Callable[[_V], _O],
    ) -> Tool[_I, _O, _O, Any]: ...
    @overload
    def __call__(
        self: _Decorator[_V, _I, _OS],
        fn: Callable[[_V], Any],
    ) -> Tool[_I, _OS, _OS, Any]: ...
    @overload
    def __call__(
        self: _Decorator[_V, _I, _NoOutput],
        fn: Callable[[], _O],
    ) -> Tool[_I, _O, _O, Any]: ...
    @overload
    def __call__(
        self: _Decorator[_V, _I, _OS],
        fn: Callable[[], Any],
    ) -> Tool[_I, _OS, _OS, Any]: ...
    def __call__(self, fn: Callable[..., Any]) -> Any:
        return _build(execute=fn, **self._options)


# The overloads only spell out inference: (async | sync handler) x (arity 2 | 1 | 0) x
# (with | without input_schema) x (with | without output_schema). A library model class
# (``type[V]``) or a JSON Schema dict is accepted where a schema is; with a dict the
# handler's annotation gives the type.

_InputSchema: TypeAlias = "type[_V] | ToolSchema[_I, _V] | Mapping[str, Any]"
_OutputSchema: TypeAlias = "ToolSchema[Any, _OS] | type[_OS] | Mapping[str, Any]"


@overload
def standard_tool(
    *,
    name: str | None = None,
    description: str | None = None,
    execute: Callable[[_V, _M], Awaitable[_O]],
    input_schema: _InputSchema[_V, _I],
    output_schema: None = None,
    title: str | None = None,
) -> AsyncTool[_I, _O, _O, _M]: ...


@overload
def standard_tool(
    *,
    name: str | None = None,
    description: str | None = None,
    execute: Callable[[_V, _M], Awaitable[Any]],
    input_schema: _InputSchema[_V, _I],
    output_schema: _OutputSchema[_OS],
    title: str | None = None,
) -> AsyncTool[_I, _OS, _OS, _M]: ...


@overload
def standard_tool(
    *,
    name: str | None = None,
    description: str | None = None,
    execute: Callable[[_V], Awaitable[_O]] | Callable[[], Awaitable[_O]],
    input_schema: _InputSchema[_V, _I],
    output_schema: None = None,
    title: str | None = None,
) -> AsyncTool[_I, _O, _O, Any]: ...


@overload
def standard_tool(
    *,
    name: str | None = None,
    description: str | None = None,
    execute: Callable[[_V], Awaitable[Any]] | Callable[[], Awaitable[Any]],
    input_schema: _InputSchema[_V, _I],
    output_schema: _OutputSchema[_OS],
    title: str | None = None,
) -> AsyncTool[_I, _OS, _OS, Any]: ...


@overload
def standard_tool(
    *,
    name: str | None = None,
    description: str | None = None,
    execute: Callable[[_V, _M], _O],
    input_schema: _InputSchema[_V, _I],
    output_schema: None = None,
    title: str | None = None,
) -> Tool[_I, _O, _O, _M]: ...


@overload
def standard_tool(
    *,
    name: str | None = None,
    description: str | None = None,
    execute: Callable[[_V, _M], Any],
    input_schema: _InputSchema[_V, _I],
    output_schema: _OutputSchema[_OS],
    title: str | None = None,
) -> Tool[_I, _OS, _OS, _M]: ...


@overload
def standard_tool(
    *,
    name: str | None = None,
    description: str | None = None,
    execute: Callable[[_V], _O] | Callable[[], _O],
    input_schema: _InputSchema[_V, _I],
    output_schema: None = None,
    title: str | None = None,
) -> Tool[_I, _O, _O, Any]: ...


@overload
def standard_tool(
    *,
    name: str | None = None,
    description: str | None = None,
    execute: Callable[[_V], Any] | Callable[[], Any],
    input_schema: _InputSchema[_V, _I],
    output_schema: _OutputSchema[_OS],
    title: str | None = None,
) -> Tool[_I, _OS, _OS, Any]: ...


@overload
def standard_tool(
    *,
    name: str | None = None,
    description: str | None = None,
    execute: Callable[[_V, _M], Awaitable[_O]],
    input_schema: None = None,
    output_schema: None = None,
    title: str | None = None,
) -> AsyncTool[_V, _O, _O, _M]: ...


@overload
def standard_tool(
    *,
    name: str | None = None,
    description: str | None = None,
    execute: Callable[[_V, _M], Awaitable[Any]],
    input_schema: None = None,
    output_schema: _OutputSchema[_OS],
    title: str | None = None,
) -> AsyncTool[_V, _OS, _OS, _M]: ...


@overload
def standard_tool(
    *,
    name: str | None = None,
    description: str | None = None,
    execute: Callable[[_V], Awaitable[_O]],
    input_schema: None = None,
    output_schema: None = None,
    title: str | None = None,
) -> AsyncTool[_V, _O, _O, Any]: ...


@overload
def standard_tool(
    *,
    name: str | None = None,
    description: str | None = None,
    execute: Callable[[_V], Awaitable[Any]],
    input_schema: None = None,
    output_schema: _OutputSchema[_OS],
    title: str | None = None,
) -> AsyncTool[_V, _OS, _OS, Any]: ...


@overload
def standard_tool(
    *,
    name: str | None = None,
    description: str | None = None,
    execute: Callable[[], Awaitable[_O]],
    input_schema: None = None,
    output_schema: None = None,
    title: str | None = None,
) -> AsyncTool[Any, _O, _O, Any]: ...


@overload
def standard_tool(
    *,
    name: str | None = None,
    description: str | None = None,
    execute: Callable[[], Awaitable[Any]],
    input_schema: None = None,
    output_schema: _OutputSchema[_OS],
    title: str | None = None,
) -> AsyncTool[Any, _OS, _OS, Any]: ...


@overload
def standard_tool(
    *,
    name: str | None = None,
    description: str | None = None,
    execute: Callable[[_V, _M], _O],
    input_schema: None = None,
    output_schema: None = None,
    title: str | None = None,
) -> Tool[_V, _O, _O, _M]: ...


@overload
def standard_tool(
    *,
    name: str | None = None,
    description: str | None = None,
    execute: Callable[[_V, _M], Any],
    input_schema: None = None,
    output_schema: _OutputSchema[_OS],
    title: str | None = None,
) -> Tool[_V, _OS, _OS, _M]: ...


@overload
def standard_tool(
    *,
    name: str | None = None,
    description: str | None = None,
    execute: Callable[[_V], _O],
    input_schema: None = None,
    output_schema: None = None,
    title: str | None = None,
) -> Tool[_V, _O, _O, Any]: ...


@overload
def standard_tool(
    *,
    name: str | None = None,
    description: str | None = None,
    execute: Callable[[_V], Any],
    input_schema: None = None,
    output_schema: _OutputSchema[_OS],
    title: str | None = None,
) -> Tool[_V, _OS, _OS, Any]: ...


@overload
def standard_tool(
    *,
    name: str | None = None,
    description: str | None = None,
    execute: Callable[[], _O],
    input_schema: None = None,
    output_schema: None = None,
    title: str | None = None,
) -> Tool[Any, _O, _O, Any]: ...


@overload
def standard_tool(
    *,
    name: str | None = None,
    description: str | None = None,
    execute: Callable[[], Any],
    input_schema: None = None,
    output_schema: _OutputSchema[_OS],
    title: str | None = None,
) -> Tool[Any, _OS, _OS, Any]: ...


@overload
def standard_tool(
    *,
    name: str | None = None,
    description: str | None = None,
    input_schema: _InputSchema[_V, _I],
    output_schema: None = None,
    title: str | None = None,
) -> _Decorator[_V, _I, _NoOutput]: ...


@overload
def standard_tool(
    *,
    name: str | None = None,
    description: str | None = None,
    input_schema: _InputSchema[_V, _I],
    output_schema: _OutputSchema[_OS],
    title: str | None = None,
) -> _Decorator[_V, _I, _OS]: ...


@overload
def standard_tool(
    *,
    name: str | None = None,
    description: str | None = None,
    input_schema: None = None,
    output_schema: None = None,
    title: str | None = None,
) -> _Decorator[Any, Any, _NoOutput]: ...


@overload
def standard_tool(
    *,
    name: str | None = None,
    description: str | None = None,
    input_schema: None = None,
    output_schema: _OutputSchema[_OS],
    title: str | None = None,
) -> _Decorator[Any, Any, _OS]: ...


def standard_tool(
    *,
    name: str | None = None,
    description: str | None = None,
    execute: Callable[..., Any] | None = None,
    input_schema: object = None,
    output_schema: object = None,
    title: str | None = None,
) -> Any:
    """Build a Standard Tool that validates its input and output.

    ``execute`` is the handler; it may take ``()``, ``(input)`` or
    ``(input, meta)``, be sync or async. The built tool's ``execute(input, meta)``
    validates ``input`` with ``input_schema`` and passes the validated value to
    the handler, then validates the handler's return with ``output_schema`` and
    returns the validated value. Validation failures raise
    ``StandardToolValidationError``; what the handler raises propagates.

    Without ``execute`` it returns a decorator; ``name`` then defaults to the
    function's ``__name__`` and ``description`` to its cleaned docstring.

    Schemas are Standard Schemas that also emit JSON Schema. Imported from the
    ``standard_tool`` package (not from a vendored copy of this module), a
    Pydantic model, a msgspec ``Struct`` type or a JSON Schema dict is accepted
    too and wrapped by the schema adapters.

    Examples:
        >>> add = standard_tool(
        ...     name="add", description="Add two numbers.", execute=lambda p: p[0] + p[1]
        ... )
        >>> add.execute((2, 3))
        5

    Raises:
        ToolDefinitionError: the definition is invalid (a ``TypeError``); every
            problem is listed at once.
    """
    return build_tool(
        name=name,
        description=description,
        execute=execute,
        input_schema=input_schema,
        output_schema=output_schema,
        title=title,
    )
