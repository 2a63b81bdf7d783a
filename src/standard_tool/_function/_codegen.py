"""Generated validators: straight-line code that checks and collects problems in one pass.

Layer: function tools (imports only standard_tool._core, standard_tool._shared and this
package; pydantic/msgspec lazily).
"""

from __future__ import annotations

import itertools
import linecache
import math
import threading
from collections.abc import Callable, Mapping
from typing import Any, cast

from typing_extensions import TypeAlias

from standard_tool._fast import DEFERRED_ISSUES, DeferredValidationError, new_error
from standard_tool._function._checks import (
    BAD,
    MAX_ISSUES,
    MISSING,
    Check,
    Err,
    Field,
    Leaf,
    ListOf,
    ObjectOf,
    OptionalOf,
    items_of,
    shape_of,
)
from standard_tool._shared import truncate_text

__all__ = ["Fused", "exec_generated", "generate", "generate_check", "generate_execute"]

# --------------------------------------------------------------------------------------
# Code generation: one straight-line function for the common, valid case
# --------------------------------------------------------------------------------------


class _Index:
    """A list index in a generated path: an expression, known when the code runs."""

    __slots__ = ("expr",)

    def __init__(self, expr: str) -> None:
        self.expr = expr


def _rows(fields: tuple[Field, ...]) -> list[tuple[str, Check, bool, Any]]:
    return [(f.key, f.check, f.required, f.default) for f in fields]


#: The longest string, and the widest integer, the generated code writes as a literal.
_LITERAL_CHARS = 100
_LITERAL_INT = 10**15


