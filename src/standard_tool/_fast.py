"""The package's builder: the core's tools, built for speed.

Layer: shared helpers (beside the core; imports ``standard_tool._core`` and
``standard_tool._context``).

``standard_tool._core`` is the contract and its reference builder, written to be read
and pasted. This module is the one hook the core names: ``build_tool`` builds the same
tools (the core's ``Tool`` and ``AsyncTool``, same fields, same errors, same
``formatted``) with per-call paths chosen once at build time, and is what the package's
``standard_tool()``, ``@tool`` and the MCP client build with. What it adds:

- ``FastPath``: a schema whose ``__standard__`` has a ``fast_path`` lets a tool skip the
  result object (``convert`` raises instead); the schema adapters offer one.
- Deferred errors: a rejection raises ``DeferredValidationError`` built by the
  exception's C constructor (``new_error``), its issues mapped from the schema
  library's error only when first read.
- First-call rebinding: a ``FastPath.raising`` converter (generated code) is made on a
  tool's first call and bound in place, with no frame between a call and it.
- The package's definition checks (every problem at once, with the fix), generator
  handlers (each value yielded is progress), ``timeout`` and ``metadata``, and
  ``stream``.
"""

# The typed builder's overloads overlap on purpose, as the core's do (an async handler
# also returns something).
# pyright: reportOverlappingOverload=false
# mypy: disable-error-code="overload-overlap"
from __future__ import annotations

import functools
import inspect
import types
from collections.abc import (
    AsyncIterator,
    Awaitable,
    Callable,
    Coroutine,
    Iterator,
    Mapping,
    Sequence,
)
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, cast

from typing_extensions import Literal, Never, TypeAlias, overload

from standard_tool._context import Event, adrain, drain, stream_tool
from standard_tool._core import (
    STOPPED_PREFIX,
    FormattedT,
    InputT,
    Issue,
    IssueLike,
    MetaT,
    OutputT,
    ToolDefinitionError,
    _default_format,  # pyright: ignore[reportPrivateUsage]
    _format_later,  # pyright: ignore[reportPrivateUsage]
    _formatted,  # pyright: ignore[reportPrivateUsage]
    _positional_capacity,  # pyright: ignore[reportPrivateUsage]
    error_message,
    is_async_callable,
    is_standard_json_schema,
    is_standard_schema,
    unwrap_result,
)
from standard_tool._core import AsyncTool as _CoreAsyncTool
from standard_tool._core import StandardToolValidationError as _EagerValidationError
from standard_tool._core import Tool as _CoreTool
from standard_tool._shared import safe_str, timeout_problem, truncate_text

if TYPE_CHECKING:
    from standard_tool._core import (
        _F,  # pyright: ignore[reportPrivateUsage]
        _I,  # pyright: ignore[reportPrivateUsage]
        _M,  # pyright: ignore[reportPrivateUsage]
        _O,  # pyright: ignore[reportPrivateUsage]
        _OS,  # pyright: ignore[reportPrivateUsage]
        _V,  # pyright: ignore[reportPrivateUsage]
        ErrorEnvelope,
        ToolSchema,
    )

__all__ = [
    "DEFERRED_ISSUES",
    "AsyncTool",
    "DeferredValidationError",
    "FastPath",
    "Tool",
    "build_tool",
    "check_metadata",
    "check_timeout",
    "new_error",
]

_MAX_MESSAGE = 400


