"""CrewAI bridge: our tools in a CrewAI crew's own loop, and CrewAI tools as ours.

The crew's agent runs on CrewAI's ``LLM`` (its native OpenAI provider, on the
official ``openai`` client), pointed at the scripted Chat Completions server of
tests/fakes/server.py on 127.0.0.1. The scripted model checks what CrewAI sends
(our strict schemas, the results of a good call, a rejected call and a raising
tool, each under its ``tool_call_id``) and answers.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from crewai import LLM, Agent, Crew, Task
from crewai.tools import BaseTool
from crewai.tools import tool as crewai_tool
from pydantic import BaseModel
from tests.context_tools import whoami
from tests.fakes.server import FakeModel, serve_fake_model
from tests.fakes.tools import PlainTool
from tests_integration.adk_crewai_llama_dspy.tools import explode, forecast, tag_count

from standard_tool import StandardToolValidationError, Toolkit, standard_tool
from standard_tool.integrations.crewai import StandardCrewAITool, from_crewai, to_crewai
from standard_tool.providers import to_openai_chat

PATH = "/v1/chat/completions"


@pytest.fixture
def model() -> Iterator[FakeModel]:
    with serve_fake_model() as fake:
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


def _calls(*calls: tuple[str, str, dict[str, Any]]) -> dict[str, Any]:
    tool_calls = [
        {"id": i, "type": "function", "function": {"name": n, "arguments": json.dumps(a)}}
        for i, n, a in calls
    ]
    return _completion(
        {"role": "assistant", "content": None, "tool_calls": tool_calls}, "tool_calls"
    )


def _answer(text: str) -> dict[str, Any]:
    return _completion({"role": "assistant", "content": text}, "stop")


def _tool_messages(body: dict[str, Any]) -> dict[str, str]:
    return {m["tool_call_id"]: m["content"] for m in body["messages"] if m["role"] == "tool"}


def _crew(fake: FakeModel, tools: list[Any]) -> Crew:
    llm = LLM(model="openai/fake-model", base_url=f"{fake.base_url}/v1", api_key="test-key")
    agent = Agent(role="helper", goal="Use the tools.", backstory="A test.", llm=llm, tools=tools)
    task = Task(description="Go.", expected_output="A short text.", agent=agent)
    return Crew(agents=[agent], tasks=[task])


def _script_one_turn(model: FakeModel) -> None:
    def first(body: dict[str, Any]) -> None:
        sent = {t["function"]["name"]: t["function"] for t in body["tools"]}
        assert set(sent) == {"tag_count", "forecast", "explode"}
        for name, ours in [("tag_count", tag_count), ("forecast", forecast)]:
            declared = to_openai_chat(ours, strict=True)["function"]
            assert sent[name]["parameters"] == declared["parameters"]
            assert sent[name]["strict"] is True

    def second(body: dict[str, Any]) -> None:
        results = _tool_messages(body)
        assert results["call_1"] == "2"
        assert results["call_2"].startswith("Error: input validation failed: days: ")
        assert results["call_3"] == "Error: RuntimeError: no such luck"

    tags = [{"key": "a", "value": "1"}, {"key": "b", "value": "2"}]
    turn = _calls(
        ("call_1", "tag_count", {"tags": tags, "limit": None}),
        ("call_2", "forecast", {"city": "Paris", "days": "three"}),
        ("call_3", "explode", {"reason": "no such luck"}),
    )
    model.expect(PATH, turn, first)
    model.expect(PATH, _answer("Two tags; no forecast."), second)


# -- the CrewAI agent loop ----------------------------------------------------------------


def test_a_good_call_a_rejected_call_and_a_raising_tool_in_one_turn(model: FakeModel) -> None:
    _script_one_turn(model)

    output = _crew(model, to_crewai(Toolkit([tag_count, forecast, explode]))).kickoff()

    assert str(output) == "Two tags; no forecast."


def test_the_same_turn_in_an_async_crew(model: FakeModel) -> None:
    _script_one_turn(model)
    crew = _crew(model, to_crewai([tag_count, forecast, explode]))

    output = asyncio.run(crew.akickoff())

    assert str(output) == "Two tags; no forecast."


def test_a_tool_reads_its_call_context_in_the_crew(model: FakeModel) -> None:
    answers: dict[str, str] = {}

    def second(body: dict[str, Any]) -> None:
        answers.update(_tool_messages(body))

    model.expect(PATH, _calls(("call_w", "whoami", {"sku": "A-1"})))
    model.expect(PATH, _answer("done"), second)

    _crew(model, [to_crewai(whoami)]).kickoff()

    seen = json.loads(answers["call_w"])
    assert seen["tool"] == "whoami"
    assert seen["raw"] == {"sku": "A-1"}
    assert seen["call"].startswith("call_")


# -- to CrewAI ------------------------------------------------------------------------------


def test_a_sync_tool_runs_in_a_worker_thread_from_a_running_loop() -> None:
    threads: dict[str, int] = {}

    def sync_handler(input: Any) -> str:
        threads["sync"] = threading.get_ident()
        return "s"

    async def async_handler(input: Any) -> str:
        threads["async"] = threading.get_ident()
        return "a"

    sync_tool, async_tool = to_crewai(
        [
            standard_tool(name="s", description="Sync.", execute=sync_handler),
            standard_tool(name="a", description="Async.", execute=async_handler),
        ]
    )

    async def main() -> list[Any]:
        threads["loop"] = threading.get_ident()
        # CrewAI's async executor calls a tool's sync ``run`` inside its loop.
        return [sync_tool.run(), await async_tool.arun(), async_tool.run()]

    assert asyncio.run(main()) == ["s", "a", "a"]
    assert threads["sync"] != threads["loop"]


def test_the_args_schema_shows_the_strict_parameters_and_checks_nothing() -> None:
    bridged = to_crewai(tag_count)

    declared = to_openai_chat(tag_count, strict=True)["function"]["parameters"]
    assert bridged.args_schema.model_json_schema() == declared
    # CrewAI validates nothing: the bad value reaches our validation, which names it
    assert bridged.run(tags=[{"key": "a", "value": 1}], limit=None) == (
        "Error: input validation failed: tags.a: expected string, got integer 1"
    )


def test_a_toolkit_becomes_a_list_in_order() -> None:
    bridged = to_crewai(Toolkit([forecast, tag_count]))

    assert [t.name for t in bridged] == ["forecast", "tag_count"]
    assert isinstance(to_crewai(forecast), StandardCrewAITool)
    assert bridged[0].standard_tool is forecast
    assert bridged[0].description == forecast.description


# -- from CrewAI ----------------------------------------------------------------------------


@crewai_tool("shout")
def shout(text: str, times: int) -> str:
    """Shout a text, ``times`` times."""
    return " ".join([text.upper()] * times)


@crewai_tool("ashout")
async def ashout(text: str) -> str:
    """Shout a text, asynchronously."""
    await asyncio.sleep(0)
    return text.upper()


class LookupArgs(BaseModel):
    key: str


class Lookup(BaseTool):
    name: str = "lookup"
    description: str = "Look a key up."
    args_schema: type[BaseModel] = LookupArgs

    def _run(self, key: str) -> str:
        if key == "missing":
            raise KeyError(key)
        return f"value of {key}"


def test_a_crewai_tool_becomes_a_standard_tool_validated_by_us() -> None:
    st = from_crewai(shout)

    assert st.name == "shout"
    assert "Shout a text" in st.description
    assert asyncio.run(st.execute({"text": "hi", "times": 2})) == "HI HI"
    with pytest.raises(StandardToolValidationError) as info:
        asyncio.run(st.execute({"text": "hi", "times": "2"}))
    assert info.value.target == "input"
    assert "times" in str(info.value)


def test_async_and_subclassed_crewai_tools_run() -> None:
    assert asyncio.run(from_crewai(ashout).execute({"text": "hi"})) == "HI"
    lookup = from_crewai(Lookup())
    assert asyncio.run(lookup.execute({"key": "k"})) == "value of k"
    with pytest.raises(KeyError):
        asyncio.run(lookup.execute({"key": "missing"}))
    with pytest.raises(StandardToolValidationError, match="key"):
        asyncio.run(lookup.execute({}))


def test_a_toolkit_mixes_crewai_tools_and_ours() -> None:
    kit = Toolkit([from_crewai(shout), tag_count])

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
    assert from_crewai(to_crewai(tag_count)) is tag_count


def test_round_trip_of_a_plain_object_tool_runs_it() -> None:
    back = from_crewai(to_crewai(PlainTool()))

    assert asyncio.run(back.execute({})) == json.dumps({"input": {}, "meta": None})


def test_a_map_whose_entries_repeat_a_key_is_answered_as_bad_input() -> None:
    repeated = [{"key": "a", "value": "1"}, {"key": "a", "value": "2"}]

    answer = to_crewai(tag_count).run(tags=repeated, limit=None)

    assert answer.startswith("Error: ")
    assert "tags.1.key: duplicate key 'a'" in answer


def test_a_rich_result_is_its_bounded_text_naming_crewai() -> None:
    from tests_integration.adk_crewai_llama_dspy.tools import snapshot, snapshot_text

    bridged = to_crewai(snapshot)

    assert bridged.run() == snapshot_text("CrewAI")
    assert asyncio.run(bridged.arun()) == snapshot_text("CrewAI")
