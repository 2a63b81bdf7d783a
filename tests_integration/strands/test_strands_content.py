"""Rich results through the Strands bridge, in the Strands agent loop (a scripted model)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import pytest
from strands.models.openai import OpenAIModel
from strands.types.tools import ToolUse
from tests import content_tools as c
from tests.fakes.server import FakeModel
from tests_integration.strands.streaming import serve_streaming_fake_model

from standard_tool.content import Text, ToolOutput
from standard_tool.integrations.strands import from_strands, to_strands
from strands import Agent
from strands import tool as strands_tool

NAMES = ["show_image", "play_audio", "link_file", "embed_resources", "chart"]


@pytest.fixture
def model() -> Iterator[FakeModel]:
    with serve_streaming_fake_model() as fake:
        yield fake
        fake.verify()


def _completion(message: dict[str, Any], finish_reason: str) -> dict[str, Any]:
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1_700_000_000,
        "model": "fake-model",
        "choices": [
            {"index": 0, "finish_reason": finish_reason, "logprobs": None, "message": message}
        ],
        "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
    }


def test_the_agent_keeps_image_document_and_json_blocks_in_its_tool_results(
    model: FakeModel,
) -> None:
    calls = [
        {"id": f"call_{n}", "type": "function", "function": {"name": name, "arguments": "{}"}}
        for n, name in enumerate(NAMES)
    ]
    turn = _completion({"role": "assistant", "content": None, "tool_calls": calls}, "tool_calls")
    model.expect("/v1/chat/completions", turn)
    model.expect(
        "/v1/chat/completions", _completion({"role": "assistant", "content": "Seen."}, "stop")
    )
    agent = Agent(
        model=OpenAIModel(
            client_args={"base_url": f"{model.base_url}/v1", "api_key": "test-key"},
            model_id="fake-model",
        ),
        tools=to_strands(c.ALL),
        callback_handler=None,
    )
    assert str(agent("Show me everything.")).strip() == "Seen."
    results = {
        block["toolResult"]["toolUseId"]: block["toolResult"]["content"]
        for message in agent.messages
        for block in message["content"]
        if "toolResult" in block
    }
    image, audio, link, resources, chart = (results[f"call_{n}"] for n in range(5))
    png = {"image": {"format": "png", "source": {"bytes": c.PNG}}}
    assert image == [png]
    assert audio == [
        {"text": "[audio/wav audio, 44 bytes: Strands tool results cannot carry audio]"}
    ]
    assert link[0] == {"text": "see"}
    pdf = {"format": "pdf", "name": "report (2)", "source": {"bytes": c.PDF}}
    assert resources == [
        {"text": "[resource test://notes.txt]\nsome notes"},
        {"document": pdf},
    ]
    assert chart == [{"text": "A red dot:"}, png, {"json": {"points": 1}}]
    # What reached the model over the wire is JSON (Strands' own OpenAI formatting).
    json.dumps(model.requests[1].body)


def test_a_strands_tool_answering_an_image_comes_back_as_tool_output() -> None:
    @strands_tool
    def picture() -> dict[str, Any]:
        """Draw a picture."""
        return {
            "status": "success",
            "content": [
                {"text": "a dot"},
                {"image": {"format": "png", "source": {"bytes": c.PNG}}},
            ],
        }

    assert asyncio.run(_execute(from_strands(picture))) == ToolOutput([Text("a dot"), c.IMAGE])


async def _execute(made: Any) -> Any:
    return await made.execute({})


def test_the_tool_result_of_one_call_holds_the_blocks() -> None:
    agent_tool = to_strands(c.mixed_tool)

    async def main() -> list[Any]:
        use: ToolUse = {"toolUseId": "t1", "name": "chart", "input": {}}
        return [event async for event in agent_tool.stream(use, {})]

    (result,) = asyncio.run(main())
    assert result["status"] == "success"
    assert result["content"][2] == {"json": {"points": 1}}