@dataclass(frozen=True, slots=True)
class FastPath:
    """An optional extension of ``__standard__``: validation that raises.

    A schema whose ``__standard__`` has a ``fast_path`` attribute holding one of
    these lets the package's builder skip the result object: ``convert(value)``
    returns the validated value or raises one of ``errors``, and ``issues(error)``
    turns that error into the issues ``validate`` would have reported. The builder
    calls ``issues`` only when the issues of the error it raises are first read
    (``err.issues``, ``str(err)``), so a rejected call that nobody inspects skips
    the mapping; if ``issues`` fails, the error reports that in one issue instead
    of raising. ``convert`` can be the schema library's own compiled function, so
    a validated call costs what the library costs. It must agree with ``validate``
    exactly; the schema adapters of this package build ``validate`` on top of it.
    The core's reference builder (and a vendored copy of it) ignores it and calls
    ``validate``, with the same results.

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
# Deferred errors
# --------------------------------------------------------------------------------------

# BaseException's own ``args`` descriptor (the C storage under the ``args`` property).
_BASE_ARGS: Any = vars(BaseException)["args"]

#: ``DEFERRED_ISSUES``: the first item of the "issues" of an error raised from a fast
#: path, ``(DEFERRED_ISSUES, issues, error)``: the mapping, run when the issues are first
#: read. The function tools' generated code raises it too.
DEFERRED_ISSUES: Any = object()

#: ``new_error(DeferredValidationError, target, (DEFERRED_ISSUES, issues, error))``: the
#: error built by the exception's C constructor alone (no ``__init__`` frame), for the
#: reject paths; every attribute is read from ``args`` until it is set.
new_error: Any = BaseException.__new__


def _is_deferred(issues: Any) -> bool:
    return type(issues) is tuple and len(issues) == 3 and issues[0] is DEFERRED_ISSUES  # pyright: ignore[reportUnknownArgumentType]


class StandardToolValidationError(_EagerValidationError):
    """The core's ``StandardToolValidationError`` raised from a fast path: built later.

    Named as the core's error, so tracebacks read the same and code that recognises
    the error by its name (the command line does, for vendored copies) still does.

    A rejection costs what raising a bare ``ValueError`` costs: the error is built by
    ``new_error`` (no ``__init__``), holds ``(target, (DEFERRED_ISSUES, issues,
    error))`` and maps the schema library's error (kept as ``__cause__``) to issues
    when they are first read. ``target``, ``issues``, ``args``, ``str`` and pickling
    read exactly as the eager error's; it pickles as a ``StandardToolValidationError``.
    """

    _message: str | None

    if not TYPE_CHECKING:
        # Kept in the instance's ``__dict__`` once read or set; the class's ``None``
        # until then, when the value comes from ``args``.
        _target = None
        _issues = None
        _message = None

        @property
        def target(self):
            target = self._target
            return _BASE_ARGS.__get__(self)[0] if target is None else target

        @target.setter
        def target(self, value):
            self.__dict__["_target"] = value
            self.__dict__["_message"] = None

        @property
        def issues(self):
            found = self._issues
            if found is not None:
                return found
            stored = _BASE_ARGS.__get__(self)
            source = stored[1] if len(stored) == 2 else ()
            if _is_deferred(source):
                found = _issues_of(source[1], source[2])
            else:
                found = source if type(source) is tuple else tuple(source)
            self.__dict__["_issues"] = found
            return found

        @issues.setter
        def issues(self, value):
            self.__dict__["_issues"] = tuple(value)
            self.__dict__["_message"] = None

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
            self.__dict__["_target"], self.__dict__["_issues"] = self.target, self.issues
            _BASE_ARGS.__set__(self, value)

    def __str__(self) -> str:
        message = self._message
        if message is None:
            message = self.__dict__["_message"] = quick_error_message(self.target, self.issues)
        return message

    def __reduce__(self) -> tuple[Any, ...]:
        return (_EagerValidationError, (self.target, self.issues))


#: The deferred error under the name the package's modules import it by.
DeferredValidationError = StandardToolValidationError


def _issues_of(issues: Callable[[Any], Sequence[IssueLike]], error: Any) -> tuple[IssueLike, ...]:
    """Run a fast path's ``issues(error)``; a mapping that fails is reported, not raised."""
    try:
        found = issues(error)
        return found if type(found) is tuple else tuple(found)  # pyright: ignore[reportUnknownVariableType]
    except Exception as exc:  # a hostile schema's mapping must not break reading the error
        message = f"the schema's issues could not be read ({type(exc).__name__}): {safe_str(error)}"
        return (Issue(truncate_text(message, _MAX_MESSAGE)),)


# --------------------------------------------------------------------------------------
# The per-call paths, chosen once at build time
# --------------------------------------------------------------------------------------

_Run = Callable[[Any, Any], Any]


