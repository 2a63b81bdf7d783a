"""The checks' common vocabulary: the invalid marker, one problem, and the leaf checks.

A check is ``check(value, errs)``: it returns the (converted) value, or ``BAD``
after appending its problems to ``errs``. Leaf checks (string, integer, ...) are
the building blocks every compiled check and the generated code share.

Layer: function tools (imports only standard_tool._core, standard_tool._shared and this
package; pydantic/msgspec lazily).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any

from typing_extensions import TypeAlias

from standard_tool._shared import MAX_ISSUES, truncate_text

__all__ = ["BAD", "MAX_DEPTH", "MAX_ISSUES", "MISSING", "Check", "Err", "excerpt"]

#: How deep a recursive type may nest in one value before validation stops.
MAX_DEPTH = 64

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


#: A missing value (no default, an absent key).
MISSING: Any = object()

#: A compiled check: returns the (converted) value, or ``BAD`` after appending errors.
Check: TypeAlias = Callable[[Any, "list[Err]"], Any]


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
        n = size_of(value)
        return f"array ({n} item{'' if n == 1 else 's'})"
    if isinstance(value, dict):
        n = size_of(value)
        return f"object ({n} propert{'y' if n == 1 else 'ies'})"
    return f"Python {type(value).__qualname__[:_EXCERPT]}"


def size_of(value: Any) -> int:
    return len(value)


def entries(value: Any) -> Any:
    """``value.items()`` of a dict known only as ``Any`` (keeps both type checkers quiet)."""
    return value.items()


def items_of(value: Any) -> Any:
    return value


def type_err(expected: str, value: object) -> Err:
    return Err(f"expected {expected}, got {excerpt(value)}", expected)


def prefix(errs: list[Err], start: int, key: Any) -> None:
    for i in range(start, len(errs)):
        errs[i].rpath.append(key)


def short(obj: object) -> str:
    """Name ``obj`` in a message: its qualified name or repr, at most 80 characters."""
    return truncate_text(str(getattr(obj, "__qualname__", None) or repr(obj)), 80)


def type_name(tp: object) -> str:
    if isinstance(tp, type):
        return tp.__qualname__
    return repr(tp).replace("typing_extensions.", "").replace("typing.", "")


# --------------------------------------------------------------------------------------
# Leaf checks
# --------------------------------------------------------------------------------------


def check_str(v: Any, errs: list[Err]) -> Any:
    if type(v) is str or isinstance(v, str):
        return v
    errs.append(type_err("string", v))
    return BAD


def check_int(v: Any, errs: list[Err]) -> Any:
    t = v.__class__
    if t is int:
        return v
    if t is float and v.is_integer():
        return int(v)
    if isinstance(v, int) and t is not bool:
        return int(v)
    errs.append(type_err("integer", v))
    return BAD


def check_number(v: Any, errs: list[Err]) -> Any:
    t = v.__class__
    if t is float or t is int or (isinstance(v, (int, float)) and t is not bool):
        return v
    errs.append(type_err("number", v))
    return BAD


def check_bool(v: Any, errs: list[Err]) -> Any:
    if v is True or v is False:
        return v
    errs.append(type_err("boolean", v))
    return BAD


def check_null(v: Any, errs: list[Err]) -> Any:
    if v is None:
        return v
    errs.append(type_err("null", v))
    return BAD


def check_any(v: Any, errs: list[Err]) -> Any:
    return v


#: ``render(value_expr, constant)``: the source of a test; ``constant(obj)`` binds
#: ``obj`` in the generated code's namespace and returns the name to write.
Render: TypeAlias = Callable[[str, Callable[[Any], str]], str]


class Leaf:
    """A check the generated code inlines as one test of the value.

    When the test fails, the check appends exactly one ``Err`` with an empty
    path, so the generated code can give that error its path in place.
    """

    __slots__ = ("base", "render", "trivial")

    render: Render
    #: The test is always true (``Any``): the generated code leaves it out.
    trivial: bool
    #: For a leaf made by ``also``: the first leaf's test alone. A value that
    #: passes it but fails the whole test is certainly invalid (the check keeps
    #: such a value as it is and applies the same added tests), so the generated
    #: code records it without calling the check, which runs when the error is read.
    base: Render | None

    def __init__(self, render: Render, trivial: bool = False, base: Render | None = None) -> None:
        self.render = render
        self.trivial = trivial
        self.base = base

    def test(self, src: str, constant: Callable[[Any], str]) -> str:
        """Return the test's source for the value ``src``."""
        return "True" if self.trivial else self.render(src, constant)

    def also(self, render: Render) -> Leaf:
        """Return a leaf that also requires ``render``'s test.

        The check it describes must return a value passing this leaf's test
        unchanged and then fail exactly when ``render``'s test does.
        """
        first = self.render
        if self.trivial:
            return Leaf(render)
        return Leaf(
            lambda x, k: f"{first(x, k)} and {render(x, k)}",
            base=first if self.base is None else self.base,
        )


