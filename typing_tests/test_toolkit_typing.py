"""Typing promises of the Toolkit and the tool-call runners (pyright strict, mypy strict).

Never executed. Each ``assert_type`` is a promise; each ignore comment marks a use
that must stay a type error (an unused ignore fails the check).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from typing_extensions import assert_type

from standard_tool import (
    ProgressEvent,
    StandardToolV0Definition,
    ToolContext,
    Toolkit,
    ToolResult,
    current_context,
    standard_tool,
)
from standard_tool.providers import (
    AnthropicToolResultMessage,
    OpenAIChatToolMessage,
    OpenAIResponsesToolOutput,
    format_result,
    run_anthropic_tool_calls,
    run_openai_chat_tool_calls,
    run_openai_responses_tool_calls,
    to_openai_chat,
)


def _add(pair: tuple[int, int]) -> int:
    return pair[0] + pair[1]


add = standard_tool(name="add", description="Add.", execute=_add)


class Plain:
    name = "plain"
    title = None
    description = "A plain object."
    input_schema = None
    output_schema = None

    def execute(self, input: Any = None, meta: Any = None) -> Any:
        return input


kit = Toolkit([add, Plain()])
assert_type(kit.list(), list[StandardToolV0Definition[Any, Any, Any, Any]])
assert_type(kit.get("add"), StandardToolV0Definition[Any, Any, Any, Any])
assert_type(kit.names, tuple[str, ...])
assert_type(kit.execute("add", 1), ToolResult)
assert_type(to_openai_chat(kit, strict="auto"), list[dict[str, Any]])
assert_type(to_openai_chat(add, strict="auto"), dict[str, Any])
to_openai_chat(kit, strict="yes")  # type: ignore[call-overload]  # pyright: ignore[reportArgumentType, reportCallIssue]
kit.execute("add", 1, None, 5.0)  # type: ignore[call-arg]  # pyright: ignore[reportCallIssue]

result = kit.execute("add", 1)
assert_type(result.success, bool)
assert_type(result.error, str | None)
assert_type(result.call_id, str | None)
assert_type(result.duration, float)
result.value = 2  # type: ignore[misc]  # pyright: ignore[reportAttributeAccessIssue]


async def runners(response: Any) -> None:
    assert_type(await kit.aexecute("add", 1, timeout=1.0, call_id="c"), ToolResult)
    chat = await run_openai_chat_tool_calls(response, kit, strict=False)
    assert_type(chat, list[OpenAIChatToolMessage])
    assert_type(chat[0]["content"], str)
    items = await run_openai_responses_tool_calls(response, [add], timeout=2.0)
    assert_type(items, list[OpenAIResponsesToolOutput])
    reply = await run_anthropic_tool_calls(response, kit, meta={"user": 1})
    assert_type(reply, AnthropicToolResultMessage | None)


# -- registry shape, context, streaming and formatting -----------------------------------

named = Toolkit([add], name="math", timeout=5, sequential=True)
assert_type(named.name, str | None)
assert_type(named.timeout_of("add"), float | None)
assert_type(named.get("nope", None), StandardToolV0Definition[Any, Any, Any, Any] | None)
assert_type(Toolkit.merge(named, [add]).with_prefix("p_"), Toolkit)
assert_type(kit.execute("add", 1).metadata, Mapping[str, Any])
assert_type(format_result(kit.execute("add", 1)), str)
assert_type(format_result(kit.execute("add", 1), "anthropic"), dict[str, Any])
format_result(kit.execute("add", 1), "bedrock")  # type: ignore[call-overload]  # pyright: ignore[reportArgumentType, reportCallIssue]
Toolkit([add], sequential="yes")  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]


async def stream_a_call() -> None:
    async for event in kit.astream("add", 1):
        assert_type(event, ProgressEvent | ToolResult)


context = current_context()
assert_type(context, ToolContext | None)
if context is not None:
    assert_type(context.time_left(), float | None)
    assert_type(context.wait(1.0), bool)
    assert_type(context.metadata, dict[str, Any])