def _fast_path(schema: Any) -> FastPath | None:
    """Return the schema's ``fast_path`` when it has one, recognised by its attributes.

    Duck-typed, not ``isinstance``: a schema library may offer one without this class.
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


def _unchecked(value: Any) -> Any:
    return value


def _call1(handler: Callable[..., Any]) -> _Run:
    def call1(value: Any = None, meta: Any = None) -> Any:
        return handler(value)

    return call1


def _call0(handler: Callable[..., Any]) -> _Run:
    def call0(value: Any = None, meta: Any = None) -> Any:
        return handler()

    return call0


def _build_sync_run(
    handler: Callable[..., Any],
    arity: int,
    check_in: Callable[[Any], Any] | None,
    check_out: Callable[[Any], Any] | None,
    fast_in: FastPath | None = None,
    fast_out: FastPath | None = None,
) -> _Run:
    call: _Run = handler if arity == 2 else _call1(handler) if arity == 1 else _call0(handler)
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
    elif check_out is not None:  # only ``run_both`` reads it: no closure made for nothing
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
                        DeferredValidationError, "input", (DEFERRED_ISSUES, issues, err)
                    ) from err
                return call(value, meta)

            return run_fast
        validate_in = check_in
        if arity == 1:  # the common handler, called without ``call1`` between

            def run_in_1(input: Any = None, meta: Any = None) -> Any:
                result = validate_in(input)
                try:
                    failed = result.issues is not None
                except AttributeError:
                    failed = False
                    unwrap_result("input", result)  # raises: not a result
                if failed:
                    raise _EagerValidationError("input", result.issues)
                return handler(result.value)

            return run_in_1

        def run_in(input: Any = None, meta: Any = None) -> Any:
            result = validate_in(input)
            try:
                failed = result.issues is not None
            except AttributeError:
                failed = False
                unwrap_result("input", result)  # raises: not a result
            if failed:
                raise _EagerValidationError("input", result.issues)
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
                    DeferredValidationError, "input", (DEFERRED_ISSUES, issues_in, err)
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
        return unwrap_result(target, validate(value))

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
                DeferredValidationError, target, (DEFERRED_ISSUES, issues, err)
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
            input = unwrap_result("input", result)
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
        return unwrap_result("output", result)

    return run


# --------------------------------------------------------------------------------------
# The package's tools and builder
# --------------------------------------------------------------------------------------


# --------------------------------------------------------------------------------------
# formatted(): the core's with_formatted_output, with fewer frames per call
# --------------------------------------------------------------------------------------

_NO_LIMIT = 10**9  # the default format's limit: the whole message


def formatted(tool: Any, format: Callable[[Any], Any] | None = None) -> Any:
    """Return ``with_formatted_output(neutral, format)``: ``formatted()`` of a package tool.

    The same fields and results as the core's; the tool is of this package's class
    (``Tool`` or ``AsyncTool``), with the neutral tool's ``timeout`` and ``metadata``. A
    sync tool with a sync format gets an ``execute`` that calls the tool's ``execute``
    and the format directly (read on each call: a tool may rebind its ``execute`` on
    its first call); anything else runs the core's ``with_formatted_output``.
    """
    neutral = tool if tool._neutral is None else tool._neutral
    fmt = format
    if (
        is_async_callable(neutral.execute)
        or (fmt is not None and is_async_callable(fmt))
        or _positional_capacity(neutral.execute) < 2
    ):
        made = _formatted(neutral, format)
        return _packaged(neutral, made.execute, isinstance(made, _CoreAsyncTool))

    if fmt is None:

        def execute(input: Any = None, meta: Any = None) -> Any:
            try:
                result = neutral.execute(input, meta)
            except Exception as exc:
                return {"error": safe_str(exc, _NO_LIMIT)}
            if inspect.isawaitable(result):  # not an async function, yet it returned one
                return _format_later(lambda: result, _default_format, False)
            return result

    else:
        sync_fmt = fmt

        def execute(input: Any = None, meta: Any = None) -> Any:
            try:
                result = neutral.execute(input, meta)
            except Exception as exc:
                result = exc
            else:
                if inspect.isawaitable(result):  # not an async function, yet it returned one
                    return _format_later(lambda: result, sync_fmt, False)
            return sync_fmt(result)

    return _packaged(neutral, execute, False)


def _packaged(neutral: Any, execute: Callable[..., Any], is_async: bool) -> Any:
    """Build the formatted tool: ``neutral``'s fields and facts, and ``execute``."""
    cls: Any = AsyncTool if is_async else Tool
    fields = {
        key: getattr(neutral, key, None) for key in ("title", "input_schema", "output_schema")
    }
    built = cls(
        **fields,
        name=neutral.name,
        description=neutral.description,
        _neutral=neutral,
        execute=execute,
    )
    object.__setattr__(built, "timeout", getattr(neutral, "timeout", None))
    object.__setattr__(built, "metadata", getattr(neutral, "metadata", _EMPTY))
    return built


class Tool(_CoreTool[InputT, OutputT, FormattedT, MetaT]):
    """A sync tool built by the package's ``standard_tool()``: the core's ``Tool``, and these.

    ``formatted(format)`` returns a tool of this class too, with the same ``timeout``
    and ``metadata``. Function tools (``@tool``) are tools of this class.

    Attributes:
        timeout: the default number of seconds a call may take (``timeout=``); the
            ``Toolkit`` and the runners use it when the call gives none.
        metadata: free-form facts about the tool (``metadata=``), read-only; never
            sent to a model.
    """

    __slots__ = ("metadata", "timeout")

    timeout: float | None
    metadata: Mapping[str, Any]

    def stream(self, input: Any = None, meta: Any = None) -> AsyncIterator[Event]:
        """Run a call and yield its events: progress, then one ``ResultEvent`` (``stream_tool``)."""
        return stream_tool(self, input, meta)

    if TYPE_CHECKING:  # the core's overloads, returning this package's classes

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
        def formatted(self, format: Callable[[Any], Any] | None = None) -> Any: ...  # pyright: ignore[reportIncompatibleMethodOverride]  # each overload narrows the core's return

    else:
        formatted = formatted


