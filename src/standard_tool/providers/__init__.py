"""Provider formats for Standard Tools: OpenAI, Anthropic, Gemini, Bedrock and MCP.

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
    AnthropicBase64Source,
    AnthropicContentBlock,
    AnthropicDocumentBlock,
    AnthropicImageBlock,
    AnthropicTextBlock,
    AnthropicToolResult,
    AnthropicToolResultBlock,
    AnthropicToolResultMessage,
    anthropic_content,
    anthropic_tool_result,
    run_anthropic_tool_calls,
    to_anthropic,
)
from standard_tool.providers._anthropic_strict import (
    AnthropicStrictError,
    AnthropicStrictSchema,
    anthropic_strict,
    check_anthropic_strict,
)
from standard_tool.providers._bedrock import (
    BedrockToolResult,
    BedrockToolResultBlock,
    BedrockToolResultMessage,
    bedrock_content,
    bedrock_tool_config,
    bedrock_tool_result,
    check_bedrock,
    run_bedrock_tool_calls,
    run_bedrock_tool_calls_sync,
    to_bedrock,
)
from standard_tool.providers._check import SchemaProblem
from standard_tool.providers._convert_common import ProviderOptionError, ProviderSchemaError
from standard_tool.providers._format import format_result
from standard_tool.providers._gemini import (
    GeminiParameters,
    check_gemini,
    check_gemini_json_schema,
    gemini_json_parameters,
    gemini_parameters,
    to_gemini,
)
from standard_tool.providers._gemini_run import (
    GeminiFunctionResponse,
    GeminiFunctionResponseContent,
    GeminiFunctionResponsePart,
    gemini_function_response,
    gemini_rich_response,
    run_gemini_function_calls,
    run_gemini_function_calls_sync,
)
from standard_tool.providers._mcp import (
    MCPCallToolResult,
    MCPTextContent,
    MCPToolHandlers,
    check_mcp_tool,
    content_from_mcp,
    mcp_call_tool_result,
    mcp_content,
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
    openai_responses_content,
    openai_strict,
    openai_tool_output,
    run_openai_chat_tool_calls,
    run_openai_responses_tool_calls,
    to_openai_chat,
    to_openai_responses,
)
from standard_tool.providers._text import text_result

__all__ = [
    "AnthropicBase64Source",
    "AnthropicContentBlock",
    "AnthropicDocumentBlock",
    "AnthropicImageBlock",
    "AnthropicStrictError",
    "AnthropicStrictSchema",
    "AnthropicTextBlock",
    "AnthropicToolResult",
    "AnthropicToolResultBlock",
    "AnthropicToolResultMessage",
    "BedrockToolResult",
    "BedrockToolResultBlock",
    "BedrockToolResultMessage",
    "GeminiFunctionResponse",
    "GeminiFunctionResponseContent",
    "GeminiFunctionResponsePart",
    "GeminiParameters",
    "MCPCallToolResult",
    "MCPTextContent",
    "MCPToolHandlers",
    "OpenAIChatToolMessage",
    "OpenAIResponsesToolOutput",
    "OpenAIStrictError",
    "OpenAIStrictSchema",
    "ProviderOptionError",
    "ProviderSchemaError",
    "SchemaProblem",
    "anthropic_content",
    "anthropic_strict",
    "anthropic_tool_result",
    "bedrock_content",
    "bedrock_tool_config",
    "bedrock_tool_result",
    "check_anthropic_strict",
    "check_bedrock",
    "check_gemini",
    "check_gemini_json_schema",
    "check_mcp_tool",
    "check_openai_strict",
    "content_from_mcp",
    "format_result",
    "gemini_function_response",
    "gemini_json_parameters",
    "gemini_parameters",
    "gemini_rich_response",
    "mcp_call_tool_result",
    "mcp_content",
    "mcp_output_wrapped",
    "mcp_result_formatter",
    "mcp_server",
    "mcp_tool_handlers",
    "openai_responses_content",
    "openai_strict",
    "openai_tool_output",
    "run_anthropic_tool_calls",
    "run_bedrock_tool_calls",
    "run_bedrock_tool_calls_sync",
    "run_gemini_function_calls",
    "run_gemini_function_calls_sync",
    "run_openai_chat_tool_calls",
    "run_openai_responses_tool_calls",
    "text_result",
    "to_anthropic",
    "to_bedrock",
    "to_gemini",
    "to_mcp",
    "to_openai_chat",
    "to_openai_responses",
]
