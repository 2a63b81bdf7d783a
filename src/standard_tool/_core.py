"""Standard Tool: the contract, in one file you can paste into your project.

Standard Tool V0 as the TypeScript proposal's July 2026 revision (0.0.6 and later) defines it,
over Standard Schema V1 and Standard JSON Schema V1 (in Python: the attribute ``__standard__``).
Imports only the standard library and ``typing_extensions``; works under any file name. The one
hook: the package's ``standard_tool()`` builds the same tools faster (``_fast.build_tool``).
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Coroutine, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeAlias, TypedDict, cast

from typing_extensions import Never, Protocol, TypeVar, deprecated, overload, runtime_checkable

__all__ = [
    "AsyncTool", "ErrorEnvelope", "FailureResult", "Issue", "IssueLike", "JSONSchemaConverter",
    "PathSegment", "PathSegmentLike", "StandardJSONSchemaV1", "StandardJSONSchemaV1Props",
    "StandardResult", "StandardSchemaV1", "StandardSchemaV1Props", "StandardToolError",
    "StandardToolV0", "StandardToolV0Definition", "StandardToolValidationError", "SuccessResult",
    "Tool", "ToolDefinitionError", "ToolSchema", "ToolSchemaProps", "call_execute",
    "input_json_schema", "is_standard_json_schema", "is_standard_schema", "is_standard_tool",
    "optional_member", "output_json_schema", "run_tool", "run_tool_sync", "standard_tool",
    "with_formatted_output",
]  # fmt: skip

InputT = TypeVar("InputT", contravariant=True, default=Any)
OutputT = TypeVar("OutputT", covariant=True, default=Any)
FormattedT = TypeVar("FormattedT", covariant=True, default=OutputT)
MetaT = TypeVar("MetaT", contravariant=True, default=Any)
_T = TypeVar("_T")
_SCHEMAS = ("input_schema", "output_schema")  # a tool's optional schemas


# -- Protocols: Standard Tool V0 (Standard Schema's are typing only, at the end) ----------
class StandardToolV0(Protocol[InputT, OutputT, FormattedT, MetaT]):
    """A portable LLM tool: any object with these attributes is one, whatever its class.

    Optional, so not declared here: ``title`` (``str | None``), ``input_schema`` and
    ``output_schema`` (``ToolSchema`` or ``None``); ``optional_member`` reads them, ``None``
    when absent. A tool without input may define ``execute()``. Neutral when ``FormattedT``
    is ``OutputT``.
    """

    @property
    def name(self) -> str: ...
    @property
    def description(self) -> str: ...
    def execute(
        self, input: InputT, meta: MetaT | None = None
    ) -> FormattedT | Awaitable[FormattedT]: ...


# -- Results -----------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class PathSegment:
    """A path segment object, for keys that need wrapping. Its ``key`` is the key."""

    key: Hashable


@dataclass(frozen=True, slots=True)
class Issue:
    """One validation problem: ``message``, ``path`` (``None`` or keys), ``code`` (its kind)."""

    message: str
    path: tuple[Hashable | PathSegment, ...] | None = None
    code: str | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class SuccessResult(Generic[_T]):
    """A successful validation: ``value`` is the validated value; ``issues`` is ``None``."""

    value: _T
    issues: None = None


@dataclass(frozen=True, slots=True)
class FailureResult:
    """A failed validation. Failure means ``issues is not None``, even when it is empty."""

    issues: tuple[IssueLike, ...]
    value: None = None


# -- Errors ------------------------------------------------------------------------------
class StandardToolError(Exception):
    """Base class of every exception this library raises on purpose."""


class ToolDefinitionError(StandardToolError, TypeError):
    """A tool cannot be built as defined; the message lists every problem at once."""


class StandardToolValidationError(StandardToolError, ValueError):
    """The ``target`` (``"input"`` or ``"output"``) failed validation with these ``issues``."""

    def __init__(self, target: Literal["input", "output"], issues: Sequence[IssueLike]) -> None:
        self.target, self.issues = target, tuple(issues)
        super().__init__(target, self.issues)

    def __str__(self) -> str:
        return error_message(self.target, self.issues)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({str(self)!r})"


#: A validator that stops collecting says so in a last issue, without a path, this starts.
STOPPED_PREFIX = "validation stopped after "


def error_message(target: str, issues: Sequence[Any]) -> str:
    """Write the message of a validation error: at most 20 issues, each part bounded."""
    last = issues[-1] if issues else None
    note = getattr(last, "message", None) if getattr(last, "path", 0) is None else None
    stopped = isinstance(note, str) and note.startswith(STOPPED_PREFIX)
    found = issues[:-1] if stopped else issues
    text = "; ".join(_issue_text(issue) for issue in found[:20])
    if (more := len(found) - 20) > 0:
        text += f"; and {'at least ' * stopped}{more} more issue{'s' * (more > 1)}"
    return f"{target} validation failed: {text}" + (f" ({note})" if stopped else "")


def _issue_text(issue: Any) -> str:
    steps = getattr(issue, "path", None) or ()
    keys = [s if isinstance(s, (str, int)) else getattr(s, "key", s) for s in steps]
    message = _bounded(getattr(issue, "message", issue))
    return f"{_bounded('.'.join(map(_bounded, keys)))}: {message}" if keys else message


def _bounded(obj: object, limit: int = 400) -> str:  # str(), cut, never raising, sendable
    try:
        text = str(obj)
    except Exception:  # a hostile __str__ must not turn an error into a crash
        text = f"<{type(obj).__name__} object: str() failed>"
    if len(text) > limit:
        text = f"{text[:limit]}... [truncated {len(text) - limit} characters]"
    return text if text.isascii() else text.encode("utf-8", "backslashreplace").decode("utf-8")


# -- The reference builder, standard_tool() (typed at the end of the file) ---------------
def _build(execute: Any, **fields: Any) -> Any:  # check a definition, then build its tool
    if fields["name"] is None and getattr(execute, "__name__", "<lambda>") != "<lambda>":
        fields["name"] = execute.__name__
    if fields["description"] is None and inspect.isroutine(execute):
        fields["description"] = inspect.getdoc(execute)
    problems = [f"{key}: required, a non-empty string" for key in ("name", "description")
                if not (isinstance(fields[key], str) and fields[key])]  # fmt: skip
    problems += [f"{role}: {_describe(fields[role])} is not a Standard Schema with json_schema"
                 for role in _SCHEMAS if not _is_tool_schema_or_none(fields[role])]  # fmt: skip
    generator = inspect.isgeneratorfunction(execute) or inspect.isasyncgenfunction(execute)
    if generator or not callable(execute):
        problems.append(f"execute: must return its result, got {_describe(execute)}")
    if problems:
        raise ToolDefinitionError("standard_tool: invalid definition: " + "; ".join(problems))
    arity = int(min(_positional_capacity(execute), 2))
    check_in, check_out = (
        None if fields[role] is None else fields[role].__standard__.validate for role in _SCHEMAS
    )

    def call(value: Any, meta: Any) -> Any:
        return execute(value, meta) if arity == 2 else execute(value) if arity else execute()

    if any(is_async_callable(f) for f in (execute, check_in, check_out)):

        async def execute_async(input: Any = None, meta: Any = None) -> Any:
            if check_in is not None:
                input = unwrap_result("input", await _settled(check_in(input)))
            output = await _settled(call(input, meta))
            if check_out is not None:
                output = unwrap_result("output", await _settled(check_out(output)))
            return output

        return AsyncTool(**fields, execute=execute_async)

    def execute_sync(input: Any = None, meta: Any = None) -> Any:
        value = input if check_in is None else unwrap_result("input", check_in(input))
        output = call(value, meta)
        return output if check_out is None else unwrap_result("output", check_out(output))

    return Tool(**fields, execute=execute_sync)


def unwrap_result(target: Literal["input", "output"], result: Any) -> Any:
    """Return a validation result's value, or raise ``StandardToolValidationError``."""
    if not hasattr(result, "issues"):
        if inspect.iscoroutine(result):
            result.close()
        got = "an awaitable" if inspect.isawaitable(result) else type(result).__name__
        raise TypeError(f"standard_tool: the {target} schema's validate returned {got}, not a "
                        "result with .value and .issues; in a synchronous tool, make the handler "
                        "async (async def)")  # fmt: skip
    if result.issues is not None:
        raise StandardToolValidationError(target, result.issues)
    return result.value