class _Gen:
    def __init__(self) -> None:
        self.lines: list[str] = []
        self.functions: list[str] = []
        self.pending: list[tuple[list[Any], str]] = []
        self.ns: dict[str, Any] = {"BAD": BAD, "MISSING": MISSING}
        self.keys: dict[str, str] = {}
        self.n = 0
        #: What the fast code does when a test fails.
        self.bail = "return BAD"
        #: The objects the one pass checks field by field: (path, keys, required, known).
        self.shapes: list[tuple[tuple[Any, ...], tuple[str, ...], frozenset[str], frozenset[str]]]
        self.shapes = []
        #: Fusing the handler call (``generate_execute``): a value the pass returns
        #: early goes on through ``FINISH`` (``leave``), and the root object's dict
        #: is not built: its fields' variables by key are left in ``root_names``
        #: (``None``: it must be built).
        self.fusing = False
        self.root_names: dict[str, str] | None = None

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

    def leave(self, value: str) -> str:
        """Return the statement that ends the pass early with ``value`` (the input converted).

        Fusing, the value goes on to the handler and the output check (``FINISH``).
        """
        return f"return FINISH({value}, meta)" if self.fusing else f"return {value}"

    def var(self, prefix: str = "v") -> str:
        self.n += 1
        return f"{prefix}{self.n}"

    def const(self, value: Any) -> str:
        """Return an expression for ``value``: a literal, or a name bound in ``ns``.

        A short string or a plain number is written as its ``repr`` (a literal the
        interpreter loads faster than a closure cell, and always a valid one);
        anything else is bound to a name.
        """
        kind = value.__class__
        if (
            (kind is str and len(value) <= _LITERAL_CHARS)
            or (kind is int and -_LITERAL_INT < value < _LITERAL_INT)
            or (kind is float and math.isfinite(value))
        ):
            text = repr(value)
            return f"({text})" if text.startswith("-") else text
        name = self.var("k")
        self.ns[name] = value
        return name

    def emit(self, line: str, indent: int) -> None:
        self.lines.append("    " * indent + line)

    def node(self, check: Check, src: str, indent: int, depth: int) -> str:
        """Emit code that leaves the converted value in a variable (returned), or returns BAD."""
        shape = shape_of(check) if depth < 8 else None
        if isinstance(shape, Leaf):
            if not shape.trivial:
                self.emit(f"if not ({shape.test(src, self.const)}): {self.bail}", indent)
            return src
        if isinstance(shape, OptionalOf):
            out = self.var()
            self.emit(f"if {src} is None: {out} = None", indent)
            self.emit("else:", indent)
            inner = self.node(shape.inner, src, indent + 1, depth + 1)
            self.emit(f"{out} = {inner}", indent + 1)
            return out
        if isinstance(shape, ListOf):
            out, item = self.var(), self.var("i")
            self.emit(f"if type({src}) is not list: {self.bail}", indent)
            item_shape = shape_of(shape.item)
            if isinstance(item_shape, ObjectOf):
                # A separate function per item type: the fast path calls it, and the
                # full check tries it first on each item, so rejecting one bad item
                # does not re-check the good ones the slow way.
                fn = self.function(shape.item, depth + 1)
                self.pending.append((shape.accel, fn))
                self.emit(f"{out} = []", indent)
                self.emit(f"for {item} in {src}:", indent)
                self.emit(f"{item} = {fn}({item})", indent + 1)
                self.emit(f"if {item} is BAD: {self.bail}", indent + 1)
                self.emit(f"{out}.append({item})", indent + 1)
                return out
            if isinstance(item_shape, Leaf):
                self.emit(f"for {item} in {src}:", indent)
                before = len(self.lines)
                self.node(shape.item, item, indent + 1, depth + 1)
                if len(self.lines) == before:
                    self.lines.pop()
                self.emit(f"{out} = list({src})", indent)
                return out
            self.emit(f"{out} = []", indent)
            self.emit(f"for {item} in {src}:", indent)
            r = self.node(shape.item, item, indent + 1, depth + 1)
            self.emit(f"{out}.append({r})", indent + 1)
            return out
        if isinstance(shape, ObjectOf):
            return self.object(shape.fields, src, indent, depth)
        out = self.var()
        self.emit(f"{out} = {self.const(check)}({src}, [])", indent)
        self.emit(f"if {out} is BAD: {self.bail}", indent)
        return out

    def object(self, shape_fields: tuple[Field, ...], src: str, indent: int, depth: int) -> str:
        fields = _rows(shape_fields)
        self.emit(f"if type({src}) is not dict: {self.bail}", indent)
        required = [f for f in fields if f[2]]
        optional = [f for f in fields if not f[2]]
        names = {f[0]: self.var("f") for f in fields}
        if not optional:
            self.emit(f"if len({src}) != {len(required)}: {self.bail}", indent)
        if required:
            self.emit("try:", indent)
            for key, *_ in required:
                self.emit(f"{names[key]} = {src}[{self.key(key)}]", indent + 1)
            self.emit(f"except KeyError: {self.bail}", indent)
        for key, *_ in optional:
            self.emit(f"{names[key]} = {src}.get({self.key(key)}, MISSING)", indent)
        if optional:
            count = " + ".join(f"({names[k]} is not MISSING)" for k, *_ in optional)
            self.emit(f"if len({src}) != {len(required)} + {count}: {self.bail}", indent)
        out = self.var("o")
        parts: list[str] = []
        for key, check, *_ in required:
            parts.append(f"{self.key(key)}: {self.node(check, names[key], indent, depth + 1)}")
        self.emit(f"{out} = {{{', '.join(parts)}}}", indent)
        for key, check, _, default in optional:
            self.emit(f"if {names[key]} is not MISSING:", indent)
            r = self.node(check, names[key], indent + 1, depth + 1)
            self.emit(f"{out}[{self.key(key)}] = {r}", indent + 1)
            if default is not MISSING:
                self.emit(f"else: {out}[{self.key(key)}] = {self.const(default)}", indent)
        return out

    # -- checking Python values, converting nothing ------------------------------------

    def test(self, check: Check, src: str, indent: int, depth: int) -> None:
        """Emit code that runs ``self.bail`` unless ``src`` passes ``check``; no conversion.

        The tests may be stricter than the check (exact classes): what they refuse
        goes to the full check, which decides.
        """
        shape = shape_of(check) if depth < 8 else None
        if isinstance(shape, Leaf):
            if not shape.trivial:
                self.emit(f"if not ({shape.test(src, self.const)}): {self.bail}", indent)
        elif isinstance(shape, OptionalOf):
            self.block(f"if {src} is not None:", shape.inner, src, indent, depth)
        elif isinstance(shape, ListOf):
            kinds = self.const(frozenset(shape.kinds))
            self.emit(f"if type({src}) not in {kinds}: {self.bail}", indent)
            item = self.var("i")
            self.block(f"for {item} in {src}:", shape.item, item, indent, depth)
        elif isinstance(shape, ObjectOf):
            self.test_object(shape.fields, src, indent, depth)
        else:
            self.emit(f"if {self.const(check)}({src}, []) is BAD: {self.bail}", indent)

    def block(self, head: str, check: Check, src: str, indent: int, depth: int) -> None:
        """Emit ``head`` with the tests of ``check`` inside, or nothing when there are none."""
        self.emit(head, indent)
        before = len(self.lines)
        self.test(check, src, indent + 1, depth + 1)
        if len(self.lines) == before:
            self.lines.pop()

    def test_object(self, fields: tuple[Field, ...], src: str, indent: int, depth: int) -> None:
        required = [f for f in fields if f.required]
        optional = [f for f in fields if not f.required]
        names = {f.key: self.var("f") for f in fields}
        self.emit(f"if type({src}) is not dict: {self.bail}", indent)
        if not optional:
            self.emit(f"if len({src}) != {len(required)}: {self.bail}", indent)
        if required:
            self.emit("try:", indent)
            for f in required:
                self.emit(f"{names[f.key]} = {src}[{self.key(f.key)}]", indent + 1)
            self.emit(f"except KeyError: {self.bail}", indent)
        for f in optional:
            self.emit(f"{names[f.key]} = {src}.get({self.key(f.key)}, MISSING)", indent)
        if optional:
            count = " + ".join(f"({names[f.key]} is not MISSING)" for f in optional)
            self.emit(f"if len({src}) != {len(required)} + {count}: {self.bail}", indent)
        for f in fields:
            if f.required:
                self.test(f.check, names[f.key], indent, depth + 1)
            else:
                head = f"if {names[f.key]} is not MISSING:"
                self.block(head, f.check, names[f.key], indent, depth)

    # -- the one pass that also collects the problems ---------------------------------

    def key(self, key: str) -> str:
        """Bind ``key`` (a property name) as a constant, once; return its name."""
        name = self.keys.get(key)
        if name is None:
            name = self.keys[key] = self.const(key)
        return name

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
            keys = ", ".join(k.expr if isinstance(k, _Index) else self.const(k) for k in rpath)
            if single:
                self.emit(f"errs[-1].rpath = [{keys}]", indent + 1)
            elif any(isinstance(k, _Index) for k in rpath):
                self.emit(f"PREFIX(errs, start, [{keys}])", indent + 1)
            else:
                self.emit(f"PREFIX(errs, start, {self.const(rpath)})", indent + 1)
        self.emit(f"if len(errs) >= MAX_ISSUES: {self.leave(_DONE_NOW)}", indent + 1)

    def leaf_fail(
        self, leaf: Leaf, full: str, src: str, out: str, path: tuple[Any, ...], indent: int
    ) -> None:
        """Emit the branch for a value that failed ``leaf``'s inline test.

        A value that passes the leaf's ``base`` test is certainly invalid: it is
        recorded as ``(check, value, rpath)`` and its ``Err`` made when the errors
        are read (``_recorded``); any other goes through the full check now.
        """
        if leaf.base is None or not path:
            self.fail(f"{full}({src}, errs)", out, path, indent, single=True)
            return
        self.emit(f"if {leaf.base(src, self.const)}:", indent)
        rpath = list(reversed(path))
        if any(isinstance(k, _Index) for k in rpath):
            keys = ", ".join(k.expr if isinstance(k, _Index) else self.const(k) for k in rpath)
            where = f"({keys},)"
        else:
            where = self.const(tuple(rpath))
        self.emit("if errs is None: errs = []", indent + 1)
        self.emit(f"errs.append(({full}, {src}, {where}))", indent + 1)
        self.emit("bad += 1", indent + 1)
        self.emit(f"if len(errs) >= MAX_ISSUES: {self.leave(_DONE_NOW)}", indent + 1)
        self.emit("else:", indent)
        self.fail(f"{full}({src}, errs)", out, path, indent + 1, single=True)

    def spine(self, check: Check, src: str, path: tuple[Any, ...], indent: int, depth: int) -> str:
        """Emit code leaving the converted value in a variable (returned); never returns early.

        The fast tests run inline as in ``node``; where one fails, the node's
        full check runs on that value alone and its problems are recorded, then
        the pass goes on with the next value, so a rejected input is walked once.
        """
        shape = shape_of(check) if depth < 8 else None
        full = self.const(check)
        if isinstance(shape, Leaf) and src != "value":
            if not shape.trivial:
                self.emit(f"if not ({shape.test(src, self.const)}):", indent)
                self.leaf_fail(shape, full, src, src, path, indent + 1)
            return src
        if isinstance(shape, ObjectOf):
            return self.spine_object(check, shape.fields, src, path, indent, depth)
        out = self.var()
        inner_check = (
            shape.inner
            if isinstance(shape, OptionalOf)
            else shape.item
            if isinstance(shape, ListOf)
            else None
        )
        inner = shape_of(inner_check) if inner_check is not None and depth + 1 < 8 else None
        if isinstance(shape, OptionalOf) and isinstance(inner, Leaf):
            self.emit(f"{out} = {src}", indent)
            if not inner.trivial:
                test = inner.test(src, self.const)
                self.emit(f"if {src} is not None and not ({test}):", indent)
                self.leaf_fail(inner, full, src, out, path, indent + 1)
            return out
        if isinstance(shape, ListOf) and isinstance(inner, (Leaf, ObjectOf)):
            item = self.var("i")
            self.emit(f"if type({src}) is list:", indent)
            if isinstance(inner, ObjectOf):
                # The full check tries the item's fast function first on each item.
                self.pending.append((shape.accel, self.function(shape.item, depth + 1)))
                self.emit(f"{out} = []", indent + 1)
                self.emit(f"for {item} in {src}:", indent + 1)
                where = (*path, _Index(f"len({out})"))
                r = self.spine(shape.item, item, where, indent + 2, depth + 1)
                self.emit(f"{out}.append({r})", indent + 2)
            else:
                if not inner.trivial:
                    test = inner.test(item, self.const)
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
        if isinstance(shape, (OptionalOf, ListOf, Leaf)):
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
        shape_fields: tuple[Field, ...],
        src: str,
        path: tuple[Any, ...],
        indent: int,
        depth: int,
    ) -> str:
        fields = _rows(shape_fields)
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
            fallback = self.leave("FALLBACK(value)")
            self.emit(f"if type({src}) is not dict: {fallback}", indent)
            if not optional:
                self.emit(f"if len({src}) != {len(required)}: {fallback}", indent)
            if required:
                self.emit("try:", indent)
                for key, *_ in required:
                    self.emit(f"{names[key]} = {src}[{self.key(key)}]", indent + 1)
                self.emit(f"except KeyError: {fallback}", indent)
            for key, *_ in optional:
                self.emit(f"{names[key]} = {src}.get({self.key(key)}, MISSING)", indent)
            if optional:
                count = " + ".join(f"({names[k]} is not MISSING)" for k, *_ in optional)
                self.emit(f"if len({src}) != {len(required)} + {count}: {fallback}", indent)
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
                self.emit(f"{names[key]} = {src}[{self.key(key)}]", indent + 1)
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
                    self.emit(f"{names[key]} = {src}[{self.key(key)}]", indent + 2)
                self.emit(f"except KeyError: {ok} = False", indent + 1)
            for key, *_ in optional:
                self.emit(f"{names[key]} = {src}.get({self.key(key)}, MISSING)", indent + 1)
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
        if root and self.fusing and all(f[2] or f[3] is not MISSING for f in fields):
            # Every field has a value here: the handler call reads the variables.
            self.root_names = names
            return out
        # The result keys in the fast path's order: required first, then the others.
        literal = [k for k, *_ in required]
        rest = list(optional)
        while rest and rest[0][3] is not MISSING:
            literal.append(rest.pop(0)[0])
        parts = ", ".join(f"{self.key(k)}: {names[k]}" for k in literal)
        self.emit(f"{out} = {{{parts}}}", body)
        for key, _, _, default in rest:
            if default is MISSING:
                self.emit(
                    f"if {names[key]} is not MISSING: {out}[{self.key(key)}] = {names[key]}", body
                )
            else:
                self.emit(f"{out}[{self.key(key)}] = {names[key]}", body)
        if not root and optional:
            self.emit("else:", indent)
            self.fail(f"{self.const(check)}({src}, errs)", out, path, indent + 1)
        return out


