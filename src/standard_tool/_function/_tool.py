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

import collections.abc
import functools
import inspect
import types
import typing
from collections.abc import (
    AsyncIterator,
    Callable,
    Coroutine,
    Iterator,
    Mapping,
)
from typing import TYPE_CHECKING, Any, Generic, cast

from typing_extensions import (
    Annotated,
    Concatenate,
    Literal,
    ParamSpec,
    Self,
    TypeAlias,
    TypeVar,
    overload,
)

from standard_tool._context import (
    ToolContext,
    adrain,
    current_context,
    drain,
)
from standard_tool._core import (
    FailureResult,
    Issue,
    ToolDefinitionError,
    is_async_callable,
)
from standard_tool._fast import (
    DEFERRED_ISSUES,
    AsyncTool,
    DeferredValidationError,
    FastPath,
    Tool,
    build_tool,
    check_metadata,
    check_timeout,
    new_error,
)
from standard_tool._fast import formatted as fast_formatted
from standard_tool._function._checks import BAD, MAX_ISSUES, MISSING, Check, Err, Leaf, shape_of
from standard_tool._function._codegen import (
    Fused,
    exec_generated,
    generate,
    generate_check,
    generate_execute,
)
from standard_tool._function._compile import META_MARKER, Compiler, Param, to_json
from standard_tool._function._docstring import parse_docstring
from standard_tool._function._nodes import Node, ObjectNode, Prop
from standard_tool._shared import STOPPED, Snapshot, truncate_text
from standard_tool.content import Content, ToolOutput, structured_output

__all__ = ["AsyncFunctionTool", "FunctionTool", "Meta", "Param", "tool"]

_T = TypeVar("_T")
_R = TypeVar("_R")
_S = TypeVar("_S")
_P = ParamSpec("_P")
_P2 = ParamSpec("_P2")
#: What a direct call returns: the function's own return type (a coroutine for an
#: ``async def``, the iterator for a generator).
_C = TypeVar("_C", default=_R)
_AC = TypeVar("_AC", default=Coroutine[Any, Any, _R])

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
_set_code: Callable[[Any, Any], None] = vars(Issue)["code"].__set__
_set_issues: Callable[[Any, Any], None] = vars(FailureResult)["issues"].__set__
_set_value: Callable[[Any, Any], None] = vars(FailureResult)["value"].__set__


#: Message openings of the function tools' checks, and the issue code each means.
_CODES = (
    ("missing required property", "required"),
    ("unexpected property", "additional_property"),
    ("expected one of ", "enum"),
    ("expected a JSON value", "type"),
    ("expected a ", "format"),  # "expected a YYYY-MM-DD date", "expected a UUID"
    ("object keys must be strings", "type"),
    ("matches none of the", "union"),
    ("invalid ", "format"),
    ("must ", "constraint"),
    ("items must be", "constraint"),
)


def issue_code(message: str) -> str:
    """Return the issue code of a function tool's message (see ``Issue.code``).

    The two commonest openings are told apart first, by their first five
    characters (the same answers as going through ``_CODES`` in order).
    """
    head = message[:5]
    if head == "must ":
        return "constraint"
    if head == "expec":
        if message.startswith("expected one of "):
            return "enum"
        if message.startswith("expected a JSON value"):
            return "type"
        if message.startswith("expected a "):
            return "format"
        if message.startswith("expected "):
            return "constraint" if message[9:10].isdigit() else "type"
        return "invalid"
    for opening, code in _CODES:
        if message.startswith(opening):
            return code
    if message.startswith("expected "):
        # "expected 2 items, got 3" is a tuple's length; "expected string, got ..." a type.
        return "constraint" if message[9:10].isdigit() else "type"
    return "invalid"


def _issue(message: str, path: tuple[Any, ...] | None) -> Issue:
    """``Issue(message, path, code)``, built without the frozen dataclass ``__init__``."""
    issue = _new(Issue)
    _set_message(issue, message)
    _set_path(issue, path)
    _set_code(issue, issue_code(message))
    return issue


def _issues(errs: list[Err]) -> tuple[Issue, ...]:
    if len(errs) == 1:  # the common case, inline
        e = errs[0]
        rpath = e.rpath
        return (_issue(e.message, tuple(rpath[::-1]) if rpath else None),)
    stopped = len(errs) >= MAX_ISSUES  # the checks stop collecting here: say so
    out: list[Issue] = []
    for e in errs[: MAX_ISSUES - 1] if stopped else errs:
        rpath = e.rpath
        out.append(_issue(e.message, tuple(rpath[::-1]) if rpath else None))
    if stopped:
        out.append(_issue(STOPPED, None))
    return tuple(out)