async def _settled(value: Any) -> Any:  # awaited when awaitable (and not a result)
    return await value if inspect.isawaitable(value) and not hasattr(value, "issues") else value


class _Built:
    """What the builders return: the definition's fields and its ``execute``, immutable."""

    __slots__ = ("__weakref__", "_neutral", "description", "execute", "name", "title", *_SCHEMAS)
    name: str
    title: str | None
    description: str
    _neutral: StandardToolV0[Any, Any, Any, Any] | None  # the tool a formatted tool wraps

    def __init__(self, *, execute: Callable[..., Any], _neutral: Any = None, **fields: Any) -> None:
        for key, value in {**fields, "execute": execute, "_neutral": _neutral}.items():
            object.__setattr__(self, key, value)

    def __setattr__(self, name: str, value: object = None) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable; cannot set {name!r}")

    __delattr__ = __setattr__

    if not TYPE_CHECKING:  # (type checkers would take any name as there)

        def __getattr__(self, name):  # a formatted tool reads its tool's other fields (not methods)
            neutral = None if name.startswith("_") else self._neutral
            if neutral is not None and not inspect.ismethod(value := getattr(neutral, name)):
                return value
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def __repr__(self) -> str:
        shown = [f"name={self.name!r}"] + [f"title={self.title!r}"] * (self.title is not None)
        shown.append(f"description={_bounded(self.description, 60)!r}")
        shown += [f"{role}={_describe(getattr(self, role))}" for role in _SCHEMAS
                  if getattr(self, role) is not None]  # fmt: skip
        shown += [] if self._neutral is None else ["formatted=True"]
        return f"{type(self).__name__}({', '.join(shown)})"