_serial = itertools.count(1)


def _compile(source: str, filename: str) -> Any:
    """Compile ``source`` under ``filename``, registered in ``linecache``."""
    code = compile(source, filename, "exec")
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    return code


def exec_generated(source: str, constants: dict[str, Any], what: str) -> dict[str, Any]:
    """Run generated ``source`` (function definitions); return what it defines.

    The code gets a filename of its own, registered in ``linecache``: tracebacks,
    ``inspect.getsource`` and debuggers show the generated lines. The values it
    uses are ``constants`` (only short strings and plain numbers are written as
    literals, by their ``repr``): the functions are defined inside a maker taking
    each constant as a parameter, so the code reads them as closure cells.
    """
    params = ", ".join(constants)
    body = "".join(f"    {line}" if line.strip() else line for line in source.splitlines(True))
    wrapped = f"def __make__({params}):\n{body}\n    return locals()\n"
    filename = f"<standard_tool generated {truncate_text(what, 80)} {next(_serial)}>"
    namespace: dict[str, Any] = {}
    exec(_compile(wrapped, filename), namespace)
    made: dict[str, Any] = namespace["__make__"](**constants)
    return made


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
            elif type(child) is list and not all(_in_order(x, sub) for x in items_of(child)):
                return False
    return True


def generate(
    check: Check,
    success: Callable[[Any], Any] | None,
    failure: Callable[..., Any],
    report: Callable[[list[Err]], Any],
    *,
    raises: bool = False,
    target: str | None = None,
    lazy: bool = False,
    now: bool = False,
    what: str = "validator",
) -> Callable[..., Any]:
    """Return ``validate(value)``: straight-line generated code, one pass over the value.

    A valid value the fast path covers returns ``success(converted)`` (the
    converted value itself when ``success`` is ``None``). Where a
    fast test fails, that value alone goes through its full check, its problems
    are recorded with their path, and the pass goes on; at the end an invalid
    value returns ``report(errs)``, the same problems in the same order as the
    full check, ``failure(value)``, would find (with ``raises``, ``report(errs)``
    returns an exception, which is raised; with ``target``, the code raises
    ``StandardToolValidationError`` for ``target`` itself, its issues
    ``report(errs)`` built when first read). ``failure(value)`` is still used
    when the input is not an object of the right keys, and when its keys come in
    an order that would make the full check report problems in another order.
    ``what`` names the code in its filename (``<standard_tool generated ...>``).

    Compiling a long source costs a few tenths of a millisecond, so it happens
    on the first call, not at decoration (see ``_ready``); ``lazy``: even a
    one-test source (a function the builder may never call); ``now``: compile
    now whatever its size (the caller is itself called on first use).
    """
    return _ready(
        lambda: _source(check, success, failure, report, raises, target),
        what,
        now or (_small(check) and not lazy),
    )


