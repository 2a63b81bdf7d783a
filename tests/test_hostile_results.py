"""Hostile outputs, call ids and arguments: every one becomes a bounded result, none raises.

Issue 9's runner and formatter findings, one regression test each: outputs that
cannot be printed (an int past CPython's digit limit, a ``__str__`` that raises,
lone surrogates), outputs that share or contain themselves, call ids that are not
strings, ``tool_calls`` in odd shapes, ``NaN`` arguments, exceptions returned as
values, Gemini's exclusive bounds and the argument decoders' limits.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

import pytest

from standard_tool import Param, Toolkit, standard_tool, tool
from standard_tool.providers import (
    OpenAIStrictSchema,
    anthropic_tool_result,
    gemini_parameters,
    mcp_call_tool_result,
    openai_tool_output,
    run_anthropic_tool_calls,
    run_openai_chat_tool_calls,
    run_openai_responses_tool_calls,
    text_result,
    to_gemini,
)
from tests.fakes.tools import add


class _Unprintable:
    def __str__(self) -> str:
        raise RuntimeError("no text for you")


class _UnprintableError(Exception):
    def __str__(self) -> str:
        raise RuntimeError("no text for you")


def _shared(depth: int) -> list[Any]:
    """A list whose two items are the same list, ``depth`` times: 2**depth leaves as a tree."""
    value: list[Any] = []
    for _ in range(depth):
        value = [value, value]
    return value


def _cycle() -> list[Any]:
    value: list[Any] = []
    value.append(value)
    value.append(value)
    return value


HOSTILE_OUTPUTS: dict[str, Any] = {
    "huge_int": 10**5000,
    "unprintable": _Unprintable(),
    "unprintable_key": {_Unprintable(): 1},
    "huge_int_key": {10**5000: 1},
    "shared": _shared(22),
    "cycle": _cycle(),
    "surrogate": "a\ud800b",
    "surrogate_in_json": {"k\udfff": ["\ud800"]},
}


@pytest.mark.parametrize("name", sorted(HOSTILE_OUTPUTS))
def test_every_formatter_writes_a_bounded_sendable_text(name: str) -> None:
    value = HOSTILE_OUTPUTS[name]
    texts = [
        text_result(value),
        openai_tool_output(value),
        anthropic_tool_result(value)["content"][0]["text"],
        mcp_call_tool_result(value)["content"][0]["text"],
    ]
    for text in texts:
        assert len(text) <= 100_000
        text.encode("utf-8")  # what every SDK does before sending


def test_what_stands_in_for_a_value_says_what_it_was() -> None:
    assert text_result(10**5000) == '"<int of 16610 bits>"'
    assert text_result({"v": _Unprintable()}) == '{"v": "<_Unprintable object: str() failed>"}'
    assert text_result(_cycle()) == '["<cycle>", "<cycle>"]'
    assert text_result("a\ud800b") == "a\\ud800b"
    assert json.loads(text_result({"k\udfff": 1})) == {"k\udfff": 1}  # JSON's own escape
    # a shared structure is cut after a bounded number of values, visibly
    shared = mcp_call_tool_result(_shared(22))
    assert shared["isError"] is True
    assert "not JSON data (a part had to be left out)" in shared["content"][0]["text"]


def test_an_exception_whose_str_raises_still_becomes_an_error() -> None:
    expected = "Error: _UnprintableError: <_UnprintableError object: str() failed>"
    assert text_result(_UnprintableError()) == expected
    block = anthropic_tool_result(_UnprintableError())
    assert block["is_error"] is True
    assert block["content"][0]["text"] == expected
    result = mcp_call_tool_result(_UnprintableError())
    assert result["isError"] is True


def test_text_result_never_exceeds_max_chars() -> None:
    for n in (0, 1, 3, 10, 26, 27, 40):
        assert len(text_result("x" * 100, max_chars=n)) <= n
        assert len(text_result(list(range(100)), max_chars=n)) <= n
        for scalar in (None, True, False, 10**200, -(10**200)):  # the converter's shortcuts
            assert len(text_result(scalar, max_chars=n)) <= n
        assert len(text_result(ValueError("y" * 100), error_max_chars=n)) <= n


def _outputs_tool() -> Any:
    def produce(value: dict[str, Any]) -> Any:
        kind = value["kind"]
        if kind == "exception":
            return ValueError("returned, not raised")
        return HOSTILE_OUTPUTS[kind]

    schema = {"type": "object", "properties": {"kind": {"type": "string"}}}
    return standard_tool(name="produce", description="d", input_schema=schema, execute=produce)


async def test_one_unformattable_output_does_not_lose_the_other_results() -> None:
    kinds = [*sorted(HOSTILE_OUTPUTS), "exception"]
    calls = [
        {"id": f"c{i}", "type": "function", "function": {"name": "produce", "arguments": a}}
        for i, a in enumerate(json.dumps({"kind": k}) for k in kinds)
    ]
    calls.append(
        {
            "id": "last",
            "type": "function",
            "function": {"name": "add", "arguments": '{"a": 2, "b": 3}'},
        }
    )
    kit = Toolkit([_outputs_tool(), add])
    messages = await run_openai_chat_tool_calls({"tool_calls": calls}, kit)
    assert [m["tool_call_id"] for m in messages] == [c["id"] for c in calls]
    assert messages[-1]["content"] == "5"
    assert messages[-2]["content"] == "Error: ValueError: returned, not raised"
    for message in messages:
        assert len(message["content"]) <= 100_000
        message["content"].encode("utf-8")


async def test_anthropic_marks_an_exception_returned_by_a_tool_as_an_error() -> None:
    content = [
        {"type": "tool_use", "id": "a", "name": "produce", "input": {"kind": "exception"}},
        {"type": "tool_use", "id": "b", "name": "add", "input": {"a": 1, "b": 1}},
    ]
    reply = await run_anthropic_tool_calls({"content": content}, [_outputs_tool(), add])
    assert reply is not None
    assert [b["is_error"] for b in reply["content"]] == [True, False]
    assert reply["content"][0]["content"] == "Error: ValueError: returned, not raised"


@pytest.mark.parametrize(
    ("call_id", "expected"), [(0, "0"), (False, "False"), (7, "7"), (None, "")]
)
async def test_call_ids_that_are_not_strings_keep_their_text(call_id: Any, expected: str) -> None:
    call = {
        "id": call_id,
        "type": "function",
        "function": {"name": "add", "arguments": '{"a": 1, "b": 2}'},
    }
    [message] = await run_openai_chat_tool_calls({"tool_calls": [call]}, [add])
    assert message["tool_call_id"] == expected
    item = {
        "type": "function_call",
        "call_id": call_id,
        "name": "add",
        "arguments": '{"a": 1, "b": 2}',
    }
    [output] = await run_openai_responses_tool_calls([item], [add])
    assert output["call_id"] == expected
    block = {"type": "tool_use", "id": call_id, "name": "add", "input": {"a": 1, "b": 2}}
    reply = await run_anthropic_tool_calls([block], [add])
    assert reply is not None
    assert reply["content"][0]["tool_use_id"] == expected


async def test_an_unprintable_call_id_or_name_is_described_not_raised() -> None:
    call = {"id": 10**5000, "type": "function", "function": {"name": 10**5000, "arguments": "{}"}}
    [message] = await run_openai_chat_tool_calls({"tool_calls": [call]}, [add])
    assert message["tool_call_id"] == "<int object: str() failed>"
    assert message["content"].startswith("Error: unknown tool")


async def test_a_list_of_tool_calls_runs_and_one_unwrapped_call_is_refused() -> None:
    """One call where the list belongs is a structurally wrong response: no guess, no result."""
    call = {
        "id": "x",
        "type": "function",
        "function": {"name": "add", "arguments": '{"a": 1, "b": 2}'},
    }
    assert await run_openai_chat_tool_calls([call], [add]) == [
        {"role": "tool", "tool_call_id": "x", "content": "3"}
    ]
    with pytest.raises(TypeError, match=r'^tool_calls must be a list, got dict \{"id": "x"'):
        await run_openai_chat_tool_calls({"tool_calls": call}, [add])


_CHAT_CALL = {"id": "x", "type": "function", "function": {"name": "add", "arguments": "{}"}}
_RESPONSES_CALL = {"type": "function_call", "call_id": "x", "name": "add", "arguments": "{}"}
_ANTHROPIC_CALL = {"type": "tool_use", "id": "x", "name": "add", "input": {"a": 1, "b": 2}}


@pytest.mark.parametrize(
    ("run", "response", "error"),
    [
        (run_openai_chat_tool_calls, _CHAT_CALL, r"^got one tool call where"),
        (run_openai_chat_tool_calls, {"choices": {"message": {}}}, r"^choices must be a list"),
        (run_openai_responses_tool_calls, _RESPONSES_CALL, r"^got one tool call where"),
        (run_openai_responses_tool_calls, {"output": _RESPONSES_CALL}, r"^output must be a list"),
        (run_anthropic_tool_calls, _ANTHROPIC_CALL, r"^got one tool call where"),
        (run_anthropic_tool_calls, {"content": _ANTHROPIC_CALL}, r"^content must be a list"),
    ],
)
async def test_one_call_where_a_response_or_a_list_belongs_is_refused(
    run: Any, response: Any, error: str
) -> None:
    """A structurally wrong response: no result is invented for it, and the error says where."""
    with pytest.raises(TypeError, match=error):
        await run(response, [add])


@pytest.mark.parametrize("tool_calls", ["add", 3, b"[]"])
async def test_tool_calls_that_are_not_calls_are_refused_by_name(tool_calls: Any) -> None:
    with pytest.raises(TypeError, match=r"^tool_calls must be a list, got"):
        await run_openai_chat_tool_calls({"tool_calls": tool_calls}, [add])


def test_mcp_structured_content_is_bounded_like_its_text() -> None:
    ok = mcp_call_tool_result({"a": 1}, max_chars=20)
    assert ok["structuredContent"] == {"a": 1}
    assert ok["isError"] is False
    big = mcp_call_tool_result({"a": "x" * 100}, max_chars=20)
    assert big["isError"] is True
    assert "structuredContent" not in big
    assert big["content"][0]["text"].startswith(
        "Error: the output is too large to send as structured content: 109 characters"
    )
    odd = mcp_call_tool_result({"v": _cycle()})
    assert odd["isError"] is True
    assert "not JSON data" in odd["content"][0]["text"]


def _bounded(**bounds: Any) -> Any:
    def pick(q: int) -> int:
        """Pick."""
        return q

    pick.__annotations__ = {"q": Annotated[int, Param(**bounds)], "return": int}
    return tool(pick)


@pytest.mark.parametrize(
    ("bounds", "expected"),
    [
        ({"gt": 0}, {"minimum": 1}),
        ({"lt": 10}, {"maximum": 9}),
        ({"gt": 0, "lt": 10}, {"minimum": 1, "maximum": 9}),
        ({"gt": 2, "ge": 1}, {"minimum": 3}),
    ],
)
def test_gemini_writes_exact_inclusive_bounds_for_integers(
    bounds: dict[str, Any], expected: dict[str, Any]
) -> None:
    q = to_gemini(_bounded(**bounds))["parameters"]["properties"]["q"]
    assert {k: v for k, v in q.items() if k in ("minimum", "maximum")} == expected
    assert "description" not in q


def test_gemini_integer_bounds_from_fractional_exclusive_bounds() -> None:
    schema = {
        "type": "object",
        "properties": {"q": {"type": "integer", "exclusiveMinimum": 0.5, "exclusiveMaximum": 2.5}},
        "required": ["q"],
    }
    params = gemini_parameters(
        standard_tool(name="t", description="d", input_schema=schema, execute=lambda v: v)
    )
    assert params.schema is not None
    q = params.schema["properties"]["q"]
    assert (q["minimum"], q["maximum"]) == (1, 2)


def test_gemini_number_bounds_stay_inclusive_with_a_note() -> None:
    schema = {"type": "object", "properties": {"x": {"type": "number", "exclusiveMinimum": 0}}}
    params = gemini_parameters(
        standard_tool(name="t", description="d", input_schema=schema, execute=lambda v: v)
    )
    assert params.schema is not None
    x = params.schema["properties"]["x"]
    assert x["minimum"] == 0
    assert "greater than 0" in x["description"]


TREE = {
    "type": "object",
    "properties": {"root": {"$ref": "#/$defs/Node"}},
    "required": ["root"],
    "additionalProperties": False,
    "$defs": {
        "Node": {
            "type": "object",
            "properties": {
                "kids": {"type": "object", "additionalProperties": {"$ref": "#/$defs/Node"}}
            },
            "required": ["kids"],
            "additionalProperties": False,
        }
    },
}


def _deep_entries(depth: int) -> dict[str, Any]:
    node: dict[str, Any] = {"kids": []}
    for _ in range(depth):
        node = {"kids": [{"key": "k", "value": node}]}
    return {"root": node}


def test_the_strict_decoder_never_raises_on_deep_trees_or_odd_keys() -> None:
    strict = OpenAIStrictSchema.from_json_schema(TREE)
    assert strict.strict
    assert strict.decode(_deep_entries(2)) == {
        "root": {"kids": {"k": {"kids": {"k": {"kids": {}}}}}}
    }
    deep = _deep_entries(2_000)
    assert strict.decode(deep) is deep  # passed through for the tool's validation to report
    odd = {"root": {"kids": [{"key": ["a"], "value": {"kids": []}}]}}
    assert strict.decode(odd) == odd


def test_the_gemini_decoder_never_raises_on_deep_trees_or_odd_keys() -> None:
    schema = {
        "type": "object",
        "properties": {"m": {"type": "object", "additionalProperties": {"type": "integer"}}},
    }
    params = gemini_parameters(
        standard_tool(name="t", description="d", input_schema=schema, execute=lambda v: v)
    )
    odd = {"m": [{"key": ["a"], "value": 1}, {"key": {"b": 1}, "value": 2}]}
    assert params.decode(odd) == odd
    assert params.decode({"m": [{"key": "a", "value": 1}]}) == {"m": {"a": 1}}


async def test_an_error_message_with_a_lone_surrogate_is_still_sendable() -> None:
    def fail(value: Any) -> Any:
        raise ValueError("bad \ud800 input")

    broken = standard_tool(name="broken", description="d", execute=fail)
    call = {"id": "c", "type": "function", "function": {"name": "broken", "arguments": "{}"}}
    [message] = await run_openai_chat_tool_calls({"tool_calls": [call]}, [broken])
    message["content"].encode("utf-8")
    assert message["content"] == "Error: ValueError: bad \\ud800 input"
    block = {"type": "tool_use", "id": "a", "name": "broken", "input": {}}
    reply = await run_anthropic_tool_calls([block], [broken])
    assert reply is not None
    reply["content"][0]["content"].encode("utf-8")
