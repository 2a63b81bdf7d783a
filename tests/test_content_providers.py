"""Rich results through each provider: the official SDK sends what we wrote, the model gets it.

Each test runs a scripted model (tests/fakes/server.py, 127.0.0.1) behind the
provider's official client: the model calls a tool that returns rich content, our
runner answers, and the fake model checks the blocks it received in the API's
wire format (kept where the API carries the kind, a text fallback where it does not).
"""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from typing import Any

import anthropic
import openai
import pytest

from standard_tool import Toolkit
from standard_tool.providers import (
    bedrock_tool_config,
    gemini_function_response,
    run_anthropic_tool_calls,
    run_bedrock_tool_calls_sync,
    run_gemini_function_calls,
    run_openai_chat_tool_calls,
    run_openai_responses_tool_calls,
    to_anthropic,
    to_gemini,
    to_openai_chat,
    to_openai_responses,
)
from tests import content_tools as c
from tests.fakes.server import FakeModel, anthropic_message, serve_fake_model

KIT = Toolkit(c.ALL)
NAMES = ["show_image", "play_audio", "link_file", "embed_resources", "chart"]


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


@pytest.fixture
def model() -> Iterator[FakeModel]:
    with serve_fake_model() as fake:
        yield fake
        fake.verify()


# -- Anthropic -------------------------------------------------------------------------------


def _check_anthropic(body: dict[str, Any]) -> None:
    results = body["messages"][2]["content"]
    assert [r["tool_use_id"] for r in results] == [f"toolu_{n}" for n in range(5)]
    image, audio, link, resources, chart = (r["content"] for r in results)
    png = {"type": "base64", "media_type": "image/png", "data": _b64(c.PNG)}
    assert image == [{"type": "image", "source": png}]
    assert audio == [
        {
            "type": "text",
            "text": "[audio/wav audio, 44 bytes: Anthropic tool results cannot carry audio]",
        }
    ]
    assert link == [
        {"type": "text", "text": "see"},
        {
            "type": "text",
            "text": "[resource link q3.pdf (application/pdf): file:///reports/q3.pdf]",
        },
    ]
    pdf = {"type": "base64", "media_type": "application/pdf", "data": _b64(c.PDF)}
    assert resources == [
        {"type": "text", "text": "[resource test://notes.txt]\nsome notes"},
        {"type": "document", "source": pdf},
    ]
    assert chart == [
        {"type": "text", "text": "A red dot:"},
        {"type": "image", "source": png},
        {"type": "text", "text": '{"points": 1}'},
    ]
    assert all(r["is_error"] is False for r in results)


async def test_anthropic_gets_image_and_document_blocks_and_text_for_the_rest(
    model: FakeModel,
) -> None:
    uses = [
        {"type": "tool_use", "id": f"toolu_{n}", "name": name, "input": {}}
        for n, name in enumerate(NAMES)
    ]
    model.expect("/v1/messages", anthropic_message(uses, "tool_use"))
    model.expect(
        "/v1/messages",
        anthropic_message([{"type": "text", "text": "Seen."}], "end_turn"),
        _check_anthropic,
    )
    messages: list[Any] = [{"role": "user", "content": "Show me everything."}]
    tools: Any = to_anthropic(KIT)
    async with anthropic.AsyncAnthropic(
        api_key="test", base_url=model.base_url, max_retries=0
    ) as client:
        for _ in range(2):
            reply = await client.messages.create(
                model="claude-fake", max_tokens=100, messages=messages, tools=tools
            )
            answer = await run_anthropic_tool_calls(reply, KIT)
            if answer is None:
                break
            messages += [{"role": "assistant", "content": reply.content}, answer]
    assert reply.content[0].text == "Seen."  # type: ignore[union-attr]
    assert json.loads(json.dumps(messages[2]))["role"] == "user"


# -- OpenAI Responses ------------------------------------------------------------------------


def _response(output: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "id": "resp_1",
        "object": "response",
        "created_at": 1_700_000_000,
        "model": "fake-model",
        "status": "completed",
        "output": output,
        "parallel_tool_calls": True,
        "tool_choice": "auto",
        "tools": [],
    }


def _function_call(n: int, name: str) -> dict[str, Any]:
    return {
        "type": "function_call",
        "id": f"fc_{n}",
        "call_id": f"call_{n}",
        "name": name,
        "arguments": "{}",
        "status": "completed",
    }


FINAL_MESSAGE = {
    "type": "message",
    "id": "msg_1",
    "role": "assistant",
    "status": "completed",
    "content": [{"type": "output_text", "text": "Seen.", "annotations": []}],
}