class Fused:
    """What ``generate_execute`` joins to an input's validation: the handler and the output.

    Attributes:
        run: ``run(value, meta)``, the handler on the validated dict (for the
            values the full check converts).
        out: the output's raising convert, or ``None`` for no output check.
        call: the handler call's source for the validated fields' variables by
            key (the names in ``constants`` are its free names).
        constants: what ``call``'s source refers to.
    """

    __slots__ = ("call", "constants", "out", "run")

    def __init__(
        self,
        run: Callable[[Any, Any], Any],
        out: Callable[[Any], Any] | None,
        call: Callable[[Mapping[str, str]], str],
        constants: Mapping[str, Any],
    ) -> None:
        self.run = run
        self.out = out
        self.call = call
        self.constants = constants


def generate_execute(
    check: Check,
    failure: Callable[[Any], Any],
    report: Callable[[list[Err]], Any],
    fused: Fused,
    *,
    what: str,
) -> Callable[..., Any] | None:
    """Return ``execute(input=None, meta=None)``: validation, handler and output in one frame.

    The same code as ``generate(..., raises=True, target="input")``, ending in the
    handler call on the fields' variables (no dict built, no frame in between)
    and the output check, instead of returning the value; where that code would
    return a value the full check converted (``failure``), the value goes through
    ``fused.run`` and ``fused.out``. ``None`` when ``check`` is not an object.
    Compiled now: the caller asks for it on a tool's first call.
    """
    if not isinstance(shape_of(check), ObjectOf):
        return None
    return _ready(
        lambda: _source(check, None, failure, report, True, "input", fused), what, True, "execute"
    )


