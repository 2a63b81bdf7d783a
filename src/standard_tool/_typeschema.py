"""Compile Python type annotations into a JSON Schema and a matching validator.

One pass over an annotation yields two things that agree by construction: the
draft 2020-12 JSON Schema a model sees, and a plain-Python closure that accepts
exactly the JSON values that schema accepts, converting them to the annotated
Python type (``Enum`` members, dataclass instances, ``datetime`` objects, tuples
and sets). The only conversions are those JSON needs, and each is advertised in
the schema (``enum``, ``format``, ``uniqueItems``).

A second, "python" mode checks a Python value against the annotation without
converting it; function tools use it for return values.

Imports only the standard library and ``typing_extensions``; pydantic and msgspec
are imported only when an annotation names one of their types.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import decimal
import enum
import json
import re
import sys
import threading
import types
import uuid
from collections.abc import Callable, Mapping
from typing import Any, Union, cast

import typing_extensions
from typing_extensions import (
    Annotated,
    Literal,
    NotRequired,
    ReadOnly,
    Required,
    TypeAlias,
    TypeAliasType,
    get_args,
    get_origin,
    get_type_hints,
    is_typeddict,
)

from standard_tool._core import ToolDefinitionError

__all__ = [
    "BAD",
    "MAX_DEPTH",
    "MAX_ISSUES",
    "META_MARKER",
    "Check",
    "Compiler",
    "Err",
    "Param",
    "TypeSchemaError",
    "excerpt",
]

#: How deep a recursive type may nest in one value before validation stops.
MAX_DEPTH = 64
#: How many problems one validation collects before it stops looking.
MAX_ISSUES = 50

_EXCERPT = 40


class _Bad:
    __slots__ = ()

    def __repr__(self) -> str:
        return "<invalid>"


#: What a check returns for an invalid value (its problems are appended to ``errs``).
BAD: Any = _Bad()


class Err:
    """One problem found by a check; ``rpath`` is the path, innermost key first."""

    __slots__ = ("expected", "message", "rpath")

    def __init__(self, message: str, expected: str | None = None) -> None:
        self.message = message
        self.expected = expected
        self.rpath: list[Any] = []


#: A compiled check: returns the (converted) value, or ``BAD`` after appending errors.
Check: TypeAlias = Callable[[Any, "list[Err]"], Any]


class TypeSchemaError(ToolDefinitionError):
    """An annotation cannot be expressed as JSON Schema (raised at decoration time)."""


class _MetaMarker:
    __slots__ = ()

    def __repr__(self) -> str:
        return "standard_tool.Meta"


#: The ``Annotated`` marker of the parameter that receives ``execute``'s ``meta``.
META_MARKER = _MetaMarker()


@dataclasses.dataclass(frozen=True, slots=True)
class Param:
    """Describe and constrain a tool parameter inside ``Annotated``.

    Every field is optional. ``min_length``/``max_length`` apply to strings
    (characters), arrays (items) and objects (properties).

    Examples:
        >>> from typing_extensions import Annotated
        >>> def search(query: Annotated[str, Param("What to look for", min_length=1)]) -> None:
        ...     ...

    Attributes:
        description: shown to the model.
        title: a short label.
        examples: example values, shown to the model.
        gt: the value must be greater than this.
        ge: the value must be greater than or equal to this.
        lt: the value must be less than this.
        le: the value must be less than or equal to this.
        multiple_of: the value must be a multiple of this.
        min_length: minimum length of a string, array or object.
        max_length: maximum length of a string, array or object.
        pattern: a regular expression a string must contain a match for.
    """

    description: str | None = None
    title: str | None = None
    examples: tuple[Any, ...] | None = None
    gt: float | None = None
    ge: float | None = None
    lt: float | None = None
    le: float | None = None
    multiple_of: float | None = None
    min_length: int | None = None
    max_length: int | None = None
    pattern: str | None = None


# --------------------------------------------------------------------------------------
# Messages
# --------------------------------------------------------------------------------------


def excerpt(value: object) -> str:
    """Describe a value in a few words, never printing more than a short excerpt."""
    if value is None:
        return "null"
    if value is True or value is False:
        return "true" if value else "false"
    if isinstance(value, int):
        if value.bit_length() > 64:
            return f"integer ({value.bit_length()} bits)"
        return f"integer {value}"
    if isinstance(value, float):
        return f"number {value!r}"
    if isinstance(value, str):
        if len(value) <= _EXCERPT:
            return f"string {value!r}"
        return f"string {value[:_EXCERPT]!r}... ({len(value)} characters)"
    if isinstance(value, list):
        n = _size(value)
        return f"array ({n} item{'' if n == 1 else 's'})"
    if isinstance(value, dict):
        n = _size(value)
        return f"object ({n} propert{'y' if n == 1 else 'ies'})"
    return f"Python {type(value).__qualname__[:_EXCERPT]}"


def _size(value: Any) -> int:
    return len(value)


def _entries(value: Any) -> Any:
    """``value.items()`` of a dict known only as ``Any`` (keeps both type checkers quiet)."""
    return value.items()


def _items(value: Any) -> Any:
    return value


def _type_err(expected: str, value: object) -> Err:
    return Err(f"expected {expected}, got {excerpt(value)}", expected)


def _prefix(errs: list[Err], start: int, key: Any) -> None:
    for i in range(start, len(errs)):
        errs[i].rpath.append(key)


def _short(obj: object) -> str:
    text = getattr(obj, "__qualname__", None) or repr(obj)
    text = str(text)
    return text if len(text) <= 80 else text[:77] + "..."


def _type_name(tp: object) -> str:
    if isinstance(tp, type):
        return tp.__qualname__
    return repr(tp).replace("typing_extensions.", "").replace("typing.", "")


# --------------------------------------------------------------------------------------
# Leaf checks
# --------------------------------------------------------------------------------------


def _check_str(v: Any, errs: list[Err]) -> Any:
    if type(v) is str or isinstance(v, str):
        return v
    errs.append(_type_err("string", v))
    return BAD


def _check_int(v: Any, errs: list[Err]) -> Any:
    t = v.__class__
    if t is int:
        return v
    if t is float and v.is_integer():
        return int(v)
    if isinstance(v, int) and t is not bool:
        return int(v)
    errs.append(_type_err("integer", v))
    return BAD


def _check_number(v: Any, errs: list[Err]) -> Any:
    t = v.__class__
    if t is float or t is int or (isinstance(v, (int, float)) and t is not bool):
        return v
    errs.append(_type_err("number", v))
    return BAD


def _check_bool(v: Any, errs: list[Err]) -> Any:
    if v is True or v is False:
        return v
    errs.append(_type_err("boolean", v))
    return BAD


def _check_null(v: Any, errs: list[Err]) -> Any:
    if v is None:
        return v
    errs.append(_type_err("null", v))
    return BAD


def _check_any(v: Any, errs: list[Err]) -> Any:
    return v


def mark(check: Check, *desc: Any) -> Check:
    """Describe a check for the code generator (see ``generate``).

    A ``"leaf"`` check appends exactly one ``Err``, with an empty path, when it
    fails: the generated code gives that one error its path in place.
    """
    check.__dict__["_fast"] = desc
    return check


mark(_check_str, "leaf", "type({x}) is str")
mark(_check_int, "leaf", "type({x}) is int")
mark(_check_number, "leaf", "(type({x}) is float or type({x}) is int)")
mark(_check_bool, "leaf", "type({x}) is bool")
mark(_check_null, "leaf", "{x} is None")
mark(_check_any, "leaf", "True")


_RFC3339_DATE = r"(\d{4})-(\d{2})-(\d{2})"
_RFC3339_TIME = r"(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?([Zz]|[+-]\d{2}:\d{2})"
_DATETIME_RE = re.compile(_RFC3339_DATE + "[Tt]" + _RFC3339_TIME, re.ASCII)
_TIME_RE = re.compile(_RFC3339_TIME, re.ASCII)
_DATE_RE = re.compile(r"\d{4}-\d{2}-\d{2}", re.ASCII)
#: The strings a ``Decimal`` parameter accepts (also emitted as the schema's ``pattern``).
DECIMAL_PATTERN = r"^-?(0|[1-9][0-9]*)(\.[0-9]+)?$"
_DECIMAL_RE = re.compile(DECIMAL_PATTERN, re.ASCII)


def _offset(text: str) -> dt.tzinfo:
    if text in ("Z", "z"):
        return dt.timezone.utc
    hours, minutes = int(text[1:3]), int(text[4:6])
    if hours > 23 or minutes > 59:
        raise ValueError(text)
    delta = dt.timedelta(hours=hours, minutes=minutes)
    return dt.timezone(-delta if text[0] == "-" else delta)


def _micro(frac: str | None) -> int:
    return int((frac or "0")[:6].ljust(6, "0"))


def parse_datetime(text: str) -> dt.datetime | None:
    """Parse an RFC 3339 date-time (offset required); ``None`` when it is not one."""
    m = _DATETIME_RE.fullmatch(text)
    if m is None:
        return None
    y, mo, d, h, mi, s, frac, off = m.groups()
    try:
        return dt.datetime(
            int(y), int(mo), int(d), int(h), int(mi), int(s), _micro(frac), _offset(off)
        )
    except ValueError:
        return None


def parse_time(text: str) -> dt.time | None:
    """Parse an RFC 3339 full-time (offset required); ``None`` when it is not one."""
    m = _TIME_RE.fullmatch(text)
    if m is None:
        return None
    h, mi, s, frac, off = m.groups()
    try:
        return dt.time(int(h), int(mi), int(s), _micro(frac), _offset(off))
    except ValueError:
        return None


def parse_date(text: str) -> dt.date | None:
    """Parse a ``YYYY-MM-DD`` date; ``None`` when it is not one."""
    if _DATE_RE.fullmatch(text) is None:
        return None
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        return None


#: The strings a ``UUID`` parameter accepts (also emitted as the schema's ``pattern``).
UUID_PATTERN = "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"
_UUID_RE = re.compile(UUID_PATTERN)


def parse_uuid(text: str) -> uuid.UUID | None:
    """Parse a hyphenated UUID; ``None`` when it is not one."""
    if _UUID_RE.search(text) is None:
        return None
    try:
        value = uuid.UUID(text)
    except ValueError:
        return None
    if len(text) < 24 or any(text[i] != "-" for i in (8, 13, 18, 23)):
        return None
    return value


def _parse_decimal(text: str) -> decimal.Decimal | None:
    # ``search``, as JSON Schema's ``pattern`` does (``$`` also matches before a final newline).
    if _DECIMAL_RE.search(text) is None:
        return None
    return decimal.Decimal(text)


_FORMATS: dict[type, tuple[str, str, Callable[[str], Any]]] = {
    dt.datetime: ("date-time", "an RFC 3339 date-time with offset", parse_datetime),
    dt.date: ("date", "a YYYY-MM-DD date", parse_date),
    dt.time: ("time", "an RFC 3339 time with offset", parse_time),
    uuid.UUID: ("uuid", "a UUID", parse_uuid),
    decimal.Decimal: ("decimal", "a decimal number string", _parse_decimal),
}


def _format_check(expected: str, parse: Callable[[str], Any]) -> Check:
    def check(v: Any, errs: list[Err]) -> Any:
        if isinstance(v, str):
            out = parse(v)
            if out is not None:
                return out
            errs.append(Err(f"expected {expected}, got {excerpt(v)}"))
            return BAD
        errs.append(_type_err("string", v))
        return BAD

    return check


def _instance_check(
    cls: type | tuple[type, ...], expected: str, exclude: type | None = None
) -> Check:
    def check(v: Any, errs: list[Err]) -> Any:
        if isinstance(v, cls) and (exclude is None or not isinstance(v, exclude)):
            return v
        errs.append(_type_err(expected, v))
        return BAD

    return check


_check_py_int = mark(_instance_check(int, "integer", bool), "leaf", "type({x}) is int")


class _NoClass:
    """The class of no value (never instantiated)."""


#: Checks that return a value of either exact class unchanged (and append nothing).
_EXACT: dict[Check, tuple[type, type]] = {
    _check_int: (int, int),
    _check_py_int: (int, int),
    _check_number: (int, float),
}


# --------------------------------------------------------------------------------------
# JSON equality (as JSON Schema's ``enum``/``const`` define it)
# --------------------------------------------------------------------------------------


def _json_match(value: Any, literal: Any) -> bool:
    if literal is None or isinstance(literal, bool):
        return value is literal
    if isinstance(literal, (int, float)):
        return isinstance(value, (int, float)) and not isinstance(value, bool) and value == literal
    return isinstance(value, str) and value == literal


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    return "string"


def to_json(value: Any) -> Any:
    """Return the JSON form of a default value, or ``BAD`` when it has none."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, enum.Enum):
        return to_json(value.value)
    if isinstance(value, (int, float)):
        return value
    if isinstance(value, (list, tuple, set, frozenset)):
        items = [to_json(v) for v in cast("list[Any]", value)]
        return BAD if any(i is BAD for i in items) else items
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for k, v in _entries(value):
            item = to_json(v)
            if not isinstance(k, str) or item is BAD:
                return BAD
            out[k] = item
        return out
    if isinstance(value, dt.datetime) and value.tzinfo is not None:
        return value.isoformat()
    if isinstance(value, dt.date) and not isinstance(value, dt.datetime):
        return value.isoformat()
    if isinstance(value, (uuid.UUID, decimal.Decimal)):
        return str(value)
    return BAD


