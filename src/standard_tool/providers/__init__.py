"""Provider formats for Standard Tools: OpenAI, Anthropic, Gemini, Bedrock and MCP.

Schema side: ``to_openai_chat``, ``to_openai_responses``, ``to_anthropic``,
``to_gemini`` and ``to_mcp`` turn any conforming tool into the payload each API
expects; ``openai_strict`` and ``gemini_parameters`` expose the rewritten schemas
and the decoders that turn a model's arguments back into the tool's input; one
checker per target lists what that target would reject; result formatters turn a
tool's output (or exception) into what each API expects back.

Layer: providers (imports the core, the shared helpers and the toolkit; never the
package root).

Every name loads its module on first use (PEP 562): importing one provider (say,
``to_mcp`` for an MCP server) does not import the others.
"""

import typing as _typing

if _typing.TYPE_CHECKING:
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

#: Where each public name lives.
_LAZY = {
    "AnthropicBase64Source": "_anthropic",
    "AnthropicContentBlock": "_anthropic",
    "AnthropicDocumentBlock": "_anthropic",
    "AnthropicImageBlock": "_anthropic",
    "AnthropicStrictError": "_anthropic_strict",
    "AnthropicStrictSchema": "_anthropic_strict",
    "AnthropicTextBlock": "_anthropic",
    "AnthropicToolResult": "_anthropic",
    "AnthropicToolResultBlock": "_anthropic",
    "AnthropicToolResultMessage": "_anthropic",
    "BedrockToolResult": "_bedrock",
    "BedrockToolResultBlock": "_bedrock",
    "BedrockToolResultMessage": "_bedrock",
    "GeminiFunctionResponse": "_gemini_run",
    "GeminiFunctionResponseContent": "_gemini_run",
    "GeminiFunctionResponsePart": "_gemini_run",
    "GeminiParameters": "_gemini",
    "MCPCallToolResult": "_mcp",
    "MCPTextContent": "_mcp",
    "MCPToolHandlers": "_mcp",
    "OpenAIChatToolMessage": "_openai",
    "OpenAIResponsesToolOutput": "_openai",
    "OpenAIStrictError": "_openai",
    "OpenAIStrictSchema": "_openai",
    "ProviderOptionError": "_convert_common",
    "ProviderSchemaError": "_convert_common",
    "SchemaProblem": "_check",
    "anthropic_content": "_anthropic",
    "anthropic_strict": "_anthropic_strict",
    "anthropic_tool_result": "_anthropic",
    "bedrock_content": "_bedrock",
    "bedrock_tool_config": "_bedrock",
    "bedrock_tool_result": "_bedrock",
    "check_anthropic_strict": "_anthropic_strict",
    "check_bedrock": "_bedrock",
    "check_gemini": "_gemini",
    "check_gemini_json_schema": "_gemini",
    "check_mcp_tool": "_mcp",
    "check_openai_strict": "_openai",
    "content_from_mcp": "_mcp",
    "format_result": "_format",
    "gemini_function_response": "_gemini_run",
    "gemini_json_parameters": "_gemini",
    "gemini_parameters": "_gemini",
    "gemini_rich_response": "_gemini_run",
    "mcp_call_tool_result": "_mcp",
    "mcp_content": "_mcp",
    "mcp_output_wrapped": "_mcp",
    "mcp_result_formatter": "_mcp",
    "mcp_server": "_mcp",
    "mcp_tool_handlers": "_mcp",
    "openai_responses_content": "_openai",
    "openai_strict": "_openai",
    "openai_tool_output": "_openai",
    "run_anthropic_tool_calls": "_anthropic",
    "run_bedrock_tool_calls": "_bedrock",
    "run_bedrock_tool_calls_sync": "_bedrock",
    "run_gemini_function_calls": "_gemini_run",
    "run_gemini_function_calls_sync": "_gemini_run",
    "run_openai_chat_tool_calls": "_openai",
    "run_openai_responses_tool_calls": "_openai",
    "text_result": "_text",
    "to_anthropic": "_anthropic",
    "to_bedrock": "_bedrock",
    "to_gemini": "_gemini",
    "to_mcp": "_mcp",
    "to_openai_chat": "_openai",
    "to_openai_responses": "_openai",
}


def _load(module: str) -> _typing.Any:
    # One literal import per module, so the layer test sees every edge.
    if module == "_anthropic":
        from standard_tool.providers import _anthropic

        return _anthropic
    if module == "_anthropic_strict":
        from standard_tool.providers import _anthropic_strict

        return _anthropic_strict
    if module == "_bedrock":
        from standard_tool.providers import _bedrock

        return _bedrock
    if module == "_check":
        from standard_tool.providers import _check

        return _check
    if module == "_convert_common":
        from standard_tool.providers import _convert_common

        return _convert_common
    if module == "_format":
        from standard_tool.providers import _format

        return _format
    if module == "_gemini":
        from standard_tool.providers import _gemini

        return _gemini
    if module == "_gemini_run":
        from standard_tool.providers import _gemini_run

        return _gemini_run
    if module == "_mcp":
        from standard_tool.providers import _mcp

        return _mcp
    if module == "_openai":
        from standard_tool.providers import _openai

        return _openai
    if module == "_text":
        from standard_tool.providers import _text

        return _text
    raise AssertionError(module)


def __getattr__(name: str) -> _typing.Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(_load(module), name)
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__() -> list[str]:
    return sorted(__all__)


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
