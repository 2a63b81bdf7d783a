"""LangChain's ``ChatOpenAI`` with our tools bound, against the scripted server on 127.0.0.1.

This is the provider path LangChain really takes: ``bind_tools`` turns each tool
into the request's ``tools`` entry, the server checks what arrives (our schema,
plain or strict), answers with tool calls, and receives our answers back.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_openai import ChatOpenAI
from tests.example_tools import tag_resource
from tests.fakes.server import FakeModel, serve_fake_model
from tests.fakes.tools import add, weather

from standard_tool import Toolkit
from standard_tool.integrations.langchain import to_langchain
from standard_tool.providers import openai_strict, to_openai_chat

BAD_ADD_ERROR = "Error: input validation failed: b: 'two' is not of type 'integer'"


@pytest.fixture
def fake() -> Iterator[FakeModel]:
    with serve_fake_model() as model:
        yield model
        model.verify()


def _completion(message: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1_700_000_000,
        "model": "fake-model",
        "choices": [{"index": 0, "finish_reason": "stop", "logprobs": None, "message": message}],
        "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
    }


def _call(call_id: str, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": call_id,
        "type": "function",
        "function": {"name": name, "arguments": json.dumps(arguments)},
    }


def _loop(chat: Any, tools: list[Any], prompt: str) -> list[BaseMessage]:
    by_name = {t.name: t for t in tools}
    messages: list[BaseMessage] = [HumanMessage(prompt)]
    while True:
        reply = chat.invoke(messages)
        messages.append(reply)
        assert isinstance(reply, AIMessage)
        if not reply.tool_calls:
            return messages
        for call in reply.tool_calls:
            messages.append(by_name[call["name"]].invoke(call))


def _chat(fake: FakeModel) -> ChatOpenAI:
    return ChatOpenAI(model="fake-model", base_url=f"{fake.base_url}/v1", api_key="test-key")


def test_chat_openai_is_sent_our_schema_and_receives_our_error_text(fake: FakeModel) -> None:
    def first(body: dict[str, Any]) -> None:
        sent = {t["function"]["name"]: t["function"]["parameters"] for t in body["tools"]}
        assert sent == {
            t.name: to_openai_chat(t, strict=False)["function"]["parameters"]
            for t in (weather, add)
        }

    def second(body: dict[str, Any]) -> None:
        answers = {m["tool_call_id"]: m["content"] for m in body["messages"] if m["role"] == "tool"}
        assert answers == {
            "call_1": '{"city": "Paris", "temperature": 21}',
            "call_2": BAD_ADD_ERROR,
        }

    calls = [
        _call("call_1", "get_weather", {"city": "Paris", "unit": "c"}),
        _call("call_2", "add", {"a": 1, "b": "two"}),
    ]
    fake.expect(
        "/v1/chat/completions",
        _completion({"role": "assistant", "content": None, "tool_calls": calls}),
        first,
    )
    fake.expect(
        "/v1/chat/completions",
        _completion({"role": "assistant", "content": "21 degrees; I could not add."}),
        second,
    )
    tools = to_langchain(Toolkit([weather, add]))
    messages = _loop(_chat(fake).bind_tools(tools), tools, "Weather, and 1 + two?")
    assert messages[-1].content == "21 degrees; I could not add."


def test_strict_binding_sends_our_rewrite_and_the_map_is_decoded_back(fake: FakeModel) -> None:
    def first(body: dict[str, Any]) -> None:
        function = body["tools"][0]["function"]
        assert function["strict"] is True
        assert function["parameters"] == openai_strict(tag_resource).schema

    def second(body: dict[str, Any]) -> None:
        answers = [m["content"] for m in body["messages"] if m["role"] == "tool"]
        assert answers == ['{"env": "prod"}']

    arguments = {"resource_id": "r1", "tags": [{"key": "env", "value": "prod"}]}
    fake.expect(
        "/v1/chat/completions",
        _completion(
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [_call("c1", "tag_resource", arguments)],
            }
        ),
        first,
    )
    fake.expect(
        "/v1/chat/completions", _completion({"role": "assistant", "content": "Tagged."}), second
    )
    tools = [to_langchain(tag_resource, strict=True)]
    messages = _loop(_chat(fake).bind_tools(tools, strict=True), tools, "Tag r1 env=prod")
    assert messages[-1].content == "Tagged."
