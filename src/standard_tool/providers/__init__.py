"""Provider formats for Standard Tools: OpenAI, Anthropic, Gemini and MCP.

Schema side: ``to_openai_chat``, ``to_openai_responses``, ``to_anthropic``,
``to_gemini`` and ``to_mcp`` turn any conforming tool into the payload each API
expects; ``openai_strict`` and ``gemini_parameters`` expose the rewritten schemas
and the decoders that turn a model's arguments back into the tool's input; one
checker per target lists what that target would reject; result formatters turn a
tool's output (or exception) into what each API expects back.

Layer: providers (imports the core, the shared helpers and the toolkit; never the
package root).
"""

from standard_tool.providers._anthropic import (
    AnthropicToolResultBlock,
    AnthropicToolResultMessage,
    anthropic_tool_result,
    run_anthropic_tool_calls,
    to_anthropic,
)
from standard_tool.providers._check import SchemaProblem
from standard_tool.providers._convert_common import ProviderSchemaError
from standard_tool.providers._format import format_result
from standard_tool.providers._gemini import (
    GeminiParameters,
    check_gemini,
    gemini_parameters,
    to_gemini,
)
from standard_tool.providers._mcp import (
    MCPToolHandlers,
    check_mcp_tool,
    mcp_call_tool_result,
    mcp_output_wrapped,
    mcp_result_formatter,
    mcp_server,
    mcp_tool_handlers,
    to_mcp,
)
from standard_tool.providers._openai import (
    OpenAIChatToolMessage,
    OpenAIResponsesToolOutput,
    OpenAIStrictError,
    OpenAIStrictSchema,
    check_openai_strict,
    openai_strict,
    openai_tool_output,
    run_openai_chat_tool_calls,
    run_openai_responses_tool_calls,
    to_openai_chat,
    to_openai_responses,
)
from standard_tool.providers._text import text_result

__all__ = [
    "AnthropicToolResultBlock",
    "AnthropicToolResultMessage",
    "GeminiParameters",
    "MCPToolHandlers",
    "OpenAIChatToolMessage",
    "OpenAIResponsesToolOutput",
    "OpenAIStrictError",
    "OpenAIStrictSchema",
    "ProviderSchemaError",
    "SchemaProblem",
    "anthropic_tool_result",
    "check_gemini",
    "check_mcp_tool",
    "check_openai_strict",
    "format_result",
    "gemini_parameters",
    "mcp_call_tool_result",
    "mcp_output_wrapped",
    "mcp_result_formatter",
    "mcp_server",
    "mcp_tool_handlers",
    "openai_strict",
    "openai_tool_output",
    "run_anthropic_tool_calls",
    "run_openai_chat_tool_calls",
    "run_openai_responses_tool_calls",
    "text_result",
    "to_anthropic",
    "to_gemini",
    "to_mcp",
    "to_openai_chat",
    "to_openai_responses",
]
