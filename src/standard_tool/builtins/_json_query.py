"""The ``json_query`` tool: parse JSON text and pick one value out of it by path.

Layer: top (built-in tools; imports function tools, the core and shared helpers).

The path syntax, in full:

- segments are separated by dots: ``user.name``;
- ``[N]`` indexes an array (``items[0]``, ``items[-1]`` for the last item), and a
  bare number does the same (``items.0``);
- ``["..."]`` names a key that holds dots, brackets or quotes, written as a JSON
  string (with JSON's escapes): ``["a.b"]``, ``config["version.major"]``;
- an optional leading ``$`` or ``.`` (``$.items[0]``, ``.items[0]``) is ignored;
  the empty path is the whole document.

The text is at most ``MAX_JSON_CHARS`` characters, nested at most ``MAX_DEPTH``
levels (checked before parsing, so the parser never recurses deeply), and every
integer literal at most ``MAX_INT_DIGITS`` digits. ``NaN`` and ``Infinity`` are
refused: they are not JSON.
"""

from __future__ import annotations

import itertools
import json
import math
import re
from typing import Any

from typing_extensions import Annotated

from standard_tool._function import Param, tool
from standard_tool.builtins._errors import invalid, quoted

__all__ = ["MAX_DEPTH", "MAX_JSON_CHARS", "MAX_PATH_CHARS", "json_query", "parse_path"]

#: Longest JSON text accepted, in characters.
MAX_JSON_CHARS = 1_000_000
#: Deepest nesting of arrays and objects accepted.
MAX_DEPTH = 100
#: Longest path accepted, in characters.
MAX_PATH_CHARS = 1000
#: Most digits an integer literal may have (longer ones are slow to convert).
MAX_INT_DIGITS = 1000

# A string, or an unterminated one up to the end: each character is scanned once
# (without the end alternative, text like '"\\"\\"...' makes the search quadratic).
_STRING = re.compile(r'"(?:[^"\\]|\\.)*(?:"|\Z)', re.DOTALL)
_BRACKET = re.compile(r"[\[\]{}]")
_BARE = re.compile(r"[^.\[\]\"'\s]+")
_INDEX = re.compile(r"-?(?:0|[1-9][0-9]{0,17})")
_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')


class _JSONError(Exception):
    """Internal: a literal the JSON text may not contain."""


# --------------------------------------------------------------------------------------
# Parsing the document
# --------------------------------------------------------------------------------------


def _too_deep(text: str) -> bool:
    """Whether brackets outside strings nest deeper than ``MAX_DEPTH``."""
    outside = _STRING.sub("", text)
    steps = (1 if b in "[{" else -1 for b in _BRACKET.findall(outside))
    return any(depth > MAX_DEPTH for depth in itertools.accumulate(steps))


def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise _JSONError(f"an integer has more than {MAX_INT_DIGITS} digits")
    return int(text)


def _parse_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _JSONError(f"the number {quoted(text)} is too large for a float")
    return value


def _parse_constant(text: str) -> Any:
    raise _JSONError(f"{text} is not valid JSON")


def parse_document(text: str) -> Any:
    """Parse ``text`` as ``json_query`` does, raising its validation error at ``json``."""
    if _too_deep(text):
        raise invalid("json", f"the JSON is nested more than {MAX_DEPTH} levels deep")
    try:
        return json.loads(
            text,
            parse_int=_parse_int,
            parse_float=_parse_float,
            parse_constant=_parse_constant,
        )
    except json.JSONDecodeError as err:
        where = f"line {err.lineno}, column {err.colno}"
        raise invalid("json", f"not valid JSON at {where}: {err.msg}") from err
    except _JSONError as err:
        raise invalid("json", str(err)) from err
    except RecursionError as err:  # only if the depth check above missed a case
        raise invalid("json", f"the JSON is nested more than {MAX_DEPTH} levels deep") from err


# --------------------------------------------------------------------------------------
# Parsing the path
# --------------------------------------------------------------------------------------


def _path_error(path: str, at: int, problem: str) -> Exception:
    return invalid("path", f"{problem} at character {at + 1} of {quoted(path)}")