def generate_check(
    check: Check,
    success: Callable[[Any], Any] | None,
    failure: Callable[..., Any],
    *,
    lazy: bool = False,
    now: bool = False,
    what: str = "validator",
) -> Callable[..., Any]:
    """Return ``validate(value)`` checking a Python value without converting it.

    A value the generated tests pass returns ``success(value)`` (``value`` itself
    when ``success`` is ``None``); any other goes to ``failure(value)``, the full
    check, which decides and reports. Compiled as ``generate``'s code is
    (``lazy`` and ``now`` alike).
    """

    def source() -> tuple[str, dict[str, Any], list[tuple[list[Any], str]]]:
        gen = _Gen()
        gen.bail = "return FALLBACK(value)"
        gen.test(check, "value", 1, 0)
        gen.ns.update(SUCCESS=success, FALLBACK=failure)
        text = "\n".join(
            [
                "def validate(value, /, library_options=None):",
                *gen.lines,
                f"    return {'value' if success is None else 'SUCCESS(value)'}\n",
            ]
        )
        return text, gen.ns, []

    return _ready(source, what, now or (_small(check) and not lazy))


def _small(check: Check) -> bool:
    """Whether the code for ``check`` is one test (a scalar): cheap enough to compile now."""
    return not isinstance(shape_of(check), (ListOf, ObjectOf, OptionalOf))