def _check_responses(body: dict[str, Any]) -> None:
    outputs = [i for i in body["input"] if i.get("type") == "function_call_output"]
    assert [o["call_id"] for o in outputs] == [f"call_{n}" for n in range(5)]
    image, audio, link, resources, chart = (o["output"] for o in outputs)
    png = {"type": "input_image", "image_url": f"data:image/png;base64,{_b64(c.PNG)}"}
    assert image == [png]
    assert audio == [
        {
            "type": "input_text",
            "text": "[audio/wav audio, 44 bytes: OpenAI Responses tool results cannot carry audio]",
        }
    ]
    assert link[1]["text"] == "[resource link q3.pdf (application/pdf): file:///reports/q3.pdf]"
    assert resources == [
        {"type": "input_text", "text": "[resource test://notes.txt]\nsome notes"},
        {
            "type": "input_file",
            "filename": "report.pdf",
            "file_data": f"data:application/pdf;base64,{_b64(c.PDF)}",
        },
    ]
    assert chart == [
        {"type": "input_text", "text": "A red dot:"},
        png,
        {"type": "input_text", "text": '{"points": 1}'},
    ]


async def test_openai_responses_gets_input_images_and_files(model: FakeModel) -> None:
    calls = [_function_call(n, name) for n, name in enumerate(NAMES)]
    model.expect("/v1/responses", _response(calls))
    model.expect("/v1/responses", _response([FINAL_MESSAGE]), _check_responses)
    items: list[Any] = [{"role": "user", "content": "Show me everything."}]
    tools: Any = to_openai_responses(KIT)
    async with openai.AsyncOpenAI(
        api_key="test", base_url=f"{model.base_url}/v1", max_retries=0
    ) as client:
        for _ in range(2):
            response = await client.responses.create(model="fake-model", input=items, tools=tools)
            outputs = await run_openai_responses_tool_calls(response, KIT)
            if not outputs:
                break
            items.extend(item.to_dict() for item in response.output)
            items.extend(outputs)
    assert response.output_text == "Seen."


# -- OpenAI Chat Completions -----------------------------------------------------------------


def _completion(message: dict[str, Any], finish_reason: str) -> dict[str, Any]:
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1_700_000_000,
        "model": "fake-model",
        "choices": [
            {"index": 0, "finish_reason": finish_reason, "logprobs": None, "message": message}
        ],
    }


def _check_chat(body: dict[str, Any]) -> None:
    tool_messages = [m for m in body["messages"] if m["role"] == "tool"]
    image, audio, link, resources, chart = (m["content"] for m in tool_messages)
    assert image == "[image/png image, 70 bytes: OpenAI Chat tool results cannot carry images]"
    assert audio.startswith("[audio/wav audio, 44 bytes: OpenAI Chat")
    assert link == "see\n[resource link q3.pdf (application/pdf): file:///reports/q3.pdf]"
    assert resources.endswith(
        "[application/pdf resource test://report.pdf, 54 bytes: "
        "OpenAI Chat tool results cannot carry files]"
    )
    assert chart.startswith("A red dot:\n[image/png image")
    assert chart.endswith('\n{"points": 1}')


async def test_openai_chat_gets_a_bounded_text_fallback_for_each_block(model: FakeModel) -> None:
    calls = [
        {"id": f"call_{n}", "type": "function", "function": {"name": name, "arguments": "{}"}}
        for n, name in enumerate(NAMES)
    ]
    model.expect(
        "/v1/chat/completions",
        _completion({"role": "assistant", "content": None, "tool_calls": calls}, "tool_calls"),
    )
    model.expect(
        "/v1/chat/completions",
        _completion({"role": "assistant", "content": "Seen."}, "stop"),
        _check_chat,
    )
    messages: list[Any] = [{"role": "user", "content": "Show me everything."}]
    tools: Any = to_openai_chat(KIT)
    async with openai.AsyncOpenAI(
        api_key="test", base_url=f"{model.base_url}/v1", max_retries=0
    ) as client:
        for _ in range(2):
            completion = await client.chat.completions.create(
                model="fake-model", messages=messages, tools=tools
            )
            replies = await run_openai_chat_tool_calls(completion, KIT)
            if not replies:
                break
            messages.append(completion.choices[0].message.to_dict())
            messages.extend(replies)
    assert completion.choices[0].message.content == "Seen."


# -- Gemini ----------------------------------------------------------------------------------

GEMINI_PATH = "/v1beta/models/fake-model:generateContent"


def _generated(parts: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP"}],
        "modelVersion": "fake-model",
    }