class AsyncTool(_CoreAsyncTool[InputT, OutputT, FormattedT, MetaT]):
    """An async tool built by the package's ``standard_tool()``: the core's ``AsyncTool`` and these.

    Attributes:
        timeout: see ``Tool``.
        metadata: see ``Tool``.
    """

    __slots__ = ("metadata", "timeout")

    timeout: float | None
    metadata: Mapping[str, Any]

    def stream(self, input: Any = None, meta: Any = None) -> AsyncIterator[Event]:
        """Run a call and yield its events: progress, then one ``ResultEvent`` (``stream_tool``)."""
        return stream_tool(self, input, meta)

    if TYPE_CHECKING:  # the core's overloads, returning this package's classes

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
        def formatted(self, format: Callable[[Any], Any] | None = None) -> Any: ...  # pyright: ignore[reportIncompatibleMethodOverride]  # each overload narrows the core's return

    else:
        formatted = formatted


_Classes = tuple[type[_CoreTool[Any, Any, Any, Any]], type[_CoreAsyncTool[Any, Any, Any, Any]]]
_PACKAGE_CLASSES: _Classes = (Tool, AsyncTool)

_EMPTY: Mapping[str, Any] = types.MappingProxyType({})


def check_timeout(timeout: object, label: str) -> float | None:
    """Return ``timeout`` as seconds, or raise ``ToolDefinitionError`` for a bad one."""
    problem = timeout_problem(timeout)
    if problem is not None:
        raise ToolDefinitionError(f"tool {label!r}: {problem}")
    return None if timeout is None else float(cast("float", timeout))


def check_metadata(metadata: object, label: str) -> Mapping[str, Any]:
    """Return a read-only copy of ``metadata``, or raise ``ToolDefinitionError``."""
    if metadata is None:
        return _EMPTY
    if not isinstance(metadata, Mapping):
        raise ToolDefinitionError(
            f"tool {label!r}: metadata must be a mapping, got {type(metadata).__name__}"
        )
    facts: dict[Any, Any] = dict(metadata)  # pyright: ignore[reportUnknownArgumentType]
    return types.MappingProxyType(facts)


def build_tool(
    *,
    name: str | None = None,
    description: str | None = None,
    execute: Callable[..., Any] | None = None,
    input_schema: object = None,
    output_schema: object = None,
    title: str | None = None,
    coerce: Callable[[Any], Any] | None = None,
    classes: _Classes | None = None,
    timeout: float | None = None,
    metadata: Mapping[str, Any] | None = None,
) -> Any:
    """Build a tool as the core's ``standard_tool()`` does, with the package's fast paths.

    ``coerce`` turns a schema that does not conform into one that does (the package
    passes its schema adapters). ``classes`` names the ``Tool`` and ``AsyncTool``
    subclasses to build (function tools add direct calls and method binding this
    way); by default the package's, which carry ``timeout``, ``metadata`` and
    ``stream``. Without ``execute`` it returns a decorator.
    """
    options: dict[str, Any] = {
        "name": name,
        "description": description,
        "title": title,
        "input_schema": input_schema,
        "output_schema": output_schema,
        "coerce": coerce,
        "classes": classes,
        "timeout": timeout,
        "metadata": metadata,
    }
    if execute is None:

        def decorate(fn: Callable[..., Any]) -> Any:
            return build_tool(execute=fn, **options)

        return decorate
    return _build(execute, **options)


def _build(
    execute: Callable[..., Any],
    *,
    name: object,
    description: object,
    title: object,
    input_schema: Any,
    output_schema: Any,
    coerce: Callable[[Any], Any] | None,
    classes: _Classes | None,
    timeout: object,
    metadata: object,
) -> Any:
    problems: list[str] = []
    if not callable(execute):
        raise ToolDefinitionError(
            f"standard_tool: execute must be callable, got {_describe(execute)}"
        )
    flags = _code_flags(execute)
    handler = _drained(execute, flags)
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

    check_in = None if input_schema is None else input_schema.__standard__.validate
    check_out = None if output_schema is None else output_schema.__standard__.validate
    fast_in = _fast_path(input_schema)
    fast_out = _fast_path(output_schema)
    handler_async = _is_async(handler, flags if handler is execute else None)
    runs_async = handler_async or _is_async(check_in) or _is_async(check_out)
    sync_cls, async_cls = _PACKAGE_CLASSES if classes is None else classes
    if runs_async:
        cls: type[Any] = async_cls
        run: Callable[..., Any] = _build_async_run(
            handler, arity, check_in, check_out, handler_async, fast_in, fast_out
        )
    else:
        cls = sync_cls
        run = _build_sync_run(handler, arity, check_in, check_out, fast_in, fast_out)
    values: tuple[Any, ...] = (name, title, description, input_schema, output_schema, run)
    if classes is None:
        label = str(name)
        values += (check_timeout(timeout, label), check_metadata(metadata, label))
    return _construct(cls, values)


