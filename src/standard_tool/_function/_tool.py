"""Function tools: ``@tool`` builds a Standard Tool from a typed Python function.

The function's parameters become the input schema (an object, one property per
parameter), its return annotation the output schema, its docstring the
description. The schema is compiled once, at decoration time, into a JSON Schema
and a plain-Python validator that accepts exactly what that schema accepts. The
tool itself comes from the core builder, so sync/async handling, ``formatted()``
and immutability are the core's.

Layer: function tools (imports only standard_tool._core, standard_tool._shared and this
package; pydantic/msgspec lazily).
"""

from __future__ import annotations

import copy
import inspect
import operator
from collections.abc import Callable, Coroutine
from typing import Any

from typing_extensions import Annotated, TypeAlias, TypeVar, overload

from standard_tool._core import (
    STOPPED_PREFIX,
    AsyncTool,
    FailureResult,
    FastPath,
    Issue,
    Tool,
    ToolDefinitionError,
    standard_tool,
)
from standard_tool._function._checks import BAD, MAX_ISSUES, MISSING, Check, Err, Leaf, shape_of
from standard_tool._function._codegen import exec_generated, generate, generate_check
from standard_tool._function._compile import META_MARKER, Compiler, Param, to_json
from standard_tool._function._docstring import parse_docstring
from standard_tool._function._nodes import Node, ObjectNode, Prop
from standard_tool._shared import truncate_text

__all__ = ["Meta", "Param", "tool"]

_T = TypeVar("_T")
_R = TypeVar("_R")

#: Mark the parameter that receives ``execute``'s ``meta``: ``ctx: Meta[MyContext]``.
#: It is hidden from the schema and passed verbatim, never validated.
Meta: TypeAlias = Annotated[_T, META_MARKER]


# --------------------------------------------------------------------------------------
# The conforming schema objects
# --------------------------------------------------------------------------------------


# Issues and failures are built through their slots' own setters (as the core builds
# SuccessResult): the frozen dataclass ``__init__`` costs several times more.
_new = object.__new__
_set_message: Callable[[Any, Any], None] = vars(Issue)["message"].__set__
_set_path: Callable[[Any, Any], None] = vars(Issue)["path"].__set__
_set_issues: Callable[[Any, Any], None] = vars(FailureResult)["issues"].__set__
_set_value: Callable[[Any, Any], None] = vars(FailureResult)["value"].__set__


def _issue(message: str, path: tuple[Any, ...] | None) -> Issue:
    """``Issue(message, path)``, built without the frozen dataclass ``__init__``."""
    issue = _new(Issue)
    _set_message(issue, message)
    _set_path(issue, path)
    return issue


def _issues(errs: list[Err]) -> tuple[Issue, ...]:
    out: list[Issue] = []
    for e in errs[:MAX_ISSUES]:
        rpath = e.rpath
        out.append(_issue(e.message, tuple(rpath[::-1]) if rpath else None))
    if len(errs) >= MAX_ISSUES:  # the checks stop collecting here: say so
        out.append(_issue(f"{STOPPED_PREFIX}{MAX_ISSUES} issues", None))
    return tuple(out)


def _failure(errs: list[Err]) -> FailureResult:
    """``FailureResult(_issues(errs))``, built without the frozen dataclass ``__init__``."""
    result = _new(FailureResult)
    if len(errs) == 1:  # the common case, inline
        e = errs[0]
        rpath = e.rpath
        issue = _new(Issue)
        _set_message(issue, e.message)
        _set_path(issue, tuple(rpath[::-1]) if rpath else None)
        _set_issues(result, (issue,))
    else:
        _set_issues(result, _issues(errs))
    _set_value(result, None)
    return result


class _Valid:
    """A success result (a plain slotted object: cheaper to build than a frozen dataclass)."""

    __slots__ = ("value",)
    issues = None

    def __init__(self, value: Any) -> None:
        self.value = value


class _JSONSchemaConverter:
    __slots__ = ("_cache", "_schema")

    def __init__(self, schema: dict[str, Any]) -> None:
        self._schema = schema
        self._cache: dict[str, dict[str, Any]] = {}

    def input(self, *, target: str, library_options: Any = None) -> dict[str, Any]:
        """Return the JSON Schema for ``target`` (a fresh copy)."""
        cached = self._cache.get(target)
        if cached is None:
            from standard_tool.dialects import convert

            cached = convert(self._schema, target)
            self._cache[target] = cached
        return copy.deepcopy(cached)

    def output(self, *, target: str, library_options: Any = None) -> dict[str, Any]:
        """Return the JSON Schema for ``target`` (a fresh copy); the same as ``input``."""
        return self.input(target=target, library_options=library_options)