# -- with_formatted_output(): failures as data, applied once at the consumer's boundary --
def _formatted(tool: Any, format: Callable[[Any], Any] | None = None) -> Any:  # see the end
    fmt = _default_format if format is None else format
    fmt_async = is_async_callable(fmt)
    both = _positional_capacity(tool.execute) >= 2
    fields = {key: optional_member(tool, key) for key in ("title", *_SCHEMAS)}
    fields |= {"name": tool.name, "description": tool.description, "_neutral": tool}

    def call(input: Any, meta: Any) -> Any:
        return tool.execute(input, meta) if both else call_execute(tool, input, meta)

    if fmt_async or is_async_callable(tool.execute):

        async def execute_async(input: Any = None, meta: Any = None) -> Any:
            return await _format_later(lambda: call(input, meta), fmt, fmt_async)

        return AsyncTool(**fields, execute=execute_async)

    def execute(input: Any = None, meta: Any = None) -> Any:
        try:
            result = call(input, meta)
        except Exception as exc:
            result = exc
        else:
            if inspect.isawaitable(result):  # not an async function, yet it returned one
                return _format_later(lambda: result, fmt, fmt_async)
        return fmt(result)

    return Tool(**fields, execute=execute)


async def _format_later(run: Callable[[], Any], fmt: Callable[[Any], Any], fmt_async: bool) -> Any:
    try:
        result = await _settled(run())
    except Exception as exc:
        result = exc
    return await fmt(result) if fmt_async else fmt(result)


def _default_format(result: Any) -> Any:
    return {"error": _bounded(result, 10**9)} if isinstance(result, Exception) else result


# -- Consumer helpers --------------------------------------------------------------------
def is_standard_schema(obj: object) -> bool:
    """Whether ``obj.__standard__`` has ``version``, ``vendor`` and a callable ``validate``."""
    return callable(getattr(_props(obj), "validate", None))


def is_standard_json_schema(obj: object) -> bool:
    """Whether ``obj.__standard__`` has ``version``, ``vendor`` and ``json_schema.input/output``."""
    converter = getattr(_props(obj), "json_schema", None)
    return all(callable(getattr(converter, method, None)) for method in ("input", "output"))


def _props(obj: object) -> Any:  # obj.__standard__, when it names its version and vendor
    props = getattr(obj, "__standard__", None)
    identified = getattr(props, "version", None) is not None and hasattr(props, "vendor")
    return props if identified else None


def _is_tool_schema_or_none(obj: object) -> bool:  # validates and emits JSON Schema, as a tool's
    return obj is None or (is_standard_schema(obj) and is_standard_json_schema(obj))