# --------------------------------------------------------------------------------------
# Annotated metadata
# --------------------------------------------------------------------------------------

_NUMERIC = ("gt", "ge", "lt", "le", "multiple_of")
_LENGTH = ("min_length", "max_length")
MISSING: Any = object()


class _Info:
    """What ``Annotated`` metadata says about a value."""

    __slots__ = ("constraints", "default", "description", "examples", "meta", "title")

    def __init__(self) -> None:
        self.description: str | None = None
        self.title: str | None = None
        self.examples: list[Any] | None = None
        self.constraints: dict[str, Any] = {}
        self.default: Any = MISSING
        self.meta = False


def _read_metadata(items: tuple[Any, ...], info: _Info, where: str) -> None:
    for item in items:
        if item is META_MARKER:
            info.meta = True
        elif isinstance(item, str):
            info.description = item
        elif isinstance(item, Param):
            _read_param(item, info)
        else:
            module = type(item).__module__
            if module.startswith("annotated_types"):
                _read_annotated_types(item, info, where)
            elif module.startswith("pydantic"):
                _read_pydantic(item, info, where)


def _read_param(item: Param, info: _Info) -> None:
    if item.description is not None:
        info.description = item.description
    if item.title is not None:
        info.title = item.title
    if item.examples is not None:
        info.examples = list(item.examples)
    for key in (*_NUMERIC, *_LENGTH, "pattern"):
        value = getattr(item, key)
        if value is not None:
            info.constraints[key] = value


def _read_annotated_types(item: Any, info: _Info, where: str) -> None:
    name = type(item).__name__
    if name in ("Gt", "Ge", "Lt", "Le", "Interval", "MultipleOf", "MinLen", "MaxLen", "Len"):
        for key in (*_NUMERIC, *_LENGTH):
            value = getattr(item, key, None)
            if value is not None:
                info.constraints[key] = value
        return
    raise TypeSchemaError(
        f"{where}: the constraint {_short(item)} cannot be expressed in JSON Schema; "
        "use bounds, lengths, a pattern or multiple_of"
    )


def _read_pydantic(item: Any, info: _Info, where: str) -> None:
    if type(item).__name__ == "FieldInfo":
        if item.description is not None:
            info.description = item.description
        if item.title is not None:
            info.title = item.title
        if item.examples is not None:
            info.examples = list(item.examples)
        if type(item.default).__name__ != "PydanticUndefinedType" and not item.default_factory:
            info.default = item.default
        _read_metadata(tuple(item.metadata), info, where)
        return
    pattern = getattr(item, "pattern", None)
    if pattern is not None:
        info.constraints["pattern"] = pattern if isinstance(pattern, str) else pattern.pattern


# --------------------------------------------------------------------------------------
# The compiler
# --------------------------------------------------------------------------------------

_local = threading.local()
_UNION_TYPES: tuple[Any, ...] = (Union, types.UnionType)
_SEQUENCES = {list, "Sequence", "MutableSequence", "Iterable", "Collection"}
_SETS = {set, frozenset, "Set", "AbstractSet", "MutableSet"}
_MAPPINGS = {dict, "Mapping", "MutableMapping"}


def _origin_key(origin: Any) -> Any:
    if origin in (list, tuple, set, frozenset, dict):
        return origin
    if getattr(origin, "__module__", None) in ("collections.abc", "typing"):
        return getattr(origin, "__name__", origin)
    return origin


def _own_doc(cls: type) -> str | None:
    doc = cls.__dict__.get("__doc__")
    if not isinstance(doc, str) or not doc.strip():
        return None
    if doc.startswith(f"{cls.__name__}(") or doc == "An enumeration.":
        return None  # generated by dataclass / namedtuple / Enum
    from standard_tool._fn_docstring import parse_docstring

    return parse_docstring(doc).description or None


def _field_docs(cls: type) -> dict[str, str]:
    doc = cls.__dict__.get("__doc__")
    if not isinstance(doc, str):
        return {}
    from standard_tool._fn_docstring import parse_docstring

    return parse_docstring(doc).params