def _ready(
    generate_source: Callable[[], tuple[str, dict[str, Any], list[tuple[list[Any], str]]]],
    what: str,
    eager: bool,
    entry: str = "validate",
) -> Callable[..., Any]:
    """Return the generated function ``entry``, compiled now (``eager``) or on first use.

    Generating and compiling costs a tenth of a millisecond or more, so only a
    one-test function is compiled at decoration, and returned as is. Other
    code is compiled on the first call: the returned function is a stub calling
    ``IMPL``, a name in its namespace first bound to the compiler, then rebound
    to the generated function.
    """

    def install() -> Callable[..., Any]:
        source, constants, pending = generate_source()
        made = exec_generated(source, constants, what)
        for accel, name in pending:
            if not accel:
                accel.append(made[name])
        validate: Callable[..., Any] = made[entry]
        return validate

    if eager:
        return install()
    namespace: dict[str, Any] = {}
    lock = threading.Lock()

    def first(value: Any, library_options: Any = None) -> Any:
        with lock:
            if namespace["IMPL"] is first:
                namespace["IMPL"] = install()
        return namespace["IMPL"](value, library_options)

    namespace["IMPL"] = first
    exec(_STUB, namespace)
    validate: Callable[..., Any] = namespace["validate"]
    return validate


_STUB = _compile(
    "def validate(value, /, library_options=None):\n    return IMPL(value, library_options)\n",
    "<standard_tool generated validator: calls IMPL, the code compiled on the first call>",
)