def is_standard_tool(obj: object) -> bool:
    """Whether ``obj`` has the shape of a ``StandardToolV0`` (optional members may be absent)."""
    return (
        all(isinstance(getattr(obj, key, None), str) for key in ("name", "description"))
        and callable(getattr(obj, "execute", None))
        and isinstance(optional_member(obj, "title"), (str, type(None)))
        and all(_is_tool_schema_or_none(optional_member(obj, role)) for role in _SCHEMAS)
    )


def optional_member(tool: object, name: str) -> Any:
    """Read an optional member (``title``, a schema): ``None`` when absent (as consumers do)."""
    return getattr(tool, name, None)


def call_execute(tool: Any, input: Any = None, meta: Any = None) -> Any:
    """Call ``tool.execute`` with what its signature takes (``execute()`` for a no-input tool)."""
    execute = tool.execute
    if (capacity := _positional_capacity(execute)) >= 2:
        return execute(input, meta)
    if meta is not None or (capacity < 1 and input is not None):
        raise TypeError(f"tool {_bounded(getattr(tool, 'name', '?'), 80)!r}: its execute takes "
                        f"{capacity:.0f} argument(s), so it cannot be given "
                        f"{'meta' if meta is not None else 'an input'}")  # fmt: skip
    return execute(input) if capacity >= 1 else execute()


def _positional_capacity(fn: Any) -> float:  # positional arguments fn takes; inf with *args
    code = getattr(getattr(fn, "__func__", fn), "__code__", None)
    if code is not None and not hasattr(fn, "__wrapped__"):  # a plain function, read fast
        count = code.co_argcount - (1 if hasattr(fn, "__func__") else 0)
        return float("inf") if code.co_flags & inspect.CO_VARARGS else count
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return float("inf")
    if any(p.kind is p.VAR_POSITIONAL for p in params):
        return float("inf")
    return sum(p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) for p in params)


def input_json_schema(tool: StandardToolV0, target: str = "draft-2020-12") -> dict[str, Any]:
    """Return the tool's input JSON Schema (fresh), or an empty object schema when it has none."""
    if (schema := optional_member(tool, "input_schema")) is None:
        return {"type": "object", "properties": {}}
    return schema.__standard__.json_schema.input(target=target)  # type: ignore[no-any-return]


def output_json_schema(
    tool: StandardToolV0, target: str = "draft-2020-12"
) -> dict[str, Any] | None:
    """Return the tool's output JSON Schema, or ``None`` when it has none."""
    schema = optional_member(tool, "output_schema")
    return None if schema is None else schema.__standard__.json_schema.output(target=target)


async def run_tool(tool: StandardToolV0[Any, Any, _F], input: Any = None, meta: Any = None) -> _F:
    """Run any conforming tool and return its result, awaiting it when it is awaitable."""
    return cast("_F", await _settled(call_execute(tool, input, meta)))


def run_tool_sync(tool: StandardToolV0[Any, Any, _F], input: Any = None, meta: Any = None) -> _F:
    """Run any tool from sync code (an async one in a new loop; ``RuntimeError`` inside one)."""
    import asyncio  # here, not at the top: it costs more than this whole module

    result: Any = call_execute(tool, input, meta)
    if not inspect.isawaitable(result):
        return cast("_F", result)
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return cast("_F", asyncio.run(_settled(result)))
    if inspect.iscoroutine(result):
        result.close()
    raise RuntimeError(f"run_tool_sync: tool {tool.name!r} is async and an event loop is "
                       "running in this thread; use `await run_tool(...)` instead")  # fmt: skip


def is_async_callable(fn: object) -> bool:
    """Whether calling ``fn`` returns a coroutine (an async function, or an async ``__call__``)."""
    if inspect.iscoroutinefunction(fn):
        return True
    call = getattr(fn, "__call__", None)  # noqa: B004 -- an async __call__ on an instance
    return call is not None and not inspect.isroutine(fn) and inspect.iscoroutinefunction(call)


def _describe(obj: object) -> str:
    return _bounded(getattr(obj, "__qualname__", None) or type(obj).__qualname__, 80)


# -- Typing only: Standard Schema's protocols, the built tools' classes, the overloads ---
# The builder's overloads overlap on purpose (an async handler also returns something).
# pyright: reportOverlappingOverload=false
# mypy: disable-error-code="overload-overlap"