class Compiler:
    """Compile annotations in one namespace into schemas and checks.

    One compiler builds one root schema: named types (TypedDict, dataclass,
    NamedTuple, recursive aliases, library models) land in its ``defs`` and are
    referenced with ``$ref``. ``python=True`` builds checks of Python values
    (for return values) instead of JSON values.
    """

    def __init__(
        self,
        globalns: dict[str, Any] | None = None,
        localns: Mapping[str, Any] | None = None,
        *,
        python: bool = False,
    ) -> None:
        self.globalns = globalns or {}
        self.localns = dict(localns or {})
        self.python = python
        self.defs: dict[str, dict[str, Any]] = {}
        self._names: dict[Any, str] = {}
        self._checks: dict[Any, Check] = {}
        self._building: dict[Any, bool] = {}

    # -- entry -------------------------------------------------------------------------

    def compile(self, tp: Any, where: str) -> tuple[dict[str, Any], Check, _Info]:
        """Return ``(schema, check, info)`` for an annotation; ``where`` names it in errors."""
        info = _Info()
        base = tp
        while get_origin(base) is Annotated:
            args = get_args(base)
            _read_metadata(tuple(args[1:]), info, where)
            base = args[0]
        schema, check = self._node(base, where)
        if info.constraints:
            schema, check = self._constrain(schema, check, info.constraints, where)
        if info.description is not None or info.title is not None or info.examples:
            schema = dict(schema)
            if info.title is not None:
                schema["title"] = info.title
            if info.description is not None:
                schema["description"] = info.description
            if info.examples:
                schema["examples"] = info.examples
        return schema, check, info

    def root(self, schema: dict[str, Any]) -> dict[str, Any]:
        """Attach the collected ``$defs`` to a root schema."""
        if not self.defs:
            return schema
        return {**schema, "$defs": dict(self.defs)}

    # -- dispatch ----------------------------------------------------------------------

    def _node(self, tp: Any, where: str) -> tuple[dict[str, Any], Check]:
        if isinstance(tp, str):
            tp = self._eval(tp, where)
        elif isinstance(tp, typing_extensions.ForwardRef):
            tp = self._eval(tp.__forward_arg__, where)
        if get_origin(tp) is Annotated:
            schema, check, info = self.compile(tp, where)
            if info.meta:
                raise TypeSchemaError(f"{where}: Meta marks a whole parameter, not a nested type")
            return schema, check
        if isinstance(tp, TypeAliasType) or type(tp).__name__ == "TypeAliasType":
            return self._named(tp, tp.__name__, where, lambda: self._node(tp.__value__, where))
        supertype = getattr(tp, "__supertype__", None)
        if supertype is not None:  # NewType
            return self._node(supertype, where)
        if tp is Any or tp is object:
            return {}, _check_any
        if tp is None or tp is type(None):
            return {"type": "null"}, _check_null
        if tp is bool:
            return {"type": "boolean"}, _check_bool
        if tp is int:
            return {"type": "integer"}, (_check_py_int if self.python else _check_int)
        if tp is float:
            return {"type": "number"}, _check_number
        if tp is str:
            return {"type": "string"}, _check_str
        origin = get_origin(tp)
        if origin is Literal:
            return self._literal(get_args(tp), where)
        if origin in _UNION_TYPES:
            return self._union(get_args(tp), where)
        if origin in (Required, NotRequired, ReadOnly):
            raise TypeSchemaError(f"{where}: {_type_name(tp)} is only valid in a TypedDict")
        if origin is not None:  # before the class test: list[int] is a type on 3.10
            return self._generic(tp, _origin_key(origin), get_args(tp), where)
        if isinstance(tp, type):
            return self._class(tp, where)
        if isinstance(tp, typing_extensions.TypeVar):
            raise TypeSchemaError(f"{where}: unbound type variable {tp!r} is not supported")
        raise TypeSchemaError(f"{where}: unsupported annotation {_type_name(tp)}")

    def _eval(self, text: str, where: str) -> Any:
        try:
            return eval(text, self.globalns, self.localns)
        except Exception as err:
            raise TypeSchemaError(
                f"{where}: cannot resolve the annotation {text!r}: {err}"
            ) from err

    def _class(self, tp: Any, where: str) -> tuple[dict[str, Any], Check]:
        if tp in _FORMATS:
            fmt, expected, parse = _FORMATS[tp]
            schema: dict[str, Any] = {"type": "string", "format": fmt}
            if tp is decimal.Decimal:
                schema["pattern"] = DECIMAL_PATTERN
            elif tp is uuid.UUID:
                # draft-07 has no "uuid" format; the pattern enforces it in every dialect.
                schema["pattern"] = UUID_PATTERN
            if self.python:
                exclude = dt.datetime if tp is dt.date else None
                return schema, _instance_check(tp, tp.__name__, exclude)
            return schema, _format_check(expected, parse)
        if _is_enum(tp):
            return self._enum(tp, where)
        if tp in (list, tuple, set, frozenset, dict):
            return self._generic(tp, tp, (), where)
        if is_typeddict(tp):
            return self._named(tp, tp.__name__, where, lambda: self._typeddict(tp, where))
        if _is_record(tp):
            return self._named(tp, tp.__name__, where, lambda: self._record(tp, where))
        for base in tp.__mro__:
            module = base.__module__
            if base.__name__ == "BaseModel" and module.startswith("pydantic"):
                return self._pydantic(tp, where)
            if base.__name__ == "Struct" and module.startswith("msgspec"):
                return self._msgspec(tp, where)
        raise TypeSchemaError(f"{where}: unsupported type {_type_name(tp)}")

    # -- named types and recursion ---------------------------------------------------------

    def _def_name(self, key: Any, name: str) -> str:
        if key in self._names:
            return self._names[key]
        taken = set(self._names.values())
        candidate, n = name, 2
        while candidate in taken:
            candidate, n = f"{name}{n}", n + 1
        self._names[key] = candidate
        return candidate

    def _named(
        self,
        key: Any,
        name: str,
        where: str,
        build: Callable[[], tuple[dict[str, Any], Check]],
    ) -> tuple[dict[str, Any], Check]:
        ref = {"$ref": f"#/$defs/{self._def_name(key, name)}"}
        known = self._checks.get(key)
        if known is not None:
            if key in self._building:
                self._building[key] = True
            return dict(ref), known
        cell: list[Check] = []

        def guarded(v: Any, errs: list[Err]) -> Any:
            depth = getattr(_local, "depth", 0)
            if depth >= MAX_DEPTH:
                errs.append(Err(f"nesting deeper than {MAX_DEPTH} levels"))
                return BAD
            _local.depth = depth + 1
            try:
                return cell[0](v, errs)
            finally:
                _local.depth = depth

        self._checks[key] = guarded
        self._building[key] = False
        try:
            schema, check = build()
        finally:
            recursive = self._building.pop(key)
        cell.append(check)
        self.defs[self._names[key]] = schema
        # Only a type that refers to itself pays for the depth guard.
        self._checks[key] = guarded if recursive else check
        return dict(ref), self._checks[key]

    # -- scalars with choices ----------------------------------------------------------

    def _literal(self, values: tuple[Any, ...], where: str) -> tuple[dict[str, Any], Check]:
        flat: list[Any] = []
        for value in values:
            if get_origin(value) is Literal:
                flat.extend(get_args(value))
            elif value is None or isinstance(value, (enum.Enum, str, int, bool)):
                flat.append(value)
            else:
                raise TypeSchemaError(f"{where}: Literal value {value!r:.60} is not JSON")
        json_values = [v.value if isinstance(v, enum.Enum) else v for v in flat]
        for v in json_values:
            if not (v is None or isinstance(v, (str, int, bool))):
                raise TypeSchemaError(f"{where}: Literal value {v!r:.60} is not JSON")
        schema = _enum_schema(json_values)
        pairs = list(zip(json_values, flat, strict=True))
        strings = {j: p for j, p in pairs if isinstance(j, str)}
        others = [(j, p) for j, p in pairs if not isinstance(j, str)]
        expected = "one of " + ", ".join(json.dumps(j) for j in json_values)
        python = self.python

        def check(v: Any, errs: list[Err]) -> Any:
            if isinstance(v, str):
                hit = strings.get(v, MISSING)
                if hit is not MISSING:
                    return v if python else hit
            else:
                for j, p in others:
                    if _json_match(v, j):
                        return v if python else p
            errs.append(_type_err(expected, v))
            return BAD

        if not others and all(type(p) is str for p in flat):
            mark(check, "leaf", "type({x}) is str and {x} in {c}", frozenset(strings))
        return schema, check

    def _enum(self, tp: type[enum.Enum], where: str) -> tuple[dict[str, Any], Check]:
        members = list(tp)
        values = [m.value for m in members]
        for v in values:
            if isinstance(v, bool) or not isinstance(v, (str, int)):
                raise TypeSchemaError(
                    f"{where}: Enum {tp.__qualname__} has a value {v!r:.60}; "
                    "only str and int values are supported"
                )
        schema = _enum_schema(values)
        doc = _own_doc(tp)
        if doc:
            schema["description"] = doc
        if self.python:
            return schema, _instance_check(tp, tp.__qualname__)
        by_str = {m.value: m for m in members if isinstance(m.value, str)}
        by_int: dict[float, enum.Enum] = {m.value: m for m in members if isinstance(m.value, int)}
        expected = "one of " + ", ".join(json.dumps(v) for v in values)

        def check(v: Any, errs: list[Err]) -> Any:
            if isinstance(v, str):
                hit = by_str.get(v)
            elif isinstance(v, (int, float)) and not isinstance(v, bool):
                hit = by_int.get(v)
            else:
                hit = None
            if hit is None:
                errs.append(_type_err(expected, v))
                return BAD
            return hit

        return schema, check

    def _union(self, args: tuple[Any, ...], where: str) -> tuple[dict[str, Any], Check]:
        branches = [self._node(a, where) for a in args]
        schemas = [s for s, _ in branches]
        checks = [c for _, c in branches]
        non_null = [
            c
            for a, (_, c) in zip(args, branches, strict=True)
            if a is not type(None) and a is not None
        ]
        if len(non_null) == 1 and len(checks) == 2:
            inner = non_null[0]
            null_first = args[0] is type(None) or args[0] is None

            def optional(v: Any, errs: list[Err]) -> Any:
                if v is None:
                    return None
                start = len(errs)
                out = inner(v, errs)
                if out is BAD and len(errs) == start + 1 and errs[start].expected:
                    old = errs[start].expected
                    pair = f"null or {old}" if null_first else f"{old} or null"
                    errs[start] = _type_err(pair, v)
                return out

            return {"anyOf": schemas}, mark(optional, "optional", inner)

        def check(v: Any, errs: list[Err]) -> Any:
            expected: list[str] = []
            for branch in checks:
                sub: list[Err] = []
                out = branch(v, sub)
                if out is not BAD:
                    return out
                if len(sub) == 1 and sub[0].expected and not sub[0].rpath:
                    expected.append(sub[0].expected)
                elif not expected or len(expected) < len(checks):
                    errs.extend(sub)
                    return BAD
            errs.append(_type_err(" or ".join(expected), v))
            return BAD

        return {"anyOf": schemas}, check

    # -- containers ----------------------------------------------------------------------

    def _generic(
        self, tp: Any, key: Any, args: tuple[Any, ...], where: str
    ) -> tuple[dict[str, Any], Check]:
        if key in _SEQUENCES:
            item = args[0] if args else Any
            schema, check = self._node(item, where)
            kind: Any = list if key is list else "sequence"
            accel: list[Callable[[Any], Any]] = []
            array = self._array(check, kind, accel)
            if not self.python:
                mark(array, "list", check, accel)
            return {"type": "array", "items": schema}, array
        if key in _SETS:
            item = args[0] if args else Any
            schema, check = self._node(item, where)
            array = self._array(check, frozenset if key is frozenset else set)
            return {"type": "array", "items": schema, "uniqueItems": True}, array
        if key is tuple:
            if not args:
                args = (Any, ...)
            if len(args) == 2 and args[1] is Ellipsis:
                schema, check = self._node(args[0], where)
                return {"type": "array", "items": schema}, self._array(check, tuple)
            if args == ((),):
                args = ()
            parts = [self._node(a, where) for a in args]
            return _tuple_schema([s for s, _ in parts]), self._fixed([c for _, c in parts])
        if key in _MAPPINGS:
            k, v = args if args else (str, Any)
            if k is not str:
                raise TypeSchemaError(f"{where}: object keys must be str, got {_type_name(k)}")
            schema, check = self._node(v, where)
            return {"type": "object", "additionalProperties": schema}, self._mapping(check)
        raise TypeSchemaError(f"{where}: unsupported annotation {_type_name(tp)}")

    def _array(
        self, item: Check, kind: Any, accel: list[Callable[[Any], Any]] | None = None
    ) -> Check:
        """``accel`` may receive a generated fast check of one item (tried first)."""
        python = self.python
        if python:
            accepted: Any = {
                list: list,
                "sequence": (list, tuple),
                tuple: tuple,
                set: (set, frozenset),
                frozenset: frozenset,
            }[kind]
        else:
            accepted = list
        unique = kind in (set, frozenset)
        expected = "array"

        def check(v: Any, errs: list[Err]) -> Any:
            if not isinstance(v, accepted):
                errs.append(_type_err(expected, v))
                return BAD
            out: list[Any] = []
            bad = False
            fast = accel[0] if accel else None
            for i, x in enumerate(v):
                if fast is not None:
                    r = fast(x)
                    if r is not BAD:
                        out.append(r)
                        continue
                start = len(errs)
                r = item(x, errs)
                if r is BAD:
                    bad = True
                    _prefix(errs, start, i)
                    if len(errs) >= MAX_ISSUES:
                        break
                else:
                    out.append(r)
            if bad:
                return BAD
            if python:
                return v
            if unique:
                try:
                    result = kind(out)
                except TypeError:
                    errs.append(Err("items must be hashable"))
                    return BAD
                if len(result) != len(out):
                    errs.append(Err("items must be unique"))
                    return BAD
                return result
            return tuple(out) if kind is tuple else out

        return check

    def _fixed(self, items: list[Check]) -> Check:
        n = len(items)
        python = self.python
        accepted: Any = tuple if python else list

        def check(v: Any, errs: list[Err]) -> Any:
            if not isinstance(v, accepted):
                errs.append(_type_err("array", v))
                return BAD
            if len(v) != n:
                errs.append(Err(f"expected {n} item{'' if n == 1 else 's'}, got {len(v)}"))
                return BAD
            out: list[Any] = []
            bad = False
            for i, (c, x) in enumerate(zip(items, v, strict=True)):
                start = len(errs)
                r = c(x, errs)
                if r is BAD:
                    bad = True
                    _prefix(errs, start, i)
                else:
                    out.append(r)
            if bad:
                return BAD
            return v if python else tuple(out)

        return check

    def _mapping(self, value: Check) -> Check:
        python = self.python

        def check(v: Any, errs: list[Err]) -> Any:
            if not isinstance(v, dict):
                errs.append(_type_err("object", v))
                return BAD
            out: dict[str, Any] = {}
            bad = False
            for k, x in _entries(v):
                if not isinstance(k, str):
                    errs.append(Err(f"object keys must be strings, got {excerpt(k)}"))
                    bad = True
                    continue
                start = len(errs)
                r = value(x, errs)
                if r is BAD:
                    bad = True
                    _prefix(errs, start, k)
                    if len(errs) >= MAX_ISSUES:
                        break
                else:
                    out[k] = r
            if bad:
                return BAD
            return cast("Any", v) if python else out

        return check

    # -- objects -------------------------------------------------------------------------

    def object_check(
        self,
        fields: list[tuple[str, Check, bool, Any]],
        extra: Check | None,
        build: Callable[[dict[str, Any]], Any] | None,
    ) -> Check:
        """Return a check of a JSON object with known properties.

        Args:
            fields: ``(key, check, required, default)``; a default of ``MISSING``
                is not filled in.
            extra: the check of unknown keys' values, or ``None`` to reject them.
            build: turns the validated dict into the result (``None``: the dict).
        """
        checks = {k: c for k, c, _, _ in fields}
        required = [k for k, _, r, _ in fields if r]
        defaults = [(k, d) for k, _, r, d in fields if not r and d is not MISSING]
        n = len(fields)
        allowed = ", ".join(k for k, _, _, _ in fields[:20]) or "none"
        if len(fields) > 20:
            allowed += ", ..."
        python = self.python
        strict = extra is None and not python

        def check(v: Any, errs: list[Err]) -> Any:
            if type(v) is not dict and not isinstance(v, dict):
                errs.append(_type_err("object", v))
                return BAD
            out: dict[str, Any] = {}
            bad = False
            for key, x in _entries(v):
                c = checks.get(key)
                if c is None:
                    if extra is None:
                        err = Err(f"unexpected property (allowed: {allowed})")
                        err.rpath.append(key if isinstance(key, (str, int)) else excerpt(key))
                        errs.append(err)
                        bad = True
                        if len(errs) >= MAX_ISSUES:
                            break
                        continue
                    if not isinstance(key, str):
                        errs.append(Err(f"object keys must be strings, got {excerpt(key)}"))
                        bad = True
                        continue
                    c = extra
                start = len(errs)
                r = c(x, errs)
                if r is BAD:
                    bad = True
                    _prefix(errs, start, key)
                    if len(errs) >= MAX_ISSUES:
                        break
                else:
                    out[key] = r
            if bad or len(out) != n or not strict:
                for key in required:
                    if key not in v:
                        err = Err("missing required property")
                        err.rpath.append(key)
                        errs.append(err)
                        bad = True
                if bad:
                    return BAD
                for key, default in defaults:
                    if key not in out:
                        out[key] = default
            if python:
                return cast("Any", v)
            return out if build is None else build(out)

        if build is None and strict:
            mark(check, "object", fields)
        return check

    def _typeddict(self, tp: Any, where: str) -> tuple[dict[str, Any], Check]:
        hints = self._hints(tp, where)
        required_keys: frozenset[str] = getattr(tp, "__required_keys__", frozenset())
        docs = _field_docs(tp)
        props: dict[str, Any] = {}
        fields: list[tuple[str, Check, bool, Any]] = []
        for key, hint in hints.items():
            # Under ``from __future__ import annotations`` the class cannot see
            # NotRequired in its string annotations; the resolved hint can.
            required = _qualified(hint, key in required_keys)
            hint = _strip_qualifiers(hint)
            schema, check, _ = self.compile(hint, f"{where}: {tp.__name__}.{key}")
            if key in docs and "description" not in schema:
                schema = {**schema, "description": docs[key]}
            props[key] = schema
            fields.append((key, check, required, MISSING))
        schema = _object_schema(props, [k for k, _, r, _ in fields if r], _own_doc(tp))
        return schema, self.object_check(fields, None, None)

    def _record(self, tp: Any, where: str) -> tuple[dict[str, Any], Check]:
        """Dataclasses and NamedTuples: an object of their fields, built into an instance."""
        hints = self._hints(tp, where)
        docs = _field_docs(tp)
        if _is_dataclass(tp):
            names: list[tuple[str, bool, Any]] = []
            for f in dataclasses.fields(tp):
                if not f.init:
                    continue
                has_default = f.default is not dataclasses.MISSING
                has_factory = f.default_factory is not dataclasses.MISSING
                names.append((f.name, not (has_default or has_factory), f.default))
        else:
            field_defaults: dict[str, Any] = getattr(tp, "_field_defaults", {})
            names = [
                (n, n not in field_defaults, field_defaults.get(n, dataclasses.MISSING))
                for n in cast("tuple[str, ...]", getattr(tp, "_fields", ()))
            ]
        props: dict[str, Any] = {}
        fields: list[tuple[str, Check, bool, Any]] = []
        for key, required, default in names:
            where_key = f"{where}: {tp.__name__}.{key}"
            schema, field_check, _ = self.compile(hints.get(key, Any), where_key)
            if key in docs and "description" not in schema:
                schema = {**schema, "description": docs[key]}
            if not required and default is not dataclasses.MISSING:
                json_default = to_json(default)
                if json_default is not BAD:
                    schema = {**schema, "default": json_default}
            props[key] = schema
            fields.append((key, field_check, required, MISSING))
        schema = _object_schema(props, [k for k, _, r, _ in fields if r], _own_doc(tp))
        if self.python:
            return schema, _instance_check(tp, tp.__qualname__)
        name = tp.__qualname__

        def build(values: dict[str, Any]) -> Any:
            return tp(**values)

        inner = self.object_check(fields, None, build)

        def check(v: Any, errs: list[Err]) -> Any:
            try:
                return inner(v, errs)
            except (TypeError, ValueError) as err:
                errs.append(Err(f"invalid {name}: {str(err)[:200]}"))
                return BAD

        return schema, check

    def _hints(self, tp: Any, where: str) -> dict[str, Any]:
        module = sys.modules.get(tp.__module__)
        # The class's module first; the decorated function's globals cover classes
        # defined where no module is registered (exec'd code, notebooks).
        globalns = {**self.globalns, **getattr(module, "__dict__", {})}
        localns = {**self.localns, tp.__name__: tp}
        try:
            return get_type_hints(tp, globalns, localns, include_extras=True)
        except Exception as err:
            raise TypeSchemaError(
                f"{where}: cannot resolve the annotations of {tp.__qualname__}: {err}"
            ) from err

    # -- library models ----------------------------------------------------------------

    def _hoist(self, schema: dict[str, Any], defs: Mapping[str, Any]) -> dict[str, Any]:
        renames: dict[str, str] = {}
        for name in defs:
            renames[name] = self._def_name(("lib", name, id(defs)), name)
        for name, body in defs.items():
            self.defs[renames[name]] = _rename_refs(body, renames)
        return cast("dict[str, Any]", _rename_refs(schema, renames))

    def _pydantic(self, tp: Any, where: str) -> tuple[dict[str, Any], Check]:
        from pydantic import TypeAdapter, ValidationError

        adapter: Any = TypeAdapter(tp)
        mode = "serialization" if self.python else "validation"
        raw: dict[str, Any] = adapter.json_schema(ref_template="#/$defs/{model}", mode=mode)
        defs: dict[str, Any] = raw.pop("$defs", {})
        name = tp.__name__
        if set(raw) == {"$ref"}:
            schema = self._hoist(raw, defs)
        else:
            schema = self._hoist({"$ref": f"#/$defs/{name}"}, {**defs, name: raw})
        if self.python:
            return schema, _instance_check(tp, tp.__qualname__)

        def check(v: Any, errs: list[Err]) -> Any:
            try:
                data = json.dumps(v)
            except (TypeError, ValueError, RecursionError):
                errs.append(Err(f"expected a JSON value for {name}, got {excerpt(v)}"))
                return BAD
            try:
                return adapter.validate_json(data, strict=True)
            except ValidationError as err:
                for e in err.errors(include_url=False, include_input=False)[:MAX_ISSUES]:
                    issue = Err(str(e["msg"])[:200])
                    issue.rpath.extend(reversed(e["loc"]))
                    errs.append(issue)
                return BAD

        return schema, check

    def _msgspec(self, tp: Any, where: str) -> tuple[dict[str, Any], Check]:
        import msgspec

        (raw,), defs = msgspec.json.schema_components([tp], ref_template="#/$defs/{name}")
        schema = self._hoist(dict(raw), defs)
        if self.python:
            return schema, _instance_check(tp, tp.__qualname__)
        decoder = msgspec.json.Decoder(tp)
        encode = msgspec.json.encode

        def check(v: Any, errs: list[Err]) -> Any:
            try:
                data = encode(v)
            except (TypeError, ValueError, RecursionError, OverflowError):
                errs.append(Err(f"expected a JSON value for {tp.__name__}, got {excerpt(v)}"))
                return BAD
            try:
                return decoder.decode(data)
            except msgspec.ValidationError as err:
                errs.append(Err(str(err)[:200]))
                return BAD

        return schema, check

    # -- constraints ---------------------------------------------------------------------

    def _constrain(
        self, schema: dict[str, Any], check: Check, constraints: dict[str, Any], where: str
    ) -> tuple[dict[str, Any], Check]:
        kind = schema.get("type")
        if kind in ("integer", "number"):
            return _numeric(schema, check, constraints, where)
        if kind in ("string", "array", "object"):
            return _sized(schema, check, constraints, kind, where)
        raise TypeSchemaError(
            f"{where}: constraints {sorted(constraints)} need a number, string, array or "
            "object type; put them inside the union, e.g. Optional[Annotated[int, ...]]"
        )