def _failure(errs: list[Err]) -> FailureResult:
    """``FailureResult(_issues(errs))``, built without the frozen dataclass ``__init__``."""
    result = _new(FailureResult)
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
        self._cache: dict[str, Snapshot[dict[str, Any]]] = {}

    def input(self, *, target: str, library_options: Any = None) -> dict[str, Any]:
        """Return the JSON Schema for ``target`` (a fresh copy)."""
        cached = self._cache.get(target)
        if cached is None:
            from standard_tool.dialects import convert

            cached = Snapshot(convert(self._schema, target))
            self._cache[target] = cached
        return cached.get()

    def output(self, *, target: str, library_options: Any = None) -> dict[str, Any]:
        """Return the JSON Schema for ``target`` (a fresh copy); the same as ``input``."""
        return self.input(target=target, library_options=library_options)


class _Invalid(Exception):
    """Raised by a function schema's fast path: ``_Invalid(errs)``, the problems found.

    Its issues (what ``validate`` reports) are built from them only when read,
    through ``_invalid_issues``: a rejected call whose issues nobody reads skips
    that. Built by the exception's own C initialiser, so raising it costs no frame.
    """

    __slots__ = ()

    def __str__(self) -> str:
        n = len(_invalid_issues(self))
        return f"invalid value ({n} issue{'' if n == 1 else 's'})"


def _invalid_issues(error: _Invalid) -> tuple[Issue, ...]:
    """``error -> issues`` for an ``_Invalid``: the issues ``validate`` reports."""
    errs: list[Err] = error.args[0]
    return _issues(errs)


#: What the generated code raises for the problems it found.
_invalid = _Invalid


def _raise_invalid(errs: list[Err]) -> Any:
    raise _invalid(errs)


class _Props:
    __slots__ = ("_raising", "fast_path", "full_validate", "fused", "json_schema", "validate")

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
        #: ``FastPath.raising``'s converts, by target, each generated on first use.
        self._raising: dict[str, Callable[[Any], Any]] = {}

        def raising(target: Literal["input", "output"]) -> Callable[[Any], Any]:
            made = self._raising.get(target)
            if made is None:
                made = self._raising[target] = _raising(label, check, python, target)
            return made

        if python:
            # Python values (return values): checked by generated tests, never converted.
            self.validate = generate_check(check, _Valid, slow, what=f"{label} validate")
            self.full_validate = slow
            # ``convert`` raises ``_Invalid`` for a caller of the fast path other than
            # the builder (which uses ``raising``): compiled only if one calls it.
            convert = generate_check(check, None, slow_convert, lazy=True, what=f"{label} convert")
            self.fast_path = FastPath(convert, _Invalid, _invalid_issues, raising)
            return

        def fused(parts: Fused) -> Callable[..., Any] | None:
            return _fused(label, check, parts)

        #: ``Fused parts -> execute``: the input's check joined to the handler (or ``None``).
        self.fused = fused
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
            generate(
                check,
                None,
                slow_convert,
                _invalid,
                raises=True,
                lazy=True,
                what=f"{label} convert",
            )
            if shape is not None
            else slow_convert
        )
        self.fast_path = FastPath(convert, _Invalid, _invalid_issues, raising)


def _raising(
    label: str, check: Check, python: bool, target: Literal["input", "output"]
) -> Callable[[Any], Any]:
    """Return the fast path for ``target``: it raises the tool's final error itself.

    The builder asks for it on the tool's first call, so the code is compiled now.
    """
    slow_raising = _slow_raising(check, target)
    what = f"{label} convert ({target} error)"
    if python:
        return generate_check(check, None, slow_raising, now=True, what=what)
    if shape_of(check) is None:
        return slow_raising
    return generate(
        check, None, slow_raising, _issues, raises=True, target=target, now=True, what=what
    )


def _fused(label: str, check: Check, parts: Fused) -> Callable[..., Any] | None:
    """``generate_execute`` for the input ``check``: validation, handler and output in one."""
    what = f"{label} execute (input error)"
    return generate_execute(check, _slow_raising(check, "input"), _issues, parts, what=what)


def _slow_raising(check: Check, target: Literal["input", "output"]) -> Callable[[Any], Any]:
    """Return the full ``check`` alone, raising the tool's final error for ``target``."""

    def slow_raising(value: Any) -> Any:
        errs: list[Err] = []
        out = check(value, errs)
        if out is BAD:
            raise new_error(DeferredValidationError, target, (DEFERRED_ISSUES, _issues, errs))
        return out

    return slow_raising


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


def _rich_structured(annotation: Any) -> tuple[bool, Any]:
    """Read a rich-result annotation: ``(True, T)`` for ``ToolOutput[T]``.

    A bare ``ToolOutput``, a content block type or a list of them declares no
    output schema: ``(True, Parameter.empty)``. Anything else: ``(False, annotation)``.
    """
    origin: Any = typing.get_origin(annotation)
    if origin is ToolOutput:
        return True, typing.get_args(annotation)[0]
    kinds = (ToolOutput, *typing.get_args(Content))
    if isinstance(annotation, type) and issubclass(annotation, kinds):
        return True, inspect.Parameter.empty
    if origin in (list, tuple, collections.abc.Sequence) or isinstance(annotation, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not Ellipsis]
        if args and all(_rich_structured(a)[0] for a in args):
            return True, inspect.Parameter.empty
    if origin is typing.Union:
        args = list(typing.get_args(annotation))
        if all(_rich_structured(a)[0] for a in args):
            return True, inspect.Parameter.empty
    return False, annotation


