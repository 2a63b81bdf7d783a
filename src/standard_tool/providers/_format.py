"""One ``ToolResult`` as text or as the message a provider expects back.

Layer: providers (imports the toolkit and the other provider modules; never the
package root).
"""

from __future__ import annotations

from typing import Any

from typing_extensions import Literal, overload

from standard_tool._toolkit import ToolResult
from standard_tool.providers._anthropic import result_content as anthropic_result_content
from standard_tool.providers._convert_common import ProviderOptionError
from standard_tool.providers._mcp import mcp_call_tool_result
from standard_tool.providers._openai import chat_content, responses_output
from standard_tool.providers._runner import content

__all__ = ["ResultTarget", "format_result"]

#: What ``format_result`` can write.
ResultTarget = Literal["text", "openai-chat", "openai-responses", "anthropic", "mcp"]


@overload
def format_result(result: ToolResult, target: Literal["text"] = "text") -> str: ...
@overload
def format_result(
    result: ToolResult, target: Literal["openai-chat", "openai-responses", "anthropic", "mcp"]
) -> dict[str, Any]: ...
def format_result(result: ToolResult, target: ResultTarget = "text") -> str | dict[str, Any]:
    """Turn a ``ToolResult`` into what a model receives: the text, or a provider's message.

    The text is the one the runners send: the value as ``text_result`` writes it
    (bounded), or ``Error: ...`` for a failure. ``ToolResult.metadata`` is never
    included.

    Examples:
        >>> from standard_tool import ToolResult
        >>> format_result(ToolResult("add", "call_1", True, 5))
        '5'
        >>> format_result(ToolResult("add", "call_1", False, error="bad"), "anthropic")
        {'type': 'tool_result', 'tool_use_id': 'call_1', 'content': 'Error: bad', 'is_error': True}

    Args:
        result: the outcome of one call (from ``Toolkit.execute`` or a runner).
        target: ``"text"``; ``"openai-chat"`` (a ``{"role": "tool"}`` message),
            ``"openai-responses"`` (a ``function_call_output`` item), ``"anthropic"``
            (a ``tool_result`` block) or ``"mcp"`` (a ``CallToolResult``).

    Raises:
        ValueError: an unknown target.
    """
    if target == "text":
        return content(result)
    call_id = "" if result.call_id is None else result.call_id
    if target == "openai-chat":
        return {"role": "tool", "tool_call_id": call_id, "content": chat_content(result)}
    if target == "openai-responses":
        output = responses_output(result)
        return {"type": "function_call_output", "call_id": call_id, "output": output}
    if target == "anthropic":
        return {
            "type": "tool_result",
            "tool_use_id": call_id,
            "content": anthropic_result_content(result),
            # A tool that returns an exception reports an error too (as anthropic_tool_result).
            "is_error": not result.success or isinstance(result.value, BaseException),
        }
    if target == "mcp":
        if result.success:
            return dict(mcp_call_tool_result(result.value))
        return {"content": [{"type": "text", "text": content(result)}], "isError": True}
    raise ProviderOptionError(
        f"format_result: unknown target {str(target)[:40]!r}; use one of "
        "'text', 'openai-chat', 'openai-responses', 'anthropic', 'mcp'"
    )
