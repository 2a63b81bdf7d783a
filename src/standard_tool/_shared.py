"""Small helpers shared by every layer above the core: one of each, used everywhere.

Layer: shared helpers (beside the core; imports only ``standard_tool._core``).

- ``truncate_text`` / ``safe_str`` / ``safe_repr``: the one rule for bounding text (the
  core bounds its own error messages the same way, with a helper of its own).
- ``is_async_callable``: the one rule for "calling this returns a coroutine" (the core's).
- ``is_validation_error``: the one rule for "this is a validation error", whichever copy
  of the core raised it.
- ``resolve_pointer`` / ``pointer_tokens`` / ``pointer_text``: the one JSON
  Pointer reader and writer (RFC 6901 inside a URI fragment, so ``%20`` is a
  space and ``~1`` a slash).
- ``ecma_regex``: the one way a JSON Schema ``pattern`` is compiled, with the
  ECMA-262 meaning JSON Schema gives it rather than Python's.
- ``fresh_copy`` / ``Snapshot``: the one way a cached schema or declaration is
  handed out, so no caller can change what the next one gets.
- ``timeout_problem`` / ``checked_timeout``: the one rule for what a timeout may be.
- ``MAX_ISSUES`` / ``STOPPED``: the one bound on the issues of one validation.
- ``run_blocking``: the one way sync code runs a coroutine to its end, inside a
  running event loop or not (the framework bridges' sync entry points).
"""

from __future__ import annotations

import functools
import marshal
import math
import re
from collections.abc import Coroutine, Iterable, Mapping
from typing import Any, Generic, cast

from typing_extensions import TypeVar

from standard_tool._core import StandardToolValidationError, is_async_callable

_T = TypeVar("_T")

__all__ = [
    "MAX_ISSUES",
    "MISSING",
    "STOPPED",
    "Snapshot",
    "checked_timeout",
    "ecma_regex",
    "ecma_source",
    "fresh_copy",
    "is_async_callable",
    "is_validation_error",
    "pointer_ref",
    "pointer_text",
    "pointer_tokens",
    "resolve_pointer",
    "run_blocking",
    "safe_repr",
    "safe_str",
    "timeout_problem",
    "truncate_text",
]


#: Most issues one validation reports, the stop marker included: a validator stops
#: looking at its ``MAX_ISSUES``-th problem and reports the first ``MAX_ISSUES - 1``
#: followed by ``STOPPED`` (an issue without a path), so ``len(issues) <= MAX_ISSUES``.
MAX_ISSUES = 50

#: The message of the last issue of a validation that stopped looking (the core's
#: ``StandardToolValidationError`` then says "and at least N more issues").
STOPPED = f"validation stopped after {MAX_ISSUES} issues"


def truncate_text(text: str, limit: int) -> str:
    """Cut ``text`` to at most ``limit`` characters, ending ``... [truncated N characters]``."""
    if len(text) <= limit:
        return text
    room = limit - len("... [truncated  characters]") - len(str(len(text)))
    if room < 1:
        return "." * max(limit, 0) if limit <= 3 else f"{text[: limit - 3]}..."
    return f"{text[:room]}... [truncated {len(text) - room} characters]"


def safe_str(obj: object, limit: int = 400) -> str:
    """Return ``str(obj)`` cut to ``limit`` characters, never raising, lone surrogates escaped."""
    if type(obj) is str and len(obj) <= limit and obj.isascii():
        return obj
    try:
        text = str(obj)
    except Exception:  # a hostile __str__ must not turn a message into a crash
        text = f"<{type(obj).__name__} object: str() failed>"
    text = truncate_text(text, limit)
    return text if text.isascii() else text.encode("utf-8", "backslashreplace").decode("utf-8")


def safe_repr(obj: object, limit: int = 80) -> str:
    """Return ``repr(obj)`` cut to ``limit`` characters, never raising."""
    try:
        text = repr(obj)
    except Exception:  # a hostile __repr__ must not turn a message into a crash
        text = f"<{type(obj).__name__} object: repr() failed>"
    return truncate_text(text, limit)


def is_validation_error(exc: BaseException) -> bool:
    """Whether ``exc`` is a ``StandardToolValidationError``, the package's or a vendored core's.

    Recognised by what it is, not by class identity: a ``ValueError`` whose ``target`` is
    ``"input"`` or ``"output"`` and whose ``issues`` is a tuple (a copy of the core pasted
    into another project raises its own class of that shape).
    """
    if isinstance(exc, StandardToolValidationError):
        return True
    if not isinstance(exc, ValueError):
        return False
    try:
        target, issues = getattr(exc, "target", None), getattr(exc, "issues", None)
    except Exception:  # a hostile property: not one of ours, whatever it claims
        return False
    return isinstance(target, str) and target in ("input", "output") and type(issues) is tuple