def _is_enum(tp: Any) -> bool:
    return issubclass(tp, enum.Enum)


def _is_dataclass(tp: Any) -> bool:
    return dataclasses.is_dataclass(tp)


def _is_record(tp: Any) -> bool:
    """Tell whether ``tp`` is a dataclass or a NamedTuple class."""
    return _is_dataclass(tp) or (hasattr(tp, "_fields") and issubclass(tp, tuple))


def _qualified(hint: Any, default: bool) -> bool:
    """Whether a TypedDict key is required, from its (resolved) qualifiers."""
    while True:
        origin = get_origin(hint)
        if origin is Required:
            return True
        if origin is NotRequired:
            return False
        if origin in (ReadOnly, Annotated):
            hint = get_args(hint)[0]
            continue
        return default


def _strip_qualifiers(hint: Any) -> Any:
    while get_origin(hint) in (Required, NotRequired, ReadOnly):
        hint = get_args(hint)[0]
    if get_origin(hint) is Annotated:
        args = get_args(hint)
        inner = _strip_qualifiers(args[0])
        if inner is not args[0]:
            annotated: Any = Annotated
            params = (inner, *args[1:])
            return annotated[params]
    return hint


def _enum_schema(values: list[Any]) -> dict[str, Any]:
    kinds: list[str] = []
    for v in values:
        kind = _json_type(v)
        if kind not in kinds:
            kinds.append(kind)
    type_: Any = kinds[0] if len(kinds) == 1 else kinds
    if len(values) == 1:
        return {"type": type_, "const": values[0]}
    return {"type": type_, "enum": list(values)}