_In = TypeVar("_In")
_O = TypeVar("_O")
_F = TypeVar("_F")
_M = TypeVar("_M")
_V = TypeVar("_V")
_F_co = TypeVar("_F_co", covariant=True, default=Any)
# Defaulted, and so first used after the others in every signature (PEP 696 order).
_I = TypeVar("_I", default=Any)
_OS = TypeVar("_OS", default=Any)
_JIn_co = TypeVar("_JIn_co", covariant=True, default=Any)


@runtime_checkable
class StandardSchemaV1(Protocol[InputT, OutputT]):
    """A schema that validates: ``schema.__standard__.validate(value)``."""

    @property
    def __standard__(self) -> StandardSchemaV1Props[InputT, OutputT]: ...


@runtime_checkable
class StandardJSONSchemaV1(Protocol[_JIn_co, OutputT]):
    """A schema that emits JSON Schema: ``schema.__standard__.json_schema.input(target=...)``."""

    @property
    def __standard__(self) -> StandardJSONSchemaV1Props: ...


@runtime_checkable
class ToolSchema(Protocol[InputT, OutputT]):
    """A schema a tool accepts: a Standard Schema and a Standard JSON Schema at once."""

    @property
    def __standard__(self) -> ToolSchemaProps[InputT, OutputT]: ...


class PathSegmentLike(Protocol):
    """A path segment object: anything with a ``key``."""

    @property
    def key(self) -> Any: ...


class IssueLike(Protocol):
    """One validation problem: a message, and where (``None`` or a sequence of keys)."""

    @property
    def message(self) -> str: ...
    @property
    def path(self) -> Sequence[Any] | None: ...


#: ``StandardToolV0`` under its earlier name (from when the interface had ``formatted``).
StandardToolV0Definition = StandardToolV0


class _SuccessLike(Protocol[OutputT]):
    @property
    def value(self) -> OutputT: ...
    @property
    def issues(self) -> None: ...


class _FailureLike(Protocol):
    @property
    def issues(self) -> Sequence[IssueLike]: ...


#: What ``validate`` returns: failure iff ``issues is not None`` (even when empty).
StandardResult: TypeAlias = "_SuccessLike[_T] | _FailureLike"


class StandardSchemaV1Props(Protocol[InputT, OutputT]):
    """The ``__standard__`` object of a Standard Schema: identity and ``validate``."""

    @property
    def version(self) -> int: ...
    @property
    def vendor(self) -> str: ...
    def validate(
        self, value: InputT, /
    ) -> _SuccessLike[OutputT] | _FailureLike | Awaitable[_SuccessLike[OutputT] | _FailureLike]: ...


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


class ToolSchemaProps(StandardSchemaV1Props[InputT, OutputT], Protocol[InputT, OutputT]):
    """A ``__standard__`` object that both validates and emits JSON Schema."""

    @property
    def json_schema(self) -> JSONSchemaConverter: ...


class ErrorEnvelope(TypedDict):
    """What the default format of ``with_formatted_output`` returns for a failure."""

    error: str


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


class Tool(_Built, Generic[InputT, OutputT, FormattedT, MetaT]):
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
        self: Tool[None, OutputT, FormattedT, MetaT], input: None = None, meta: MetaT | None = None
    ) -> FormattedT: ...
    @overload
    def __call__(self, input: InputT, meta: MetaT | None = None) -> FormattedT: ...
    def __call__(self, input: Any = None, meta: Any = None) -> Any:
        """``tool(input, meta)`` is ``tool.execute(input, meta)``."""
        return self.execute(input, meta)

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
        """Return ``with_formatted_output(self, format)``: failures as data.

        Non-stacking: on a formatted tool it formats the neutral tool again, so
        ``t.formatted(a).formatted(b)`` is ``t.formatted(b)``.

        Args:
            format: ``(OutputT | Exception) -> F``, sync or async.
        """
        return _formatted(self if self._neutral is None else self._neutral, format)


class AsyncTool(_Built, Generic[InputT, OutputT, FormattedT, MetaT]):
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
        return self.execute(input, meta)

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
        """Return ``with_formatted_output(self, format)`` (see ``Tool.formatted``); stays async.

        Args:
            format: ``(OutputT | Exception) -> F``, sync or async.
        """
        return _formatted(self if self._neutral is None else self._neutral, format)