def fresh_copy(value: _T) -> _T:
    """Return a deep copy of ``value``: fast for JSON data, ``copy.deepcopy`` for the rest.

    Cached schemas and declarations are plain dicts, lists, strings, numbers,
    booleans and ``None``; ``marshal`` copies exactly those builtin types in C,
    about five times faster than ``copy.deepcopy``, keeping key order, ``bool``
    apart from ``int``, and shared or circular parts as they are. Anything
    else (an enum member, a ``dict`` subclass, any other object) makes it refuse
    the whole value, which then goes through ``copy.deepcopy``.
    """
    try:
        return cast("_T", marshal.loads(marshal.dumps(cast("Any", value))))
    except ValueError:  # an object marshal does not write, or nested past its limit
        import copy

        return copy.deepcopy(value)


class Snapshot(Generic[_T]):
    """A value kept unchangeable, handing out fresh deep copies of itself (``get``).

    JSON data is kept as ``marshal`` bytes, so each copy costs one C-level read (about
    two thirds of ``fresh_copy``); anything else is kept as a deep copy and deep-copied
    again on the way out.
    """

    __slots__ = ("_data", "_value")

    def __init__(self, value: _T) -> None:
        self._value: _T | None = None
        try:
            self._data: bytes | None = marshal.dumps(cast("Any", value))
        except ValueError:  # not JSON data only: see ``fresh_copy``
            import copy

            self._data = None
            self._value = copy.deepcopy(value)

    def get(self) -> _T:
        """Return a fresh deep copy of the value."""
        data = self._data
        if data is not None:
            return cast("_T", marshal.loads(data))
        import copy

        return copy.deepcopy(cast("_T", self._value))  # marshal refused it once already


def timeout_problem(timeout: object) -> str | None:
    """Return why ``timeout`` is not a usable timeout, or ``None`` when it is.

    A timeout is ``None`` (no deadline of its own), a positive finite number of
    seconds (``int`` or ``float``), or ``math.inf`` (no deadline). Everything else is
    refused: zero, negative numbers, ``-inf``, ``nan``, ``bool`` and non-numbers.
    """
    if timeout is None:
        return None
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)):
        return (
            "timeout: must be a positive number of seconds, math.inf or None, "
            f"got {type(timeout).__name__} {safe_repr(timeout, 40)}"
        )
    if math.isnan(timeout) or timeout <= 0:
        return (
            "timeout: must be a positive number of seconds, math.inf or None, "
            f"got {safe_repr(timeout, 40)}"
        )
    return None


def checked_timeout(timeout: object, where: str) -> float | None:
    """Return ``timeout`` as a ``float`` (or ``None``), refusing what ``timeout_problem`` refuses.

    Raises:
        TypeError: ``timeout`` is not a number (a ``bool`` is not one here).
        ValueError: it is zero, negative, ``-inf`` or ``nan``.
    """
    if timeout is None:
        return None
    if type(timeout) is float and timeout > 0:  # the common case (``nan > 0`` is false)
        return timeout
    if type(timeout) is int and timeout > 0:  # not a ``bool``: its type is not ``int``
        return float(timeout)
    problem = timeout_problem(timeout)
    if problem is None:
        return float(cast("float", timeout))
    wrong_type = isinstance(timeout, bool) or not isinstance(timeout, (int, float))
    raise (TypeError if wrong_type else ValueError)(f"{where}: {problem}")


