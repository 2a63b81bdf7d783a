"""In the framework bridges' strict mode, a map whose key/value entries repeat a key is
answered to the model as bad input naming the entry, never raised into the agent."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import ToolMessage
from pydantic_ai import Agent
from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    ModelResponse,
    RetryPromptPart,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel

from standard_tool import tool
from standard_tool.integrations.langchain import to_langchain
from standard_tool.integrations.pydantic_ai import to_pydantic_ai

REPEATED = {"tags": [{"key": "a", "value": 1}, {"key": "a", "value": 2}]}
MESSAGE = "tags.1.key: duplicate key 'a' (each key may appear once)"


@tool
def count(tags: dict[str, int]) -> int:
    """Count tags."""
    return len(tags)


def test_langchain_strict_answers_a_repeated_key_with_an_error_message() -> None:
    lc = to_langchain(count, strict=True)
    out = lc.invoke({"type": "tool_call", "name": "count", "args": REPEATED, "id": "c1"})
    assert isinstance(out, ToolMessage)
    assert out.status == "error"
    assert MESSAGE in str(out.content)


async def test_pydantic_ai_strict_asks_the_model_to_retry_a_repeated_key() -> None:
    answers: list[str] = []

    def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        if len(messages) == 1:
            return ModelResponse(parts=[ToolCallPart("count", REPEATED, tool_call_id="c1")])
        last = messages[-1]
        assert isinstance(last, ModelRequest)
        for part in last.parts:
            if isinstance(part, ToolReturnPart):
                answers.append(part.model_response_str())
            elif isinstance(part, RetryPromptPart):
                answers.append(str(part.model_response()))
        return ModelResponse(parts=[TextPart("fixed")])

    tools: Any = [to_pydantic_ai(count, strict=True)]
    result = await Agent(FunctionModel(model), tools=tools).run("go")
    assert result.output == "fixed"
    assert len(answers) == 1
    assert MESSAGE in answers[0]
