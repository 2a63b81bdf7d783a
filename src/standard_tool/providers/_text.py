"""The text a model receives for a tool's outcome: the value as JSON text, or ``Error: ...``.

Layer: providers (imports the core and the shared helpers; never the package root).
Every provider's result formatter writes this same text.
"""

from __future__ import annotations

import dataclasses
import datetime
import enum
import json
import math
import sys
from collections.abc import Mapping
from typing import Any, cast

from standard_tool._shared import is_validation_error, safe_str, truncate_text
from standard_tool.content import EmbeddedResource, Text, ToolOutput, fallback_text, rich_output

__all__ = [
    "ERROR_MAX_CHARS",
    "OUTPUT_MAX_CHARS",
    "bounded_output",
    "error_text",
    "json_data",
    "json_text",
    "jsonable",
    "rich_text",
    "sendable",
    "structured_text",
    "text_result",
    "wire_text",
]

#: Default bound of the text made from an output.
OUTPUT_MAX_CHARS = 100_000


#: Bound of the text made from an error: a model needs the gist, never the whole input.
ERROR_MAX_CHARS = 2_000


_MAX_DEPTH = 64

# Past this many bits an int has more digits than CPython's default limit for int -> str
# (4,300 digits); 3.3 bits a digit keeps the check on the safe side.
_BITS_PER_DIGIT = 3.3


#: Ints below this print the same as JSON and under any ``int`` -> ``str`` limit.
SMALL_INT = 10**300


def _int_limit_bits() -> int:
    limit: int = getattr(sys, "get_int_max_str_digits", lambda: 0)()
    return int(limit * _BITS_PER_DIGIT) if limit else 0


class _Converter:
    """One conversion to JSON data, bounded in depth and in the number of values visited.

    A structure that shares one list or dict many times (or contains itself) is
    visited as a tree, which can be exponential; the budget stops that. ``complete``
    tells whether anything was cut or described instead of converted.
    """

    __slots__ = ("budget", "complete", "escape", "int_bits", "open")

    def __init__(self, budget: int, escape: bool = False) -> None:
        self.budget = budget
        self.escape = escape
        self.complete = True
        self.int_bits = _int_limit_bits()
        self.open: set[int] = set()  # ids of the containers being converted (cycles)

    def cut(self, text: str) -> str:
        self.complete = False
        return text

    def convert(self, value: Any, depth: int) -> Any:
        self.budget -= 1
        if self.budget < 0:
            return self.cut("...")
        if depth > _MAX_DEPTH:
            return self.cut("...")
        if isinstance(value, str):
            return sendable(value) if self.escape and not value.isascii() else value
        if value is None or isinstance(value, bool):
            return value
        if isinstance(value, int):
            if self.int_bits and value.bit_length() > self.int_bits:
                return self.cut(f"<int of {value.bit_length()} bits>")
            return value
        if isinstance(value, float):
            return value if math.isfinite(value) else self.cut(str(value))
        key = id(value)
        if key in self.open:
            return self.cut("<cycle>")
        self.open.add(key)
        try:
            return self._container(value, depth)
        except Exception:  # a hostile object must not turn a result into a crash
            return self.cut(safe_str(value, ERROR_MAX_CHARS))
        finally:
            self.open.discard(key)

    def _container(self, value: Any, depth: int) -> Any:
        if isinstance(value, enum.Enum):
            return self.convert(value.value, depth + 1)
        if isinstance(value, Mapping):
            mapping: Any = value  # pyright: ignore[reportUnknownVariableType]
            return {self.key(k): self.convert(v, depth + 1) for k, v in mapping.items()}
        if isinstance(value, (list, tuple, set, frozenset)):
            seq: Any = value  # pyright: ignore[reportUnknownVariableType]
            return [self.convert(v, depth + 1) for v in seq]
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            return {
                f.name: self.convert(getattr(value, f.name), depth + 1)
                for f in dataclasses.fields(cast("Any", value))
            }
        dump = getattr(value, "model_dump", None)  # pydantic models
        if callable(dump):
            return self.convert(dump(mode="json"), depth + 1)
        fields: Any = getattr(value, "__struct_fields__", None)  # msgspec structs
        if isinstance(fields, tuple):
            names: Any = fields  # pyright: ignore[reportUnknownVariableType]
            return {str(f): self.convert(getattr(value, str(f), None), depth + 1) for f in names}
        if isinstance(value, (datetime.date, datetime.time)):
            return value.isoformat()
        return self.cut(safe_str(value, ERROR_MAX_CHARS))

    def key(self, key: Any) -> str:
        if isinstance(key, str):
            return sendable(key) if self.escape and not key.isascii() else key
        self.budget -= 1
        return safe_str(key, ERROR_MAX_CHARS)


def jsonable(value: Any, budget: int = OUTPUT_MAX_CHARS, *, escape: bool = False) -> Any:
    """Convert ``value`` to JSON data: dicts with string keys, lists, strings, numbers, bools, None.

    Never raises. At most ``budget`` values are visited and 64 levels descended;
    past that, and for a cycle, a non-finite float, an int too long to print or an
    object it cannot convert, a short text stands in. With ``escape`` every string
    (keys too) is ``sendable``, its lone surrogates escaped: data a client receives
    as such (MCP's ``structuredContent``, a log message) must be encodable as UTF-8.
    """
    return _Converter(budget, escape).convert(value, 0)


