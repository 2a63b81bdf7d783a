"""smolagents bridge: our tools in a ``ToolCallingAgent``'s own loop, and smolagents tools as ours.

The agent uses smolagents' ``OpenAIModel`` on the official ``openai`` client, pointed
at the scripted model of tests/fakes/server.py on 127.0.0.1. The scripted model
checks what smolagents sends (our schemas, then the observations of a good call, a
refused call and a failing tool) and ends the run by calling ``final_answer``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
from smolagents import CodeAgent, OpenAIModel, ToolCallingAgent, tool
from smolagents.tools import validate_tool_arguments
from tests.context_tools import whoami
from tests.fakes.server import FakeModel
from tests_integration.five_frameworks.chat import (
    answer,
    calls,
    expect_turn,
    explode,
    forecast,
    sent_tools,
    tag_count,
)
from tests_integration.strands.streaming import serve_streaming_fake_model

from standard_tool import StandardToolValidationError, standard_tool
from standard_tool import tool as standard
from standard_tool.integrations.smolagents import (
    SmolagentsToolError,
    StandardSmolagentsTool,
    from_smolagents,
    to_smolagents,
)
from standard_tool.providers import ProviderSchemaError, to_openai_chat


@pytest.fixture
def model() -> Iterator[FakeModel]:
    with serve_streaming_fake_model() as fake:
        yield fake
        fake.verify()


def _agent(fake: FakeModel, tools: list[Any]) -> ToolCallingAgent:
    chat = OpenAIModel(model_id="fake-model", api_base=f"{fake.base_url}/v1", api_key="test-key")
    return ToolCallingAgent(tools=tools, model=chat, max_steps=5, verbosity_level=0)


def _text(message: dict[str, Any]) -> str:
    content = message["content"]
    if isinstance(content, str):
        return content
    return "".join(part.get("text", "") for part in content)


def _check_last(body: dict[str, Any], text: str) -> None:
    assert text in _text(body["messages"][-1])


def _final(text: str) -> dict[str, Any]:
    return calls(("call_end", "final_answer", {"answer": text}))


def _shown(tool: Any) -> dict[str, Any]:
    """Our parameters as smolagents declares them: optional properties nullable."""
    shown = to_openai_chat(tool, strict=False)["function"]["parameters"]
    assert shown.pop("additionalProperties") is False  # smolagents refuses extras itself
    for name, prop in shown["properties"].items():
        if name not in shown["required"]:
            prop["nullable"] = True
    return shown


def test_the_agent_calls_well_badly_and_a_failing_tool_and_goes_on(model: FakeModel) -> None:
    """One call per step: each refusal comes back as the call's observation."""

    def first(body: dict[str, Any]) -> None:
        sent = sent_tools(body)
        for ours in (tag_count, forecast, explode):
            assert sent[ours.name]["parameters"] == _shown(ours)

    def last_says(text: str) -> Any:
        return lambda body: _check_last(body, text)

    expect_turn(model, calls(("call_1", "tag_count", {"tags": {"a": "1", "b": "2"}})), first)
    expect_turn(
        model,
        calls(("call_2", "tag_count", {"tags": {"a": "1", "b": 2}})),
        last_says("Observation:\n2"),
    )
    expect_turn(
        model,
        calls(("call_3", "explode", {"reason": "no such luck"})),
        last_says("Observation:\nError: input validation failed: tags.b: expected string, got"),
    )
    expect_turn(
        model, _final("Two tags."), last_says("Observation:\nError: RuntimeError: no such luck")
    )
    agent = _agent(model, to_smolagents([tag_count, forecast, explode]))

    assert agent.run("Count and explode.") == "Two tags."


def test_every_call_of_one_step_reaches_the_model_as_its_own_observation(
    model: FakeModel,
) -> None:
    """A good call, a refused call and a raising tool in one step: the model reads all three."""
    ran: list[str] = []

    @standard
    def note(text: str) -> str:
        """Write a note down.

        Args:
            text: the note.
        """
        ran.append(text)
        return f"noted {text}"

    def all_three(body: dict[str, Any]) -> None:
        seen = _text(body["messages"][-1])
        assert "noted milk" in seen
        assert "Error: input validation failed: tags.b: expected string, got" in seen
        assert "Error: RuntimeError: no such luck" in seen

    expect_turn(
        model,
        calls(
            ("call_1", "note", {"text": "milk"}),
            ("call_2", "tag_count", {"tags": {"a": "1", "b": 2}}),
            ("call_3", "explode", {"reason": "no such luck"}),
        ),
    )
    expect_turn(model, _final("noted"), all_three)
    agent = _agent(model, to_smolagents([note, tag_count, explode]))

    assert agent.run("Note, count and explode.") == "noted"
    assert ran == ["milk"]
    assert len(agent.memory.steps[1].observations.splitlines()) >= 3


def test_called_directly_a_refusal_raises() -> None:
    with pytest.raises(SmolagentsToolError, match=r"^Error: RuntimeError: no such luck"):
        to_smolagents(explode)(reason="no such luck")