#: The slots ``_construct`` fills, in the order of its ``values``: the core's fields,
#: ``execute``, then the package classes' ``timeout`` and ``metadata``.
_FIELDS = ("name", "title", "description", "input_schema", "output_schema", "execute")
_EXTRA_FIELDS = ("timeout", "metadata")
_Setter = Callable[[Any, Any], None]
#: Per tool class: the setters of its slots in the order above (without the extra
#: fields it lacks) and of ``_neutral``; ``None`` for a class ``_construct`` calls.
_SETTERS: dict[type[Any], tuple[tuple[_Setter, ...], _Setter] | None] = {}


def _construct(cls: type[Any], values: tuple[Any, ...]) -> Any:
    """Return ``cls(**fields, execute=...)``, with ``timeout`` and ``metadata`` after it.

    A tool class that keeps the core's ``__init__`` (as the package's and function
    tools' do) is filled through its slots' own setters, without the keyword
    arguments, the merged dict and the name lookup per field of ``__init__``: about
    a third of the time (``benchmarks/bench_build.py``). Any other class is called.
    """
    try:
        slots = _SETTERS[cls]
    except KeyError:
        slots = _SETTERS[cls] = _slot_setters(cls)
    if slots is not None and len(values) <= len(slots[0]):
        setters, neutral = slots
        built: Any = object.__new__(cls)
        for setter, value in zip(setters, values, strict=False):  # the extras: when given
            setter(built, value)
        neutral(built, None)  # not a formatted tool
        return built
    built = cls(**dict(zip(_FIELDS, values, strict=False)))
    for name, value in zip(_EXTRA_FIELDS, values[len(_FIELDS) :], strict=False):
        object.__setattr__(built, name, value)
    return built


def _slot_setters(cls: type[Any]) -> tuple[tuple[_Setter, ...], _Setter] | None:
    """Return the setters of ``cls``'s slots for ``_construct``, or ``None`` to call ``cls``."""
    own_new: object = cls.__new__
    if cls.__init__ is not _CoreTool.__init__ or own_new is not object.__new__:
        return None
    setters: list[_Setter] = []
    for name in (*_FIELDS, *_EXTRA_FIELDS, "_neutral"):
        slot = getattr(cls, name, None)
        if type(slot) is types.MemberDescriptorType:
            setters.append(slot.__set__)
        elif name not in _EXTRA_FIELDS:
            return None
    return tuple(setters[:-1]), setters[-1]


def _code_flags(fn: object) -> int | None:
    """Return the code flags ``inspect`` reads of a plain function or method, else ``None``.

    ``inspect.iscoroutinefunction`` and its siblings were a third of building a tool
    without a schema (``benchmarks/bench_build.py``); for a plain function (not
    marked with ``inspect.markcoroutinefunction``) they read exactly these flags.
    """
    target = fn.__func__ if type(fn) is types.MethodType else fn
    # A function's own attributes live in its ``__dict__``: looked up there, a missing
    # marker raises nothing (``hasattr`` makes and drops an ``AttributeError``).
    if type(target) is not types.FunctionType or "_is_coroutine_marker" in target.__dict__:
        return None
    return target.__code__.co_flags


def _is_async(fn: object, flags: int | None = None) -> bool:
    """``is_async_callable(fn)``, read from the code flags when ``fn`` is a plain function."""
    if fn is None:
        return False
    if flags is None:
        flags = _code_flags(fn)
    if flags is None:
        return is_async_callable(fn)
    return bool(flags & inspect.CO_COROUTINE)


def _drained(execute: Callable[..., Any], flags: int | None = None) -> Callable[..., Any]:
    """Turn a generator handler into a function: each value yielded is progress."""
    if flags is not None and not flags & (inspect.CO_ASYNC_GENERATOR | inspect.CO_GENERATOR):
        return execute
    if inspect.isasyncgenfunction(execute):

        @functools.wraps(execute)
        async def drain_async(*args: Any) -> Any:
            return await adrain(execute(*args))

        return drain_async
    if inspect.isgeneratorfunction(execute):

        @functools.wraps(execute)
        def drain_sync(*args: Any) -> Any:
            return drain(execute(*args))

        return drain_sync
    return execute


_SHORT_INT = 10**15  # prints in a few digits, never past the interpreter's digit limit