def _tuple_schema(items: list[dict[str, Any]]) -> dict[str, Any]:
    n = len(items)
    schema: dict[str, Any] = {"type": "array", "minItems": n, "maxItems": n}
    if items:
        schema["prefixItems"] = items
    schema["items"] = False
    return schema


def _object_schema(
    props: dict[str, Any], required: list[str], description: str | None
) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object"}
    if description:
        schema["description"] = description
    schema["properties"] = props
    if required:
        schema["required"] = required
    schema["additionalProperties"] = False
    return schema


def _rename_refs(node: Any, renames: Mapping[str, str]) -> Any:
    if isinstance(node, dict):
        out: dict[str, Any] = {}
        for k, v in cast("dict[str, Any]", node).items():
            if k == "$ref" and isinstance(v, str) and v.startswith("#/$defs/"):
                name = v[len("#/$defs/") :]
                out[k] = f"#/$defs/{renames.get(name, name)}"
            else:
                out[k] = _rename_refs(v, renames)
        return out
    if isinstance(node, list):
        return [_rename_refs(v, renames) for v in _items(node)]
    return node


def _mentions(node: Any, target: str, defs: Mapping[str, Any], seen: set[str]) -> bool:
    if isinstance(node, dict):
        for k, v in cast("dict[str, Any]", node).items():
            if k == "$ref" and isinstance(v, str):
                if v == target:
                    return True
                if v not in seen and v.startswith("#/$defs/"):
                    seen.add(v)
                    if _mentions(defs.get(v[len("#/$defs/") :]), target, defs, seen):
                        return True
            elif _mentions(v, target, defs, seen):
                return True
    elif isinstance(node, list):
        return any(_mentions(v, target, defs, seen) for v in _items(node))
    return False


