"""msgspec adapter: a ``Struct`` type or any type ``msgspec.convert`` accepts, as a Standard Schema.

Layer: schema adapters (imports the core and ``msgspec``).

Examples:
    >>> import msgspec
    >>> from standard_tool.schemas.msgspec import msgspec_schema
    >>> class Point(msgspec.Struct):
    ...     x: int
    ...     y: int = 0
    >>> schema = msgspec_schema(Point)
    >>> schema.__standard__.validate({"x": 1}).value
    Point(x=1, y=0)
    >>> schema.__standard__.validate({"x": "1"}).issues
    (Issue(message='Expected `int`, got `str`', path=('x',)),)
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable
from typing import Any, Generic, cast

import msgspec
from typing_extensions import TypeVar, overload

from standard_tool._core import FailureResult, Issue, SuccessResult
from standard_tool._fast import FastPath
from standard_tool._shared import ecma_regex, pointer_tokens, safe_repr
from standard_tool.schemas._base import (
    MAX_DEPTH,
    DataclassInstance,
    JSONSchemaEmitter,
    ObjectInput,
    too_deep_issue,
)

__all__ = ["UNKNOWN_KEY", "MsgspecSchema", "MsgspecSchemaProps", "msgspec_schema"]

T = TypeVar("T")
#: What ``validate`` accepts, statically: the type itself, and for a Struct or a
#: dataclass also the JSON object it is validated from.
InT = TypeVar("InT", default=T)
_S = TypeVar("_S", bound=msgspec.Struct)
_D = TypeVar("_D", bound=DataclassInstance)
_T = TypeVar("_T")

#: The path segment for a mapping key msgspec does not name (it reports ``[...]``).
UNKNOWN_KEY = "..."

# msgspec reports where it failed as a suffix of the message:
#   "<message> - at `$.items[0].name`"  or  "<message> - at `key` in `$.tags`".
_AT = re.compile(r"^(?P<message>.*?) - at (?P<key>`key` in )?`\$(?P<path>[^`]*)`$", re.DOTALL)
_SEGMENT = re.compile(r"\.(?P<name>[^.\[]+)|\[(?P<index>\d+)\]|\[(?P<unknown>\.\.\.)\]")
_MISSING = re.compile(r"^Object missing required field `(?P<field>[^`]+)`$")


class MsgspecSchemaProps(Generic[T, InT]):
    """The ``__standard__`` object of a ``MsgspecSchema``.

    Attributes:
        version: always ``1``.
        vendor: ``"msgspec"``.
        json_schema: ``input``/``output`` JSON Schema for a target, from
            ``msgspec.json.schema`` (the same for both sides).
        fast_path: the raising form of ``validate`` (``msgspec.convert`` itself),
            which ``standard_tool.standard_tool`` calls directly.
    """

    __slots__ = ("_convert", "_options", "_type", "fast_path", "json_schema")

    version: int = 1
    vendor: str = "msgspec"

    def __init__(self, type: Any, options: dict[str, Any]) -> None:
        self._type = type
        self._options = options
        # msgspec's own compiled function, called directly: the builder uses the
        # fast path, and ``validate`` is built on the same two pieces. Two failures of
        # msgspec's own name no place in the value: ``RecursionError`` (a value nested
        # past the interpreter's limit, or one that contains itself) and
        # ``UnicodeEncodeError`` (a lone surrogate where a non-``str`` is expected).
        # They are invalid too, and their issue is made from the value where they are
        # read (``_issues``), so a rejected value passes no ``try`` here (one costs a
        # rejection about 6% more instructions).
        self._convert: Callable[[Any], Any]
        if options:
            convert = _keywords(functools.partial(_convert, type=type, **options))
        else:
            convert = _positional(type)
        self._convert = _with_ecma_patterns(convert, type)
        self.fast_path = FastPath(self._convert, _INVALID, _issues)

        def emit(side: str, library_options: Any) -> dict[str, Any]:
            kwargs: dict[str, Any] = library_options or {}
            return _hoist_root_ref(msgspec.json.schema(type, **kwargs))

        self.json_schema = JSONSchemaEmitter(emit)

    def validate(self, value: InT, /) -> SuccessResult[T] | FailureResult:
        """Validate ``value`` with ``msgspec.convert``; on failure, one issue.

        The issue's ``path`` is the location msgspec reports, as a tuple of keys
        (a field missing from an object is included in the path); its ``message``
        is msgspec's, without the location suffix.
        """
        try:
            return SuccessResult(self._convert(value))
        except msgspec.ValidationError as err:
            return FailureResult(_issues(err))
        except _UNWALKABLE as err:
            return FailureResult((_unwalkable(value, err),))


_convert = msgspec.convert


def _positional(type: Any) -> Callable[[Any], Any]:
    # msgspec parses a positional ``type`` much faster than a keyword one.
    def convert(value: Any, /) -> Any:
        return _convert(value, type)

    return convert


def _keywords(given: Callable[[Any], Any]) -> Callable[[Any], Any]:
    def convert(value: Any, /) -> Any:
        return given(value)

    return convert


#: The code of the two converts: an error of msgspec's passes through one of their frames.
_CONVERT_CODES = (_positional(None).__code__, _keywords(repr).__code__)


_SURROGATE = "contains a lone surrogate, which is not valid Unicode text"


def _hoist_root_ref(schema: dict[str, Any]) -> dict[str, Any]:
    """Put a Struct's own schema at the root instead of a bare ``$ref``.

    msgspec emits ``{"$ref": "#/$defs/S", "$defs": {...}}`` for a Struct; a tool's
    input schema must be an object at its root (MCP and the providers refuse a
    bare reference). The definition stays in ``$defs`` only when something else
    (itself, for a recursive Struct) still refers to it.
    """
    ref = schema.get("$ref")
    defs: Any = schema.get("$defs")
    if set(schema) != {"$ref", "$defs"} or not isinstance(ref, str) or not isinstance(defs, dict):
        return schema
    defs = cast("dict[str, Any]", defs)
    tokens = pointer_tokens(ref)
    if len(tokens) != 2 or tokens[0] != "$defs" or tokens[1] not in defs:
        return schema
    name = tokens[1]
    body: dict[str, Any] = dict(defs[name])
    rest = {k: v for k, v in defs.items() if k != name}
    if json.dumps(ref) in json.dumps([body, rest]):
        rest = defs
    return {**body, "$defs": rest} if rest else body


# --------------------------------------------------------------------------------------
# ECMA-262 patterns. msgspec checks ``Meta(pattern=...)`` with Python's ``re.search``,
# which accepts more than the ECMA-262 pattern JSON Schema advertises (``$`` before a
# final newline, non-ASCII digits for ``\d``...). After msgspec accepts a JSON value,
# every string under a ``pattern`` (or a key under ``propertyNames``) of the emitted
# schema is checked again with its ECMA-262 meaning, so what is shown is what holds.
# --------------------------------------------------------------------------------------


def _with_ecma_patterns(convert: Callable[[Any], Any], type: Any) -> Callable[[Any], Any]:
    try:
        schema = msgspec.json.schema(type)
    except Exception:  # a type msgspec cannot describe has no pattern to honour
        return convert
    if '"pattern"' not in json.dumps(schema):
        return convert
    defs = _mapping(schema.get("$defs"))

    def checked(value: Any, /) -> Any:
        result = convert(value)
        problem = _pattern_problem(value, schema, defs, "$", 0)
        if problem is not None:
            raise msgspec.ValidationError(problem)
        return result

    return checked


_JSON_KINDS: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "null": (type(None),),
    "object": (dict,),
    "array": (list, tuple),
}


def _mapping(node: object) -> dict[str, Any]:
    return cast("dict[str, Any]", node) if isinstance(node, dict) else {}


def _resolve(node: object, defs: dict[str, Any]) -> dict[str, Any]:
    out = _mapping(node)
    for _ in range(64):  # a chain of references, never a loop
        ref = out.get("$ref")
        if not isinstance(ref, str) or not ref.startswith("#/$defs/"):
            return out
        out = _mapping(defs.get(ref[len("#/$defs/") :]))
    return out


def _fits(value: object, node: dict[str, Any]) -> bool:
    kind: Any = node.get("type")
    if isinstance(kind, str):
        kind = [kind]
    if not isinstance(kind, list):
        return True
    listed: list[Any] = kind  # pyright: ignore[reportUnknownVariableType]
    kinds = [str(k) for k in listed]
    if isinstance(value, bool):
        return "boolean" in kinds
    return any(isinstance(value, _JSON_KINDS.get(k, ())) for k in kinds)


def _pattern_problem(
    value: object, schema: object, defs: dict[str, Any], at: str, depth: int
) -> str | None:
    """Return the first string (or key) missing its ECMA-262 pattern, in msgspec's words."""
    node = _resolve(schema, defs)
    if not node or depth > 200:
        return None
    branches: Any = node.get("anyOf") or node.get("oneOf")
    if isinstance(branches, list):
        options: list[Any] = branches  # pyright: ignore[reportUnknownVariableType]
        fitting = [b for b in options if _fits(value, _resolve(b, defs))]
        problems = [_pattern_problem(value, b, defs, at, depth + 1) for b in fitting]
        if problems and all(p is not None for p in problems):
            return problems[0]
    pattern = node.get("pattern")
    if isinstance(value, str) and isinstance(pattern, str):
        if ecma_regex(pattern).search(value) is None:
            return f"Expected `str` matching regex {pattern!r} - at `{at}`"
        return None
    if isinstance(value, dict):
        props = _mapping(node.get("properties"))
        extra = node.get("additionalProperties")
        names = node.get("propertyNames")
        for key, item in cast("dict[object, object]", value).items():
            if isinstance(key, str) and names is not None:
                problem = _pattern_problem(key, names, defs, at, depth + 1)
                if problem is not None:
                    message = problem.rsplit(" - at ", 1)[0]
                    return f"{message} - at `key` in `{at}`"
            sub = props.get(key, extra) if isinstance(key, str) else None
            problem = _pattern_problem(item, sub, defs, f"{at}.{key}", depth + 1)
            if problem is not None:
                return problem
    elif isinstance(value, (list, tuple)):
        prefix: Any = node.get("prefixItems")
        fixed: list[Any] = prefix if isinstance(prefix, list) else []  # pyright: ignore[reportUnknownVariableType]
        items = node.get("items")
        for index, item in enumerate(cast("list[object]", value)):
            sub = fixed[index] if index < len(fixed) else items
            problem = _pattern_problem(item, sub, defs, f"{at}[{index}]", depth + 1)
            if problem is not None:
                return problem
    return None