def quick_error_message(target: str, issues: Sequence[Any]) -> str:
    """``error_message(target, issues)``, the same text, written faster for common issues.

    Up to 20 issues whose messages are short ASCII strings and whose paths are short
    ASCII keys and small indexes (what validators report) are joined directly; the
    core's ``error_message`` bounds and escapes each part, which showed as a slower
    rejection in ``benchmarks/bench_paths.py``. Anything else goes to it.
    """
    if len(issues) > 20:
        return error_message(target, issues)
    parts: list[str] = []
    for issue in issues:
        message = getattr(issue, "message", None)
        if type(message) is not str or len(message) > 400 or not message.isascii():
            return error_message(target, issues)
        path = getattr(issue, "path", None)
        if not path:
            if message.startswith(STOPPED_PREFIX):  # the stop note: the core words it
                return error_message(target, issues)
            parts.append(message)
            continue
        keys: list[str] = []
        for step in path:
            if type(step) is int and -_SHORT_INT < step < _SHORT_INT:
                keys.append(str(step))
            elif type(step) is str and len(step) <= 400 and step.isascii():
                keys.append(step)
            else:
                return error_message(target, issues)
        where = ".".join(keys)
        if len(where) > 400:
            return error_message(target, issues)
        parts.append(f"{where}: {message}")
    return f"{target} validation failed: {'; '.join(parts)}"


def _arity(handler: Callable[..., Any]) -> int:
    """How many positional arguments (0, 1 or 2) the handler wants."""
    if type(handler) is types.FunctionType and "__wrapped__" not in handler.__dict__:
        return _function_arity(handler)
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


def _function_arity(fn: types.FunctionType) -> int:
    """``_arity`` of a plain function, read from its code object.

    ``inspect.signature`` was a fifth of building a tool from a JSON Schema dict
    (``benchmarks/bench_build.py``); a plain function's code object says the same.
    """
    code = fn.__code__
    if code.co_flags & inspect.CO_VARARGS:
        return 2
    positional = code.co_argcount
    if code.co_kwonlyargcount:
        keyword_only = code.co_varnames[positional : positional + code.co_kwonlyargcount]
        defaults = fn.__kwdefaults__ or {}
        for name in keyword_only:
            if name not in defaults:
                raise TypeError(
                    f"keyword-only parameter {name!r} has no default; "
                    "a handler takes (), (input) or (input, meta)"
                )
    given = fn.__defaults__
    required = positional - len(given) if given else positional
    if required > 2:
        raise TypeError(
            f"the handler requires {required} positional arguments; "
            "it must take (), (input) or (input, meta)"
        )
    return min(positional, 2)


def _conforming_schema(
    schema: Any, role: str, problems: list[str], coerce: Callable[[Any], Any] | None
) -> Any:
    """Return a conforming schema; ``coerce`` (the package's adapters) wraps anything else."""
    if schema.__class__ is dict and coerce is not None:  # a JSON Schema: no ``__standard__``
        try:
            return coerce(schema)
        except (TypeError, ValueError, ImportError) as err:
            problems.append(f"{role}: {err}")
            return None
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


# -- The package's ``standard_tool()``, typed ---------------------------------------------
# The core's overloads (see ``standard_tool._core.standard_tool``) with the package's
# additions: ``timeout=`` and ``metadata=``, generator handlers (the result is what they
# yield last), and this module's ``Tool`` / ``AsyncTool``. Typing only: at run time the
# package's ``standard_tool`` calls ``build_tool``.