class _Missing:
    """The type of ``MISSING``: a pointer that resolves to nothing."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "MISSING"


#: What ``resolve_pointer`` returns for a pointer that leads nowhere.
MISSING: Any = _Missing()


def _unquote(text: str) -> str:
    """Decode percent-escapes (``urllib.parse`` is imported only for text that has one)."""
    if "%" not in text:
        return text
    from urllib.parse import unquote

    return unquote(text)


def pointer_tokens(fragment: str) -> list[str]:
    """Return the reference tokens of a URI-fragment JSON Pointer (``#/a/b~1c`` or ``/a/b``).

    Percent-escapes are decoded first (the pointer sits in a URI), then ``~1`` and
    ``~0``, in that order. ``"#"`` and ``""`` (the whole document) give ``[]``.
    """
    text = _unquote(fragment[1:] if fragment.startswith("#") else fragment)
    if not text:
        return []
    return [token.replace("~1", "/").replace("~0", "~") for token in text.split("/")[1:]]


def resolve_pointer(document: Any, fragment: str) -> Any:
    """Return the value ``fragment`` (``#/...``) points to in ``document``, or ``MISSING``.

    Array tokens must be canonical decimal indices (``0``, ``12``; not ``01`` or ``-1``).
    A fragment that is not a pointer (``#name``, a ``$anchor``) is ``MISSING`` here,
    never the whole document.
    """
    text = _unquote(fragment[1:] if fragment.startswith("#") else fragment)
    if text and not text.startswith("/"):
        return MISSING
    node = document
    for token in pointer_tokens(fragment):
        if isinstance(node, Mapping):
            if token not in node:
                return MISSING
            node = node[token]  # pyright: ignore[reportUnknownVariableType]
        elif isinstance(node, list):
            if not token.isdigit() or (token != "0" and token.startswith("0")):
                return MISSING
            index = int(token)
            if index >= len(node):  # pyright: ignore[reportUnknownArgumentType]
                return MISSING
            node = node[index]  # pyright: ignore[reportUnknownVariableType]
        else:
            return MISSING
    return node  # pyright: ignore[reportUnknownVariableType]


def pointer_text(path: Iterable[object]) -> str:
    """Return the JSON Pointer (``/a/0``, RFC 6901) of a path of keys and indices.

    ``"#" + pointer_ref(path)`` is the same pointer as a URI fragment.
    """
    return "".join("/" + str(part).replace("~", "~0").replace("/", "~1") for part in path)


def pointer_ref(path: Iterable[object]) -> str:
    """Return the URI-fragment form of ``pointer_text(path)``, percent-encoded (``#/a%20b``)."""
    from urllib.parse import quote

    return "#" + quote(pointer_text(path), safe="/~!$&'()*+,;=:@")


# ECMA-262 whitespace and line terminators (``\s`` and what ``.`` excludes).
_ECMA_SPACE = (
    "\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff"
)
_OUTSIDE = {
    "d": "[0-9]",
    "D": "[^0-9]",
    "w": "[A-Za-z0-9_]",
    "W": "[^A-Za-z0-9_]",
    "s": f"[{_ECMA_SPACE}]",
    "S": f"[^{_ECMA_SPACE}]",
}
_INSIDE = {"d": "0-9", "w": "A-Za-z0-9_", "s": _ECMA_SPACE}


@functools.lru_cache(maxsize=1024)
def ecma_regex(pattern: str) -> re.Pattern[str]:
    r"""Compile a JSON Schema ``pattern`` with its ECMA-262 meaning (``ecma_source``).

    Python's ``re`` backtracks without bound: use it for patterns you wrote; the
    JSON Schema adapter matches the patterns of schemas from elsewhere with a
    time budget.

    Raises:
        re.error: the pattern is not a valid regular expression.
    """
    return re.compile(ecma_source(pattern), re.ASCII)


@functools.lru_cache(maxsize=1024)
def ecma_source(pattern: str) -> str:
    r"""Return a JSON Schema ``pattern`` as a Python regular expression (to compile ``ASCII``).

    JSON Schema patterns are ECMA-262 regular expressions; where that differs
    from Python's ``re``, this follows ECMA: ``$`` matches only at the very end
    (Python's also matches before a final newline, so ``^[a-z]+$`` would accept
    ``"abc"`` followed by a newline); ``.`` excludes every line terminator;
    ``\d`` and ``\w`` are ASCII and ``\s`` is ECMA whitespace; ``(?<name>...)``
    and ``\k<name>`` are named groups. Search semantics, as JSON Schema asks:
    the pattern may match anywhere unless anchored.
    """
    out: list[str] = []
    in_class = False
    i = 0
    n = len(pattern)
    while i < n:
        c = pattern[i]
        if c == "\\" and i + 1 < n:
            nxt = pattern[i + 1]
            if in_class and nxt in _INSIDE:
                out.append(_INSIDE[nxt])
            elif not in_class and nxt in _OUTSIDE:
                out.append(_OUTSIDE[nxt])
            elif nxt == "k" and pattern.startswith("<", i + 2) and ">" in pattern[i + 3 :]:
                end = pattern.index(">", i + 3)
                out.append(f"(?P={pattern[i + 3 : end]})")
                i = end + 1
                continue
            else:
                out.append(pattern[i : i + 2])
            i += 2
            continue
        if in_class:
            if c == "]":
                in_class = False
            out.append(c)
        elif c == "[":
            in_class = True
            out.append(c)
            # A leading ``]`` or ``^]`` is literal in Python but ends an empty class
            # in ECMA; both are rare enough to leave as Python reads them.
        elif c == "$":
            out.append("\\Z")
        elif c == ".":
            out.append("[^\\n\\r\\u2028\\u2029]")
        elif (
            c == "("
            and pattern.startswith("?<", i + 1)
            and pattern[i + 3 : i + 4] not in ("=", "!")
        ):
            out.append("(?P<")
            i += 3
            continue
        else:
            out.append(c)
        i += 1
    # Compiled ASCII, the escapes left as they are (``\\b``, ``\\D``, ``\\W`` in a
    # class) then mean what they mean in ECMA-262.
    return "".join(out)


def run_blocking(run: Coroutine[Any, Any, _T]) -> _T:
    """Run ``run`` to its end from sync code; in a new thread when a loop runs in this one.

    A framework calls a tool's sync entry point from inside its own event loop at times
    (a sync tool wrapper under an async agent); ``asyncio.run`` refuses there, so the
    coroutine then gets a loop of its own in a worker thread, with a copy of the
    caller's context variables.
    """
    import asyncio  # here, not at the top: ``import standard_tool`` never needs it
    import concurrent.futures
    import contextvars

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(run)
    context = contextvars.copy_context()
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(context.run, asyncio.run, run).result()