def _source(
    check: Check,
    success: Callable[[Any], Any] | None,
    failure: Callable[..., Any],
    report: Callable[[list[Err]], Any],
    raises: bool,
    target: str | None = None,
    fused: Fused | None = None,
) -> tuple[str, dict[str, Any], list[tuple[list[Any], str]]]:
    """Generate the code ``generate`` describes: its source, constants and item checks.

    With ``fused``, the code ``generate_execute`` describes (its function is named
    ``execute``).
    """
    gen = _Gen()
    gen.fusing = fused is not None
    report = _reading(report)
    shape = shape_of(check)
    if isinstance(shape, Leaf):
        if not shape.trivial:
            test = shape.test("value", gen.const)
            gen.emit(f"if not ({test}): {gen.leave('FALLBACK(value)')}", 1)
        result = "value"
    else:
        result = gen.spine(check, "value", (), 1, 0)
    order = _shape_tree(gen.shapes)

    def done(value: Any, errs: list[Err], failed: int) -> Any:
        # Several failed values, or an early stop: the problems are the full
        # check's when the keys come in declaration order.
        if order is None or _in_order(value, order):
            if target is not None:
                raise new_error(DeferredValidationError, target, (DEFERRED_ISSUES, report, errs))
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
    if target is not None:
        # The final error, built by its C constructor: nothing above catches and re-raises.
        gen.ns.update(NEW=new_error, ERROR=DeferredValidationError, TARGET=target)
        gen.ns.update(DEFERRED=DEFERRED_ISSUES)
        one = "raise NEW(ERROR, TARGET, (DEFERRED, REPORT, errs))"
    head = "def validate(value, /, library_options=None):"
    last = f"return {result if success is None else f'SUCCESS({result})'}"
    if fused is not None:
        head, last = _fuse(gen, fused, result)
    source = "\n".join(
        [
            *gen.functions,
            head,
            "    errs = None",
            "    bad = 0",
            *gen.lines,
            f"    if bad == 1: {one}",
            f"    if bad: {gen.leave('DONE(value, errs, bad)')}",
            f"    {last}\n",
        ]
    )
    return source, gen.ns, gen.pending


#: What a pass that met ``MAX_ISSUES`` problems ends with.
_DONE_NOW = "DONE(value, errs, 0)"


def _reading(report: Callable[[list[Err]], Any]) -> Callable[[list[Any]], Any]:
    """``report``, first turning the problems the pass recorded as tuples into ``Err``s."""

    def read(errs: list[Any]) -> Any:
        return report(_recorded(errs))

    return read


def _recorded(errs: list[Any]) -> list[Err]:
    """Make the ``Err`` of each ``(check, value, rpath)`` in ``errs``, in place.

    The generated code records a leaf value it knows to be invalid this way
    (``leaf_fail``); the check called on it now appends the one ``Err`` the full
    check would have, which gets the recorded path.
    """
    for i, err in enumerate(errs):
        if type(err) is tuple:
            check, value, rpath = cast("tuple[Check, Any, tuple[Any, ...]]", err)
            found: list[Err] = []
            if check(value, found) is not BAD or len(found) != 1:  # pragma: no cover
                # Never: ``Leaf.base`` promises the check fails with one error.
                found = [Err(f"invalid value (an internal check disagreed on {value!r:.80})")]
            made = found[0]
            made.rpath = list(rpath)
            errs[i] = made
    return errs


def _fuse(gen: _Gen, fused: Fused, result: str) -> tuple[str, str]:
    """Return the head and last line of ``generate_execute``'s function.

    A value the pass returns before its end (converted by the full check) goes on
    through ``FINISH`` (``_Gen.leave``): the handler, then the output check, as the
    core's builder would take it.
    """
    run, out = fused.run, fused.out

    def finish(value: Any, meta: Any) -> Any:
        output = run(value, meta)
        return output if out is None else out(output)

    gen.ns.update(fused.constants)
    gen.ns.update(FINISH=finish, OUT=out)
    if gen.root_names is None:
        last = f"return FINISH({result}, meta)"
    else:
        call = fused.call(gen.root_names)
        last = f"return {call}" if out is None else f"return OUT({call})"
    # The parameters are named as ``execute``'s are (``input``, ``meta``): callers pass
    # them by keyword too.
    return "def execute(input=None, meta=None):\n    value = input", last