#: The failures of msgspec's own that name no place in the value (see ``__init__``).
_UNWALKABLE = (RecursionError, UnicodeEncodeError)

#: What the adapter's convert raises for an invalid value.
_INVALID = (msgspec.ValidationError, *_UNWALKABLE)

#: How many strings (and keys) the search for a lone surrogate looks at, at most.
_MAX_VISITED = 100_000


def _unwalkable(value: object, err: RecursionError | UnicodeEncodeError) -> Issue:
    if isinstance(err, RecursionError):
        return too_deep_issue(value)
    return Issue(_SURROGATE, _surrogate_path(value, err.object), "invalid")


def _surrogate_path(value: object, culprit: object) -> tuple[str | int, ...] | None:
    """Return where ``culprit`` (the text msgspec could not encode) is in ``value``.

    A walk without recursion that visits each container once and at most
    ``_MAX_VISITED`` nodes, to ``MAX_DEPTH`` levels: the string that is ``culprit``,
    else the first equal to it, else the first with a lone surrogate. ``None`` when
    no place is found (or the place is the value itself).
    """
    first: tuple[str | int, ...] | None = None
    equal: tuple[str | int, ...] | None = None
    seen: set[int] = set()
    stack: list[tuple[object, tuple[str | int, ...]]] = [(value, ())]
    visited = 0
    while stack and visited < _MAX_VISITED:
        node, path = stack.pop()
        visited += 1
        if isinstance(node, str):
            if node is culprit:
                return path or None
            if equal is None and node == culprit:
                equal = path
            elif first is None and _has_surrogate(node):
                first = path
            continue
        if id(node) in seen or len(path) >= MAX_DEPTH:
            continue
        if isinstance(node, dict):
            seen.add(id(cast(object, node)))
            items = list(cast("dict[object, object]", node).items())
            for key, item in reversed(items):
                at = (*path, key if isinstance(key, (str, int)) else safe_repr(key, 40))
                stack.append((item, at))
                if isinstance(key, str):
                    stack.append((key, at))  # a key is named by its own path
        elif isinstance(node, (list, tuple)):
            seen.add(id(cast(object, node)))
            sequence = cast("list[object]", list(cast("Any", node)))
            stack.extend((item, (*path, index)) for index, item in reversed([*enumerate(sequence)]))
    found = first if equal is None else equal
    return found if found else None


