"""Anthropic strict tool use: ``to_anthropic(strict=True)``, its checker, the decoding runner.

The end-to-end test drives the real ``anthropic`` client against a scripted Messages
server on 127.0.0.1: the tools go out with ``"strict": true`` and the rewritten
schema, a map sent as entries is decoded back, a bad input gets our error text.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import anthropic
import pytest

from standard_tool import Toolkit, standard_tool
from standard_tool.providers import (
    AnthropicStrictError,
    anthropic_strict,
    check_anthropic_strict,
    run_anthropic_tool_calls,
    to_anthropic,
)
from tests.example_tools import count_nodes, lookup_user, tag_resource
from tests.fakes.server import FakeModel, anthropic_message, serve_fake_model
from tests.fakes.tools import JSONSchema

KIT = Toolkit([lookup_user, tag_resource])


def test_strict_declaration_closes_objects_and_moves_bounds_into_descriptions() -> None:
    declaration = to_anthropic(lookup_user, strict=True)
    assert declaration["strict"] is True
    schema = declaration["input_schema"]
    assert schema["additionalProperties"] is False
    assert schema["required"] == ["username"]  # optional properties stay optional
    limit = schema["properties"]["limit"]
    assert limit["type"] == "integer"
    assert "minimum" not in limit
    assert "minimum: 1" in limit["description"]
    assert check_anthropic_strict(schema) == []
    assert "strict" not in to_anthropic(lookup_user)


def test_a_toolkit_is_declared_strict_with_the_cache_breakpoint_on_the_last() -> None:
    declarations = to_anthropic(KIT, strict=True, cache_control={"type": "ephemeral"})
    assert [d["strict"] for d in declarations] == [True, True]
    assert "cache_control" in declarations[1]
    assert "cache_control" not in declarations[0]


def test_strict_takes_only_a_bool() -> None:
    with pytest.raises(ValueError, match="strict must be True or False, not 'auto'"):
        to_anthropic(lookup_user, strict="auto")  # type: ignore[arg-type]


def test_a_recursive_type_is_refused_loudly() -> None:
    with pytest.raises(AnthropicStrictError, match="TreeNode is recursive"):
        to_anthropic(count_nodes, strict=True)
    with pytest.raises(AnthropicStrictError, match="TreeNode is recursive"):
        anthropic_strict(count_nodes)  # cached failure, same message


def test_a_value_of_any_type_is_refused_loudly() -> None:
    schema = {"type": "object", "properties": {"x": {}}}
    free = standard_tool(name="free", description="x", input_schema=JSONSchema(schema), execute=id)
    with pytest.raises(AnthropicStrictError, match="/properties/x accepts any value"):
        to_anthropic(free, strict=True)


def test_strict_maps_are_entries_and_are_decoded_back() -> None:
    strict = anthropic_strict(tag_resource)
    tags = strict.schema["properties"]["tags"]
    assert tags["type"] == "array"
    assert tags["items"]["additionalProperties"] is False
    entries = [{"key": "env", "value": "prod"}]
    assert strict.decode({"resource_id": "r", "tags": entries}) == {
        "resource_id": "r",
        "tags": {"env": "prod"},
    }
    assert strict.decode("garbage") == "garbage"


@pytest.mark.parametrize(
    ("schema", "where", "what"),
    [
        ([], "/", "not a JSON object"),
        ({"type": "object", "properties": {}}, "/", "additionalProperties: false"),
        ({"type": "array", "items": {"type": "string"}}, "/", '"type": "object"'),
        (
            {
                "type": "object",
                "additionalProperties": False,
                "properties": {"n": {"type": "integer", "minimum": 1}},
            },
            "/properties/n",
            "minimum",
        ),
        (
            {
                "type": "object",
                "additionalProperties": False,
                "properties": {"s": {"type": "string", "format": "ipv9"}},
            },
            "/properties/s",
            "format",
        ),
        (
            {
                "type": "object",
                "additionalProperties": False,
                "properties": {"a": {"type": "array", "items": {"type": "string"}, "minItems": 2}},
            },
            "/properties/a",
            "minItems",
        ),
        (
            {
                "type": "object",
                "additionalProperties": False,
                "properties": {"e": {"enum": [{"a": 1}]}},
            },
            "/properties/e",
            "enum",
        ),
        (
            {
                "type": "object",
                "additionalProperties": False,
                "properties": {"r": {"$ref": "#"}},
            },
            "/$defs/#",
            "recursive",
        ),
        (
            {
                "type": "object",
                "additionalProperties": False,
                "properties": {f"p{i}": {"type": "string"} for i in range(25)},
            },
            "/",
            "25 optional properties",
        ),
        (
            {
                "type": "object",
                "additionalProperties": False,
                "required": [f"p{i}" for i in range(17)],
                "properties": {f"p{i}": {"type": ["string", "null"]} for i in range(17)},
            },
            "/",
            "17 properties with a union type",
        ),
    ],
)
def test_check_anthropic_strict_names_each_problem(schema: Any, where: str, what: str) -> None:
    problems = check_anthropic_strict(schema)
    assert any(str(p).split(" ")[0] == where and what in p.message for p in problems), problems


# -- end to end: the anthropic client against a scripted Messages server -------------------


@pytest.fixture
def model() -> Iterator[FakeModel]:
    with serve_fake_model() as fake:
        yield fake
        fake.verify()


def _check_first(body: dict[str, Any]) -> None:
    tools = body["tools"]
    assert [t["strict"] for t in tools] == [True, True]
    assert tools[0]["input_schema"]["additionalProperties"] is False
    assert tools[1]["input_schema"]["properties"]["tags"]["type"] == "array"


def _check_second(body: dict[str, Any]) -> None:
    first, second = body["messages"][2]["content"]
    assert first["tool_use_id"] == "toolu_1"
    assert first["is_error"] is True
    assert first["content"].startswith("Error: input validation failed: username")
    assert second["tool_use_id"] == "toolu_2"
    assert second["is_error"] is False
    assert json.loads(second["content"]) == {"env": "prod", "team": "ml"}


async def test_an_anthropic_strict_loop_decodes_inputs_and_reaches_the_final_answer(
    model: FakeModel,
) -> None:
    tags = [{"key": "env", "value": "prod"}, {"key": "team", "value": "ml"}]
    model.expect(
        "/v1/messages",
        anthropic_message(
            [
                {
                    "type": "tool_use",
                    "id": "toolu_1",
                    "name": "lookup_user",
                    "input": {"username": "A"},
                },
                {
                    "type": "tool_use",
                    "id": "toolu_2",
                    "name": "tag_resource",
                    "input": {"resource_id": "r1", "tags": tags},
                },
            ],
            "tool_use",
        ),
        _check_first,
    )
    model.expect(
        "/v1/messages",
        anthropic_message([{"type": "text", "text": "Done."}], "end_turn"),
        _check_second,
    )
    tools: Any = to_anthropic(KIT, strict=True)
    messages: list[Any] = [{"role": "user", "content": "Look up A; tag r1."}]
    async with anthropic.AsyncAnthropic(
        api_key="test", base_url=model.base_url, max_retries=0
    ) as client:
        while True:  # the fake model's script bounds the loop: an extra request fails
            message = await client.messages.create(
                model="claude-fake", max_tokens=256, messages=messages, tools=tools
            )
            reply = await run_anthropic_tool_calls(message, KIT, strict=True)
            if reply is None:
                break
            messages.append({"role": "assistant", "content": message.to_dict()["content"]})
            messages.append(reply)
    assert message.content[0].type == "text"
    assert message.content[0].text == "Done."