def _is_number(x: object) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _multiple(value: Any, step: Any) -> bool:
    from fractions import Fraction

    if isinstance(step, float):
        quotient = value / step
        try:
            return bool(int(quotient) == quotient)
        except (OverflowError, ValueError):
            return (Fraction(value) / Fraction(step)).denominator == 1
    return not value % step


def _numeric(
    schema: dict[str, Any], check: Check, c: dict[str, Any], where: str
) -> tuple[dict[str, Any], Check]:
    unknown = set(c) - set(_NUMERIC)
    if unknown:
        raise TypeSchemaError(f"{where}: {sorted(unknown)} do not apply to a number")
    for key, value in c.items():
        if not _is_number(value):
            raise TypeSchemaError(f"{where}: {key} must be a number, got {value!r:.60}")
    if c.get("multiple_of") is not None and c["multiple_of"] <= 0:
        raise TypeSchemaError(f"{where}: multiple_of must be greater than 0")
    out = dict(schema)
    names = {"gt": "exclusiveMinimum", "ge": "minimum", "lt": "exclusiveMaximum", "le": "maximum"}
    for key, keyword in names.items():
        if key in c:
            out[keyword] = c[key]
    if "multiple_of" in c:
        out["multipleOf"] = c["multiple_of"]
    gt, ge, lt, le, step = (c.get(k) for k in _NUMERIC)
    # The messages' fixed parts, formatted once.
    gt_text = f"must be greater than {gt}, got "
    ge_text = f"must be greater than or equal to {ge}, got "
    lt_text = f"must be less than {lt}, got "
    le_text = f"must be less than or equal to {le}, got "
    step_text = f"must be a multiple of {step}, got "
    # The classes the base check returns unchanged: no need to call it for them.
    exact1, exact2 = _EXACT.get(check, (_NoClass, _NoClass))

    def bounded(v: Any, errs: list[Err]) -> Any:
        t = v.__class__
        if t is exact1 or t is exact2:
            r = v
        else:
            r = check(v, errs)
            if r is BAD:
                return BAD
        if gt is not None and not v > gt:
            errs.append(Err(f"{gt_text}{v}"))
        elif ge is not None and not v >= ge:
            errs.append(Err(f"{ge_text}{v}"))
        elif lt is not None and not v < lt:
            errs.append(Err(f"{lt_text}{v}"))
        elif le is not None and not v <= le:
            errs.append(Err(f"{le_text}{v}"))
        elif step is not None and not _multiple(v, step):
            errs.append(Err(f"{step_text}{v}"))
        else:
            return r
        return BAD

    desc = getattr(check, "_fast", ())
    if desc and desc[0] == "leaf" and len(desc) == 2 and step is None:
        tests = [desc[1]]
        for bound, op in ((gt, ">"), (ge, ">="), (lt, "<"), (le, "<=")):
            if bound is not None:
                tests.append(f"{{x}} {op} {bound!r}")
        mark(bounded, "leaf", " and ".join(tests))
    return out, bounded


def _sized(
    schema: dict[str, Any], check: Check, c: dict[str, Any], kind: str, where: str
) -> tuple[dict[str, Any], Check]:
    allowed = {*_LENGTH, "pattern"} if kind == "string" else set(_LENGTH)
    unknown = set(c) - allowed
    if unknown:
        raise TypeSchemaError(f"{where}: {sorted(unknown)} do not apply to a {kind}")
    keyword = {"string": "Length", "array": "Items", "object": "Properties"}[kind]
    unit = {"string": "character", "array": "item", "object": "property"}[kind]
    lo, hi = c.get("min_length"), c.get("max_length")
    out = dict(schema)
    for name, value in (("min", lo), ("max", hi)):
        if value is not None:
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise TypeSchemaError(f"{where}: {name}_length must be an int >= 0")
            out[f"{name}{keyword}"] = value
    search: Callable[[str], Any] | None = None
    if "pattern" in c:
        try:
            search = re.compile(c["pattern"]).search
        except re.error as err:
            raise TypeSchemaError(f"{where}: invalid pattern {c['pattern']!r:.80}: {err}") from err
        out["pattern"] = c["pattern"]
    pattern_text = str(c.get("pattern", ""))[:80]

    def plural(n: int) -> str:
        if unit == "property":
            return "property" if n == 1 else "properties"
        return unit if n == 1 else unit + "s"

    def sized(v: Any, errs: list[Err]) -> Any:
        r = check(v, errs)
        if r is BAD:
            return BAD
        n = len(v)
        if lo is not None and n < lo:
            errs.append(Err(f"must have at least {lo} {plural(lo)}, got {n}"))
        elif hi is not None and n > hi:
            errs.append(Err(f"must have at most {hi} {plural(hi)}, got {n}"))
        elif search is not None and search(v) is None:
            errs.append(Err(f"must match the pattern {pattern_text!r}, got {excerpt(v)}"))
        else:
            return r
        return BAD

    desc = getattr(check, "_fast", ())
    if desc and desc[0] == "leaf" and len(desc) == 2 and search is None:
        tests = [desc[1]]
        if lo is not None:
            tests.append(f"len({{x}}) >= {lo}")
        if hi is not None:
            tests.append(f"len({{x}}) <= {hi}")
        mark(sized, "leaf", " and ".join(tests))
    return out, sized


# --------------------------------------------------------------------------------------
# Code generation: one straight-line function for the common, valid case
# --------------------------------------------------------------------------------------


class _Index:
    """A list index in a generated path: an expression, known when the code runs."""

    __slots__ = ("expr",)

    def __init__(self, expr: str) -> None:
        self.expr = expr


