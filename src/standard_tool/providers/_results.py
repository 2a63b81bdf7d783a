"""Result formatters: a tool's output or exception, in the shape each API expects back.

Each formatter takes what ``tool.formatted(format)`` passes to ``format``: the
validated output, or the ``Exception`` the call raised. So any of them can be
given to ``formatted`` directly, or called on an outcome the caller already has.

Layer: providers (imports the core, the shared helpers and the toolkit; never the
package root).
"""

from __future__ import annotations

import dataclasses
import datetime
import enum
import json
import math
from collections.abc import Callable, Mapping
from typing import Any, cast, overload

from typing_extensions import Literal

from standard_tool._core import StandardToolV0Definition, StandardToolValidationError
from standard_tool._shared import truncate_text
from standard_tool.providers._mcp import mcp_output_wrapped

__all__ = [
    "anthropic_tool_result",
    "mcp_call_tool_result",
    "mcp_result_formatter",
    "openai_tool_output",
    "text_result",
]

#: Default bound of the text made from an output.
OUTPUT_MAX_CHARS = 100_000
#: Bound of the text made from an error: a model needs the gist, never the whole input.
ERROR_MAX_CHARS = 2_000
_MAX_DEPTH = 64


def _jsonable(value: Any, depth: int = 0) -> Any:
    """``value`` as JSON data: dicts with string keys, lists, strings, numbers, bools, None."""
    if depth > _MAX_DEPTH:
        return "..."
    if value is None or isinstance(value, (bool, str, int)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if isinstance(value, enum.Enum):
        return _jsonable(value.value, depth + 1)
    if isinstance(value, Mapping):
        mapping: Any = value  # pyright: ignore[reportUnknownVariableType]
        return {str(k): _jsonable(v, depth + 1) for k, v in mapping.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        seq: Any = value  # pyright: ignore[reportUnknownVariableType]
        return [_jsonable(v, depth + 1) for v in seq]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            f.name: _jsonable(getattr(value, f.name), depth + 1)
            for f in dataclasses.fields(cast("Any", value))
        }
    dump = getattr(value, "model_dump", None)  # pydantic models
    if callable(dump):
        try:
            return _jsonable(dump(mode="json"), depth + 1)
        except Exception:
            return truncate_text(str(value), ERROR_MAX_CHARS)
    fields: Any = getattr(value, "__struct_fields__", None)  # msgspec structs
    if isinstance(fields, tuple):
        names: Any = fields  # pyright: ignore[reportUnknownVariableType]
        return {str(f): _jsonable(getattr(value, str(f), None), depth + 1) for f in names}
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    return truncate_text(str(value), ERROR_MAX_CHARS)


def _output_text(value: Any, max_chars: int) -> str:
    if isinstance(value, str):
        return truncate_text(value, max_chars)
    text = json.dumps(_jsonable(value), ensure_ascii=False)
    return truncate_text(text, max_chars)


def _error_text(exc: BaseException, max_chars: int) -> str:
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
        return _error_text(outcome, error_max_chars)
    return _output_text(outcome, max_chars)


def openai_tool_output(
    outcome: Any, *, max_chars: int = OUTPUT_MAX_CHARS, error_max_chars: int = ERROR_MAX_CHARS
) -> str:
    """Render a tool's outcome as the ``output`` text OpenAI expects back.

    Use it as the ``content`` of a Chat Completions ``{"role": "tool"}`` message
    or the ``output`` of a Responses ``function_call_output`` item. Same text as
    ``text_result``.
    """
    return text_result(outcome, max_chars=max_chars, error_max_chars=error_max_chars)


def anthropic_tool_result(
    outcome: Any,
    *,
    tool_use_id: str | None = None,
    max_chars: int = OUTPUT_MAX_CHARS,
    error_max_chars: int = ERROR_MAX_CHARS,
) -> dict[str, Any]:
    """Render a tool's outcome as an Anthropic ``tool_result`` content block.

    Returns ``{"type": "tool_result", "tool_use_id", "content": [{"type":
    "text", "text"}], "is_error"}``. Used as a formatter (where the id is not
    known yet) the block has no ``tool_use_id``: set it from the model's
    ``tool_use`` block before sending.
    """
    failed = isinstance(outcome, Exception)
    text = text_result(outcome, max_chars=max_chars, error_max_chars=error_max_chars)
    block: dict[str, Any] = {"type": "tool_result"}
    if tool_use_id is not None:
        block["tool_use_id"] = tool_use_id
    block["content"] = [{"type": "text", "text": text}]
    block["is_error"] = failed
    return block


@overload
def mcp_call_tool_result(
    outcome: Any,
    *,
    wrap: bool | None = None,
    as_model: Literal[False] = False,
    max_chars: int = OUTPUT_MAX_CHARS,
    error_max_chars: int = ERROR_MAX_CHARS,
) -> dict[str, Any]: ...
@overload
def mcp_call_tool_result(
    outcome: Any,
    *,
    wrap: bool | None = None,
    as_model: Literal[True],
    max_chars: int = OUTPUT_MAX_CHARS,
    error_max_chars: int = ERROR_MAX_CHARS,
) -> Any: ...
def mcp_call_tool_result(
    outcome: Any,
    *,
    wrap: bool | None = None,
    as_model: bool = False,
    max_chars: int = OUTPUT_MAX_CHARS,
    error_max_chars: int = ERROR_MAX_CHARS,
) -> Any:
    """Render a tool's outcome as an MCP ``CallToolResult``.

    Args:
        outcome: the tool's validated output, or the exception it raised.
        wrap: whether the output goes into ``structuredContent`` as
            ``{"result": value}``. ``None`` wraps anything that is not a JSON
            object. Pass ``mcp_output_wrapped(tool)`` (or use
            ``mcp_result_formatter``) so it matches the ``outputSchema``
            that ``to_mcp`` declared.
        as_model: return an ``mcp.types.CallToolResult`` instead of a dict
            (needs the ``mcp`` package).
        max_chars: bound of the text content of a success.
        error_max_chars: bound of the text content of an error.

    Returns:
        ``{"content": [{"type": "text", "text"}], "structuredContent", "isError":
        false}`` on success, ``{"content": [...], "isError": true}`` on failure.
    """
    result: dict[str, Any]
    if isinstance(outcome, Exception):
        text = _error_text(outcome, error_max_chars)
        result = {"content": [{"type": "text", "text": text}], "isError": True}
    else:
        data = _jsonable(outcome)
        if wrap is None:
            wrap = not isinstance(data, dict)
        text = data if isinstance(data, str) else json.dumps(data, ensure_ascii=False)
        result = {
            "content": [{"type": "text", "text": truncate_text(text, max_chars)}],
            "structuredContent": {"result": data} if wrap else data,
            "isError": False,
        }
    if as_model:
        from mcp.types import CallToolResult

        return CallToolResult.model_validate(result)
    return result


def mcp_result_formatter(
    tool: StandardToolV0Definition[Any, Any, Any, Any],
    *,
    max_chars: int = OUTPUT_MAX_CHARS,
    error_max_chars: int = ERROR_MAX_CHARS,
) -> Callable[[Any], dict[str, Any]]:
    """Return a formatter for ``tool.formatted(...)`` that makes MCP ``CallToolResult`` dicts.

    It wraps outputs exactly as ``to_mcp`` declared ``tool``'s
    ``outputSchema``, so ``structuredContent`` always validates against it.

    Examples:
        >>> from standard_tool import standard_tool
        >>> ping = standard_tool(name="ping", description="Ping.", execute=lambda: "pong")
        >>> ping.formatted(mcp_result_formatter(ping)).execute()["structuredContent"]
        {'result': 'pong'}
    """
    wrap = mcp_output_wrapped(tool) if tool.output_schema is not None else None

    def format(outcome: Any) -> dict[str, Any]:
        return mcp_call_tool_result(
            outcome, wrap=wrap, max_chars=max_chars, error_max_chars=error_max_chars
        )

    return format