def parse_path(path: str) -> list[str | int]:
    """Split a path into keys (``str``) and array indices (``int``).

    A bare segment that is a number (``items.0``) stays a ``str``; it indexes an
    array and names a key of an object.

    Raises:
        StandardToolValidationError: the path is not in the syntax above (at ``path``).

    Examples:
        >>> parse_path('$.items[0]["a.b"]')
        ['items', 0, 'a.b']
    """
    segments: list[str | int] = []
    i, n = 0, len(path)
    if path.startswith("$"):
        i = 1
    if i < n and path[i] == "." and (i + 1 == n or path[i + 1] != "."):
        i += 1
        if i == n:
            return segments
    first = True
    while i < n:
        char = path[i]
        if char == "[":
            close = path.find("]", i)
            quote = _JSON_STRING.match(path, i + 1)
            if quote is not None:
                end = quote.end()
                if end >= n or path[end] != "]":
                    raise _path_error(path, end, "expected ']' after the quoted key")
                try:
                    key = json.loads(quote.group())
                except ValueError as err:
                    raise _path_error(path, i + 1, "invalid escape in the quoted key") from err
                segments.append(key)
                i = end + 1
            else:
                index = _INDEX.match(path, i + 1)
                if index is None or close != index.end():
                    raise _path_error(
                        path, i, 'expected an index like [0] or a quoted key like ["name"]'
                    )
                segments.append(int(index.group()))
                i = close + 1
        elif char == "." or first:
            if char == ".":
                i += 1
            bare = _BARE.match(path, i)
            if bare is None:
                raise _path_error(path, i, 'expected a key (quote unusual keys as ["..."])')
            segments.append(bare.group())
            i = bare.end()
        else:
            raise _path_error(path, i, "expected '.' or '['")
        first = False
    return segments


# --------------------------------------------------------------------------------------
# Following the path
# --------------------------------------------------------------------------------------


def _kind(node: Any) -> str:
    if isinstance(node, dict):
        return f"an object with {len(node)} key{'' if len(node) == 1 else 's'}"  # pyright: ignore[reportUnknownArgumentType]
    if isinstance(node, list):
        return f"an array of {len(node)} item{'' if len(node) == 1 else 's'}"  # pyright: ignore[reportUnknownArgumentType]
    if isinstance(node, str):
        return "a string"
    if node is None:
        return "null"
    if isinstance(node, bool):
        return "a boolean"
    return "a number"


def _shown(segments: list[str | int]) -> str:
    """Write ``segments`` back as a path, for messages."""
    out = "$"
    for s in segments:
        if isinstance(s, int):
            out += f"[{s}]"
        elif _BARE.fullmatch(s):
            out += f".{s}"
        else:
            out += f"[{json.dumps(s)}]"
    return out


def select(document: Any, segments: list[str | int]) -> Any:
    """Follow ``segments`` through ``document``, raising a validation error at ``path``."""
    node = document
    for depth, segment in enumerate(segments):
        where = _shown(segments[:depth])
        if isinstance(node, dict):
            if isinstance(segment, int):
                raise invalid(
                    "path", f"{where} is {_kind(node)}, not an array; it has no index [{segment}]"
                )
            if segment not in node:
                raise invalid("path", f"{where} has no key {quoted(segment)}")
            node = node[segment]  # pyright: ignore[reportUnknownVariableType]
        elif isinstance(node, list):
            items: list[Any] = node  # pyright: ignore[reportUnknownVariableType]
            if isinstance(segment, str):
                if not _INDEX.fullmatch(segment):
                    raise invalid(
                        "path",
                        f"{where} is {_kind(items)}, not an object; it has no key "
                        f"{quoted(segment)}",
                    )
                segment = int(segment)
            if not -len(items) <= segment < len(items):
                raise invalid("path", f"index {segment} is out of range: {where} is {_kind(items)}")
            node = items[segment]
        else:
            raise invalid(
                "path", f"{where} is {_kind(node)}; it has no {_shown([segment])[1:] or 'member'}"
            )
    return node  # pyright: ignore[reportUnknownVariableType]


@tool(name="json_query", title="JSON query")
def json_query(
    json: Annotated[
        str,
        Param("The JSON text to read.", max_length=MAX_JSON_CHARS),
    ],
    path: Annotated[
        str,
        Param(
            "Where the value is: dotted keys and [index], e.g. 'items[0].name'; "
            'quote keys with dots as ["a.b"]. Empty for the whole document.',
            max_length=MAX_PATH_CHARS,
            examples=("items[0].name", "data.users[-1]", 'config["version.major"]'),
        ),
    ] = "",
) -> Any:
    """Extract one value from a JSON document by path.

    Returns the value found (an object, array, string, number, boolean or null).
    """
    segments = parse_path(path)
    return select(parse_document(json), segments)