class _Gen:
    def __init__(self) -> None:
        self.lines: list[str] = []
        self.functions: list[str] = []
        self.pending: list[tuple[list[Any], str]] = []
        self.ns: dict[str, Any] = {"BAD": BAD, "MISSING": MISSING}
        self.n = 0
        #: What the fast code does when a test fails.
        self.bail = "return BAD"
        #: The objects the one pass checks field by field: (path, keys, required, known).
        self.shapes: list[tuple[tuple[Any, ...], tuple[str, ...], frozenset[str], frozenset[str]]]
        self.shapes = []

    def function(self, check: Check, depth: int) -> str:
        """Emit ``def fN(value)`` returning the converted value or ``BAD``; return its name."""
        name = self.var("fn")
        outer, self.lines = self.lines, []
        bail, self.bail = self.bail, "return BAD"
        result = self.node(check, "value", 1, depth)
        body = "\n".join(self.lines)
        self.lines, self.bail = outer, bail
        self.functions.append(f"def {name}(value):\n{body}\n    return {result}\n")
        return name

    def var(self, prefix: str = "v") -> str:
        self.n += 1
        return f"{prefix}{self.n}"

    def const(self, value: Any) -> str:
        name = self.var("k")
        self.ns[name] = value
        return name

    def emit(self, line: str, indent: int) -> None:
        self.lines.append("    " * indent + line)

    def node(self, check: Check, src: str, indent: int, depth: int) -> str:
        """Emit code that leaves the converted value in a variable (returned), or returns BAD."""
        desc: tuple[Any, ...] = getattr(check, "_fast", ())
        kind = desc[0] if desc and depth < 8 else "call"
        if kind == "leaf":
            test = desc[1].format(x=src, c=self.const(desc[2]) if len(desc) > 2 else "")
            if test != "True":
                self.emit(f"if not ({test}): {self.bail}", indent)
            return src
        if kind == "optional":
            out = self.var()
            self.emit(f"if {src} is None: {out} = None", indent)
            self.emit("else:", indent)
            inner = self.node(desc[1], src, indent + 1, depth + 1)
            self.emit(f"{out} = {inner}", indent + 1)
            return out
        if kind == "list":
            out, item = self.var(), self.var("i")
            self.emit(f"if type({src}) is not list: {self.bail}", indent)
            item_desc: tuple[Any, ...] = getattr(desc[1], "_fast", ())
            if item_desc and item_desc[0] == "object":
                # A separate function per item type: the fast path calls it, and the
                # full check tries it first on each item, so rejecting one bad item
                # does not re-check the good ones the slow way.
                fn = self.function(desc[1], depth + 1)
                self.pending.append((desc[2], fn))
                self.emit(f"{out} = []", indent)
                self.emit(f"for {item} in {src}:", indent)
                self.emit(f"{item} = {fn}({item})", indent + 1)
                self.emit(f"if {item} is BAD: {self.bail}", indent + 1)
                self.emit(f"{out}.append({item})", indent + 1)
                return out
            if item_desc and item_desc[0] == "leaf":
                self.emit(f"for {item} in {src}:", indent)
                before = len(self.lines)
                self.node(desc[1], item, indent + 1, depth + 1)
                if len(self.lines) == before:
                    self.lines.pop()
                self.emit(f"{out} = list({src})", indent)
                return out
            self.emit(f"{out} = []", indent)
            self.emit(f"for {item} in {src}:", indent)
            r = self.node(desc[1], item, indent + 1, depth + 1)
            self.emit(f"{out}.append({r})", indent + 1)
            return out
        if kind == "object":
            return self.object(desc[1], src, indent, depth)
        out = self.var()
        self.emit(f"{out} = {self.const(check)}({src}, [])", indent)
        self.emit(f"if {out} is BAD: {self.bail}", indent)
        return out

    def object(
        self, fields: list[tuple[str, Check, bool, Any]], src: str, indent: int, depth: int
    ) -> str:
        self.emit(f"if type({src}) is not dict: {self.bail}", indent)
        required = [f for f in fields if f[2]]
        optional = [f for f in fields if not f[2]]
        names = {f[0]: self.var("f") for f in fields}
        if not optional:
            self.emit(f"if len({src}) != {len(required)}: {self.bail}", indent)
        if required:
            self.emit("try:", indent)
            for key, *_ in required:
                self.emit(f"{names[key]} = {src}[{key!r}]", indent + 1)
            self.emit(f"except KeyError: {self.bail}", indent)
        for key, *_ in optional:
            self.emit(f"{names[key]} = {src}.get({key!r}, MISSING)", indent)
        if optional:
            count = " + ".join(f"({names[k]} is not MISSING)" for k, *_ in optional)
            self.emit(f"if len({src}) != {len(required)} + {count}: {self.bail}", indent)
        out = self.var("o")
        parts: list[str] = []
        for key, check, *_ in required:
            parts.append(f"{key!r}: {self.node(check, names[key], indent, depth + 1)}")
        self.emit(f"{out} = {{{', '.join(parts)}}}", indent)
        for key, check, _, default in optional:
            self.emit(f"if {names[key]} is not MISSING:", indent)
            r = self.node(check, names[key], indent + 1, depth + 1)
            self.emit(f"{out}[{key!r}] = {r}", indent + 1)
            if default is not MISSING:
                self.emit(f"else: {out}[{key!r}] = {self.const(default)}", indent)
        return out

    # -- the one pass that also collects the problems ---------------------------------

    def leaf_test(self, desc: tuple[Any, ...], src: str) -> str:
        return str(desc[1]).format(x=src, c=self.const(desc[2]) if len(desc) > 2 else "")

    def fail(
        self, call: str, out: str, path: tuple[Any, ...], indent: int, single: bool = False
    ) -> None:
        """Emit the slow branch ``out = call`` that records the problems ``call`` appends.

        ``call`` is the node's full check on ``errs``. Its issues get the node's
        path at once (innermost key first, as the full check's callers would add
        them); past ``MAX_ISSUES`` every enclosing check would stop, so the whole
        validation stops. ``single``: ``call`` is a leaf check, which appends
        exactly one error without a path, so that error is given its path inline.
        """
        self.emit("if errs is None: errs = []", indent)
        if not single:
            self.emit("start = len(errs)", indent)
        self.emit(f"{out} = {call}", indent)
        self.emit(f"if {out} is BAD:", indent)
        self.emit("bad += 1", indent + 1)
        if path:
            rpath = list(reversed(path))
            keys = ", ".join(k.expr if isinstance(k, _Index) else repr(k) for k in rpath)
            if single:
                self.emit(f"errs[-1].rpath = [{keys}]", indent + 1)
            elif any(isinstance(k, _Index) for k in rpath):
                self.emit(f"PREFIX(errs, start, [{keys}])", indent + 1)
            else:
                self.emit(f"PREFIX(errs, start, {self.const(rpath)})", indent + 1)
        self.emit("if len(errs) >= MAX_ISSUES: return DONE(value, errs, 0)", indent + 1)

    def spine(self, check: Check, src: str, path: tuple[Any, ...], indent: int, depth: int) -> str:
        """Emit code leaving the converted value in a variable (returned); never returns early.

        The fast tests run inline as in ``node``; where one fails, the node's
        full check runs on that value alone and its problems are recorded, then
        the pass goes on with the next value, so a rejected input is walked once.
        """
        desc: Any = getattr(check, "_fast", ())
        kind = desc[0] if desc and depth < 8 else "call"
        full = self.const(check)
        if kind == "leaf" and src != "value":
            test = self.leaf_test(desc, src)
            if test != "True":
                self.emit(f"if not ({test}):", indent)
                self.fail(f"{full}({src}, errs)", src, path, indent + 1, single=True)
            return src
        if kind == "object":
            return self.spine_object(check, desc[1], src, path, indent, depth)
        out = self.var()
        inner: tuple[Any, ...] = getattr(desc[1], "_fast", ()) if len(desc) > 1 else ()
        inner_kind = inner[0] if inner and depth + 1 < 8 else "call"
        if kind == "optional" and inner_kind == "leaf":
            test = self.leaf_test(inner, src)
            self.emit(f"{out} = {src}", indent)
            if test != "True":
                self.emit(f"if {src} is not None and not ({test}):", indent)
                self.fail(f"{full}({src}, errs)", out, path, indent + 1, single=True)
            return out
        if kind == "list" and inner_kind in ("leaf", "object"):
            item = self.var("i")
            self.emit(f"if type({src}) is list:", indent)
            if inner_kind == "object":
                # The full check tries the item's fast function first on each item.
                self.pending.append((desc[2], self.function(desc[1], depth + 1)))
                self.emit(f"{out} = []", indent + 1)
                self.emit(f"for {item} in {src}:", indent + 1)
                where = (*path, _Index(f"len({out})"))
                r = self.spine(desc[1], item, where, indent + 2, depth + 1)
                self.emit(f"{out}.append({r})", indent + 2)
            else:
                test = self.leaf_test(inner, item)
                if test != "True":
                    self.emit(f"for {item} in {src}:", indent + 1)
                    self.emit(f"if not ({test}):", indent + 2)
                    self.fail(f"{full}({src}, errs)", out, path, indent + 3)
                    self.emit("break", indent + 3)
                    self.emit("else:", indent + 1)
                    self.emit(f"{out} = list({src})", indent + 2)
                else:
                    self.emit(f"{out} = list({src})", indent + 1)
            self.emit("else:", indent)
            self.fail(f"{full}({src}, errs)", out, path, indent + 1)
            return out
        if kind in ("optional", "list", "leaf"):
            # A fast function for the whole node; the full check only when it fails.
            self.emit(f"{out} = {self.function(check, depth)}({src})", indent)
        else:
            self.emit(f"{out} = {full}({src}, [])", indent)
        self.emit(f"if {out} is BAD:", indent)
        self.fail(f"{full}({src}, errs)", out, path, indent + 1)
        return out

    def spine_object(
        self,
        check: Check,
        fields: list[tuple[str, Check, bool, Any]],
        src: str,
        path: tuple[Any, ...],
        indent: int,
        depth: int,
    ) -> str:
        required = [f for f in fields if f[2]]
        optional = [f for f in fields if not f[2]]
        names = {f[0]: self.var("f") for f in fields}
        self.shapes.append(
            (
                tuple(None if isinstance(k, _Index) else k for k in path),
                tuple(f[0] for f in fields),
                frozenset(f[0] for f in required),
                frozenset(f[0] for f in fields),
            )
        )
        root = src == "value"
        out = self.var("o")
        if root:
            # The input itself: a wrong shape is reported by the full check, from scratch.
            self.emit(f"if type({src}) is not dict: return FALLBACK(value)", indent)
            if not optional:
                self.emit(f"if len({src}) != {len(required)}: return FALLBACK(value)", indent)
            if required:
                self.emit("try:", indent)
                for key, *_ in required:
                    self.emit(f"{names[key]} = {src}[{key!r}]", indent + 1)
                self.emit("except KeyError: return FALLBACK(value)", indent)
            for key, *_ in optional:
                self.emit(f"{names[key]} = {src}.get({key!r}, MISSING)", indent)
            if optional:
                count = " + ".join(f"({names[k]} is not MISSING)" for k, *_ in optional)
                self.emit(
                    f"if len({src}) != {len(required)} + {count}: return FALLBACK(value)", indent
                )
            body = indent
        elif not optional:
            # Only required keys: one ``try`` reads them, and a wrong shape (not a
            # dict, or another number of keys) joins a missing key in ``except``.
            self.emit("try:", indent)
            self.emit(
                f"if type({src}) is not dict or len({src}) != {len(required)}: raise KeyError",
                indent + 1,
            )
            for key, *_ in required:
                self.emit(f"{names[key]} = {src}[{key!r}]", indent + 1)
            self.emit("except KeyError:", indent)
            self.fail(f"{self.const(check)}({src}, errs)", out, path, indent + 1)
            self.emit("else:", indent)
            body = indent + 1
        else:
            ok = self.var("ok")
            self.emit(f"{ok} = type({src}) is dict", indent)
            self.emit(f"if {ok}:", indent)
            if not optional:
                self.emit(f"{ok} = len({src}) == {len(required)}", indent + 1)
            if required:
                self.emit("try:", indent + 1)
                for key, *_ in required:
                    self.emit(f"{names[key]} = {src}[{key!r}]", indent + 2)
                self.emit(f"except KeyError: {ok} = False", indent + 1)
            for key, *_ in optional:
                self.emit(f"{names[key]} = {src}.get({key!r}, MISSING)", indent + 1)
            if optional:
                count = " + ".join(f"({names[k]} is not MISSING)" for k, *_ in optional)
                self.emit(f"if len({src}) != {len(required)} + {count}: {ok} = False", indent + 1)
            self.emit(f"if {ok}:", indent)
            body = indent + 1
        # Fields in declaration order: the order the full check meets them in a
        # well-ordered input, so problems are recorded in the same order.
        for key, field, is_required, default in fields:
            var = names[key]
            if is_required:
                r = self.spine(field, var, (*path, key), body, depth + 1)
                if r != var:
                    self.emit(f"{var} = {r}", body)
                continue
            self.emit(f"if {var} is not MISSING:", body)
            before = len(self.lines)
            r = self.spine(field, var, (*path, key), body + 1, depth + 1)
            if r != var:
                self.emit(f"{var} = {r}", body + 1)
            if len(self.lines) == before:
                self.emit("pass", body + 1)
            if default is not MISSING:
                self.emit(f"else: {var} = {self.const(default)}", body)
        # The result keys in the fast path's order: required first, then the others.
        literal = [k for k, *_ in required]
        rest = list(optional)
        while rest and rest[0][3] is not MISSING:
            literal.append(rest.pop(0)[0])
        parts = ", ".join(f"{k!r}: {names[k]}" for k in literal)
        self.emit(f"{out} = {{{parts}}}", body)
        for key, _, _, default in rest:
            if default is MISSING:
                self.emit(f"if {names[key]} is not MISSING: {out}[{key!r}] = {names[key]}", body)
            else:
                self.emit(f"{out}[{key!r}] = {names[key]}", body)
        if not root and optional:
            self.emit("else:", indent)
            self.fail(f"{self.const(check)}({src}, errs)", out, path, indent + 1)
        return out