class _Invalid(Exception):
    """Raised by a function schema's fast path; ``args`` are the issues ``validate`` reports."""

    def __str__(self) -> str:
        n = len(self.args)
        return f"invalid value ({n} issue{'' if n == 1 else 's'})"


#: ``error -> issues`` for an ``_Invalid`` (its ``args``; a C call, not a Python one).
_invalid_issues: Callable[[_Invalid], tuple[Issue, ...]] = operator.attrgetter("args")


def _invalid(errs: list[Err]) -> _Invalid:
    if len(errs) == 1:  # the common case, inline
        e = errs[0]
        rpath = e.rpath
        issue = _new(Issue)
        _set_message(issue, e.message)
        _set_path(issue, tuple(rpath[::-1]) if rpath else None)
        return _Invalid(issue)
    return _Invalid(*_issues(errs))


def _raise_invalid(errs: list[Err]) -> Any:
    raise _invalid(errs)


class _Props:
    __slots__ = ("fast_path", "full_validate", "json_schema", "validate")

    version = 1
    vendor = "standard-tool"
    types = None

    def __init__(self, label: str, check: Check, schema: dict[str, Any], python: bool) -> None:
        self.json_schema = _JSONSchemaConverter(schema)

        def slow(value: Any, /, library_options: Any = None) -> Any:
            errs: list[Err] = []
            out = check(value, errs)
            if out is BAD:
                return _failure(errs)
            return _Valid(out)

        def slow_convert(value: Any) -> Any:
            errs: list[Err] = []
            out = check(value, errs)
            if out is BAD:
                _raise_invalid(errs)
            return out

        shape = shape_of(check)
        if python:
            # Python values (return values): checked by generated tests, never converted.
            self.validate = generate_check(check, _Valid, slow, what=f"{label} validate")
            self.full_validate = slow
            convert = generate_check(check, None, slow_convert, what=f"{label} convert")
            self.fast_path = FastPath(convert, _Invalid, _invalid_issues)
            return
        # Generated code pays off for objects and arrays; a leaf or opaque check is called as is.
        validate = (
            generate(check, _Valid, slow, _failure, what=f"{label} validate")
            if shape is not None and not isinstance(shape, Leaf)
            else slow
        )
        self.validate = validate
        #: The full check alone (what the generated code must agree with; for tests).
        self.full_validate = slow
        # What the core's builder calls: the value or an exception, no result object.
        convert = (
            generate(check, None, slow_convert, _invalid, raises=True, what=f"{label} convert")
            if shape is not None
            else slow_convert
        )
        self.fast_path = FastPath(convert, _Invalid, _invalid_issues)


class FunctionSchema:
    """The input or output schema of a function tool (a Standard Schema and JSON Schema).

    ``__standard__.validate`` accepts exactly the values the JSON Schema accepts
    and converts them to the annotated Python types.
    """

    __slots__ = ("__standard__", "_label")

    def __init__(
        self, label: str, check: Check, schema: dict[str, Any], *, python: bool = False
    ) -> None:
        self.__standard__ = _Props(label, check, schema, python)
        self._label = label

    def __repr__(self) -> str:
        return f"FunctionSchema({self._label})"


# --------------------------------------------------------------------------------------
# Reading the function
# --------------------------------------------------------------------------------------


def _defining_locals(fn: Callable[..., Any]) -> dict[str, Any]:
    """Return the local names of the function that defines ``fn``, while it still runs.

    Under ``from __future__ import annotations`` a type defined inside a function is
    only a name in the annotation; the decorator runs inside that function, so its
    frame (found by ``fn``'s qualified name) still holds the type.
    """
    qualname: str = getattr(fn, "__qualname__", "")
    if ".<locals>." not in qualname:
        return {}
    outer = qualname.rsplit(".<locals>.", 1)[0]
    frame = inspect.currentframe()
    for _ in range(64):
        if frame is None:
            break
        code = frame.f_code
        name = getattr(code, "co_qualname", None)  # 3.11+; 3.10 compares the last part
        if name == outer or (name is None and outer.rsplit(".", 1)[-1] == code.co_name):
            return dict(frame.f_locals)
        frame = frame.f_back
    return {}


def _annotations(fn: Callable[..., Any], problems: list[str]) -> dict[str, Any]:
    try:
        return dict(inspect.get_annotations(fn, eval_str=True))
    except Exception:
        pass
    raw: dict[str, Any] = dict(getattr(fn, "__annotations__", {}) or {})
    globalns: dict[str, Any] = getattr(fn, "__globals__", {})
    localns = _defining_locals(fn)
    out: dict[str, Any] = {}
    for key, value in raw.items():
        if isinstance(value, str):
            try:
                value = eval(value, globalns, localns)
            except Exception as err:
                where = "return annotation" if key == "return" else f"parameter {key!r}"
                problems.append(f"{where}: cannot resolve {truncate_text(repr(value), 80)}: {err}")
                continue
        out[key] = value
    return out