def _streams(fn: Callable[..., Any]) -> bool:
    """Whether ``fn`` is a generator or async generator function (a streaming tool)."""
    return inspect.isgeneratorfunction(fn) or inspect.isasyncgenfunction(fn)


_STREAM_ORIGINS = {
    collections.abc.Iterator,
    collections.abc.Iterable,
    collections.abc.Generator,
    collections.abc.AsyncIterator,
    collections.abc.AsyncIterable,
    collections.abc.AsyncGenerator,
}


def _streamed_result(annotation: Any) -> Any:
    """Return the result type of a streaming tool: what it yields (or what it returns).

    ``Iterator[T]`` and ``AsyncIterator[T]`` give ``T``; ``Generator[T, S, R]`` gives
    ``T | R`` when ``R`` is not ``None`` (a returned value is the result). Anything
    else is not checked (``Any``).
    """
    origin: Any = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    returns_value = origin is collections.abc.Generator and len(args) == 3
    if origin not in _STREAM_ORIGINS or not args:
        return Any
    item = args[0]
    if returns_value and not _no_output(args[2]):
        return typing.Union[item, args[2]]  # noqa: UP007  # built from values at run time
    return item


def _is_context(annotation: Any) -> bool:
    return isinstance(annotation, type) and issubclass(annotation, ToolContext)


class _Compiled:
    __slots__ = (
        "context_name",
        "description",
        "input_schema",
        "meta_name",
        "output_schema",
        "signature",
    )

    def __init__(self, fn: Callable[..., Any], label: str, method: bool) -> None:
        problems: list[str] = []
        try:
            signature = inspect.signature(fn)
        except (TypeError, ValueError) as err:
            raise ToolDefinitionError(f"tool {label!r}: cannot read the signature: {err}") from err
        if method:  # ``self`` / ``cls`` is bound, never sent by a model
            signature = signature.replace(parameters=list(signature.parameters.values())[1:])
        self.signature = signature
        self.context_name: str | None = None
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
            if _is_context(annotation):
                if self.context_name is not None:
                    problems.append(f"{where}: only one parameter can be a ToolContext")
                self.context_name = p.name
                continue
            if _is_meta(annotation):
                if self.meta_name is not None:
                    problems.append(f"{where}: only one parameter can be Meta")
                self.meta_name = p.name
                continue
            given = p.default
            if _is_field_info(given):  # ``x: int = Field(ge=0)``: metadata, as in Annotated
                annotation, given = Annotated[annotation, given], p.empty
            try:
                node, check, info = compiler.compile(annotation, where)
            except ToolDefinitionError as err:
                problems.append(str(err))
                continue
            if p.kind is p.VAR_KEYWORD:
                extra, extra_node = check, node
                continue
            default = given if given is not p.empty else info.default
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

        self.output_schema: Any = None  # a FunctionSchema, or structured_output of one
        returns = hints.get("return", inspect.Parameter.empty)
        if _streams(fn) and not _no_output(returns):
            returns = _streamed_result(returns)
        rich, returns = _rich_structured(returns)
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
                if rich:  # the output schema is the structured value's
                    self.output_schema = structured_output(self.output_schema)
        if problems:
            raise ToolDefinitionError(f"tool {label!r}: " + "; ".join(problems))


# --------------------------------------------------------------------------------------
# The handler: validated arguments in, the function called
# --------------------------------------------------------------------------------------


def _context_for(name: str, value: Any) -> ToolContext:
    """Return the current call's context, or a fresh one for a call that has none."""
    context = current_context()
    return ToolContext(name, arguments=value) if context is None else context


