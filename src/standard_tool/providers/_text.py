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
from collections.abc import Mapping
from typing import Any, cast

from standard_tool._core import StandardToolValidationError
from standard_tool._shared import truncate_text

__all__ = ["ERROR_MAX_CHARS", "OUTPUT_MAX_CHARS", "error_text", "jsonable", "text_result"]

#: Default bound of the text made from an output.
OUTPUT_MAX_CHARS = 100_000


#: Bound of the text made from an error: a model needs the gist, never the whole input.
ERROR_MAX_CHARS = 2_000


_MAX_DEPTH = 64


def jsonable(value: Any, depth: int = 0) -> Any:
    """``value`` as JSON data: dicts with string keys, lists, strings, numbers, bools, None."""
    if depth > _MAX_DEPTH:
        return "..."
    if value is None or isinstance(value, (bool, str, int)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if isinstance(value, enum.Enum):
        return jsonable(value.value, depth + 1)
    if isinstance(value, Mapping):
        mapping: Any = value  # pyright: ignore[reportUnknownVariableType]
        return {str(k): jsonable(v, depth + 1) for k, v in mapping.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        seq: Any = value  # pyright: ignore[reportUnknownVariableType]
        return [jsonable(v, depth + 1) for v in seq]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            f.name: jsonable(getattr(value, f.name), depth + 1)
            for f in dataclasses.fields(cast("Any", value))
        }
    dump = getattr(value, "model_dump", None)  # pydantic models
    if callable(dump):
        try:
            return jsonable(dump(mode="json"), depth + 1)
        except Exception:
            return truncate_text(str(value), ERROR_MAX_CHARS)
    fields: Any = getattr(value, "__struct_fields__", None)  # msgspec structs
    if isinstance(fields, tuple):
        names: Any = fields  # pyright: ignore[reportUnknownVariableType]
        return {str(f): jsonable(getattr(value, str(f), None), depth + 1) for f in names}
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    return truncate_text(str(value), ERROR_MAX_CHARS)


def _output_text(value: Any, max_chars: int) -> str:
    if isinstance(value, str):
        return truncate_text(value, max_chars)
    text = json.dumps(jsonable(value), ensure_ascii=False)
    return truncate_text(text, max_chars)


def error_text(exc: BaseException, max_chars: int) -> str:
    if isinstance(exc, StandardToolValidationError):
        detail = str(exc)
    else:
        message = str(exc)
        detail = f"{type(exc).__name__}: {message}" if message else type(exc).__name__
    return truncate_text(f"Error: {detail}", max_chars)


def text_result(
    outcome: Any, *, max_chars: int = OUTPUT_MAX_CHARS, error_max_chars: int = ERROR_MAX_CHARS
) -> str:
    """Render a tool's outcome as plain text for a model.

    A string output is returned as is, any other output as compact JSON
    (Pydantic models, dataclasses, msgspec structs, enums and dates included).
    An exception becomes ``"Error: <message>"``; a validation error keeps the
    core's message, which names the failing path and is bounded. Every text is
    cut at ``max_chars`` (errors at ``error_max_chars``) with a visible
    ``[truncated, N chars]`` marker.

    Examples:
        >>> text_result({"temp": 21})
        '{"temp": 21}'
        >>> text_result(KeyError("city"))
        "Error: KeyError: 'city'"
    """
    if isinstance(outcome, Exception):
        return error_text(outcome, error_max_chars)
    return _output_text(outcome, max_chars)