if TYPE_CHECKING:
    _InputSchema: TypeAlias = "type[_V] | ToolSchema[_I, _V] | Mapping[str, Any]"
    _OutputSchema: TypeAlias = "ToolSchema[Never, _OS] | type[_OS] | Mapping[str, Any]"

    class _NoOutput:
        """Marks a decorator built without ``output_schema``."""

    class _Decorator(Generic[_V, _I, _OS]):
        """What ``standard_tool(...)`` returns when ``execute`` is omitted."""

        @overload
        def __call__(
            self: _Decorator[_V, _I, _NoOutput], fn: Callable[[_V, _M], AsyncIterator[_O]]
        ) -> AsyncTool[_I, _O, _O, _M]: ...
        @overload
        def __call__(
            self: _Decorator[_V, _I, _NoOutput], fn: Callable[[_V], AsyncIterator[_O]]
        ) -> AsyncTool[_I, _O, _O, Any]: ...
        @overload
        def __call__(
            self: _Decorator[_V, _I, _NoOutput], fn: Callable[[], AsyncIterator[_O]]
        ) -> AsyncTool[_I, _O, _O, Any]: ...
        @overload
        def __call__(
            self: _Decorator[_V, _I, _NoOutput], fn: Callable[[_V, _M], Awaitable[_O]]
        ) -> AsyncTool[_I, _O, _O, _M]: ...
        @overload
        def __call__(
            self: _Decorator[_V, _I, _OS], fn: Callable[[_V, _M], Awaitable[Any]]
        ) -> AsyncTool[_I, _OS, _OS, _M]: ...
        @overload
        def __call__(
            self: _Decorator[_V, _I, _NoOutput], fn: Callable[[_V], Awaitable[_O]]
        ) -> AsyncTool[_I, _O, _O, Any]: ...
        @overload
        def __call__(
            self: _Decorator[_V, _I, _OS], fn: Callable[[_V], Awaitable[Any]]
        ) -> AsyncTool[_I, _OS, _OS, Any]: ...
        @overload
        def __call__(
            self: _Decorator[_V, _I, _NoOutput], fn: Callable[[], Awaitable[_O]]
        ) -> AsyncTool[_I, _O, _O, Any]: ...
        @overload
        def __call__(
            self: _Decorator[_V, _I, _OS], fn: Callable[[], Awaitable[Any]]
        ) -> AsyncTool[_I, _OS, _OS, Any]: ...
        @overload
        def __call__(
            self: _Decorator[_V, _I, _NoOutput], fn: Callable[[_V, _M], Iterator[_O]]
        ) -> Tool[_I, _O, _O, _M]: ...
        @overload
        def __call__(
            self: _Decorator[_V, _I, _NoOutput], fn: Callable[[_V], Iterator[_O]]
        ) -> Tool[_I, _O, _O, Any]: ...
        @overload
        def __call__(
            self: _Decorator[_V, _I, _NoOutput], fn: Callable[[], Iterator[_O]]
        ) -> Tool[_I, _O, _O, Any]: ...
        @overload
        def __call__(
            self: _Decorator[_V, _I, _NoOutput], fn: Callable[[_V, _M], _O]
        ) -> Tool[_I, _O, _O, _M]: ...
        @overload
        def __call__(
            self: _Decorator[_V, _I, _OS], fn: Callable[[_V, _M], Any]
        ) -> Tool[_I, _OS, _OS, _M]: ...
        @overload
        def __call__(
            self: _Decorator[_V, _I, _NoOutput], fn: Callable[[_V], _O]
        ) -> Tool[_I, _O, _O, Any]: ...
        @overload
        def __call__(
            self: _Decorator[_V, _I, _OS], fn: Callable[[_V], Any]
        ) -> Tool[_I, _OS, _OS, Any]: ...
        @overload
        def __call__(
            self: _Decorator[_V, _I, _NoOutput], fn: Callable[[], _O]
        ) -> Tool[_I, _O, _O, Any]: ...
        @overload
        def __call__(
            self: _Decorator[_V, _I, _OS], fn: Callable[[], Any]
        ) -> Tool[_I, _OS, _OS, Any]: ...
        def __call__(self, fn: Callable[..., Any]) -> Any: ...

    @overload
    def standard_tool(
        *,
        name: str | None = None,
        description: str | None = None,
        execute: Callable[[_V, _M], AsyncIterator[_O]],
        input_schema: _InputSchema[_V, _I],
        output_schema: None = None,
        title: str | None = None,
        timeout: float | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> AsyncTool[_I, _O, _O, _M]: ...

    @overload
    def standard_tool(
        *,
        name: str | None = None,
        description: str | None = None,
        execute: Callable[[_V], AsyncIterator[_O]] | Callable[[], AsyncIterator[_O]],
        input_schema: _InputSchema[_V, _I],
        output_schema: None = None,
        title: str | None = None,
        timeout: float | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> AsyncTool[_I, _O, _O, Any]: ...

    @overload
    def standard_tool(
        *,
        name: str | None = None,
        description: str | None = None,
        execute: Callable[[_V, _M], Awaitable[_O]],
        input_schema: _InputSchema[_V, _I],
        output_schema: None = None,
        title: str | None = None,
        timeout: float | None = None,
        metadata: Mapping[str, Any] | None = None,
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
        timeout: float | None = None,
        metadata: Mapping[str, Any] | None = None,
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
        timeout: float | None = None,
        metadata: Mapping[str, Any] | None = None,
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
        timeout: float | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> AsyncTool[_I, _OS, _OS, Any]: ...

    @overload
    def standard_tool(
        *,
        name: str | None = None,
        description: str | None = None,
        execute: Callable[[_V, _M], Iterator[_O]],
        input_schema: _InputSchema[_V, _I],
        output_schema: None = None,
        title: str | None = None,
        timeout: float | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> Tool[_I, _O, _O, _M]: ...

    @overload
    def standard_tool(
        *,
        name: str | None = None,
        description: str | None = None,
        execute: Callable[[_V], Iterator[_O]] | Callable[[], Iterator[_O]],
        input_schema: _InputSchema[_V, _I],
        output_schema: None = None,
        title: str | None = None,
        timeout: float | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> Tool[_I, _O, _O, Any]: ...

    @overload
    def standard_tool(
        *,
        name: str | None = None,
        description: str | None = None,
        execute: Callable[[_V, _M], _O],
        input_schema: _InputSchema[_V, _I],
        output_schema: None = None,
        title: str | None = None,
        timeout: float | None = None,
        metadata: Mapping[str, Any] | None = None,
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
        timeout: float | None = None,
        metadata: Mapping[str, Any] | None = None,
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
        timeout: float | None = None,
        metadata: Mapping[str, Any] | None = None,
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
        timeout: float | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> Tool[_I, _OS, _OS, Any]: ...

    @overload
    def standard_tool(
        *,
        name: str | None = None,
        description: str | None = None,
        execute: Callable[[_V, _M], AsyncIterator[_O]],
        input_schema: None = None,
        output_schema: None = None,
        title: str | None = None,
        timeout: float | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> AsyncTool[_V, _O, _O, _M]: ...

    @overload
    def standard_tool(
        *,
        name: str | None = None,
        description: str | None = None,
        execute: Callable[[_V], AsyncIterator[_O]],
        input_schema: None = None,
        output_schema: None = None,
        title: str | None = None,
        timeout: float | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> AsyncTool[_V, _O, _O, Any]: ...

    @overload
    def standard_tool(
        *,
        name: str | None = None,
        description: str | None = None,
        execute: Callable[[], AsyncIterator[_O]],
        input_schema: None = None,
        output_schema: None = None,
        title: str | None = None,
        timeout: float | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> AsyncTool[Any, _O, _O, Any]: ...

    @overload
    def standard_tool(
        *,
        name: str | None = None,
        description: str | None = None,
        execute: Callable[[_V, _M], Awaitable[_O]],
        input_schema: None = None,
        output_schema: None = None,
        title: str | None = None,
        timeout: float | None = None,
        metadata: Mapping[str, Any] | None = None,
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
        timeout: float | None = None,
        metadata: Mapping[str, Any] | None = None,
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
        timeout: float | None = None,
        metadata: Mapping[str, Any] | None = None,
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
        timeout: float | None = None,
        metadata: Mapping[str, Any] | None = None,
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
        timeout: float | None = None,
        metadata: Mapping[str, Any] | None = None,
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
        timeout: float | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> AsyncTool[Any, _OS, _OS, Any]: ...

    @overload
    def standard_tool(
        *,
        name: str | None = None,
        description: str | None = None,
        execute: Callable[[_V, _M], Iterator[_O]],
        input_schema: None = None,
        output_schema: None = None,
        title: str | None = None,
        timeout: float | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> Tool[_V, _O, _O, _M]: ...

    @overload
    def standard_tool(
        *,
        name: str | None = None,
        description: str | None = None,
        execute: Callable[[_V], Iterator[_O]],
        input_schema: None = None,
        output_schema: None = None,
        title: str | None = None,
        timeout: float | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> Tool[_V, _O, _O, Any]: ...

    @overload
    def standard_tool(
        *,
        name: str | None = None,
        description: str | None = None,
        execute: Callable[[], Iterator[_O]],
        input_schema: None = None,
        output_schema: None = None,
        title: str | None = None,
        timeout: float | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> Tool[Any, _O, _O, Any]: ...

    @overload
    def standard_tool(
        *,
        name: str | None = None,
        description: str | None = None,
        execute: Callable[[_V, _M], _O],
        input_schema: None = None,
        output_schema: None = None,
        title: str | None = None,
        timeout: float | None = None,
        metadata: Mapping[str, Any] | None = None,
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
        timeout: float | None = None,
        metadata: Mapping[str, Any] | None = None,
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
        timeout: float | None = None,
        metadata: Mapping[str, Any] | None = None,
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
        timeout: float | None = None,
        metadata: Mapping[str, Any] | None = None,
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
        timeout: float | None = None,
        metadata: Mapping[str, Any] | None = None,
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
        timeout: float | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> Tool[Any, _OS, _OS, Any]: ...

    @overload
    def standard_tool(
        *,
        name: str | None = None,
        description: str | None = None,
        input_schema: _InputSchema[_V, _I],
        output_schema: None = None,
        title: str | None = None,
        timeout: float | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> _Decorator[_V, _I, _NoOutput]: ...

    @overload
    def standard_tool(
        *,
        name: str | None = None,
        description: str | None = None,
        input_schema: _InputSchema[_V, _I],
        output_schema: _OutputSchema[_OS],
        title: str | None = None,
        timeout: float | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> _Decorator[_V, _I, _OS]: ...

    @overload
    def standard_tool(
        *,
        name: str | None = None,
        description: str | None = None,
        input_schema: None = None,
        output_schema: None = None,
        title: str | None = None,
        timeout: float | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> _Decorator[Any, Any, _NoOutput]: ...

    @overload
    def standard_tool(
        *,
        name: str | None = None,
        description: str | None = None,
        input_schema: None = None,
        output_schema: _OutputSchema[_OS],
        title: str | None = None,
        timeout: float | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> _Decorator[Any, Any, _OS]: ...

    def standard_tool(
        *,
        name: str | None = None,
        description: str | None = None,
        execute: Callable[..., Any] | None = None,
        input_schema: object = None,
        output_schema: object = None,
        title: str | None = None,
        timeout: float | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> Any:
        """Build a Standard Tool (see ``standard_tool._core.standard_tool``)."""