def _handler_source(
    fn: Callable[..., Any],
    signature: inspect.Signature,
    meta_name: str | None,
    context_name: str | None,
    label: str,
    method: bool,
) -> tuple[str, dict[str, Any]]:
    """Return the source of ``run(value, meta)`` calling ``fn`` with the validated arguments.

    The validated dict holds every parameter (defaults are filled in), so the
    call names each one instead of expanding ``**value``: positionally for a
    plain function (its signature is its code's), by keyword otherwise (a
    wrapper's advertised signature may not be how it takes its arguments).
    Only ``**kwargs`` needs ``fn(**value)``. A method's ``run`` is made by
    ``make(target)``, which binds the instance (or class) as the first argument.
    """
    params = list(signature.parameters.values())
    plain = _plain(fn)
    args: list[str] = ["target"] if method else []
    first = ""
    # Parameter names are identifiers (``name=`` in the call); as dict keys they
    # are constants bound by name, like every value in generated code.
    constants: dict[str, Any] = {"fn": fn, "ctx": _context_for, "LABEL": label}

    def key(name: str) -> str:
        constant = f"K{len(constants)}"
        constants[constant] = name
        return constant

    for p in params:
        if p.kind is p.VAR_KEYWORD:
            # Extra keys may name the Meta parameter too: Meta wins, as it always has.
            if meta_name is not None:
                first += f"value[{key(meta_name)}] = meta; "
            if context_name is not None:
                first += f"value[{key(context_name)}] = ctx(LABEL, dict(value)); "
            args = ["target", "**value"] if method else ["**value"]
            break
        if p.name == meta_name:
            expr = "meta"
        elif p.name == context_name:
            expr = "ctx(LABEL, value)"
        else:
            expr = f"value[{key(p.name)}]"
        args.append(_argument(p, expr, plain))
    call = f"fn({', '.join(args)})"
    if inspect.isgeneratorfunction(fn):
        constants["drain"] = drain
        call = f"drain({call})"
    elif inspect.isasyncgenfunction(fn):
        constants["adrain"] = adrain
        source = f"async def run(value, meta):\n    {first}return await adrain({call})\n"
        if method:
            body = "".join(f"    {line}\n" for line in source.splitlines())
            source = f"def make(target):\n{body}    return run\n"
        return source, constants
    if inspect.iscoroutinefunction(fn):
        source = f"async def run(value, meta):\n    {first}return await {call}\n"
    else:
        source = f"def run(value, meta):\n    {first}return {call}\n"
    if method:
        body = "".join(f"    {line}\n" for line in source.splitlines())
        source = f"def make(target):\n{body}    return run\n"
    return source, constants


def _plain(fn: Callable[..., Any]) -> bool:
    """Whether ``fn``'s signature is its code's (its parameters can be passed by position)."""
    return (
        inspect.isfunction(fn)
        and not hasattr(fn, "__wrapped__")
        and getattr(fn, "__signature__", None) is None
    )


def _argument(p: inspect.Parameter, expr: str, plain: bool) -> str:
    """Pass ``expr`` as parameter ``p``: by position when ``plain`` allows, else by keyword."""
    return expr if plain and p.kind is p.POSITIONAL_OR_KEYWORD else f"{p.name}={expr}"


def _fusable_call(
    fn: Callable[..., Any], compiled: _Compiled
) -> tuple[Callable[[Mapping[str, str]], str], dict[str, Any]] | None:
    """Return the handler call ``generate_execute`` inlines (``None``: ``run`` must do it).

    Only a plain call of a synchronous function on its validated parameters (and
    ``Meta``) is inlined: a context parameter, ``**kwargs`` and coroutines keep
    the generated ``run``.
    """
    params = list(compiled.signature.parameters.values())
    if (
        compiled.context_name is not None
        or any(p.kind is p.VAR_KEYWORD for p in params)
        or inspect.iscoroutinefunction(fn)
        or inspect.isasyncgenfunction(fn)
    ):
        return None
    plain = _plain(fn)
    meta_name = compiled.meta_name
    constants: dict[str, Any] = {"h_fn": fn}
    drained = inspect.isgeneratorfunction(fn)
    if drained:
        constants["h_drain"] = drain

    def call(names: Mapping[str, str]) -> str:
        args = [
            _argument(p, "meta" if p.name == meta_name else names[p.name], plain) for p in params
        ]
        made = f"h_fn({', '.join(args)})"
        return f"h_drain({made})" if drained else made

    return call, constants


def _fuse(tool: Any, fn: Callable[..., Any], compiled: _Compiled, run: Any) -> None:
    """Give a sync function tool an ``execute`` generated in one piece on its first call.

    The core's ``execute`` calls the input's generated check, then ``run``, then
    the output's check: three frames and a dict the handler call takes apart.
    On the first call this generates one function doing all three (the same
    code, so the same errors), and makes it the tool's ``execute``; a reference
    taken before that keeps working through the function that made it.
    """
    inline = _fusable_call(fn, compiled)
    if inline is None or is_async_callable(tool.execute):
        return
    if compiled.output_schema is not None and not isinstance(
        compiled.output_schema, FunctionSchema
    ):
        return  # a rich result's schema checks its structured part: no generated check
    call, constants = inline
    props: _Props = compiled.input_schema.__standard__
    output = compiled.output_schema
    made: list[Callable[..., Any]] = []
    original = tool.execute
    setattr_ = object.__setattr__

    def build() -> Callable[..., Any]:
        out = None
        if output is not None:
            raising = output.__standard__.fast_path.raising
            assert raising is not None  # a function schema's fast path always raises itself
            out = raising("output")
        fused = props.fused(Fused(run, out, call, constants))
        execute = original if fused is None else fused
        made.append(execute)
        setattr_(tool, "execute", execute)
        return execute

    def execute(input: Any = None, meta: Any = None) -> Any:
        return (made[0] if made else build())(input, meta)

    setattr_(tool, "execute", execute)


def _handler(fn: Callable[..., Any], compiled: _Compiled, label: str, method: bool) -> Any:
    """``run(value, meta)``, or for a method ``make(target) -> run``."""
    source, constants = _handler_source(
        fn, compiled.signature, compiled.meta_name, compiled.context_name, label, method
    )
    return exec_generated(source, constants, "handler")["make" if method else "run"]


