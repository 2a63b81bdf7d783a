"""One bound on the text of a result, in every consumer, for every content type (issue 35).

The text blocks of a rich result (``Text`` and text ``EmbeddedResource``) share
``max_chars``; the structured value's JSON text is cut at ``max_chars`` too. Each
consumer that writes rich results is given generated blocks of any size; the text
it writes stays within the bound, and every string in it can be encoded.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from standard_tool import standard_tool
from standard_tool.content import EmbeddedResource, Text, ToolOutput
from standard_tool.integrations.langchain import langchain_content
from standard_tool.integrations.openai_agents import openai_agents_content
from standard_tool.integrations.pydantic_ai import pydantic_ai_content
from standard_tool.providers import (
    anthropic_content,
    anthropic_tool_result,
    bedrock_content,
    bedrock_tool_result,
    gemini_function_response,
    mcp_call_tool_result,
    openai_responses_content,
    openai_tool_output,
    run_anthropic_tool_calls,
    run_bedrock_tool_calls,
    run_openai_responses_tool_calls,
    text_result,
)
from tests.content_bounds import assert_within_bound, bound_cases, texts_of

CONSUMERS: dict[str, Callable[[ToolOutput[Any], int], Any]] = {
    "anthropic_content": anthropic_content,
    "anthropic_tool_result": lambda o, n: anthropic_tool_result(o, max_chars=n),
    "openai_responses_content": openai_responses_content,
    "openai_tool_output": lambda o, n: openai_tool_output(o, max_chars=n),
    "bedrock_content": bedrock_content,
    "bedrock_tool_result": lambda o, n: bedrock_tool_result(o, max_chars=n),
    "gemini_function_response": lambda o, n: gemini_function_response(o, name="t", max_chars=n),
    "mcp_call_tool_result": lambda o, n: mcp_call_tool_result(o, max_chars=n, error_max_chars=n),
    "text_result": lambda o, n: text_result(o, max_chars=n),
}


@pytest.mark.parametrize("consumer", CONSUMERS)
@bound_cases
def test_the_text_of_a_rich_result_stays_within_max_chars(
    consumer: str, output: ToolOutput[Any], max_chars: int
) -> None:
    assert_within_bound(list(texts_of(CONSUMERS[consumer](output, max_chars))), output, max_chars)


def _pydantic_ai_texts(written: Any) -> list[str]:
    from pydantic_ai.messages import ToolReturn

    parts = written.content if isinstance(written, ToolReturn) else written
    texts = [part for part in parts if isinstance(part, str)]
    if isinstance(written, ToolReturn):
        texts += texts_of(written.return_value)
    return texts


#: The bridges in ``[all]`` whose writers carry rich results as their framework's blocks;
#: each gives the texts it wrote.
BRIDGES: dict[str, Callable[[ToolOutput[Any], int], list[str]]] = {
    "langchain_content": lambda o, n: list(texts_of(langchain_content(o, n))),
    "openai_agents_content": lambda o, n: list(
        texts_of([item.model_dump() for item in openai_agents_content(o, n)])
    ),
    "pydantic_ai_content": lambda o, n: _pydantic_ai_texts(pydantic_ai_content(o, n)),
}


@pytest.mark.parametrize("bridge", BRIDGES)
@bound_cases
def test_a_bridge_writes_a_rich_result_within_max_chars(
    bridge: str, output: ToolOutput[Any], max_chars: int
) -> None:
    assert_within_bound(BRIDGES[bridge](output, max_chars), output, max_chars)


def _huge() -> Any:
    return standard_tool(
        name="huge",
        description="A million characters.",
        execute=lambda: ToolOutput(
            [Text("x" * 500_000), EmbeddedResource("u", text="y" * 500_000)]
        ),
    )


async def test_the_runners_answer_a_million_characters_with_the_default_bound() -> None:
    block = {"type": "tool_use", "id": "a", "name": "huge", "input": {}}
    anthropic = await run_anthropic_tool_calls([block], [_huge()])
    item = {"type": "function_call", "call_id": "a", "name": "huge", "arguments": "{}"}
    responses = await run_openai_responses_tool_calls([item], [_huge()])
    converse = {
        "output": {
            "message": {"content": [{"toolUse": {"toolUseId": "a", "name": "huge", "input": {}}}]}
        }
    }
    bedrock = await run_bedrock_tool_calls(converse, [_huge()])
    for reply in (anthropic, responses, bedrock):
        assert sum(map(len, texts_of(reply))) <= 100_000 + 100, json.dumps(reply)[:200]


def test_a_langchain_tool_answers_a_million_characters_with_the_default_bound() -> None:
    from langchain_core.messages import ToolMessage

    from standard_tool.integrations.langchain import to_langchain

    message = to_langchain(_huge()).invoke(
        {"type": "tool_call", "name": "huge", "args": {}, "id": "a"}
    )
    assert isinstance(message, ToolMessage)
    assert sum(map(len, texts_of(message.content))) <= 100_000 + 100