def _has_surrogate(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _issues(err: msgspec.ValidationError | RecursionError | UnicodeEncodeError) -> tuple[Issue]:
    if isinstance(err, _UNWALKABLE):
        return (_unwalkable(_converted(err), err),)
    return (_issue(str(err)),)


def _converted(err: BaseException) -> object:
    """Return the value the convert ``err`` passed through was given (its frame's ``value``)."""
    tb = err.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code in _CONVERT_CODES:
            return tb.tb_frame.f_locals["value"]
        tb = tb.tb_next
    return None


def _issue(text: str) -> Issue:
    match = _AT.match(text)
    if match is None:
        message, path = text, []
    else:
        message = match["message"]
        path = [_key(m) for m in _SEGMENT.finditer(match["path"])]
        if match["key"]:
            message = f"invalid key: {message}"
    missing = _MISSING.match(message)
    if missing is not None:
        path.append(missing["field"])
    return Issue(message, tuple(path) or None, _issue_code(message))


def _issue_code(message: str) -> str:
    """Map a msgspec validation message onto an ``Issue.code``."""
    if message.startswith("Object missing required field"):
        return "required"
    if message.startswith("Object contains unknown field"):
        return "additional_property"
    if message.startswith("Invalid enum value"):
        return "enum"
    if message.startswith("Expected `") and "`, got `" in message:
        return "type"
    if message.startswith("Expected `"):
        return "constraint"  # "Expected `int` >= 1", "Expected `str` matching regex ..."
    if message.startswith("Invalid"):
        return "format"  # "Invalid RFC3339 encoded datetime", "Invalid UUID", ...
    return "invalid"


def _key(segment: re.Match[str]) -> str | int:
    if segment["index"] is not None:
        return int(segment["index"])
    if segment["unknown"] is not None:
        return UNKNOWN_KEY
    return segment["name"]


class MsgspecSchema(Generic[T, InT]):
    """A msgspec ``Struct`` type or any type ``msgspec.convert`` accepts, as a Standard Schema.

    ``validate`` returns ``msgspec.convert(value, type=type, ...)`` (a Struct
    instance for a Struct) or one issue with a structured ``path``. JSON Schema comes
    from ``msgspec.json.schema`` and is converted to every target of
    ``standard_tool.dialects``.

    Args:
        type: a ``Struct`` type, a dataclass, a ``TypedDict``, ``list[int]``,
            ``Annotated[...]``: anything ``msgspec.convert`` accepts.
        strict: passed to ``msgspec.convert``. The default ``True`` accepts only
            values of the right JSON kind (no ``"1"`` for an ``int``).
        from_attributes: passed to ``msgspec.convert``.
        dec_hook: passed to ``msgspec.convert``, for custom types.

    Attributes:
        type: the wrapped type.
    """

    __slots__ = ("__standard__", "type")

    __standard__: MsgspecSchemaProps[T, InT]

    @overload
    def __init__(
        self: MsgspecSchema[_S, _S | ObjectInput],
        type: type[_S],
        *,
        strict: bool = True,
        from_attributes: bool = False,
        dec_hook: Callable[[type, Any], Any] | None = None,
    ) -> None: ...
    @overload
    def __init__(
        self: MsgspecSchema[_D, _D | ObjectInput],
        type: type[_D],
        *,
        strict: bool = True,
        from_attributes: bool = False,
        dec_hook: Callable[[type, Any], Any] | None = None,
    ) -> None: ...
    @overload
    def __init__(
        self: MsgspecSchema[_T, _T],
        type: type[_T],
        *,
        strict: bool = True,
        from_attributes: bool = False,
        dec_hook: Callable[[type, Any], Any] | None = None,
    ) -> None: ...
    @overload
    def __init__(
        self: MsgspecSchema[Any, Any],
        type: Any,
        *,
        strict: bool = True,
        from_attributes: bool = False,
        dec_hook: Callable[[type, Any], Any] | None = None,
    ) -> None: ...
    def __init__(
        self,
        type: Any,
        *,
        strict: bool = True,
        from_attributes: bool = False,
        dec_hook: Callable[[type, Any], Any] | None = None,
    ) -> None:
        self.type = type
        # Fails now, not at the first call, for a type msgspec cannot handle.
        msgspec.inspect.type_info(type)
        options: dict[str, Any] = {}
        if not strict:
            options["strict"] = False
        if from_attributes:
            options["from_attributes"] = True
        if dec_hook is not None:
            options["dec_hook"] = dec_hook
        self.__standard__ = MsgspecSchemaProps(type, options)

    def __repr__(self) -> str:
        name = getattr(self.type, "__qualname__", None) or safe_repr(self.type)
        return f"MsgspecSchema({name})"


@overload
def msgspec_schema(
    type: type[_S],
    *,
    strict: bool = True,
    from_attributes: bool = False,
    dec_hook: Callable[[type, Any], Any] | None = None,
) -> MsgspecSchema[_S, _S | ObjectInput]: ...
@overload
def msgspec_schema(
    type: type[_D],
    *,
    strict: bool = True,
    from_attributes: bool = False,
    dec_hook: Callable[[type, Any], Any] | None = None,
) -> MsgspecSchema[_D, _D | ObjectInput]: ...
@overload
def msgspec_schema(
    type: type[_T],
    *,
    strict: bool = True,
    from_attributes: bool = False,
    dec_hook: Callable[[type, Any], Any] | None = None,
) -> MsgspecSchema[_T, _T]: ...
@overload
def msgspec_schema(
    type: Any,
    *,
    strict: bool = True,
    from_attributes: bool = False,
    dec_hook: Callable[[type, Any], Any] | None = None,
) -> MsgspecSchema[Any, Any]: ...
def msgspec_schema(
    type: Any,
    *,
    strict: bool = True,
    from_attributes: bool = False,
    dec_hook: Callable[[type, Any], Any] | None = None,
) -> MsgspecSchema[Any, Any]:
    """Wrap a msgspec ``Struct`` type or any type ``msgspec.convert`` accepts.

    Same as ``MsgspecSchema``; the function reads better at call sites.
    """
    return MsgspecSchema(type, strict=strict, from_attributes=from_attributes, dec_hook=dec_hook)