# --------------------------------------------------------------------------------------
# Function tools: still the function, and methods that bind
# --------------------------------------------------------------------------------------

#: How a function tool binds: not at all (a function or a staticmethod), to an instance, to a class.
_Mode: TypeAlias = Literal["function", "static", "method", "class"]


class _Spec:
    """What a function tool keeps of its function (shared by every bound copy)."""

    __slots__ = (
        "annotations",
        "compiled",
        "context_index",
        "fn",
        "looks",
        "make",
        "metadata",
        "mode",
    )

    def __init__(
        self,
        fn: Callable[..., Any],
        mode: _Mode,
        compiled: _Compiled,
        make: Callable[..., Any] | None,
        annotations: Mapping[str, Any],
        metadata: Mapping[str, Any],
    ) -> None:
        self.annotations = annotations
        self.metadata = metadata
        self.fn = fn
        self.mode: _Mode = mode
        self.compiled = compiled
        self.make = make
        self.looks = _looks_of(fn)
        # Where a direct call could pass the context positionally (``None``: by keyword only).
        self.context_index: int | None = None
        if compiled.context_name is not None:
            names = [
                p.name
                for p in compiled.signature.parameters.values()
                if p.kind is p.POSITIONAL_OR_KEYWORD
            ]
            if compiled.context_name in names:
                self.context_index = names.index(compiled.context_name)


#: ``_target`` of a function tool not bound to an instance or a class.
_UNBOUND: Any = object()


def _is_field_info(value: object) -> bool:
    """Tell whether ``value`` is a pydantic ``FieldInfo`` (``Field(...)``), without importing it."""
    kind = type(value)
    return kind.__name__ == "FieldInfo" and kind.__module__.startswith("pydantic")


def _looks_of(fn: Callable[..., Any]) -> dict[str, Any]:
    """Return what ``functools.update_wrapper`` copies from ``fn``: names, docs, ``__dict__``.

    A function tool keeps them in its own ``__dict__``, so ``help()``, ``inspect`` and
    documentation generators see the function, not the tool class.
    """
    looks = {k: v for k, v in getattr(fn, "__dict__", {}).items() if k != "__wrapped__"}
    for attr in functools.WRAPPER_ASSIGNMENTS:
        if hasattr(fn, attr):
            looks[attr] = getattr(fn, attr)
    return looks


