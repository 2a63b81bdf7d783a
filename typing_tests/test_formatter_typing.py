"""Typing promises of ``.formatted()`` with the library's own provider formatters.

Never executed. Every formatter takes ``object`` and returns a type without ``Any``,
so mypy and pyright keep the tool's input and output types after ``.formatted()``
(with ``Any`` in a formatter's signature mypy inferred ``Tool[Any, Any, Any, Any]``).
"""

from __future__ import annotations

from typing import Any

from typing_extensions import assert_type

from standard_tool import Tool, tool
from standard_tool.providers import (
    AnthropicContentBlock,
    AnthropicToolResult,
    MCPCallToolResult,
    anthropic_tool_result,
    mcp_call_tool_result,
    mcp_result_formatter,
    openai_tool_output,
    text_result,
)


@tool
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


assert_type(add.formatted(text_result), Tool[dict[str, Any], int, str, Any])
assert_type(add.formatted(openai_tool_output), Tool[dict[str, Any], int, str, Any])
assert_type(
    add.formatted(anthropic_tool_result), Tool[dict[str, Any], int, AnthropicToolResult, Any]
)
assert_type(
    add.formatted(mcp_result_formatter(add)), Tool[dict[str, Any], int, MCPCallToolResult, Any]
)
assert_type(mcp_call_tool_result(1), MCPCallToolResult)
assert_type(anthropic_tool_result(1)["content"], list[AnthropicContentBlock])
first = anthropic_tool_result(1)["content"][0]
if first["type"] == "text":
    assert_type(first["text"], str)