def _camel(value: Any) -> Any:
    """The API reads both spellings; google-genai sends these nested parts' keys in snake case."""
    if isinstance(value, dict):
        return {
            k.split("_")[0] + "".join(w.title() for w in k.split("_")[1:]): _camel(v)
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [_camel(v) for v in value]
    return value


def _decoded(parts: list[dict[str, Any]]) -> list[tuple[str, bytes]]:
    """(MIME type, bytes) of each inline part (google-genai sends URL-safe base64)."""
    return [
        (p["inlineData"]["mimeType"], base64.urlsafe_b64decode(p["inlineData"]["data"]))
        for p in parts
    ]


def _check_gemini(body: dict[str, Any]) -> None:
    responses = [_camel(p["functionResponse"]) for p in body["contents"][2]["parts"]]
    image, audio, link, resources, chart = responses
    png = ("image/png", c.PNG)
    assert image["response"] == {"output": ""}
    assert _decoded(image["parts"]) == [png]
    assert audio["response"] == {
        "output": "[audio/wav audio, 44 bytes: Gemini tool results cannot carry audio]"
    }
    assert "parts" not in audio
    assert link["response"]["output"].startswith("see\n[resource link q3.pdf")
    assert resources["response"] == {"output": "[resource test://notes.txt]\nsome notes"}
    assert _decoded(resources["parts"]) == [("application/pdf", c.PDF)]
    assert chart["response"] == {"output": "A red dot:", "structured": {"points": 1}}
    assert _decoded(chart["parts"]) == [png]


async def test_gemini_function_responses_carry_images_and_pdfs_as_parts(model: FakeModel) -> None:
    from google import genai
    from google.genai import types

    calls = [
        {"functionCall": {"id": f"c{n}", "name": name, "args": {}}} for n, name in enumerate(NAMES)
    ]
    model.expect(GEMINI_PATH, _generated(calls))
    model.expect(GEMINI_PATH, _generated([{"text": "Seen."}]), _check_gemini)
    config = types.GenerateContentConfig(
        tools=[types.Tool(function_declarations=to_gemini(KIT))],  # pyright: ignore[reportArgumentType]
    )
    contents: list[Any] = [{"role": "user", "parts": [{"text": "Show me everything."}]}]
    client = genai.Client(
        api_key="test", http_options={"base_url": model.base_url, "api_version": "v1beta"}
    )
    for _ in range(2):
        response = await client.aio.models.generate_content(
            model="fake-model", contents=contents, config=config
        )
        reply = await run_gemini_function_calls(response, KIT)
        if reply is None:
            break
        assert response.candidates
        contents.append(response.candidates[0].content)
        contents.append(reply)
    assert response.text == "Seen."


def test_gemini_function_response_of_a_rich_result_is_a_part_the_sdk_accepts() -> None:
    from google.genai import types

    made = gemini_function_response(c.mixed_tool.execute(), name="chart", call_id="c1")
    part = types.Part.model_validate(made)
    assert part.function_response is not None
    assert part.function_response.parts is not None
    blob = part.function_response.parts[0].inline_data
    assert blob is not None
    assert (blob.mime_type, blob.data) == ("image/png", c.PNG)


# -- Amazon Bedrock --------------------------------------------------------------------------


def _converse(content: list[dict[str, Any]], stop_reason: str) -> dict[str, Any]:
    return {
        "output": {"message": {"role": "assistant", "content": content}},
        "stopReason": stop_reason,
        "usage": {"inputTokens": 10, "outputTokens": 5, "totalTokens": 15},
        "metrics": {"latencyMs": 1},
    }


def _check_bedrock(body: dict[str, Any]) -> None:
    results = [b["toolResult"] for b in body["messages"][2]["content"]]
    image, audio, link, resources, chart = (r["content"] for r in results)
    png = {"image": {"format": "png", "source": {"bytes": _b64(c.PNG)}}}
    assert image == [png]
    assert audio == [
        {"text": "[audio/wav audio, 44 bytes: Bedrock tool results cannot carry audio]"}
    ]
    assert link[0] == {"text": "see"}
    assert resources == [
        {"text": "[resource test://notes.txt]\nsome notes"},
        {"document": {"format": "pdf", "name": "report (2)", "source": {"bytes": _b64(c.PDF)}}},
    ]
    assert chart == [{"text": "A red dot:"}, png, {"json": {"points": 1}}]
    assert all(r["status"] == "success" for r in results)


def test_bedrock_tool_results_carry_image_document_and_json_blocks(model: FakeModel) -> None:
    import boto3
    import botocore.config

    path = "/model/fake-model/converse"
    uses = [
        {"toolUse": {"toolUseId": f"tooluse_{n}", "name": name, "input": {}}}
        for n, name in enumerate(NAMES)
    ]
    model.expect(path, _converse(uses, "tool_use"))
    model.expect(path, _converse([{"text": "Seen."}], "end_turn"), _check_bedrock)
    client: Any = boto3.client(
        "bedrock-runtime",
        region_name="us-east-1",
        endpoint_url=model.base_url,
        aws_access_key_id="test",
        aws_secret_access_key="test",
        config=botocore.config.Config(retries={"max_attempts": 1, "mode": "standard"}),
    )
    messages: list[Any] = [{"role": "user", "content": [{"text": "Show me everything."}]}]
    config = bedrock_tool_config(KIT)
    for _ in range(2):  # botocore validates every block's shape before sending
        response = client.converse(modelId="fake-model", messages=messages, toolConfig=config)
        reply = run_bedrock_tool_calls_sync(response, KIT)
        if reply is None:
            break
        messages.append(response["output"]["message"])
        messages.append(reply)
    assert response["output"]["message"]["content"] == [{"text": "Seen."}]