def _direct_call(tool: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    spec: _Spec = tool._spec
    name = spec.compiled.context_name
    if name is not None and name not in kwargs:
        index = spec.context_index
        if index is None or len(args) <= index:
            kwargs[name] = _context_for(tool.name, dict(kwargs))
    target = tool._target
    if target is _UNBOUND:
        return spec.fn(*args, **kwargs)
    return spec.fn(target, *args, **kwargs)


def _bind(tool: Any, target: Any) -> Any:
    """Return a copy of a method tool whose handler receives ``target`` first."""
    spec: _Spec = tool._spec
    assert spec.make is not None
    bound = build_tool(
        name=tool.name,
        description=tool.description,
        title=tool.title,
        execute=spec.make(target),
        input_schema=tool.input_schema,
        output_schema=tool.output_schema,
        classes=_CLASSES,
    )
    _finish(bound, spec, target, tool.timeout)
    return bound


def _finish(tool: Any, spec: _Spec, target: Any, timeout: float | None) -> None:
    setattr_ = object.__setattr__
    setattr_(tool, "_spec", spec)
    setattr_(tool, "_target", target)
    setattr_(tool, "timeout", timeout)
    setattr_(tool, "annotations", spec.annotations)
    setattr_(tool, "metadata", spec.metadata)
    setattr_(tool, "__wrapped__", spec.fn)
    tool.__dict__.update(spec.looks)


class _Binds:
    """The descriptor half of a function tool: a method tool binds like a method."""

    __slots__ = ()

    if TYPE_CHECKING:
        _spec: _Spec
        _target: Any
        name: str

    if not TYPE_CHECKING:  # typed as the core's ``formatted``
        formatted = fast_formatted

    @property
    def __signature__(self) -> inspect.Signature:
        """The function's signature; a bound method tool's without ``self`` (or ``cls``)."""
        spec = self._spec
        if spec.mode == "method" and self._target is _UNBOUND:  # read through the class
            return inspect.signature(spec.fn)
        return spec.compiled.signature

    def __set_name__(self, owner: type, name: str) -> None:
        spec: _Spec = self._spec
        fn = spec.fn
        if spec.mode != "function" or self._target is not _UNBOUND:
            return
        defined_here = getattr(fn, "__qualname__", None) == f"{owner.__qualname__}.{name}"
        first = next(iter(inspect.signature(fn).parameters.values()), None)
        if defined_here and first is not None:
            raise ToolDefinitionError(
                f"tool {self.name!r}: a function defined in class "
                f"{owner.__qualname__} takes {first.name!r} first; name it `self` to make "
                "a method tool, or put @staticmethod under @tool"
            )

    if not TYPE_CHECKING:  # typed per class below

        def __get__(self, instance, owner=None):
            return _get(self, instance, owner)


def _get(tool: Any, instance: Any, owner: Any) -> Any:
    """``tool.__get__``: a method tool binds to the instance, a classmethod tool to the class."""
    spec: _Spec = tool._spec
    if spec.mode in ("function", "static") or tool._target is not _UNBOUND:
        return tool
    if spec.mode == "class":
        return _bind(tool, owner if owner is not None else type(instance))
    if instance is None:
        return tool
    return _bind(tool, instance)


class FunctionTool(_Binds, Tool[dict[str, Any], _R, _R, Any], Generic[_P, _R, _C]):
    """A synchronous tool made by ``@tool`` from a function: it is still the function.

    ``get_weather("Paris")`` calls the function as written (no validation: a
    direct call is a Python call); ``get_weather.execute({"city": "Paris"})`` is
    the tool call a model makes (validated). Decorating a method gives a tool
    that binds like a method: ``Client(key).get_orders`` is a tool whose handler
    receives the instance and whose schema has no ``self``.

    Attributes:
        timeout: the default number of seconds a call may take (``@tool(timeout=...)``);
            the ``Toolkit`` and the runners use it when the call gives none.
        annotations: MCP tool annotations (``readOnlyHint``, ``destructiveHint``,
            ``idempotentHint``, ``openWorldHint``), read-only; ``to_mcp`` sends them.
        metadata: free-form facts about the tool (owner, version, tags), read-only;
            never sent to a model.
    """

    # ``__dict__``: the function's ``__name__``, ``__doc__``, ... (``functools.update_wrapper``).
    __slots__ = ("__dict__", "__wrapped__", "_spec", "_target", "annotations")

    annotations: Mapping[str, Any]

    def __call__(self, *args: _P.args, **kwargs: _P.kwargs) -> _C:  # type: ignore[override]  # pyright: ignore[reportIncompatibleMethodOverride]
        """Call the function itself, exactly as if it were not decorated."""
        result: _C = _direct_call(self, args, kwargs)
        return result

    if TYPE_CHECKING:
        # Read through the class: a classmethod tool drops ``cls``, the rest stay as they are.
        @overload
        def __get__(
            self: FunctionTool[Concatenate[type[_S], _P2], _R, _C],
            instance: None,
            owner: type[_S],
            /,
        ) -> FunctionTool[_P2, _R, _C]: ...
        @overload
        def __get__(self, instance: None, owner: Any = None, /) -> Self: ...
        # Read through an instance: a classmethod tool drops ``cls``, a method ``self``.
        @overload
        def __get__(
            self: FunctionTool[Concatenate[type[_S], _P2], _R, _C],
            instance: _S,
            owner: Any = None,
            /,
        ) -> FunctionTool[_P2, _R, _C]: ...
        @overload
        def __get__(
            self: FunctionTool[Concatenate[_S, _P2], _R, _C], instance: _S, owner: Any = None, /
        ) -> FunctionTool[_P2, _R, _C]: ...
        @overload
        def __get__(self, instance: object, owner: Any = None, /) -> Self: ...
        def __get__(self, instance: Any, owner: Any = None, /) -> Any: ...


class AsyncFunctionTool(_Binds, AsyncTool[dict[str, Any], _R, _R, Any], Generic[_P, _R, _AC]):
    """An async tool made by ``@tool`` from an ``async def`` function: still the function.

    ``await fetch("https://...")`` calls the coroutine function as written; see
    ``FunctionTool`` for the rest.

    Attributes:
        timeout: the default number of seconds a call may take (``@tool(timeout=...)``).
        annotations: MCP tool annotations, read-only (see ``FunctionTool``).
        metadata: free-form facts about the tool, read-only (see ``FunctionTool``).
    """

    # ``__dict__``: the function's ``__name__``, ``__doc__``, ... (``functools.update_wrapper``).
    __slots__ = ("__dict__", "__wrapped__", "_spec", "_target", "annotations")

    annotations: Mapping[str, Any]

    def __call__(self, *args: _P.args, **kwargs: _P.kwargs) -> _AC:  # type: ignore[override]  # pyright: ignore[reportIncompatibleMethodOverride]
        """Call the coroutine function itself, exactly as if it were not decorated."""
        result: _AC = _direct_call(self, args, kwargs)
        return result

    if TYPE_CHECKING:
        # Read through the class: a classmethod tool drops ``cls``, the rest stay as they are.
        @overload
        def __get__(
            self: AsyncFunctionTool[Concatenate[type[_S], _P2], _R],
            instance: None,
            owner: type[_S],
            /,
        ) -> AsyncFunctionTool[_P2, _R]: ...
        @overload
        def __get__(self, instance: None, owner: Any = None, /) -> Self: ...
        # Read through an instance: a classmethod tool drops ``cls``, a method ``self``.
        @overload
        def __get__(
            self: AsyncFunctionTool[Concatenate[type[_S], _P2], _R],
            instance: _S,
            owner: Any = None,
            /,
        ) -> AsyncFunctionTool[_P2, _R]: ...
        @overload
        def __get__(
            self: AsyncFunctionTool[Concatenate[_S, _P2], _R, _AC],
            instance: _S,
            owner: Any = None,
            /,
        ) -> AsyncFunctionTool[_P2, _R, _AC]: ...
        @overload
        def __get__(self, instance: object, owner: Any = None, /) -> Self: ...
        def __get__(self, instance: Any, owner: Any = None, /) -> Any: ...


_CLASSES: Any = (FunctionTool, AsyncFunctionTool)


# --------------------------------------------------------------------------------------
# The decorator
# --------------------------------------------------------------------------------------


def _in_class_body(fn: Callable[..., Any]) -> bool:
    """Whether ``fn`` was defined directly in a class body (its qualname says so)."""
    parts = str(getattr(fn, "__qualname__", "")).split(".")
    return len(parts) > 1 and parts[-2] != "<locals>"


def _unwrap(obj: Any, label: str) -> tuple[Callable[..., Any], _Mode]:
    """Return the function and how it binds: not at all, to an instance, to a class."""
    if isinstance(obj, (Tool, AsyncTool)):
        raise ToolDefinitionError(f"tool {label!r}: already a tool; apply @tool once")
    if isinstance(obj, property):
        raise ToolDefinitionError(
            f"tool {label!r}: a property cannot be a tool (it takes no arguments a model "
            "could send); decorate a method instead"
        )
    if isinstance(obj, staticmethod):
        return _callable(cast("Any", obj).__func__), "static"
    if isinstance(obj, classmethod):
        fn = _callable(cast("Any", obj).__func__)
        if not inspect.signature(fn).parameters:
            raise ToolDefinitionError(f"tool {label!r}: a classmethod needs its `cls` parameter")
        return fn, "class"
    if not callable(obj):
        raise ToolDefinitionError(f"tool: expected a function, got {type(obj).__name__}")
    fn = _callable(obj)
    if inspect.isfunction(fn) and _in_class_body(fn):
        first = next(iter(inspect.signature(fn).parameters.values()), None)
        if first is not None and first.name == "self":
            return fn, "method"
        if first is not None and first.name == "cls":
            raise ToolDefinitionError(
                f"tool {label!r}: takes `cls` first but is not a classmethod; write "
                "@tool above @classmethod (the other order cannot bind)"
            )
    return fn, "function"


def _callable(fn: Any) -> Callable[..., Any]:
    out: Callable[..., Any] = fn
    return out


#: The MCP tool annotations (2025-06-18 schema) and the type each must have.
MCP_HINTS = ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint")


def _check_annotations(annotations: object, label: str) -> Mapping[str, Any]:
    if annotations is None:
        return _EMPTY
    if not isinstance(annotations, Mapping):
        raise ToolDefinitionError(
            f"tool {label!r}: annotations must be a mapping, got {type(annotations).__name__}"
        )
    given: dict[Any, Any] = dict(annotations)  # pyright: ignore[reportUnknownArgumentType]
    problems = [
        f"{key!r} must be a bool"
        for key in MCP_HINTS
        if key in given and not isinstance(given[key], bool)
    ]
    unknown = [k for k in given if k not in MCP_HINTS and k != "title"]
    if unknown:
        problems.append(
            f"unknown key(s) {', '.join(map(repr, unknown))[:120]} "
            f"(known: {', '.join(MCP_HINTS)}, title)"
        )
    if "title" in given and not isinstance(given["title"], str):
        problems.append("'title' must be a string")
    if problems:
        raise ToolDefinitionError(f"tool {label!r}: annotations: " + "; ".join(problems))
    return types.MappingProxyType(given)


_EMPTY: Mapping[str, Any] = types.MappingProxyType({})


def _label(obj: Any, name: str | None) -> str:
    if name:
        return name
    inner = getattr(obj, "__func__", obj)
    return str(getattr(inner, "__name__", None) or type(obj).__name__)


def _build(
    obj: Any,
    name: str | None,
    description: str | None,
    title: str | None,
    timeout: float | None = None,
    annotations: Mapping[str, Any] | None = None,
    metadata: Mapping[str, Any] | None = None,
) -> Any:
    label = _label(obj, name)
    fn, mode = _unwrap(obj, label)
    seconds = check_timeout(timeout, label)
    hints = _check_annotations(annotations, label)
    facts = check_metadata(metadata, label)
    method = mode in ("method", "class")
    try:
        compiled = _Compiled(fn, label, method)
    except RecursionError as err:
        raise ToolDefinitionError(
            f"tool {label!r}: an annotation nests too deeply to compile; "
            "name its inner parts (a TypedDict, a dataclass or a type alias)"
        ) from err
    made = _handler(fn, compiled, label, method)
    make: Callable[..., Any] | None = None
    if method:
        execute, make = _unbound_handler(fn, label), made
    else:
        execute = made
    built = build_tool(
        name=label,
        description=compiled.description if description is None else description,
        title=title,
        execute=execute,
        input_schema=compiled.input_schema,
        output_schema=compiled.output_schema,
        classes=_CLASSES,
    )
    _finish(built, _Spec(fn, mode, compiled, make, hints, facts), _UNBOUND, seconds)
    if mode == "function":
        _fuse(built, fn, compiled, made)
    return built


def _unbound_handler(fn: Callable[..., Any], label: str) -> Callable[..., Any]:
    """Return the handler of a method tool read from its class: it says what to do."""
    owner = str(getattr(fn, "__qualname__", "")).rpartition(".")[0] or "its class"
    message = (
        f"tool {label!r} is a method of {owner}; run it from an instance "
        f"(`{owner}(...).{getattr(fn, '__name__', label)}.execute(...)`)"
    )

    if inspect.iscoroutinefunction(fn):

        async def unbound_async(value: Any, meta: Any) -> Any:
            raise TypeError(message)

        return unbound_async

    def unbound(value: Any, meta: Any) -> Any:
        raise TypeError(message)

    return unbound


class _ToolDecorator:
    """What ``tool(name=..., ...)`` returns: apply it to a function."""

    __slots__ = ("_options",)

    def __init__(self, **options: Any) -> None:
        self._options = options

    @overload
    def __call__(  # type: ignore[overload-overlap]  # pyright: ignore[reportOverlappingOverload]
        self, fn: Callable[_P, AsyncIterator[_T]], /
    ) -> AsyncFunctionTool[_P, _T, AsyncIterator[_T]]: ...
    @overload
    def __call__(self, fn: Callable[_P, Iterator[_T]], /) -> FunctionTool[_P, _T, Iterator[_T]]: ...
    @overload
    def __call__(  # type: ignore[overload-overlap]
        self, fn: Callable[_P, Coroutine[Any, Any, _R]], /
    ) -> AsyncFunctionTool[_P, _R]: ...
    @overload
    def __call__(self, fn: Callable[_P, _R], /) -> FunctionTool[_P, _R]: ...
    def __call__(self, fn: Any, /) -> Any:
        return _build(fn, **self._options)


@overload
def tool(  # type: ignore[overload-overlap]  # pyright: ignore[reportOverlappingOverload]
    fn: Callable[_P, AsyncIterator[_T]], /
) -> AsyncFunctionTool[_P, _T, AsyncIterator[_T]]: ...
@overload
def tool(fn: Callable[_P, Iterator[_T]], /) -> FunctionTool[_P, _T, Iterator[_T]]: ...
@overload
def tool(  # type: ignore[overload-overlap]
    fn: Callable[_P, Coroutine[Any, Any, _R]], /
) -> AsyncFunctionTool[_P, _R]: ...
@overload
def tool(fn: Callable[_P, _R], /) -> FunctionTool[_P, _R]: ...
@overload
def tool(
    *,
    name: str | None = None,
    description: str | None = None,
    title: str | None = None,
    timeout: float | None = None,
    annotations: Mapping[str, Any] | None = None,
    metadata: Mapping[str, Any] | None = None,
) -> _ToolDecorator: ...
def tool(
    fn: Any = None,
    /,
    *,
    name: str | None = None,
    description: str | None = None,
    title: str | None = None,
    timeout: float | None = None,
    annotations: Mapping[str, Any] | None = None,
    metadata: Mapping[str, Any] | None = None,
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

    The tool is still the function: ``get_weather("Paris")`` calls it as
    written, and type checkers see its signature. On a method (first parameter
    ``self``) the tool binds like a method: ``Client(key).get_orders`` is a tool
    whose handler receives the instance, and whose schema has no ``self``. Put
    ``@tool`` above ``@classmethod`` or ``@staticmethod``. A parameter annotated
    ``Meta[...]`` receives ``execute``'s ``meta``; one annotated ``ToolContext``
    receives the call's context. Neither appears in the schema.

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
        >>> get_weather("Rome", units="f")
        '20 degrees f in Rome'

    Args:
        fn: the function (when used bare).
        name: the tool name; defaults to the function's ``__name__``.
        description: defaults to the docstring without its Args/Returns/Raises sections.
        title: an optional human-readable title.
        timeout: seconds a call may take when the ``Toolkit`` or a runner runs it
            and the call gives no timeout of its own (``None``: their default).
        annotations: MCP tool annotations: ``readOnlyHint``, ``destructiveHint``,
            ``idempotentHint``, ``openWorldHint`` (bools) and ``title``.
        metadata: free-form facts about the tool, kept on it (never sent to a model).

    Raises:
        ToolDefinitionError: a parameter or the return annotation cannot be
            expressed as JSON Schema (every problem is listed), the function
            takes ``*args`` or positional-only parameters, or it cannot bind
            (``@classmethod`` above ``@tool``, a property).
    """
    options: dict[str, Any] = {
        "name": name,
        "description": description,
        "title": title,
        "timeout": timeout,
        "annotations": annotations,
        "metadata": metadata,
    }
    if fn is None:
        return _ToolDecorator(**options)
    return _build(fn, **options)
