"""Typing promises of the Bedrock, Gemini-runner and Anthropic-strict functions.

Never executed (pyright strict and mypy strict read it). Each ``assert_type`` is a
promise: one tool gives one declaration, a toolkit or a list gives a list.
"""

from __future__ import annotations

from typing import Any

from typing_extensions import assert_type

from standard_tool import Toolkit, standard_tool
from standard_tool.providers import (
    AnthropicStrictSchema,
    BedrockToolResultMessage,
    GeminiFunctionResponseContent,
    anthropic_strict,
    run_bedrock_tool_calls,
    run_bedrock_tool_calls_sync,
    run_gemini_function_calls,
    run_gemini_function_calls_sync,
    to_anthropic,
    to_bedrock,
    to_gemini,
)


def _ping() -> str:
    return "pong"


ping = standard_tool(name="ping", description="Ping.", execute=_ping)
kit = Toolkit([ping])

assert_type(to_bedrock(ping), dict[str, Any])
assert_type(to_bedrock(kit), list[dict[str, Any]])
assert_type(to_gemini(ping, json_schema=True), dict[str, Any])
assert_type(to_gemini([ping], json_schema=True), list[dict[str, Any]])
assert_type(to_anthropic(ping, strict=True), dict[str, Any])
assert_type(to_anthropic(kit, strict=True), list[dict[str, Any]])
assert_type(anthropic_strict(ping), AnthropicStrictSchema)
assert_type(run_bedrock_tool_calls_sync({}, kit), BedrockToolResultMessage | None)
assert_type(run_gemini_function_calls_sync([], [ping]), GeminiFunctionResponseContent | None)


async def runners() -> None:
    assert_type(await run_bedrock_tool_calls({}, kit), BedrockToolResultMessage | None)
    assert_type(
        await run_gemini_function_calls({}, kit, json_schema=True),
        GeminiFunctionResponseContent | None,
    )