def test_an_async_tool_runs_and_the_tool_context_names_the_call(model: FakeModel) -> None:
    expect_turn(model, calls(("call_1", "forecast", {"city": "Oslo", "days": 2})))
    expect_turn(
        model,
        calls(("call_2", "whoami", {"sku": "A1"})),
        lambda body: _check_last(body, '"sky": "clear"'),
    )
    expect_turn(model, _final("clear"), lambda body: _check_last(body, '"tool": "whoami"'))

    assert _agent(model, to_smolagents([forecast, whoami])).run("Forecast.") == "clear"


def test_null_for_an_optional_argument_means_not_given() -> None:
    smol = to_smolagents(tag_count)
    assert smol(tags={"a": "1", "b": "2"}, limit=None) == "2"
    with pytest.raises(SmolagentsToolError, match="limit: "):
        smol(tags={}, limit="many")


def test_names_smolagents_cannot_hold_are_refused() -> None:
    odd = standard_tool(name="two-words", description="x", execute=lambda: 1)
    with pytest.raises(ProviderSchemaError, match="smolagents"):
        to_smolagents(odd)


# -- from_smolagents --------------------------------------------------------------------


@tool
def shout(text: str, times: int | None = None) -> str:
    """Upper-case a text.

    Args:
        text: what to shout.
        times: how many times.
    """
    return text.upper() * (times or 1)


def test_from_smolagents_keeps_the_schema_and_validates_first() -> None:
    st = from_smolagents(shout)
    assert st.input_schema is not None
    schema = st.input_schema.__standard__.json_schema.input(target="draft-2020-12")
    assert schema["properties"]["text"]["type"] == "string"
    assert schema["properties"]["times"]["type"] == ["integer", "null"]
    assert schema["required"] == ["text"]
    assert asyncio.run(st.execute({"text": "hi"})) == "HI"
    assert asyncio.run(st.execute({"text": "hi", "times": None})) == "HI"
    with pytest.raises(StandardToolValidationError, match="text"):
        asyncio.run(st.execute({"text": 3}))


def test_a_bridged_tool_comes_back_as_itself_and_round_trips_in_an_agent(
    model: FakeModel,
) -> None:
    assert from_smolagents(to_smolagents(tag_count)) is tag_count
    bridged = to_smolagents(from_smolagents(shout))
    assert isinstance(bridged, StandardSmolagentsTool)

    expect_turn(model, calls(("call_1", "shout", {"text": "hey", "times": 2})))
    expect_turn(
        model,
        calls(("call_2", "shout", {"text": "hey", "times": 2.5})),
        lambda body: _check_last(body, "Observation:\nHEYHEY"),
    )
    # smolagents checks each argument's JSON type itself, before our tool sees it.
    expect_turn(
        model,
        _final("done"),
        lambda body: _check_last(body, "Argument times has type 'number'"),
    )

    assert _agent(model, [bridged]).run("Shout.") == "done"


def test_smolagents_checks_only_top_level_types_as_the_readme_says() -> None:
    @tool
    def total(prices: dict[str, float]) -> float:
        """Add the prices.

        Args:
            prices: name to price.
        """
        return sum(prices.values())

    validate_tool_arguments(total, {"prices": {"tea": "cheap"}})  # no complaint
    with pytest.raises(TypeError):
        validate_tool_arguments(total, {"prices": "cheap"})
    with pytest.raises(StandardToolValidationError, match=r"prices\.tea: "):
        asyncio.run(from_smolagents(total).execute({"prices": {"tea": "cheap"}}))


def test_a_code_agent_calls_the_tool_from_its_code(model: FakeModel) -> None:
    code = 'n = tag_count(tags={"a": "1", "b": "2"})\nfinal_answer(f"{n} tags")'
    expect_turn(model, answer(f"Thought: count.\n<code>\n{code}\n</code>"))
    chat = OpenAIModel(model_id="fake-model", api_base=f"{model.base_url}/v1", api_key="test-key")
    agent = CodeAgent(tools=to_smolagents([tag_count]), model=chat, max_steps=2, verbosity_level=0)

    assert agent.run("Count.") == "2 tags"


def test_a_rich_result_is_its_bounded_text_naming_smolagents() -> None:
    from tests_integration.five_frameworks.chat import snapshot, snapshot_text

    assert to_smolagents(snapshot)() == snapshot_text("smolagents")


def test_an_async_tool_called_where_an_event_loop_runs_runs_in_a_loop_of_its_own() -> None:
    """Issue 35: it raised ToolkitLoopError, though the page says it runs in a loop of its own."""
    smol = to_smolagents(forecast)

    async def inside_a_running_loop() -> str:
        return smol(city="Oslo", days=1)

    assert '"sky": "clear"' in asyncio.run(inside_a_running_loop())
    assert '"sky": "clear"' in smol(city="Oslo", days=1)  # and where none runs


def test_a_smolagents_tool_whose_inputs_are_no_schema_is_refused_naming_it() -> None:
    """Issue 35: the refusal named only the schema, not which tool had it."""
    from smolagents import Tool

    from standard_tool.schemas import InvalidSchemaError

    class Odd(Tool):  # type: ignore[misc]
        name = "odd_one"
        description = "Echo."
        inputs = {"x": {"type": "string", "description": "x", "pattern": "("}}  # noqa: RUF012
        output_type = "string"

        def forward(self, x: str) -> str:
            return x

    with pytest.raises(InvalidSchemaError, match=r"^from_smolagents: tool 'odd_one': "):
        from_smolagents(Odd())
