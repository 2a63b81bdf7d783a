"""Compile Python type annotations into a JSON Schema and a matching check.

One pass over an annotation yields two things that agree by construction: the
draft 2020-12 JSON Schema a model sees, and a plain-Python check that accepts
exactly the JSON values that schema accepts, converting them to the annotated
Python type (``Enum`` members, dataclass instances, ``datetime`` objects, tuples
and sets). The only conversions are those JSON needs, and each is advertised in
the schema (``enum``, ``format``, ``uniqueItems``).

A second, "python" mode checks a Python value against the annotation without
converting it; function tools use it for return values.

Layer: function tools (imports only standard_tool._core, standard_tool._shared and this
package; pydantic/msgspec lazily).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import decimal
import enum
import json
import math
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
    TypeAliasType,
    get_args,
    get_origin,
    get_type_hints,
    is_typeddict,
)

from standard_tool._core import ToolDefinitionError
from standard_tool._function._checks import (
    BAD,
    EXACT,
    MAX_DEPTH,
    MAX_ISSUES,
    MISSING,
    Check,
    Err,
    Field,
    Leaf,
    ListOf,
    NoClass,
    ObjectOf,
    OptionalOf,
    Render,
    check_any,
    check_bool,
    check_int,
    check_null,
    check_number,
    check_py_int,
    check_str,
    describe,
    entries,
    excerpt,
    format_check,
    instance_check,
    items_of,
    prefix,
    shape_of,
    short,
    type_err,
    type_name,
)
from standard_tool._function._formats import DECIMAL_PATTERN, FORMATS, UUID_PATTERN
from standard_tool._function._nodes import (
    AnyNode,
    ArrayNode,
    BooleanNode,
    ChoiceNode,
    Constrained,
    Described,
    FormatNode,
    IntegerNode,
    LibraryNode,
    MappingNode,
    Node,
    NullNode,
    NumberNode,
    ObjectNode,
    Prop,
    RefNode,
    StringNode,
    TupleNode,
    UnionNode,
)
from standard_tool._function._schema import to_root_schema, to_schema
from standard_tool._shared import ecma_regex, safe_str, truncate_text

__all__ = ["META_MARKER", "MISSING", "Compiler", "Param", "to_json"]


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
# JSON equality (as JSON Schema's ``enum``/``const`` define it)
# --------------------------------------------------------------------------------------


def _json_match(value: Any, literal: Any) -> bool:
    if literal is None or isinstance(literal, bool):
        return value is literal
    if isinstance(literal, (int, float)):
        return isinstance(value, (int, float)) and not isinstance(value, bool) and value == literal
    return isinstance(value, str) and value == literal


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
        for k, v in entries(value):
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


class _Info:
    """What ``Annotated`` metadata says about a value."""

    __slots__ = ("constraints", "default", "description", "examples", "extra", "meta", "title")

    def __init__(self) -> None:
        self.extra: dict[str, str] = {}
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
    raise ToolDefinitionError(
        f"{where}: the constraint {short(item)} cannot be expressed in JSON Schema; "
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
        if item.json_schema_extra is not None:
            _read_extra(item.json_schema_extra, info, where)
        _read_metadata(tuple(item.metadata), info, where)
        return
    pattern = getattr(item, "pattern", None)
    if pattern is not None:
        info.constraints["pattern"] = pattern if isinstance(pattern, str) else pattern.pattern


#: JSON Schema keywords that change what a schema accepts (or where its parts are):
#: ``json_schema_extra`` may not add them, since the tool would not check them.
_ASSERTING = frozenset(
    {
        *("type", "enum", "const", "format", "nullable", "default"),
        *("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"),
        *("minLength", "maxLength", "pattern", "contentEncoding", "contentSchema"),
        *("items", "prefixItems", "additionalItems", "contains", "minContains", "maxContains"),
        *("minItems", "maxItems", "uniqueItems", "unevaluatedItems"),
        *("properties", "patternProperties", "additionalProperties", "propertyNames"),
        *("required", "minProperties", "maxProperties", "unevaluatedProperties"),
        *("dependentRequired", "dependentSchemas", "dependencies"),
        *("allOf", "anyOf", "oneOf", "not", "if", "then", "else"),
        *("$ref", "$dynamicRef", "$recursiveRef", "$defs", "definitions", "$id", "$schema"),
        *("$anchor", "$dynamicAnchor", "$recursiveAnchor", "$vocabulary"),
    }
)


def _read_extra(extra: Any, info: _Info, where: str) -> None:
    """Keep ``Field(json_schema_extra={...})``: annotations added to the value's schema.

    A key that would change what the schema accepts is refused (the tool checks the
    type and the ``Field`` constraints, not the extra text), and so is a function
    (what it would change cannot be checked).
    """
    if not isinstance(extra, dict):
        raise ToolDefinitionError(
            f"{where}: json_schema_extra must be a dict of annotations, got "
            f"{type(extra).__name__}; a function cannot be checked against what the tool accepts"
        )
    entries: dict[Any, Any] = extra  # pyright: ignore[reportUnknownVariableType]
    for key, value in entries.items():
        if not isinstance(key, str) or key in _ASSERTING:
            raise ToolDefinitionError(
                f"{where}: json_schema_extra key {short(key)} would change what the schema "
                "accepts, which the tool does not check; say it with the type or a Field "
                "constraint (ge=, max_length=, pattern=...)"
            )
        try:
            info.extra[key] = json.dumps(value, allow_nan=False)
        except (TypeError, ValueError) as err:
            raise ToolDefinitionError(
                f"{where}: json_schema_extra[{key!r}] is not JSON data: {short(value)}"
            ) from err


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
    from standard_tool._function._docstring import parse_docstring

    return parse_docstring(doc).description or None


def _field_docs(cls: type) -> dict[str, str]:
    doc = cls.__dict__.get("__doc__")
    if not isinstance(doc, str):
        return {}
    from standard_tool._function._docstring import parse_docstring

    return parse_docstring(doc).params


_LIBRARY_FIELD = {"pydantic": "pydantic.Field(...)", "msgspec": "msgspec.Meta(...)"}


def _refuse_param_inside(tp: Any, library: str, where: str) -> None:
    """Refuse a ``Param`` inside a pydantic model or msgspec Struct: the library ignores it.

    The model validates itself, so a ``Param(gt=0)`` on one of its fields would be
    neither shown to the model nor enforced. Nested models are searched too.
    """
    seen: set[int] = set()
    pending: list[tuple[Any, str]] = [(tp, tp.__name__)]
    while pending and len(seen) < 1000:
        cls, label = pending.pop()
        if id(cls) in seen:
            continue
        seen.add(id(cls))
        try:
            hints = typing_extensions.get_type_hints(cls, include_extras=True)
        except Exception:  # unresolvable names: the library reports those itself
            continue
        for field, hint in hints.items():
            stack: list[Any] = [hint]
            while stack:
                current = stack.pop()
                if typing_extensions.get_origin(current) is typing_extensions.Annotated:
                    for meta in getattr(current, "__metadata__", ()):
                        if isinstance(meta, Param):
                            raise ToolDefinitionError(
                                f"{where}: {label}.{field}: Param(...) inside a {library} "
                                f"type is not enforced by {library}; use "
                                f"{_LIBRARY_FIELD[library]} for its constraints and description"
                            )
                stack.extend(typing_extensions.get_args(current))
                if (
                    isinstance(current, type)
                    and id(current) not in seen
                    and any(b.__module__.startswith(library) for b in current.__mro__[1:])
                ):
                    pending.append((current, current.__name__))


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
        self.defs: dict[str, Node] = {}
        self._names: dict[Any, str] = {}
        self._checks: dict[Any, Check] = {}
        self._building: dict[Any, bool] = {}

    # -- entry -------------------------------------------------------------------------

    def compile(self, tp: Any, where: str) -> tuple[Node, Check, _Info]:
        """Return ``(node, check, info)`` for an annotation; ``where`` names it in errors."""
        info = _Info()
        base = tp
        while get_origin(base) is Annotated:
            args = get_args(base)
            _read_metadata(tuple(args[1:]), info, where)
            base = args[0]
        node, check = self._node(base, where)
        if info.constraints:
            node, check = self._constrain(node, check, info.constraints, where)
        if info.description is not None or info.title is not None or info.examples or info.extra:
            examples = tuple(info.examples) if info.examples else None
            extra = tuple(info.extra.items())
            node = Described(node, info.title, info.description, examples, extra)
        return node, check, info

    def root(self, node: Node) -> dict[str, Any]:
        """Return the JSON Schema of a root node, with the collected ``$defs``."""
        return to_root_schema(node, self.defs)

    # -- dispatch ----------------------------------------------------------------------

    def _node(self, tp: Any, where: str) -> tuple[Node, Check]:
        if isinstance(tp, str):
            tp = self._eval(tp, where)
        elif isinstance(tp, typing_extensions.ForwardRef):
            tp = self._eval(tp.__forward_arg__, where)
        if get_origin(tp) is Annotated:
            node, check, info = self.compile(tp, where)
            if info.meta:
                raise ToolDefinitionError(
                    f"{where}: Meta marks a whole parameter, not a nested type"
                )
            return node, check
        if isinstance(tp, TypeAliasType) or type(tp).__name__ == "TypeAliasType":
            return self._named(tp, tp.__name__, where, lambda: self._node(tp.__value__, where))
        supertype = getattr(tp, "__supertype__", None)
        if supertype is not None:  # NewType
            return self._node(supertype, where)
        if tp is Any or tp is object:
            return AnyNode(), check_any
        if tp is None or tp is type(None):
            return NullNode(), check_null
        if tp is bool:
            return BooleanNode(), check_bool
        if tp is int:
            return IntegerNode(), (check_py_int if self.python else check_int)
        if tp is float:
            return NumberNode(), check_number
        if tp is str:
            return StringNode(), check_str
        origin = get_origin(tp)
        if origin is Literal:
            return self._literal(get_args(tp), where)
        if origin in _UNION_TYPES:
            return self._union(get_args(tp), where)
        if origin in (Required, NotRequired, ReadOnly):
            raise ToolDefinitionError(f"{where}: {type_name(tp)} is only valid in a TypedDict")
        if origin is not None:  # before the class test: list[int] is a type on 3.10
            return self._generic(tp, _origin_key(origin), get_args(tp), where)
        if isinstance(tp, type):
            return self._class(tp, where)
        if isinstance(tp, typing_extensions.TypeVar):
            raise ToolDefinitionError(f"{where}: unbound type variable {tp!r} is not supported")
        raise ToolDefinitionError(f"{where}: unsupported annotation {type_name(tp)}")

    def _eval(self, text: str, where: str) -> Any:
        try:
            return eval(text, self.globalns, self.localns)
        except Exception as err:
            raise ToolDefinitionError(
                f"{where}: cannot resolve the annotation {text!r}: {err}"
            ) from err

    def _class(self, tp: Any, where: str) -> tuple[Node, Check]:
        if tp in FORMATS:
            fmt, expected, parse = FORMATS[tp]
            # draft-07 has no "uuid" format; the pattern enforces it in every dialect.
            pattern = {decimal.Decimal: DECIMAL_PATTERN, uuid.UUID: UUID_PATTERN}.get(tp)
            node = FormatNode(tp, fmt, pattern)
            if self.python:
                exclude = dt.datetime if tp is dt.date else None
                return node, instance_check(tp, tp.__name__, exclude)
            return node, format_check(expected, parse)
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
                _refuse_param_inside(tp, "pydantic", where)
                return self._pydantic(tp, where)
            if base.__name__ == "Struct" and module.startswith("msgspec"):
                _refuse_param_inside(tp, "msgspec", where)
                return self._msgspec(tp, where)
        raise ToolDefinitionError(f"{where}: unsupported type {type_name(tp)}")

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
        build: Callable[[], tuple[Node, Check]],
    ) -> tuple[Node, Check]:
        ref = RefNode(self._def_name(key, name))
        known = self._checks.get(key)
        if known is not None:
            if key in self._building:
                self._building[key] = True
            return ref, known
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
            node, check = build()
        finally:
            recursive = self._building.pop(key)
        cell.append(check)
        self.defs[self._names[key]] = node
        # Only a type that refers to itself pays for the depth guard.
        self._checks[key] = guarded if recursive else check
        return ref, self._checks[key]

    # -- scalars with choices ----------------------------------------------------------

    def _literal(self, values: tuple[Any, ...], where: str) -> tuple[Node, Check]:
        flat: list[Any] = []
        for value in values:
            if get_origin(value) is Literal:
                flat.extend(get_args(value))
            elif value is None or isinstance(value, (enum.Enum, str, int, bool)):
                flat.append(value)
            else:
                raise ToolDefinitionError(
                    f"{where}: Literal value {truncate_text(repr(value), 60)} is not JSON"
                )
        json_values = [v.value if isinstance(v, enum.Enum) else v for v in flat]
        for v in json_values:
            if not (v is None or isinstance(v, (str, int, bool))):
                raise ToolDefinitionError(
                    f"{where}: Literal value {truncate_text(repr(v), 60)} is not JSON"
                )
        node = ChoiceNode(tuple(json_values))
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
            errs.append(type_err(expected, v))
            return BAD

        if not others and all(type(p) is str for p in flat):
            keys = frozenset(strings)
            describe(check, Leaf(lambda x, k: f"type({x}) is str and {x} in {k(keys)}"))
        return node, check

    def _enum(self, tp: type[enum.Enum], where: str) -> tuple[Node, Check]:
        members = list(tp)
        values = [m.value for m in members]
        for v in values:
            if isinstance(v, bool) or not isinstance(v, (str, int)):
                raise ToolDefinitionError(
                    f"{where}: Enum {tp.__qualname__} has a value {truncate_text(repr(v), 60)}; "
                    "only str and int values are supported"
                )
        node = ChoiceNode(tuple(values), _own_doc(tp))
        if self.python:
            return node, instance_check(tp, tp.__qualname__)
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
                errs.append(type_err(expected, v))
                return BAD
            return hit

        return node, check

    def _union(self, args: tuple[Any, ...], where: str) -> tuple[Node, Check]:
        branches = [self._node(a, where) for a in args]
        union = UnionNode(tuple(s for s, _ in branches))
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
                # Only an error about the value itself becomes "X or null": one
                # deeper inside (an item, a property) keeps its own path and text.
                error = errs[start] if out is BAD and len(errs) == start + 1 else None
                if error is not None and error.expected and not error.rpath:
                    old = errs[start].expected
                    pair = f"null or {old}" if null_first else f"{old} or null"
                    errs[start] = type_err(pair, v)
                return out

            return union, describe(optional, OptionalOf(inner))

        def check(v: Any, errs: list[Err]) -> Any:
            expected: list[str] = []
            deep: list[list[Err]] = []
            for branch in checks:
                sub: list[Err] = []
                out = branch(v, sub)
                if out is not BAD:
                    return out
                if len(sub) == 1 and sub[0].expected and not sub[0].rpath:
                    expected.append(sub[0].expected)
                else:
                    deep.append(sub)
            if not deep:
                errs.append(type_err(" or ".join(expected), v))
            elif len(deep) == 1:
                # The one branch of the value's type: its problems say what to fix.
                errs.extend(deep[0])
            else:
                errs.append(Err(f"matches none of the {len(checks)} alternatives"))
            return BAD

        return union, check

    # -- containers ----------------------------------------------------------------------

    def _generic(self, tp: Any, key: Any, args: tuple[Any, ...], where: str) -> tuple[Node, Check]:
        if key in _SEQUENCES:
            item = args[0] if args else Any
            node, check = self._node(item, where)
            kind: Any = list if key is list else "sequence"
            accel: list[Callable[[Any], Any]] = []
            array = self._array(check, kind, accel)
            if self.python:
                kinds: tuple[type, ...] = (list,) if kind is list else (list, tuple)
                describe(array, ListOf(check, [], kinds))
            else:
                describe(array, ListOf(check, accel))
            return ArrayNode(node), array
        if key in _SETS:
            item = args[0] if args else Any
            node, check = self._node(item, where)
            array = self._array(check, frozenset if key is frozenset else set)
            if self.python:
                kinds = (frozenset,) if key is frozenset else (set, frozenset)
                describe(array, ListOf(check, [], kinds))
            return ArrayNode(node, unique=True), array
        if key is tuple:
            if not args:
                args = (Any, ...)
            if len(args) == 2 and args[1] is Ellipsis:
                node, check = self._node(args[0], where)
                array = self._array(check, tuple)
                if self.python:
                    describe(array, ListOf(check, [], (tuple,)))
                return ArrayNode(node), array
            if args == ((),):
                args = ()
            parts = [self._node(a, where) for a in args]
            return TupleNode(tuple(s for s, _ in parts)), self._fixed([c for _, c in parts])
        if key in _MAPPINGS:
            k, v = args if args else (str, Any)
            if k is not str:
                raise ToolDefinitionError(f"{where}: object keys must be str, got {type_name(k)}")
            node, check = self._node(v, where)
            return MappingNode(node), self._mapping(check)
        raise ToolDefinitionError(f"{where}: unsupported annotation {type_name(tp)}")

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
                errs.append(type_err(expected, v))
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
                    prefix(errs, start, i)
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
                errs.append(type_err("array", v))
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
                    prefix(errs, start, i)
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
                errs.append(type_err("object", v))
                return BAD
            out: dict[str, Any] = {}
            bad = False
            for k, x in entries(v):
                if not isinstance(k, str):
                    errs.append(Err(f"object keys must be strings, got {excerpt(k)}"))
                    bad = True
                    continue
                start = len(errs)
                r = value(x, errs)
                if r is BAD:
                    bad = True
                    prefix(errs, start, k)
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
                errs.append(type_err("object", v))
                return BAD
            out: dict[str, Any] = {}
            bad = False
            for key, x in entries(v):
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
                    prefix(errs, start, key)
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

        if build is None and extra is None:
            # Python values (``python``) are checked, never converted: only the
            # code generator's checking mode may read this shape of them.
            describe(check, ObjectOf(tuple(Field(*f) for f in fields)))
        return check

    def _typeddict(self, tp: Any, where: str) -> tuple[Node, Check]:
        hints = self._hints(tp, where)
        required_keys: frozenset[str] = getattr(tp, "__required_keys__", frozenset())
        docs = _field_docs(tp)
        props: list[Prop] = []
        fields: list[tuple[str, Check, bool, Any]] = []
        for key, hint in hints.items():
            # Under ``from __future__ import annotations`` the class cannot see
            # NotRequired in its string annotations; the resolved hint can.
            required = _qualified(hint, key in required_keys)
            hint = _strip_qualifiers(hint)
            node, check, _ = self.compile(hint, f"{where}: {tp.__name__}.{key}")
            props.append(Prop(key, node, required, docs.get(key)))
            fields.append((key, check, required, MISSING))
        return ObjectNode(tuple(props), _own_doc(tp)), self.object_check(fields, None, None)

    def _record(self, tp: Any, where: str) -> tuple[Node, Check]:
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
        props: list[Prop] = []
        fields: list[tuple[str, Check, bool, Any]] = []
        for key, required, default in names:
            where_key = f"{where}: {tp.__name__}.{key}"
            node, field_check, _ = self.compile(hints.get(key, Any), where_key)
            json_default = BAD
            if not required and default is not dataclasses.MISSING:
                json_default = to_json(default)
            has_default = json_default is not BAD
            default_value = json_default if has_default else None
            props.append(Prop(key, node, required, docs.get(key), default_value, has_default))
            fields.append((key, field_check, required, MISSING))
        schema = ObjectNode(tuple(props), _own_doc(tp))
        if self.python:
            return schema, instance_check(tp, tp.__qualname__)
        name = tp.__qualname__

        def build(values: dict[str, Any]) -> Any:
            return tp(**values)

        inner = self.object_check(fields, None, build)

        def check(v: Any, errs: list[Err]) -> Any:
            try:
                return inner(v, errs)
            except (TypeError, ValueError) as err:
                errs.append(Err(f"invalid {name}: {safe_str(err, 200)}"))
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
            raise ToolDefinitionError(
                f"{where}: cannot resolve the annotations of {tp.__qualname__}: {err}"
            ) from err

    # -- library models ----------------------------------------------------------------

    def _hoist(self, schema: dict[str, Any], defs: Mapping[str, Any]) -> Node:
        renames: dict[str, str] = {}
        for name in defs:
            renames[name] = self._def_name(("lib", name, id(defs)), name)
        for name, body in defs.items():
            self.defs[renames[name]] = LibraryNode(_rename_refs(body, renames))
        return LibraryNode(_rename_refs(schema, renames))

    def _pydantic(self, tp: Any, where: str) -> tuple[Node, Check]:
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
            return schema, instance_check(tp, tp.__qualname__)

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
                    issue = Err(safe_str(e["msg"], 200))
                    issue.rpath.extend(reversed(e["loc"]))
                    errs.append(issue)
                return BAD

        return schema, check

    def _msgspec(self, tp: Any, where: str) -> tuple[Node, Check]:
        import msgspec

        (raw,), defs = msgspec.json.schema_components([tp], ref_template="#/$defs/{name}")
        schema = self._hoist(dict(raw), defs)
        if self.python:
            return schema, instance_check(tp, tp.__qualname__)
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
                errs.append(Err(safe_str(err, 200)))
                return BAD

        return schema, check

    # -- constraints ---------------------------------------------------------------------

    def _constrain(
        self, node: Node, check: Check, constraints: dict[str, Any], where: str
    ) -> tuple[Node, Check]:
        kind = to_schema(node).get("type")
        if kind in ("integer", "number"):
            return _numeric(node, check, constraints, where)
        if kind in ("string", "array", "object"):
            return _sized(node, check, constraints, kind, where)
        raise ToolDefinitionError(
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
        return [_rename_refs(v, renames) for v in items_of(node)]
    return node


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


def _compare(op: str, bound: Any, *, length: bool = False) -> Render:
    """Return the test ``value <op> bound`` (``len(value)`` with ``length``), bound a constant."""
    if length:
        return lambda x, k: f"len({x}) {op} {k(bound)}"
    return lambda x, k: f"{x} {op} {k(bound)}"


def _numeric(node: Node, check: Check, c: dict[str, Any], where: str) -> tuple[Node, Check]:
    unknown = set(c) - set(_NUMERIC)
    if unknown:
        raise ToolDefinitionError(f"{where}: {sorted(unknown)} do not apply to a number")
    for key, value in c.items():
        if not _is_number(value):
            raise ToolDefinitionError(
                f"{where}: {key} must be a number, got {truncate_text(repr(value), 60)}"
            )
        if isinstance(value, float) and math.isnan(value):
            raise ToolDefinitionError(
                f"{where}: {key} is NaN, which no number satisfies; use a number or infinity"
            )
    step = c.get("multiple_of")
    if step is not None and isinstance(step, float) and math.isinf(step):
        raise ToolDefinitionError(f"{where}: multiple_of must be finite")
    if c.get("multiple_of") is not None and c["multiple_of"] <= 0:
        raise ToolDefinitionError(f"{where}: multiple_of must be greater than 0")
    for key in ("gt", "ge", "lt", "le"):
        bound = c.get(key)
        # JSON has no infinity: a bound no JSON number meets is refused (the
        # schema leaves out one every JSON number meets).
        lower = key in ("gt", "ge")
        if isinstance(bound, float) and math.isinf(bound) and (bound > 0) == lower:
            raise ToolDefinitionError(
                f"{where}: {key}={bound} leaves no number to accept; use a finite bound"
            )
    out = Constrained(node, **{k: c[k] for k in _NUMERIC if k in c})
    gt, ge, lt, le, step = (c.get(k) for k in _NUMERIC)
    # The messages' fixed parts, formatted once.
    gt_text = f"must be greater than {gt}, got "
    ge_text = f"must be greater than or equal to {ge}, got "
    lt_text = f"must be less than {lt}, got "
    le_text = f"must be less than or equal to {le}, got "
    step_text = f"must be a multiple of {step}, got "
    # The classes the base check returns unchanged: no need to call it for them.
    exact1, exact2 = EXACT.get(check, (NoClass, NoClass))

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

    leaf = shape_of(check)
    if isinstance(leaf, Leaf) and step is None:
        for bound, op in ((gt, ">"), (ge, ">="), (lt, "<"), (le, "<=")):
            if bound is not None:
                leaf = leaf.also(_compare(op, bound))
        describe(bounded, leaf)
    return out, bounded


def _sized(
    node: Node, check: Check, c: dict[str, Any], kind: str, where: str
) -> tuple[Node, Check]:
    allowed = {*_LENGTH, "pattern"} if kind == "string" else set(_LENGTH)
    unknown = set(c) - allowed
    if unknown:
        raise ToolDefinitionError(f"{where}: {sorted(unknown)} do not apply to a {kind}")
    unit = {"string": "character", "array": "item", "object": "property"}[kind]
    lo, hi = c.get("min_length"), c.get("max_length")
    for name, value in (("min", lo), ("max", hi)):
        if value is not None and (
            not isinstance(value, int) or isinstance(value, bool) or value < 0
        ):
            raise ToolDefinitionError(f"{where}: {name}_length must be an int >= 0")
    search: Callable[[str], Any] | None = None
    if "pattern" in c:
        try:
            search = ecma_regex(c["pattern"]).search
        except re.error as err:
            raise ToolDefinitionError(
                f"{where}: invalid pattern {truncate_text(repr(c['pattern']), 80)}: {err}"
            ) from err
    out = Constrained(node, min_length=lo, max_length=hi, pattern=c.get("pattern"))
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

    leaf = shape_of(check)
    if isinstance(leaf, Leaf) and search is None:
        if lo is not None:
            leaf = leaf.also(_compare(">=", lo, length=True))
        if hi is not None:
            leaf = leaf.also(_compare("<=", hi, length=True))
        describe(sized, leaf)
    return out, sized