def _is_meta(annotation: Any) -> bool:
    metadata = getattr(annotation, "__metadata__", ())
    return any(m is META_MARKER for m in metadata)


def _no_output(annotation: Any) -> bool:
    return annotation in (None, type(None), Any, object, inspect.Parameter.empty)


class _Compiled:
    __slots__ = ("description", "input_schema", "meta_name", "output_schema", "signature")

    def __init__(self, fn: Callable[..., Any], label: str) -> None:
        problems: list[str] = []
        try:
            signature = inspect.signature(fn)
            self.signature = signature
        except (TypeError, ValueError) as err:
            raise ToolDefinitionError(f"tool {label!r}: cannot read the signature: {err}") from err
        hints = _annotations(fn, problems)
        doc = parse_docstring(inspect.getdoc(fn))
        self.description = doc.description
        globalns: dict[str, Any] = getattr(fn, "__globals__", {})
        compiler = Compiler(globalns)
        self.meta_name: str | None = None
        props: list[Prop] = []
        fields: list[tuple[str, Check, bool, Any]] = []
        extra: Check | None = None
        extra_node: Node | None = None
        for p in signature.parameters.values():
            where = f"parameter {p.name!r}"
            annotation = hints.get(p.name, Any)
            if p.kind is p.VAR_POSITIONAL:
                problems.append(f"{where}: *{p.name} cannot be passed by keyword; remove it")
                continue
            if p.kind is p.POSITIONAL_ONLY:
                problems.append(f"{where}: positional-only parameters are not supported")
                continue
            if _is_meta(annotation):
                if self.meta_name is not None:
                    problems.append(f"{where}: only one parameter can be Meta")
                self.meta_name = p.name
                continue
            try:
                node, check, info = compiler.compile(annotation, where)
            except ToolDefinitionError as err:
                problems.append(str(err))
                continue
            if p.kind is p.VAR_KEYWORD:
                extra, extra_node = check, node
                continue
            default = p.default if p.default is not p.empty else info.default
            json_default = BAD if default is MISSING else to_json(default)
            has_default = json_default is not BAD
            props.append(
                Prop(
                    p.name,
                    node,
                    default is MISSING,
                    doc.params.get(p.name),
                    json_default if has_default else None,
                    has_default,
                )
            )
            fields.append((p.name, check, default is MISSING, default))
        root = compiler.root(ObjectNode(tuple(props), None, extra_node))
        check_in = compiler.object_check(fields, extra, None)
        self.input_schema = FunctionSchema(f"{label} input", check_in, root)

        self.output_schema: FunctionSchema | None = None
        returns = hints.get("return", inspect.Parameter.empty)
        if not _no_output(returns):
            out = Compiler(globalns, python=True)
            try:
                node, check, _ = out.compile(returns, "return annotation")
            except ToolDefinitionError as err:
                problems.append(str(err))
            else:
                self.output_schema = FunctionSchema(
                    f"{label} output", check, out.root(node), python=True
                )
        if problems:
            raise ToolDefinitionError(f"tool {label!r}: " + "; ".join(problems))


# --------------------------------------------------------------------------------------
# The decorator
# --------------------------------------------------------------------------------------


def _handler(
    fn: Callable[..., Any], signature: inspect.Signature, meta_name: str | None
) -> Callable[[Any, Any], Any]:
    """Return ``run(value, meta)`` calling ``fn`` with the validated arguments.

    The validated dict holds every parameter (defaults are filled in), so the
    call names each one instead of expanding ``**value``: positionally for a
    plain function (its signature is its code's), by keyword otherwise (a
    wrapper's advertised signature may not be how it takes its arguments).
    Only ``**kwargs`` needs ``fn(**value)``.
    """
    params = list(signature.parameters.values())
    plain = (
        inspect.isfunction(fn)
        and not hasattr(fn, "__wrapped__")
        and getattr(fn, "__signature__", None) is None
    )
    args: list[str] = []
    first = ""
    # Parameter names are identifiers (``name=`` in the call); as dict keys they
    # are constants bound by name, like every value in generated code.
    constants: dict[str, Any] = {"fn": fn}

    def key(name: str) -> str:
        constant = f"K{len(constants)}"
        constants[constant] = name
        return constant

    for p in params:
        if p.kind is p.VAR_KEYWORD:
            # Extra keys may name the Meta parameter too: Meta wins, as it always has.
            first = "" if meta_name is None else f"value[{key(meta_name)}] = meta; "
            args = ["**value"]
            break
        expr = "meta" if p.name == meta_name else f"value[{key(p.name)}]"
        positional = plain and p.kind is p.POSITIONAL_OR_KEYWORD
        args.append(expr if positional else f"{p.name}={expr}")
    call = f"fn({', '.join(args)})"
    if inspect.iscoroutinefunction(fn):
        source = f"async def run(value, meta):\n    {first}return await {call}\n"
    else:
        source = f"def run(value, meta):\n    {first}return {call}\n"
    run: Callable[[Any, Any], Any] = exec_generated(source, constants, "handler")["run"]
    return run


