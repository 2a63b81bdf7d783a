"""The crewai bridge at the oldest release its extra allows (1.7.0).

Before 1.14 a crew runs its tools in CrewAI's text (ReAct) loop, not by native
function calling: the model writes ``Action:`` and ``Action Input:`` lines and reads
``Observation:`` lines. The turn of the newest release's tests is scripted here that
way (a good call, a rejected call, a raising tool, sync and async crews); the tests
that do not run the loop are the newest release's, collected here. Two shims of the
bridge are checked: the ``security_context`` those releases add to every call's
arguments is dropped, and the composite description shows the real arguments.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import pytest
from tests.context_tools import whoami
from tests.fakes.server import FakeModel, serve_fake_model
from tests_integration.adk_crewai_llama_dspy.test_crewai import (  # the same tests, collected here
    PATH,
    _answer,  # pyright: ignore[reportPrivateUsage]
    _crew,  # pyright: ignore[reportPrivateUsage]
    test_a_crewai_tool_becomes_a_standard_tool_validated_by_us,  # noqa: F401
    test_a_map_whose_entries_repeat_a_key_is_answered_as_bad_input,  # noqa: F401
    test_a_rich_result_is_its_bounded_text_naming_crewai,  # noqa: F401
    test_a_sync_tool_runs_in_a_worker_thread_from_a_running_loop,  # noqa: F401
    test_a_toolkit_mixes_crewai_tools_and_ours,  # noqa: F401
    test_async_and_subclassed_crewai_tools_run,  # noqa: F401
    test_round_trip_gives_back_the_same_tool,  # noqa: F401
    test_round_trip_of_a_plain_object_tool_runs_it,  # noqa: F401
    test_the_args_schema_shows_the_strict_parameters_and_checks_nothing,  # noqa: F401
)
from tests_integration.adk_crewai_llama_dspy.tools import explode, forecast, tag_count

from standard_tool import Toolkit, standard_tool
from standard_tool.integrations.crewai import to_crewai
from standard_tool.providers import to_openai_chat


@pytest.fixture
def model() -> Iterator[FakeModel]:
    with serve_fake_model() as fake:
        yield fake
        fake.verify()


def _act(name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    return _answer(f"Thought: use {name}\nAction: {name}\nAction Input: {json.dumps(arguments)}")


def _observed(body: dict[str, Any]) -> list[str]:
    """The observations CrewAI wrote into the conversation so far, in order."""
    text = "\n".join(str(m.get("content")) for m in body["messages"])
    return [
        line.removeprefix("Observation: ")
        for line in text.splitlines()
        if line.startswith("Observation: ") and "the result of the action" not in line
    ]


def _script_react_turn(model: FakeModel) -> None:
    def first(body: dict[str, Any]) -> None:
        assert "tools" not in body  # the text loop: tools are in the prompt
        prompt = body["messages"][0]["content"]
        for ours in (tag_count, forecast):
            parameters = to_openai_chat(ours, strict=True)["function"]["parameters"]
            assert f"Tool Arguments: {json.dumps(parameters)}" in prompt

    def last(body: dict[str, Any]) -> None:
        observed = _observed(body)
        assert observed[0] == "2"
        assert observed[1].startswith("Error: input validation failed: days: ")
        assert "security_context" not in observed[1]
        assert observed[2] == "Error: RuntimeError: no such luck"

    tags = [{"key": "a", "value": "1"}, {"key": "b", "value": "2"}]
    model.expect(PATH, _act("tag_count", {"tags": tags, "limit": None}), first)
    model.expect(PATH, _act("forecast", {"city": "Paris", "days": "three"}))
    model.expect(PATH, _act("explode", {"reason": "no such luck"}))
    model.expect(
        PATH,
        _answer("Thought: I now know the final answer\nFinal Answer: Two tags; no forecast."),
        last,
    )


def test_a_good_call_a_rejected_call_and_a_raising_tool_in_the_text_loop(model: FakeModel) -> None:
    _script_react_turn(model)

    output = _crew(model, to_crewai(Toolkit([tag_count, forecast, explode]))).kickoff()

    assert str(output) == "Two tags; no forecast."


def test_the_same_turn_in_an_async_crew(model: FakeModel) -> None:
    _script_react_turn(model)
    crew = _crew(model, to_crewai([tag_count, forecast, explode]))

    output = asyncio.run(crew.akickoff())

    assert str(output) == "Two tags; no forecast."


def test_a_tool_reads_its_call_context_in_the_text_loop(model: FakeModel) -> None:
    answers: list[str] = []
    model.expect(PATH, _act("whoami", {"sku": "A-1"}))
    model.expect(
        PATH, _answer("Thought: done\nFinal Answer: done"), lambda b: answers.extend(_observed(b))
    )

    _crew(model, [to_crewai(whoami)]).kickoff()

    seen = json.loads(answers[0])
    assert seen["tool"] == "whoami"
    assert seen["raw"] == {"sku": "A-1"}
    assert seen["call"].startswith("call_")


def test_a_tool_that_declares_security_context_keeps_it() -> None:
    seen: list[Any] = []

    def handler(input: Any) -> str:
        seen.append(input)
        return "ok"

    schema = {
        "type": "object",
        "properties": {
            "security_context": {
                "type": "object",
                "properties": {"agent": {"type": "string"}},
                "required": ["agent"],
                "additionalProperties": False,
            }
        },
        "required": ["security_context"],
        "additionalProperties": False,
    }
    declares = to_crewai(
        standard_tool(name="guarded", description="Guarded.", input_schema=schema, execute=handler)
    )
    assert declares.run(security_context={"agent": "a"}) == "ok"
    assert seen == [{"security_context": {"agent": "a"}}]
    # a tool that does not declare it never sees CrewAI's own
    answer = to_crewai(forecast).run(city="Paris", days=2, security_context={"agent": "a"})
    assert json.loads(answer) == {"city": "Paris", "days": 2, "sky": "clear"}


def test_the_composite_description_shows_the_arguments_the_tool_is_held_to() -> None:
    bridged = to_crewai(Toolkit([forecast, tag_count]))

    assert [t.name for t in bridged] == ["forecast", "tag_count"]
    parameters = to_openai_chat(forecast, strict=True)["function"]["parameters"]
    assert bridged[0].description == (
        "Tool Name: forecast\n"
        f"Tool Arguments: {json.dumps(parameters)}\n"
        f"Tool Description: {forecast.description}"
    )
