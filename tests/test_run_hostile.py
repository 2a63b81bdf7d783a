"""Running a model's tool calls: every hostile call becomes an error result, in order.

Unknown tool names, arguments that are not JSON, huge and deeply nested arguments,
handler exceptions with huge messages and timeouts: none raises, none is dropped,
and each result keeps its call's id and position. Responses are dicts here (the
SDK objects are covered by test_run_e2e.py and test_run_sdk_objects.py).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from standard_tool import Toolkit, standard_tool
from standard_tool.providers import (
    run_anthropic_tool_calls,
    run_openai_chat_tool_calls,
    run_openai_responses_tool_calls,
)
from tests.fakes.tools import add, weather

TEN_MB = "x" * 10_000_000


async def _hang() -> Any:
    await asyncio.sleep(60)


def _explode(_: Any) -> Any:
    raise RuntimeError("boom " + "!" * 5_000_000)


KIT = Toolkit(
    [
        weather,
        add,
        # Its own deadline: the other calls keep the runners' default, so a loaded
        # machine cannot time out a call that only raises.
        standard_tool(name="hang", description="Never returns.", execute=_hang, timeout=0.2),
        standard_tool(name="explode", description="Always fails.", execute=_explode),
    ]
)

DEEP_OK = "[" * 900 + "]" * 900  # parses; the schema then rejects it
DEEP_TOO_MUCH = "[" * 100_000 + "]" * 100_000  # too deep for the JSON decoder

# (name, JSON arguments, what the error must contain) in the order the model sent them
HOSTILE: list[tuple[str, str, str]] = [
    ("get_weather", json.dumps({"city": "Oslo", "unit": "c"}), ""),
    ("no_such_tool", "{}", "unknown tool 'no_such_tool'; available tools: get_weather, add"),
    ("get_weather", '{"city": "Oslo", ', "the arguments are not valid JSON (Expecting"),
    ("get_weather", json.dumps({"city": "Oslo", "unit": TEN_MB}), "input validation failed: unit:"),
    ("get_weather", '{"city": ' + DEEP_OK + ', "unit": "c"}', "input validation failed: city:"),
    ("get_weather", DEEP_TOO_MUCH, "nested too deeply"),
    ("explode", "{}", "RuntimeError: boom !!!"),
    ("hang", "{}", "timed out after 0.2 s"),
    ("add", json.dumps({"a": 2, "b": 3}), ""),
]


def _chat_response() -> dict[str, Any]:
    calls = [
        {"id": f"call_{i}", "type": "function", "function": {"name": n, "arguments": a}}
        for i, (n, a, _) in enumerate(HOSTILE)
    ]
    message = {"role": "assistant", "content": None, "tool_calls": calls}
    return {"choices": [{"index": 0, "finish_reason": "tool_calls", "message": message}]}


def _check_errors(contents: list[str]) -> None:
    assert len(contents) == len(HOSTILE)
    for content, (_, _, expected) in zip(contents, HOSTILE, strict=True):
        assert len(content) < 3000
        if expected:
            assert content.startswith("Error: ")
            assert expected in content
    assert json.loads(contents[0]) == {"city": "Oslo", "temperature": 21}
    assert contents[-1] == "5"


async def test_chat_hostile_calls_become_error_messages_in_order() -> None:
    messages = await run_openai_chat_tool_calls(_chat_response(), KIT)
    assert [m["tool_call_id"] for m in messages] == [f"call_{i}" for i in range(len(HOSTILE))]
    assert all(m["role"] == "tool" for m in messages)
    _check_errors([m["content"] for m in messages])


async def test_responses_hostile_calls_become_error_outputs_in_order() -> None:
    output: list[dict[str, Any]] = [{"type": "reasoning", "id": "rs_1", "summary": []}]
    output += [
        {"type": "function_call", "call_id": f"c{i}", "name": n, "arguments": a}
        for i, (n, a, _) in enumerate(HOSTILE)
    ]
    items = await run_openai_responses_tool_calls({"output": output}, KIT)
    assert [i["call_id"] for i in items] == [f"c{i}" for i in range(len(HOSTILE))]
    assert {i["type"] for i in items} == {"function_call_output"}
    _check_errors([i["output"] for i in items])


async def test_anthropic_hostile_calls_become_is_error_blocks_in_order() -> None:
    content: list[dict[str, Any]] = [{"type": "text", "text": "On it."}]
    content += [
        {"type": "tool_use", "id": f"toolu_{i}", "name": n, "input": json.loads(a)}
        for i, (n, a, _) in enumerate(HOSTILE)
        if a not in (DEEP_TOO_MUCH, '{"city": "Oslo", ')  # Anthropic sends parsed input
    ]
    reply = await run_anthropic_tool_calls({"content": content}, KIT)
    assert reply is not None
    assert reply["role"] == "user"
    blocks = reply["content"]
    assert [b["tool_use_id"] for b in blocks] == [c["id"] for c in content[1:]]
    assert [b["is_error"] for b in blocks] == [False, True, True, True, True, True, False]
    assert all(len(b["content"]) < 3000 for b in blocks)
    assert blocks[1]["content"].startswith("Error: unknown tool 'no_such_tool'")
    assert blocks[2]["content"].startswith("Error: input validation failed: unit:")
    assert blocks[4]["content"].startswith("Error: RuntimeError: boom")
    assert blocks[4]["content"].endswith(" characters]")
    assert blocks[5]["content"] == "Error: timed out after 0.2 s"
    assert blocks[6]["content"] == "5"


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        (None, "the arguments must be a JSON text, got NoneType"),
        ("[1, 2]", "input validation failed: [1, 2] is not of type 'object'"),
        ("null", "input validation failed: None is not of type 'object'"),
        ('"a string"', "input validation failed: 'a string' is not of type 'object'"),
        ("{'single': 'quotes'}", "the arguments are not valid JSON (Expecting property name"),
        ("NaN", "the arguments are not valid JSON (NaN is not a JSON number)"),
        ('{"city": Infinity}', "the arguments are not valid JSON (Infinity is not a JSON"),
        ('{"city": [-Infinity]}', "the arguments are not valid JSON (-Infinity is not a"),
        ('{"city": "x", "unit": "c", "extra": 1}', "input validation failed: Additional"),
    ],
)
async def test_malformed_arguments_give_a_short_reason(arguments: Any, expected: str) -> None:
    call = {
        "id": "c",
        "type": "function",
        "function": {"name": "get_weather", "arguments": arguments},
    }
    response = {"choices": [{"message": {"role": "assistant", "tool_calls": [call]}}]}
    [message] = await run_openai_chat_tool_calls(response, KIT)
    assert message["content"].startswith(f"Error: {expected}")


async def test_empty_arguments_mean_an_empty_object() -> None:
    ping = standard_tool(name="ping", description="Ping.", execute=lambda: "pong")
    response = {
        "output": [{"type": "function_call", "call_id": "c", "name": "ping", "arguments": ""}]
    }
    [item] = await run_openai_responses_tool_calls(response, [ping])
    assert item["output"] == "pong"


async def test_a_chat_custom_tool_call_gets_an_error_instead_of_being_dropped() -> None:
    calls = [
        {"id": "c1", "type": "custom", "custom": {"name": "grammar", "input": "x"}},
        {"id": "c2", "type": "function", "function": {"name": "add", "arguments": '{"a":1,"b":1}'}},
    ]
    response = {"choices": [{"message": {"role": "assistant", "tool_calls": calls}}]}
    messages = await run_openai_chat_tool_calls(response, KIT)
    assert [m["tool_call_id"] for m in messages] == ["c1", "c2"]
    assert messages[0]["content"].startswith("Error: custom tool calls are not supported")
    assert messages[1]["content"] == "2"


async def test_a_responses_custom_tool_call_gets_a_custom_error_output() -> None:
    output = [{"type": "custom_tool_call", "call_id": "c1", "name": "grammar", "input": "x"}]
    [item] = await run_openai_responses_tool_calls({"output": output}, KIT)
    assert item["type"] == "custom_tool_call_output"
    assert item["call_id"] == "c1"


async def test_no_tool_calls_give_nothing_to_send() -> None:
    message = {"role": "assistant", "content": "Hi", "tool_calls": None}
    assert await run_openai_chat_tool_calls({"choices": [{"message": message}]}, KIT) == []
    assert await run_openai_chat_tool_calls(message, KIT) == []
    assert await run_openai_responses_tool_calls({"output": []}, KIT) == []
    assert (
        await run_anthropic_tool_calls({"content": [{"type": "text", "text": "Hi"}]}, KIT) is None
    )


async def test_tools_may_be_a_plain_list_and_meta_reaches_every_tool() -> None:
    seen: list[Any] = []

    def record(_: Any, meta: Any) -> str:
        seen.append(meta)
        return "ok"

    tool = standard_tool(name="record", description="d", execute=record)
    content: list[dict[str, Any]] = [
        {"type": "tool_use", "id": f"t{i}", "name": "record", "input": {}} for i in range(3)
    ]
    reply = await run_anthropic_tool_calls({"content": content}, [tool], meta={"user": 7})
    assert reply is not None
    assert [b["content"] for b in reply["content"]] == ["ok", "ok", "ok"]
    assert seen == [{"user": 7}] * 3


async def test_duplicate_tool_names_in_a_plain_list_are_refused_before_running() -> None:
    with pytest.raises(ValueError, match="duplicate tool names"):
        await run_anthropic_tool_calls({"content": []}, [add, add])


async def test_non_json_values_are_sent_as_text() -> None:
    class Point:
        def __str__(self) -> str:
            return "Point(1, 2)"

    cyclic: list[Any] = []
    cyclic.append(cyclic)
    tools = [
        standard_tool(name="point", description="d", execute=lambda: {"p": Point()}),
        standard_tool(name="cyclic", description="d", execute=lambda: cyclic),
    ]
    output = [
        {"type": "function_call", "call_id": "a", "name": "point", "arguments": "{}"},
        {"type": "function_call", "call_id": "b", "name": "cyclic", "arguments": "{}"},
    ]
    items = await run_openai_responses_tool_calls({"output": output}, tools)
    assert items[0]["output"] == '{"p": "Point(1, 2)"}'
    assert items[1]["output"] == '["<cycle>"]'
