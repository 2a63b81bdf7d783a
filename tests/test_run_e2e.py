"""End to end: the official OpenAI and Anthropic clients, a scripted model over HTTP, our runner.

The model (tests/fakes/server.py) asks for two tools in one turn, one with bad
arguments; the loop runs them with the runner, sends the results back, and the
final answer arrives. The fake model asserts what it receives: the tools payload
and, on the second request, the results with the right ids and an error for the
bad call. Everything stays on 127.0.0.1; no API key, no network.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import anthropic
import openai
import pytest

from standard_tool import Toolkit
from standard_tool.providers import (
    run_anthropic_tool_calls,
    run_openai_chat_tool_calls,
    run_openai_responses_tool_calls,
    to_anthropic,
    to_openai_chat,
    to_openai_responses,
)
from tests.example_tools import lookup_user, tag_resource
from tests.fakes.server import FakeModel, anthropic_message, serve_fake_model
from tests.fakes.tools import BAD_ARGS, BAD_ARGS_ERROR, FINAL, GOOD_ARGS, add, weather

KIT = Toolkit([weather, add])
# The converters return plain dicts; the SDKs' parameters are TypedDicts.
CHAT_TOOLS: Any = to_openai_chat(KIT)
RESPONSES_TOOLS: Any = to_openai_responses(KIT)
ANTHROPIC_TOOLS: Any = to_anthropic(KIT)


@pytest.fixture
def model() -> Iterator[FakeModel]:
    with serve_fake_model() as fake:
        yield fake
        fake.verify()


def _tool_names(tools: list[dict[str, Any]], key: str | None) -> list[str]:
    return [(t[key] if key else t)["name"] for t in tools]


# -- OpenAI Chat Completions --------------------------------------------------------------


def _chat_completion(message: dict[str, Any], finish_reason: str) -> dict[str, Any]:
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


def _chat_tool_call(call_id: str, name: str, arguments: str) -> dict[str, Any]:
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}


def _check_chat_first(body: dict[str, Any]) -> None:
    assert body["model"] == "fake-model"
    assert body["messages"] == [{"role": "user", "content": "Weather in Paris, and 1 + two?"}]
    tools = body["tools"]
    assert [t["type"] for t in tools] == ["function", "function"]
    assert _tool_names(tools, "function") == ["get_weather", "add"]
    weather_fn = tools[0]["function"]
    assert weather_fn["description"] == "Current weather in a city."
    assert weather_fn["parameters"]["type"] == "object"
    assert set(weather_fn["parameters"]["properties"]) == {"city", "unit"}


def _check_chat_second(body: dict[str, Any]) -> None:
    messages = body["messages"]
    assert [m["role"] for m in messages] == ["user", "assistant", "tool", "tool"]
    assert [c["id"] for c in messages[1]["tool_calls"]] == ["call_1", "call_2"]
    first, second = messages[2], messages[3]
    assert first["tool_call_id"] == "call_1"
    assert json.loads(first["content"]) == {"city": "Paris", "temperature": 21}
    assert second["tool_call_id"] == "call_2"
    assert second["content"] == f"Error: {BAD_ARGS_ERROR}"


async def test_openai_chat_loop_runs_both_calls_and_reaches_the_final_answer(
    model: FakeModel,
) -> None:
    calls = [
        _chat_tool_call("call_1", "get_weather", json.dumps(GOOD_ARGS)),
        _chat_tool_call("call_2", "add", json.dumps(BAD_ARGS)),
    ]
    model.expect(
        "/v1/chat/completions",
        _chat_completion({"role": "assistant", "content": None, "tool_calls": calls}, "tool_calls"),
        _check_chat_first,
    )
    model.expect(
        "/v1/chat/completions",
        _chat_completion({"role": "assistant", "content": FINAL}, "stop"),
        _check_chat_second,
    )
    messages: list[Any] = [{"role": "user", "content": "Weather in Paris, and 1 + two?"}]
    async with openai.AsyncOpenAI(
        api_key="test", base_url=f"{model.base_url}/v1", max_retries=0
    ) as client:
        while True:  # the fake model's script bounds the loop: an extra request fails
            completion = await client.chat.completions.create(
                model="fake-model", messages=messages, tools=CHAT_TOOLS
            )
            replies = await run_openai_chat_tool_calls(completion, KIT)
            if not replies:
                break
            messages.append(completion.choices[0].message.to_dict())
            messages.extend(replies)
    assert completion.choices[0].message.content == FINAL
    assert len(model.requests) == 2
    assert model.requests[0].headers["authorization"] == "Bearer test"


# -- OpenAI Responses ---------------------------------------------------------------------


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


def _function_call(call_id: str, name: str, arguments: str) -> dict[str, Any]:
    return {
        "type": "function_call",
        "id": f"fc_{call_id}",
        "call_id": call_id,
        "name": name,
        "arguments": arguments,
        "status": "completed",
    }


def _output_message(text: str) -> dict[str, Any]:
    return {
        "type": "message",
        "id": "msg_1",
        "role": "assistant",
        "status": "completed",
        "content": [{"type": "output_text", "text": text, "annotations": []}],
    }


def _check_responses_first(body: dict[str, Any]) -> None:
    assert body["input"] == [{"role": "user", "content": "Weather in Paris, and 1 + two?"}]
    tools = body["tools"]
    assert [t["type"] for t in tools] == ["function", "function"]
    assert _tool_names(tools, None) == ["get_weather", "add"]
    assert set(tools[1]["parameters"]["properties"]) == {"a", "b"}


def _check_responses_second(body: dict[str, Any]) -> None:
    items = body["input"]
    assert [i.get("type") for i in items[1:]] == [
        "function_call",
        "function_call",
        "function_call_output",
        "function_call_output",
    ]
    first, second = items[3], items[4]
    assert first["call_id"] == "call_a"
    assert json.loads(first["output"]) == {"city": "Paris", "temperature": 21}
    assert second["call_id"] == "call_b"
    assert second["output"] == f"Error: {BAD_ARGS_ERROR}"


async def test_openai_responses_loop_runs_both_calls_and_reaches_the_final_answer(
    model: FakeModel,
) -> None:
    model.expect(
        "/v1/responses",
        _response(
            [
                _function_call("call_a", "get_weather", json.dumps(GOOD_ARGS)),
                _function_call("call_b", "add", json.dumps(BAD_ARGS)),
            ]
        ),
        _check_responses_first,
    )
    model.expect("/v1/responses", _response([_output_message(FINAL)]), _check_responses_second)
    items: list[Any] = [{"role": "user", "content": "Weather in Paris, and 1 + two?"}]
    async with openai.AsyncOpenAI(
        api_key="test", base_url=f"{model.base_url}/v1", max_retries=0
    ) as client:
        while True:
            response = await client.responses.create(
                model="fake-model", input=items, tools=RESPONSES_TOOLS
            )
            outputs = await run_openai_responses_tool_calls(response, KIT)
            if not outputs:
                break
            items.extend(item.to_dict() for item in response.output)
            items.extend(outputs)
    assert response.output_text == FINAL


# -- Anthropic Messages -------------------------------------------------------------------


def _check_anthropic_first(body: dict[str, Any]) -> None:
    assert body["max_tokens"] == 256
    tools = body["tools"]
    assert _tool_names(tools, None) == ["get_weather", "add"]
    assert tools[0]["description"] == "Current weather in a city."
    assert tools[0]["input_schema"]["type"] == "object"
    assert set(tools[0]["input_schema"]["properties"]) == {"city", "unit"}


def _check_anthropic_second(body: dict[str, Any]) -> None:
    messages = body["messages"]
    assert [m["role"] for m in messages] == ["user", "assistant", "user"]
    assert [b["type"] for b in messages[1]["content"]] == ["text", "tool_use", "tool_use"]
    first, second = messages[2]["content"]
    assert first["type"] == "tool_result"
    assert first["tool_use_id"] == "toolu_1"
    assert json.loads(first["content"]) == {"city": "Paris", "temperature": 21}
    assert first["is_error"] is False
    assert second["tool_use_id"] == "toolu_2"
    assert second["content"] == f"Error: {BAD_ARGS_ERROR}"
    assert second["is_error"] is True


async def test_anthropic_loop_runs_both_calls_and_reaches_the_final_answer(
    model: FakeModel,
) -> None:
    model.expect(
        "/v1/messages",
        anthropic_message(
            [
                {"type": "text", "text": "Let me check."},
                {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": GOOD_ARGS},
                {"type": "tool_use", "id": "toolu_2", "name": "add", "input": BAD_ARGS},
            ],
            "tool_use",
        ),
        _check_anthropic_first,
    )
    model.expect(
        "/v1/messages",
        anthropic_message([{"type": "text", "text": FINAL}], "end_turn"),
        _check_anthropic_second,
    )
    messages: list[Any] = [{"role": "user", "content": "Weather in Paris, and 1 + two?"}]
    async with anthropic.AsyncAnthropic(
        api_key="test", base_url=model.base_url, max_retries=0
    ) as client:
        while True:
            message = await client.messages.create(
                model="claude-fake", max_tokens=256, messages=messages, tools=ANTHROPIC_TOOLS
            )
            reply = await run_anthropic_tool_calls(message, KIT)
            if reply is None:
                break
            messages.append({"role": "assistant", "content": message.to_dict()["content"]})
            messages.append(reply)
    assert message.content[0].type == "text"
    assert message.content[0].text == FINAL
    headers = model.requests[0].headers
    assert "anthropic-version" in headers
    sent_key = headers.get("x-api-key") or headers.get("authorization", "").removeprefix("Bearer ")
    assert sent_key == "test"


# -- OpenAI strict mode: arguments decoded back to the tools' own shape ---------------------

STRICT_KIT = Toolkit([lookup_user, tag_resource])
STRICT_CHAT_TOOLS: Any = to_openai_chat(STRICT_KIT, strict=True)


def _check_strict_first(body: dict[str, Any]) -> None:
    functions = [t["function"] for t in body["tools"]]
    assert [f["strict"] for f in functions] == [True, True]
    lookup = functions[0]["parameters"]
    assert lookup["required"] == ["username", "limit"]
    assert lookup["properties"]["limit"]["type"] == ["integer", "null"]
    assert functions[1]["parameters"]["properties"]["tags"]["type"] == "array"


def _check_strict_second(body: dict[str, Any]) -> None:
    tool_messages = [m for m in body["messages"] if m["role"] == "tool"]
    assert [m["tool_call_id"] for m in tool_messages] == ["call_s1", "call_s2"]
    assert json.loads(tool_messages[0]["content"]) == {"username": "ada", "limit": 10}
    assert json.loads(tool_messages[1]["content"]) == {"env": "prod", "team": "ml"}


async def test_openai_chat_strict_arguments_are_decoded_before_the_tools_run(
    model: FakeModel,
) -> None:
    tags = [{"key": "env", "value": "prod"}, {"key": "team", "value": "ml"}]
    calls = [
        _chat_tool_call("call_s1", "lookup_user", json.dumps({"username": "ada", "limit": None})),
        _chat_tool_call("call_s2", "tag_resource", json.dumps({"resource_id": "r1", "tags": tags})),
    ]
    model.expect(
        "/v1/chat/completions",
        _chat_completion({"role": "assistant", "content": None, "tool_calls": calls}, "tool_calls"),
        _check_strict_first,
    )
    model.expect(
        "/v1/chat/completions",
        _chat_completion({"role": "assistant", "content": "Done."}, "stop"),
        _check_strict_second,
    )
    messages: list[Any] = [{"role": "user", "content": "Look up ada; tag r1."}]
    async with openai.AsyncOpenAI(
        api_key="test", base_url=f"{model.base_url}/v1", max_retries=0
    ) as client:
        while True:
            completion = await client.chat.completions.create(
                model="fake-model", messages=messages, tools=STRICT_CHAT_TOOLS
            )
            replies = await run_openai_chat_tool_calls(completion, STRICT_KIT, strict=True)
            if not replies:
                break
            messages.append(completion.choices[0].message.to_dict())
            messages.extend(replies)
    assert completion.choices[0].message.content == "Done."


async def test_strict_false_passes_the_arguments_through_undecoded() -> None:
    arguments = json.dumps({"username": "ada", "limit": None})
    response = {
        "output": [
            {"type": "function_call", "call_id": "c", "name": "lookup_user", "arguments": arguments}
        ]
    }
    [decoded] = await run_openai_responses_tool_calls(response, STRICT_KIT)
    [raw] = await run_openai_responses_tool_calls(response, STRICT_KIT, strict=False)
    assert json.loads(decoded["output"]) == {"username": "ada", "limit": 10}
    assert raw["output"].startswith("Error: input validation failed: limit:")