class FormattedToolV0(
    StandardToolV0[InputT, OutputT, FormattedT, MetaT], Protocol[InputT, OutputT, FormattedT, MetaT]
):
    """What ``with_formatted_output`` returns: a tool that keeps the neutral tool it wraps."""

    @property
    def _neutral(self) -> StandardToolV0[InputT, OutputT, OutputT, MetaT]: ...


class _AsyncToolV0(Protocol[InputT, _F_co, MetaT]):
    """A tool whose ``execute`` is async: its output is what the awaitable gives."""

    @property
    def name(self) -> str: ...
    @property
    def description(self) -> str: ...
    def execute(self, input: InputT, meta: MetaT | None = None) -> Awaitable[_F_co]: ...


# A formatted tool matches the first overload, which type checkers report as deprecated
# (pyright strict: reportDeprecated; mypy: the "deprecated" error code): Python has no
# NoInfer, so this is how re-formatting is a type error. The async overloads come next:
# with no required member naming the output, an async ``execute`` alone says what it is.
@overload
@deprecated("a formatted tool cannot be formatted again: format the neutral tool instead")
def with_formatted_output(
    tool: FormattedToolV0[Any, Any, Any, Any], format: Callable[[Any], Any] | None = None
) -> object: ...
@overload
def with_formatted_output(
    tool: _AsyncToolV0[_In, _O, _M],
) -> FormattedToolV0[_In, _O, _O | ErrorEnvelope, _M]: ...
@overload
def with_formatted_output(
    tool: StandardToolV0[_In, _O, _O, _M],
) -> FormattedToolV0[_In, _O, _O | ErrorEnvelope, _M]: ...
@overload
def with_formatted_output(
    tool: StandardToolV0[_In, _O, _O, _M], format: Callable[[_O | Exception], Awaitable[_F]]
) -> FormattedToolV0[_In, _O, _F, _M]: ...
@overload
def with_formatted_output(
    tool: StandardToolV0[_In, _O, _O, _M], format: Callable[[_O | Exception], _F]
) -> FormattedToolV0[_In, _O, _F, _M]: ...
def with_formatted_output(tool: Any, format: Callable[[Any], Any] | None = None) -> Any:
    """Wrap a neutral tool so that its ``execute`` returns failures as data, never raising.

    Apply it once, at the consumer's boundary. The result keeps every other field of
    ``tool`` and replaces only ``execute``: the validated output, or the ``Exception``
    it raised, goes to ``format``. The default format returns the output unchanged,
    or ``{"error": str(exc)}``. ``format`` runs exactly once per call, outside the
    ``try``: what it raises propagates. A ``BaseException`` that is not an
    ``Exception`` (``CancelledError``, ``KeyboardInterrupt``) propagates. The result's
    ``execute`` is a coroutine function when the tool's ``execute`` or ``format`` is
    one; otherwise it is synchronous. Only a neutral tool type-checks: re-formatting
    a formatted tool is a type error.

    Examples:
        >>> add = standard_tool(name="add", description="Add.", execute=lambda p: p[0] + p[1])
        >>> with_formatted_output(add).execute((2, 3))
        5
        >>> with_formatted_output(add).execute(None)
        {'error': "'NoneType' object is not subscriptable"}
    """
    return _formatted(tool, format)


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
        return _build(fn, **self._options)


# The overloads only spell out inference: (async | sync handler) x (arity 2 | 1 | 0) x
# (with | without input_schema) x (with | without output_schema). A library model class
# (``type[V]``) or a JSON Schema dict is accepted where a schema is; with a dict the
# handler's annotation gives the type.

_InputSchema: TypeAlias = "type[_V] | ToolSchema[_I, _V] | Mapping[str, Any]"
_OutputSchema: TypeAlias = "ToolSchema[Never, _OS] | type[_OS] | Mapping[str, Any]"


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
    fields: dict[str, Any] = {"name": name, "description": description, "title": title}
    fields |= {"input_schema": input_schema, "output_schema": output_schema}
    return _Decorator[Any, Any, Any](fields) if execute is None else _build(execute, **fields)
