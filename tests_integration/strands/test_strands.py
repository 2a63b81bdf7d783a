"""Strands bridge: our tools in a Strands ``Agent``'s own loop, and Strands tools as ours.

The agent uses Strands' ``OpenAIModel`` (streaming, its default) on the official
``openai`` client, pointed at the scripted model of tests/fakes/server.py on
127.0.0.1 (streaming.py cuts its answers into chunks). The
scripted model checks what Strands sends (our schemas, the results of a good and a
bad call, each under its ``tool_call_id``) and answers.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import subprocess
import sys
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from strands.models.openai import OpenAIModel
from strands.types.tools import AgentTool, ToolUse
from tests import upstream_targets
from tests.context_tools import crawl, index, whoami
from tests.fakes.server import FakeModel
from tests.fakes.tools import PlainTool
from tests_integration.strands.streaming import serve_streaming_fake_model

from standard_tool import (
    ProgressEvent,
    StandardToolValidationError,
    Toolkit,
    standard_tool,
    tool,
)
from standard_tool.integrations.strands import (
    StandardStrandsTool,
    StrandsCall,
    StrandsToolError,
    from_strands,
    to_strands,
)
from standard_tool.providers import to_openai_chat
from strands import Agent, ToolContext
from strands import tool as strands_tool


@tool
def tag_count(tags: dict[str, str], limit: int = 10) -> int:
    """Count the tags, at most ``limit``.

    Args:
        tags: the tags, name to value.
        limit: the largest count reported.
    """
    return min(len(tags), limit)


@tool
async def forecast(city: str, days: int) -> dict[str, Any]:
    """Forecast the weather.

    Args:
        city: the city.
        days: how many days ahead.
    """
    await asyncio.sleep(0)
    return {"city": city, "days": days, "sky": "clear"}


@tool
def explode(reason: str) -> str:
    """Fail with ``reason``."""
    raise RuntimeError(reason)


# -- helpers ----------------------------------------------------------------------------


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


def _calls(*calls: tuple[str, str, str]) -> dict[str, Any]:
    tool_calls = [
        {"id": i, "type": "function", "function": {"name": n, "arguments": a}} for i, n, a in calls
    ]
    message = {"role": "assistant", "content": None, "tool_calls": tool_calls}
    return _completion(message, "tool_calls")


def _answer(text: str) -> dict[str, Any]:
    return _completion({"role": "assistant", "content": text}, "stop")


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    return "".join(part["text"] for part in content)


def _tool_messages(body: dict[str, Any]) -> dict[str, str]:
    return {m["tool_call_id"]: _text(m["content"]) for m in body["messages"] if m["role"] == "tool"}


def _agent(fake: FakeModel, tools: list[Any]) -> Agent:
    model = OpenAIModel(
        client_args={"base_url": f"{fake.base_url}/v1", "api_key": "test-key"},
        model_id="fake-model",
    )
    return Agent(model=model, tools=tools, callback_handler=None)


def _run(agent_tool: AgentTool, input: Any, call_id: str = "tooluse_1") -> Any:
    async def main() -> list[Any]:
        use: ToolUse = {"toolUseId": call_id, "name": agent_tool.tool_name, "input": input}
        return [event async for event in agent_tool.stream(use, {})]

    (result,) = asyncio.run(main())
    return result


# -- the Strands agent loop -------------------------------------------------------------


def test_the_agent_calls_one_tool_well_and_one_badly_and_the_answer_arrives(
    model: FakeModel,
) -> None:
    def first(body: dict[str, Any]) -> None:
        sent = {t["function"]["name"]: t["function"] for t in body["tools"]}
        assert set(sent) == {"tag_count", "forecast"}
        ours = to_openai_chat(tag_count, strict=False)["function"]["parameters"]
        assert sent["tag_count"]["parameters"]["properties"]["tags"] == ours["properties"]["tags"]
        assert sent["tag_count"]["parameters"]["required"] == ["tags"]

    def second(body: dict[str, Any]) -> None:
        results = _tool_messages(body)
        assert results["call_1"] == "2"
        assert results["call_2"].startswith("Error: input validation failed: days: ")

    turn = _calls(
        ("call_1", "tag_count", json.dumps({"tags": {"a": "1", "b": "2"}})),
        ("call_2", "forecast", json.dumps({"city": "Paris", "days": "three"})),
    )
    model.expect("/v1/chat/completions", turn, first)
    model.expect("/v1/chat/completions", _answer("Two tags; no forecast."), second)
    agent = _agent(model, to_strands(Toolkit([tag_count, forecast])))

    result = agent("Count and forecast.")

    assert str(result).strip() == "Two tags; no forecast."


def test_invalid_json_and_a_failing_tool_reach_the_model_as_our_text(model: FakeModel) -> None:
    def second(body: dict[str, Any]) -> None:
        results = _tool_messages(body)
        assert results["call_a"].startswith("Error: input validation failed: ")
        assert "city" in results["call_a"]
        assert results["call_b"] == "Error: RuntimeError: no such luck"

    turn = _calls(
        ("call_a", "forecast", '{"city": '),
        ("call_b", "explode", '{"reason": "no such luck"}'),
    )
    model.expect("/v1/chat/completions", turn)
    model.expect("/v1/chat/completions", _answer("done"), second)

    result = _agent(model, to_strands([forecast, explode]))("Go.")

    assert str(result).strip() == "done"


def test_the_tool_use_id_and_invocation_state_reach_the_tool_through_meta(
    model: FakeModel,
) -> None:
    seen: list[Any] = []

    def record(input: Any, meta: Any) -> str:
        seen.append(meta)
        return "ok"

    probe = standard_tool(name="probe", description="Record the call.", execute=record)
    model.expect("/v1/chat/completions", _calls(("call_7", "probe", "{}")))
    model.expect("/v1/chat/completions", _answer("done"))
    bridged = to_strands(probe, meta=lambda c: (c.tool_use_id, c.invocation_state.get("user")))

    agent = _agent(model, [bridged])
    if "invocation_state" in inspect.signature(agent.__call__).parameters:
        agent("Go.", invocation_state={"user": "ada"})
    else:  # Strands before the invocation_state argument
        agent("Go.", user="ada")

    assert seen == [("call_7", "ada")]


# -- to Strands -------------------------------------------------------------------------


def test_results_carry_the_call_id_and_a_status() -> None:
    ok = _run(to_strands(tag_count), {"tags": {"a": "b"}}, "tu_1")
    bad = _run(to_strands(tag_count), {"tags": {"a": 1}}, "tu_2")

    assert ok == {"toolUseId": "tu_1", "status": "success", "content": [{"text": "1"}]}
    assert bad["toolUseId"] == "tu_2"
    assert bad["status"] == "error"
    assert bad["content"] == [
        {"text": "Error: input validation failed: tags.a: expected string, got integer 1"}
    ]


@pytest.mark.parametrize(
    ("input", "words"),
    [
        ([1, 2], "input validation failed"),
        ("tags", "input validation failed"),
        (None, "input validation failed"),
        ({"tags": {}, "extra": 1}, "extra"),
        ({"tags": {"k": "v" * 1_000_000}, "limit": "x" * 1_000_000}, "limit"),
    ],
)
def test_hostile_input_gets_a_bounded_error_naming_the_problem(input: Any, words: str) -> None:
    result = _run(to_strands(tag_count), input)

    text = result["content"][0]["text"]
    assert result["status"] == "error"
    assert text.startswith("Error: ")
    assert words in text
    assert len(text) <= 2100


def test_a_long_exception_message_is_bounded() -> None:
    text = _run(to_strands(explode), {"reason": "z" * 50_000})["content"][0]["text"]

    assert text.startswith("Error: RuntimeError: zzz")
    assert len(text) <= 2100


def test_a_property_without_a_type_is_not_narrowed_to_a_string_by_strands(
    model: FakeModel,
) -> None:
    anything = standard_tool(
        name="anything",
        description="Echo a value of any kind.",
        input_schema={
            "type": "object",
            "properties": {
                "value": {"description": "any value"},
                "kind": {"enum": [1, "a"]},
                "maybe": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
            },
            "required": ["value"],
        },
        execute=lambda input: input,
    )

    def first(body: dict[str, Any]) -> None:
        props = body["tools"][0]["function"]["parameters"]["properties"]
        every = ["string", "number", "boolean", "object", "array", "null"]
        assert props["value"] == {"description": "any value", "type": every}
        assert props["kind"]["enum"] == [1, "a"]
        assert props["kind"]["type"] == every
        assert props["maybe"]["anyOf"] == [{"type": "integer"}, {"type": "null"}]
        assert props["maybe"]["type"] == every

    model.expect(
        "/v1/chat/completions", _calls(("c", "anything", '{"value": [1], "kind": 1}')), first
    )
    model.expect("/v1/chat/completions", _answer("done"))

    _agent(model, [to_strands(anything)])("Go.")

    assert _run(to_strands(anything), {"value": 3})["content"] == [{"text": '{"value": 3}'}]
    refused = _run(to_strands(anything), {"value": 3, "kind": 2})
    assert refused["status"] == "error"
    assert "kind" in refused["content"][0]["text"]


def test_a_sync_tool_runs_in_a_worker_thread_and_an_async_one_in_the_loop() -> None:
    threads: dict[str, int] = {}

    def sync_handler(input: Any) -> str:
        threads["sync"] = threading.get_ident()
        return "s"

    async def async_handler(input: Any) -> str:
        threads["async"] = threading.get_ident()
        return "a"

    tools = to_strands(
        [
            standard_tool(name="s", description="Sync.", execute=sync_handler),
            standard_tool(name="a", description="Async.", execute=async_handler),
        ]
    )

    async def main() -> list[Any]:
        threads["loop"] = threading.get_ident()
        out = []
        for t in tools:
            use: ToolUse = {"toolUseId": "u", "name": t.tool_name, "input": {}}
            out += [e async for e in t.stream(use, {})]
        return out

    assert [r["content"][0]["text"] for r in asyncio.run(main())] == ["s", "a"]
    assert threads["async"] == threads["loop"]
    assert threads["sync"] != threads["loop"]


def test_a_toolkit_becomes_a_list_in_order_and_the_spec_is_a_fresh_copy() -> None:
    bridged = to_strands(Toolkit([forecast, tag_count]))

    assert [t.tool_name for t in bridged] == ["forecast", "tag_count"]
    assert isinstance(to_strands(forecast), StandardStrandsTool)
    spec = bridged[0].tool_spec
    spec["inputSchema"]["json"]["properties"].clear()
    assert bridged[0].tool_spec["inputSchema"]["json"]["properties"] != {}
    assert bridged[0].tool_spec["description"] == forecast.description
    assert bridged[0].standard_tool is forecast


# -- from Strands -----------------------------------------------------------------------


@strands_tool
def shout(text: str, times: int) -> str:
    """Shout a text.

    Args:
        text: what to shout.
        times: how often.
    """
    return " ".join([text.upper()] * times)


@strands_tool(context=True)
def call_id_of(label: str, tool_context: ToolContext) -> str:
    """Say the call id and one invocation state entry.

    Args:
        label: a label.
    """
    return f"{label}:{tool_context.tool_use['toolUseId']}:{tool_context.invocation_state['user']}"


@strands_tool
def refuse(reason: str) -> str:
    """Fail with ``reason``.

    Args:
        reason: why.
    """
    raise ValueError(reason)


def test_a_strands_tool_becomes_a_standard_tool_validated_by_us() -> None:
    st = from_strands(shout)

    assert st.name == "shout"
    assert "Shout a text." in st.description
    assert asyncio.run(st.execute({"text": "hi", "times": 2})) == "HI HI"
    with pytest.raises(StandardToolValidationError) as info:
        asyncio.run(st.execute({"text": "hi", "times": "2"}))
    assert info.value.target == "input"
    assert "times" in str(info.value)


def test_the_call_id_and_state_come_from_meta() -> None:
    st = from_strands(call_id_of)
    model = OpenAIModel(client_args={"api_key": "unused"}, model_id="unused")
    state = {"agent": Agent(model=model, callback_handler=None), "user": "ada"}
    call = StrandsCall("tu_9", {"toolUseId": "tu_9", "name": "x", "input": {}}, state)

    assert asyncio.run(st.execute({"label": "x"}, call)) == "x:tu_9:ada"
    other = asyncio.run(st.execute({"label": "y"}, {**state, "user": "bo"}))
    assert other.startswith("y:tooluse_")
    assert other.endswith(":bo")


def test_an_error_result_raises_with_the_tools_text() -> None:
    with pytest.raises(StrandsToolError, match="refuse") as info:
        asyncio.run(from_strands(refuse).execute({"reason": "z" * 10_000}))
    assert len(str(info.value)) <= 2100


def test_a_toolkit_mixes_strands_tools_and_ours() -> None:
    kit = Toolkit([from_strands(shout), tag_count])

    async def main() -> list[Any]:
        return [
            await kit.aexecute("shout", {"text": "a", "times": 3}),
            await kit.aexecute("shout", {"text": "a"}),
            await kit.aexecute("tag_count", {"tags": {"x": "y"}}),
        ]

    ok, bad, ours = asyncio.run(main())
    assert ok.value == "A A A"
    assert not bad.success
    assert "times" in str(bad.error)
    assert ours.value == 1


def test_round_trip_gives_back_the_same_tool() -> None:
    assert from_strands(to_strands(tag_count)) is tag_count


def test_round_trip_of_a_plain_object_tool_runs_it() -> None:
    back = from_strands(to_strands(PlainTool()))

    assert asyncio.run(back.execute({"x": 1})) == json.dumps({"input": {"x": 1}, "meta": None})


def test_tools_of_the_proposals_current_shape_run_in_the_agent_loop(model: FakeModel) -> None:
    """No ``title``, no ``formatted``; ``ping`` has no schema attributes and ``execute()``."""

    def first(body: dict[str, Any]) -> None:
        sent = {t["function"]["name"]: t["function"] for t in body["tools"]}
        assert sent["echo"]["parameters"]["required"] == ["text"]
        assert sent["ping"]["parameters"]["properties"] == {}

    def second(body: dict[str, Any]) -> None:
        assert _tool_messages(body) == {"call_1": '{"echo": "hi hi"}', "call_2": "pong"}

    turn = _calls(
        ("call_1", "echo", json.dumps({"text": "hi", "times": 2})),
        ("call_2", "ping", "{}"),
    )
    model.expect("/v1/chat/completions", turn, first)
    model.expect("/v1/chat/completions", _answer("done"), second)
    bridged = to_strands(upstream_targets.tools)

    assert str(_agent(model, bridged)("Echo and ping.")).strip() == "done"
    assert asyncio.run(from_strands(bridged[1]).execute({})) == "pong"


def test_a_raw_python_agent_tool_spec_without_the_json_wrapper_is_read() -> None:
    class Bare(AgentTool):
        tool_name = "bare"  # type: ignore[assignment]
        tool_type = "python"  # type: ignore[assignment]
        tool_spec = {  # type: ignore[assignment]  # noqa: RUF012
            "name": "bare",
            "description": "Echo n.",
            "inputSchema": {"type": "object", "properties": {"n": {"type": "integer"}}},
        }

        async def stream(self, tool_use: Any, invocation_state: Any, **kwargs: Any) -> Any:
            yield {"progress": 1}
            yield {
                "toolUseId": tool_use["toolUseId"],
                "status": "success",
                "content": [{"json": tool_use["input"]}],
            }

    st = from_strands(Bare())

    assert asyncio.run(st.execute({"n": 1})) == {"n": 1}
    with pytest.raises(StandardToolValidationError, match="n"):
        asyncio.run(st.execute({"n": "1"}))


# -- the package stays clean, the module type-checks ------------------------------------


def test_importing_the_package_and_the_integrations_never_imports_strands() -> None:
    code = (
        "import sys, standard_tool, standard_tool.integrations; "
        "print(any(m == 'strands' or m.startswith('strands.') for m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert out.stdout.strip() == "False"


# -- the call context and progress ------------------------------------------------------


def test_a_tool_in_the_agent_loop_sees_the_tool_use_id_and_its_deadline_holds(
    model: FakeModel,
) -> None:
    answers: dict[str, str] = {}

    def second(body: dict[str, Any]) -> None:
        answers.update(_tool_messages(body))

    turn = _calls(("st_7", "whoami", '{"sku": "A-1"}'), ("st_8", "crawl", "{}"))
    model.expect("/v1/chat/completions", turn)
    model.expect("/v1/chat/completions", _answer("done"), second)
    agent = _agent(model, to_strands([whoami, crawl], meta=lambda call: call.tool_use_id))

    agent("Go.")

    assert json.loads(answers["st_7"]) == {
        "sku": "A-1",
        "tool": "whoami",
        "call": "st_7",
        "raw": {"sku": "A-1"},
    }
    assert answers["st_8"] == "Error: timed out after 0.05 s"


def test_progress_reaches_the_agents_stream_as_tool_stream_events(model: FakeModel) -> None:
    answers: dict[str, str] = {}

    def second(body: dict[str, Any]) -> None:
        answers.update(_tool_messages(body))

    model.expect("/v1/chat/completions", _calls(("st_9", "index", '{"files": ["a", "b"]}')))
    model.expect("/v1/chat/completions", _answer("done"), second)
    agent = _agent(model, [to_strands(index)])

    async def main() -> list[Any]:
        streamed: list[Any] = []
        async for event in agent.stream_async("Go."):
            if "tool_stream_event" in event:
                streamed.append(event["tool_stream_event"])
        return streamed

    streamed = asyncio.run(main())

    progress = [s["data"] for s in streamed if isinstance(s["data"], ProgressEvent)]
    assert [(e.progress, e.total, e.message) for e in progress] == [
        (1, 2, "indexed a"),
        (2, 2, "indexed b"),
    ]
    assert {e.call_id for e in progress} == {"st_9"}
    assert {s["tool_use"]["toolUseId"] for s in streamed} == {"st_9"}
    assert answers == {"st_9": "2"}


def test_a_direct_stream_yields_the_progress_then_the_result() -> None:
    async def main() -> list[Any]:
        use: ToolUse = {"toolUseId": "tu_p", "name": "index", "input": {"files": ["x"]}}
        return [event async for event in to_strands(index).stream(use, {})]

    first, last = asyncio.run(main())
    assert isinstance(first, ProgressEvent)
    assert (first.message, first.call_id) == ("indexed x", "tu_p")
    assert last["status"] == "success"