def json_data(value: Any, budget: int) -> tuple[Any, bool]:
    """Return ``jsonable(value, budget, escape=True)`` and whether it is complete."""
    converter = _Converter(budget, escape=True)
    data = converter.convert(value, 0)
    return data, converter.complete


def sendable(text: str) -> str:
    """Escape the lone surrogates of ``text``: no UTF-8 encoder takes them."""
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text


#: One encoder for every result: ``json.dumps`` with an option builds a new one each time.
_ENCODER = json.JSONEncoder(ensure_ascii=False)


def json_text(data: Any) -> str:
    """Write JSON data (from ``jsonable``) as compact JSON text, ready to send."""
    return sendable(_ENCODER.encode(data))


def wire_text(value: Any) -> str:
    """Read a call id or tool name the model sent as text: ``0`` stays ``"0"``.

    ``None`` is ``""``; anything not a string (a number, ``False``, an int too long
    to print, an object whose ``__str__`` raises) becomes bounded text, never an error.
    """
    if value is None:
        return ""
    if isinstance(value, str):
        return sendable(value)
    return safe_str(value, ERROR_MAX_CHARS)


def bounded_output(output: ToolOutput[Any], max_chars: int) -> ToolOutput[Any]:
    """Cut the text of a rich result: its text blocks hold ``max_chars`` characters at most.

    The text of the ``Text`` blocks and of the text ``EmbeddedResource`` blocks,
    in order, shares the one bound (a block past it keeps a cut text, so no block
    disappears); every text is ``sendable``. Blocks of other kinds and the
    structured value are unchanged. ``output`` itself is returned when nothing
    changed.
    """
    left = max(max_chars, 0)
    blocks: list[Any] = []
    changed = False
    for block in output.content:
        if isinstance(block, Text) or (isinstance(block, EmbeddedResource) and block.text):
            text = block.text or ""
            cut = truncate_text(sendable(text), left)
            left = max(left - len(cut), 0)
            if cut is not text:
                changed = True
                block = (
                    Text(cut)
                    if isinstance(block, Text)
                    else EmbeddedResource(block.uri, text=cut, mime_type=block.mime_type)
                )
        blocks.append(block)
    return ToolOutput(blocks, output.structured) if changed else output


def structured_text(structured: Any, max_chars: int) -> str:
    """Write a rich result's structured value as JSON text, cut at ``max_chars``."""
    return truncate_text(json_text(jsonable(structured, max(max_chars, 1))), max_chars)


#: JSON text of the scalars a tool most often returns, without the converter.
_SCALAR_TEXT: dict[Any, str] = {None: "null", True: "true", False: "false"}


def rich_text(output: ToolOutput[Any], consumer: str, max_chars: int = OUTPUT_MAX_CHARS) -> str:
    """Write a rich result as text, for a consumer that carries none of its blocks.

    Each block is its ``fallback_text`` (a text block its text), one per line,
    then the structured value's JSON text when there is one; cut at ``max_chars``.
    """
    parts = [fallback_text(block, consumer) for block in output.content]
    if output.structured is not None:
        parts.append(json_text(jsonable(output.structured, max(max_chars, 1))))
    return truncate_text(sendable("\n".join(parts)), max_chars)


def _output_text(value: Any, max_chars: int) -> str:
    if isinstance(value, str):
        return truncate_text(sendable(value), max_chars)
    kind = value.__class__
    if kind is bool or value is None:
        return truncate_text(_SCALAR_TEXT[value], max_chars)
    if kind is int and -SMALL_INT < value < SMALL_INT:
        return truncate_text(str(value), max_chars)
    rich = rich_output(value)
    if rich is not None:
        return rich_text(rich, "text-only", max_chars)
    return truncate_text(json_text(jsonable(value, max(max_chars, 1))), max_chars)


def error_text(exc: BaseException, max_chars: int) -> str:
    # cut once, below: the whole message first (never raising), then the bound
    if is_validation_error(exc):
        detail = safe_str(exc, sys.maxsize)
    else:
        message = safe_str(exc, sys.maxsize)
        detail = f"{type(exc).__name__}: {message}" if message else type(exc).__name__
    return truncate_text(f"Error: {detail}", max_chars)


def text_result(
    outcome: object, *, max_chars: int = OUTPUT_MAX_CHARS, error_max_chars: int = ERROR_MAX_CHARS
) -> str:
    """Render a tool's outcome as plain text for a model.

    A string output is returned as is, any other output as compact JSON
    (Pydantic models, dataclasses, msgspec structs, enums and dates included).
    An exception becomes ``"Error: <message>"``; a validation error keeps the
    core's message, which names the failing path and is bounded. Every text is
    cut at ``max_chars`` (errors at ``error_max_chars``) with a visible
    ``... [truncated N characters]`` marker.

    Examples:
        >>> text_result({"temp": 21})
        '{"temp": 21}'
        >>> text_result(KeyError("city"))
        "Error: KeyError: 'city'"
    """
    if isinstance(outcome, Exception):
        return error_text(outcome, error_max_chars)
    return _output_text(outcome, max_chars)