_STUB = compile(
    "def validate(value, /, library_options=None):\n    return FIRST(value, library_options)\n",
    "<standard_tool validator>",
    "exec",
)


def _prefix_path(errs: list[Err], start: int, keys: list[Any]) -> None:
    for i in range(start, len(errs)):
        errs[i].rpath.extend(keys)


#: An object the one pass checked field by field: its keys in order, the required
#: and known keys, and the objects inside it the pass checked the same way, each
#: as ``(key, items, shape)`` (``items``: the shape of each item of a list there).
_Shape: TypeAlias = (
    "tuple[tuple[str, ...], frozenset[str], frozenset[str], tuple[tuple[str, bool, _Shape], ...]]"
)


def _shape_tree(
    shapes: list[tuple[tuple[Any, ...], tuple[str, ...], frozenset[str], frozenset[str]]],
    path: tuple[Any, ...] = (),
) -> _Shape | None:
    for where, keys, required, known in shapes:
        if where == path:
            children: list[tuple[str, bool, _Shape]] = []
            for key in keys:
                for items, sub_path in ((False, (*path, key)), (True, (*path, key, None))):
                    sub = _shape_tree(shapes, sub_path)
                    if sub is not None:
                        children.append((key, items, sub))
            return keys, required, known, tuple(children)
    return None


def _in_order(value: Any, shape: _Shape) -> bool:
    """Whether the one pass met the problems in the order the full check meets them.

    The pass checks an object's fields in declaration order; the full check in
    the input's key order. They agree when every object the pass checked field
    by field lists its keys in declaration order (objects of the wrong shape
    were handed to the full check whole, so their order does not matter).
    """
    keys, required, known, children = shape
    if type(value) is not dict:
        return True
    obj = cast("dict[str, Any]", value)
    present = obj.keys()
    if not (present >= required and present <= known):
        return True
    rest = iter(keys)
    if not all(k in rest for k in present):
        return False
    for key, items, sub in children:
        if key in present:
            child = obj[key]
            if not items:
                if not _in_order(child, sub):
                    return False
            elif type(child) is list and not all(_in_order(x, sub) for x in _items(child)):
                return False
    return True


def generate(
    check: Check,
    success: Callable[[Any], Any] | None,
    failure: Callable[..., Any],
    report: Callable[[list[Err]], Any],
    *,
    raises: bool = False,
) -> Callable[..., Any]:
    """Return ``validate(value)``: straight-line generated code, one pass over the value.

    A valid value the fast path covers returns ``success(converted)`` (the
    converted value itself when ``success`` is ``None``). Where a
    fast test fails, that value alone goes through its full check, its problems
    are recorded with their path, and the pass goes on; at the end an invalid
    value returns ``report(errs)``, the same problems in the same order as the
    full check, ``failure(value)``, would find (with ``raises``, ``report(errs)``
    returns an exception, which is raised). ``failure(value)`` is still used
    when the input is not an object of the right keys, and when its keys come in
    an order that would make the full check report problems in another order.

    Compiling source costs about half a millisecond, so it happens on the first
    call, not at decoration: the returned function starts as a stub and its
    ``__code__`` is replaced in place by the generated code (same globals, no
    closure), so callers that captured it keep the fast version.
    """
    ns: dict[str, Any] = {}
    exec(_STUB, ns)
    validate = cast("Callable[..., Any]", ns["validate"])
    lock = threading.Lock()

    def first(value: Any, library_options: Any) -> Any:
        with lock:
            if validate.__code__.co_name == "validate":
                _install(validate, ns, check, success, failure, report, raises)
        return validate(value, library_options)

    ns["FIRST"] = first
    return validate


def _install(
    validate: Callable[..., Any],
    ns: dict[str, Any],
    check: Check,
    success: Callable[[Any], Any] | None,
    failure: Callable[..., Any],
    report: Callable[[list[Err]], Any],
    raises: bool,
) -> None:
    gen = _Gen()
    desc: tuple[Any, ...] = getattr(check, "_fast", ())
    if desc and desc[0] == "leaf":
        test = gen.leaf_test(desc, "value")
        gen.emit(f"if not ({test}): return FALLBACK(value)", 1)
        result = "value"
    else:
        result = gen.spine(check, "value", (), 1, 0)
    shape = _shape_tree(gen.shapes)

    def done(value: Any, errs: list[Err], failed: int) -> Any:
        # Several failed values, or an early stop: the problems are the full
        # check's when the keys come in declaration order.
        if shape is None or _in_order(value, shape):
            if raises:
                raise report(errs)
            return report(errs)
        return failure(value)

    gen.ns.update(
        SUCCESS=success,
        FALLBACK=failure,
        REPORT=report,
        DONE=done,
        PREFIX=_prefix_path,
        MAX_ISSUES=MAX_ISSUES,
    )
    # One failed value (and no early stop): its problems are the only ones, whatever
    # the order of the keys.
    one = "raise REPORT(errs)" if raises else "return REPORT(errs)"
    body = "\n".join(gen.lines)
    source = "\n".join(
        [
            *gen.functions,
            "def validate_fast(value, /, library_options=None):",
            "    errs = None",
            "    bad = 0",
            body,
            f"    if bad == 1: {one}",
            "    if bad: return DONE(value, errs, bad)",
            f"    return {result if success is None else f'SUCCESS({result})'}\n",
        ]
    )
    code = compile(source, "<standard_tool validator>", "exec")
    ns.update(gen.ns)
    exec(code, ns)
    for accel, name in gen.pending:
        if not accel:
            accel.append(ns[name])
    validate.__code__ = ns["validate_fast"].__code__