def _build(
    fn: Callable[..., Any], name: str | None, description: str | None, title: str | None
) -> Any:
    if not callable(fn):
        raise ToolDefinitionError(f"tool: expected a function, got {type(fn).__name__}")
    label = name or getattr(fn, "__name__", None) or type(fn).__name__
    try:
        compiled = _Compiled(fn, label)
    except RecursionError as err:
        raise ToolDefinitionError(
            f"tool {label!r}: an annotation nests too deeply to compile; "
            "name its inner parts (a TypedDict, a dataclass or a type alias)"
        ) from err
    return standard_tool(
        name=label,
        description=compiled.description if description is None else description,
        title=title,
        execute=_handler(fn, compiled.signature, compiled.meta_name),
        input_schema=compiled.input_schema,
        output_schema=compiled.output_schema,
    )


class _ToolDecorator:
    """What ``tool(name=..., ...)`` returns: apply it to a function."""

    __slots__ = ("_description", "_name", "_title")

    def __init__(self, name: str | None, description: str | None, title: str | None) -> None:
        self._name = name
        self._description = description
        self._title = title

    @overload
    def __call__(  # type: ignore[overload-overlap]  # pyright: ignore[reportOverlappingOverload]
        self, fn: Callable[..., Coroutine[Any, Any, _R]], /
    ) -> AsyncTool[dict[str, Any], _R, _R, Any]: ...
    @overload
    def __call__(self, fn: Callable[..., _R], /) -> Tool[dict[str, Any], _R, _R, Any]: ...
    def __call__(self, fn: Callable[..., Any], /) -> Any:
        return _build(fn, self._name, self._description, self._title)


@overload
def tool(  # type: ignore[overload-overlap]  # pyright: ignore[reportOverlappingOverload]
    fn: Callable[..., Coroutine[Any, Any, _R]], /
) -> AsyncTool[dict[str, Any], _R, _R, Any]: ...
@overload
def tool(fn: Callable[..., _R], /) -> Tool[dict[str, Any], _R, _R, Any]: ...
@overload
def tool(
    *, name: str | None = None, description: str | None = None, title: str | None = None
) -> _ToolDecorator: ...
def tool(
    fn: Callable[..., Any] | None = None,
    /,
    *,
    name: str | None = None,
    description: str | None = None,
    title: str | None = None,
) -> Any:
    """Build a Standard Tool from a typed function.

    The input schema is an object with one property per parameter (typed by its
    annotation, described by the docstring or ``Annotated`` metadata, optional
    when it has a default). ``execute(args)`` validates ``args`` against exactly
    that schema, converts what JSON cannot carry (``datetime``, ``Enum``,
    dataclasses, tuples, sets) and calls the function with keyword arguments.
    The return annotation becomes the output schema; the returned value is
    checked against it and passed through unchanged. ``async def`` functions give
    an async tool.

    Use it bare (``@tool``) or with options (``@tool(name="...")``).

    Examples:
        >>> from typing_extensions import Literal
        >>> @tool
        ... def get_weather(city: str, units: Literal["c", "f"] = "c") -> str:
        ...     '''Get the weather for a city.
        ...
        ...     Args:
        ...         city: The city name.
        ...     '''
        ...     return f"20 degrees {units} in {city}"
        >>> get_weather.execute({"city": "Paris"})
        '20 degrees c in Paris'

    Args:
        fn: the function (when used bare).
        name: the tool name; defaults to the function's ``__name__``.
        description: defaults to the docstring without its Args/Returns/Raises sections.
        title: an optional human-readable title.

    Raises:
        ToolDefinitionError: a parameter or the return annotation cannot be
            expressed as JSON Schema (every problem is listed), or the function
            takes ``*args`` or positional-only parameters.
    """
    if fn is None:
        return _ToolDecorator(name, description, title)
    return _build(fn, name, description, title)