class OptionalOf:
    """``None`` or what ``inner`` accepts (its errors read "X or null")."""

    __slots__ = ("inner",)

    inner: Check

    def __init__(self, inner: Check) -> None:
        self.inner = inner


class ListOf:
    """An array of ``item``: a JSON array converted to a list, or a Python collection.

    ``accel`` receives the generated fast check of one item once there is one:
    the full check tries it first on each item. ``kinds``: the classes of
    collection accepted as they are (Python values; a JSON array is a list).
    """

    __slots__ = ("accel", "item", "kinds")

    item: Check
    accel: list[Callable[[Any], Any]]
    kinds: tuple[type, ...]

    def __init__(
        self, item: Check, accel: list[Callable[[Any], Any]], kinds: tuple[type, ...] = (list,)
    ) -> None:
        self.item = item
        self.accel = accel
        self.kinds = kinds


class Field:
    """One property of an object: its key, check, whether it is required, its default."""

    __slots__ = ("check", "default", "key", "required")

    key: str
    check: Check
    required: bool
    default: Any

    def __init__(self, key: str, check: Check, required: bool, default: Any) -> None:
        self.key = key
        self.check = check
        self.required = required
        self.default = default


class ObjectOf:
    """An object of known properties, unknown ones refused (a JSON one converted to a dict)."""

    __slots__ = ("fields",)

    fields: tuple[Field, ...]

    def __init__(self, fields: tuple[Field, ...]) -> None:
        self.fields = fields


#: What the code generator knows of a check it may inline.
Shape: TypeAlias = "Leaf | OptionalOf | ListOf | ObjectOf"

_SHAPES: weakref.WeakKeyDictionary[Check, Shape] = weakref.WeakKeyDictionary()


def describe(check: Check, shape: Shape) -> Check:
    """Record what ``check`` does, for the code generator; return ``check``."""
    _SHAPES[check] = shape
    return check


def shape_of(check: Check) -> Shape | None:
    """Return what ``describe`` recorded for ``check`` (``None``: call it as is)."""
    return _SHAPES.get(check)


describe(check_str, Leaf(lambda x, k: f"type({x}) is str"))
describe(check_int, Leaf(lambda x, k: f"type({x}) is int"))
describe(check_number, Leaf(lambda x, k: f"(type({x}) is float or type({x}) is int)"))
describe(check_bool, Leaf(lambda x, k: f"type({x}) is bool"))
describe(check_null, Leaf(lambda x, k: f"{x} is None"))
describe(check_any, Leaf(lambda x, k: "True", trivial=True))


def format_check(expected: str, parse: Callable[[str], Any]) -> Check:
    def check(v: Any, errs: list[Err]) -> Any:
        if isinstance(v, str):
            out = parse(v)
            if out is not None:
                return out
            errs.append(Err(f"expected {expected}, got {excerpt(v)}"))
            return BAD
        errs.append(type_err("string", v))
        return BAD

    return check


def instance_check(
    cls: type | tuple[type, ...], expected: str, exclude: type | None = None
) -> Check:
    def check(v: Any, errs: list[Err]) -> Any:
        if isinstance(v, cls) and (exclude is None or not isinstance(v, exclude)):
            return v
        errs.append(type_err(expected, v))
        return BAD

    if exclude is None:
        return describe(check, Leaf(lambda x, k: f"isinstance({x}, {k(cls)})"))
    return describe(
        check,
        Leaf(lambda x, k: f"isinstance({x}, {k(cls)}) and not isinstance({x}, {k(exclude)})"),
    )


check_py_int = describe(
    instance_check(int, "integer", bool), Leaf(lambda x, k: f"type({x}) is int")
)


class NoClass:
    """The class of no value (never instantiated)."""


#: Checks that return a value of either exact class unchanged (and append nothing).
EXACT: dict[Check, tuple[type, type]] = {
    check_int: (int, int),
    check_py_int: (int, int),
    check_number: (int, float),
}
