"""Agno bridge: our tools in an Agno ``Agent``'s own loop, and Agno tools as ours.

The agent uses Agno's ``OpenAIChat`` on the official ``openai`` client, pointed at
the scripted model of tests/fakes/server.py on 127.0.0.1. The scripted model
checks what Agno sends (our schemas, the results of a good call, a refused call
and a failing tool, each under its call id) and answers.
"""

from __future__ import annotations

import asyncio
import base64
import json
from collections.abc import Iterator
from typing import Any

import pytest
from agno.agent import Agent
from agno.models.openai import OpenAIChat
from agno.tools import tool as agno_tool
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
    tool_messages,
)
from tests_integration.strands.streaming import serve_streaming_fake_model

from standard_tool import StandardToolValidationError, Toolkit, standard_tool
from standard_tool.integrations.agno import AgnoCall, AgnoToolError, from_agno, to_agno
from standard_tool.providers import to_openai_chat


@pytest.fixture
def model() -> Iterator[FakeModel]:
    with serve_streaming_fake_model() as fake:
        yield fake
        fake.verify()


def _agent(fake: FakeModel, tools: list[Any], **kwargs: Any) -> Agent:
    chat = OpenAIChat(id="fake-model", base_url=f"{fake.base_url}/v1", api_key="test-key")
    return Agent(model=chat, tools=tools, **kwargs)


def _good_bad_and_failing(model: FakeModel, names: set[str]) -> None:
    def first(body: dict[str, Any]) -> None:
        sent = sent_tools(body)
        assert set(sent) == names
        for ours in (tag_count, forecast, explode):
            if ours.name in names:
                shown = to_openai_chat(ours, strict=False)["function"]["parameters"]
                assert sent[ours.name]["parameters"] == shown

    def second(body: dict[str, Any]) -> None:
        results = tool_messages(body)
        assert results["call_1"] == "2"
        assert results["call_2"].startswith("Error: input validation failed: limit: ")
        assert results["call_3"] == "Error: RuntimeError: no such luck"

    turn = calls(
        ("call_1", "tag_count", {"tags": {"a": "1", "b": "2"}}),
        ("call_2", "tag_count", {"tags": {}, "limit": "three"}),
        ("call_3", "explode", {"reason": "no such luck"}),
    )
    expect_turn(model, turn, first)
    expect_turn(model, answer("Two tags; no forecast."), second)


def test_a_sync_run_calls_well_badly_and_a_failing_tool_and_goes_on(model: FakeModel) -> None:
    _good_bad_and_failing(model, {"tag_count", "explode"})
    # Agno refuses an async tool in a sync run (``agent.run``): sync tools only here.
    agent = _agent(model, to_agno(Toolkit([tag_count, explode])))

    result = agent.run("Count, forecast and explode.")

    assert result.content == "Two tags; no forecast."


def test_an_async_run_does_the_same_without_blocking_its_loop(model: FakeModel) -> None:
    _good_bad_and_failing(model, {"tag_count", "forecast", "explode"})
    agent = _agent(model, to_agno([tag_count, forecast, explode]))

    result = asyncio.run(agent.arun("Count, forecast and explode."))

    assert result.content == "Two tags; no forecast."


def test_an_async_tool_runs_in_the_agents_loop(model: FakeModel) -> None:
    def second(body: dict[str, Any]) -> None:
        sky = {"city": "Oslo", "days": 2, "sky": "clear"}
        assert json.loads(tool_messages(body)["call_1"]) == sky

    expect_turn(model, calls(("call_1", "forecast", {"city": "Oslo", "days": 2})))
    expect_turn(model, answer("clear"), second)

    result = asyncio.run(_agent(model, [to_agno(forecast)]).arun("Forecast."))

    assert result.content == "clear"


def test_the_call_id_reaches_the_tool_context_and_the_run_context_reaches_meta(
    model: FakeModel,
) -> None:
    seen: list[Any] = []

    def record(input: Any, meta: Any) -> str:
        seen.append(meta)
        return "ok"

    probe = standard_tool(name="probe", description="Record the call.", execute=record)

    def second(body: dict[str, Any]) -> None:
        said = json.loads(tool_messages(body)["call_7"])
        assert (said["call"], said["tool"], said["raw"]) == ("call_7", "whoami", {"sku": "A1"})

    expect_turn(model, calls(("call_7", "whoami", {"sku": "A1"}), ("call_8", "probe", {})))
    expect_turn(model, answer("done"), second)
    tools = to_agno([whoami, probe], meta=lambda call: call)
    agent = _agent(model, tools, session_state={"user": "ada"})

    agent.run("Who?")

    (call,) = seen
    assert isinstance(call, AgnoCall)
    assert call.call_id == "call_8"
    assert call.agent is agent
    assert call.run_context.session_state["user"] == "ada"


def test_a_property_named_fc_is_the_tools_own() -> None:
    echo = standard_tool(
        name="echo",
        description="Echo.",
        execute=lambda input: input,
        input_schema=None,
    )
    function = to_agno(echo)
    assert function.entrypoint is not None
    assert json.loads(function.entrypoint(fc=3, x=1)) == {"fc": 3, "x": 1}


# -- from_agno --------------------------------------------------------------------------


@agno_tool
def shout(text: str) -> str:
    """Upper-case a text.

    Args:
        text: what to shout.
    """
    return text.upper()


@agno_tool
async def whisper(text: str) -> str:
    """Lower-case a text.

    Args:
        text: what to whisper.
    """
    await asyncio.sleep(0)
    return text.lower()


@agno_tool
def fail(text: str) -> str:
    """Fail."""
    raise ValueError(f"cannot {text}")


def test_from_agno_keeps_the_schema_and_runs_sync_and_async_tools() -> None:
    st = from_agno(shout)
    assert st.input_schema is not None
    schema = st.input_schema.__standard__.json_schema.input(target="draft-2020-12")
    assert schema["properties"]["text"]["type"] == "string"
    assert schema["required"] == ["text"]
    assert asyncio.run(st.execute({"text": "hi"})) == "HI"
    assert asyncio.run(from_agno(whisper).execute({"text": "HI"})) == "hi"


def test_from_agno_validates_first_and_raises_agnos_failures() -> None:
    st = from_agno(shout)
    with pytest.raises(StandardToolValidationError, match="text"):
        asyncio.run(st.execute({"text": 3}))
    with pytest.raises(AgnoToolError, match="cannot go"):
        asyncio.run(from_agno(fail).execute({"text": "go"}))


def test_from_agno_hands_the_call_to_a_tool_that_asks_for_the_run_context() -> None:
    @agno_tool
    def where(run_context: Any, text: str) -> str:
        """Say where."""
        return f"{text}@{run_context}"

    st = from_agno(where)
    assert asyncio.run(st.execute({"text": "x"}, AgnoCall("c1", "ctx", None, None))) == "x@ctx"


def test_a_bridged_tool_comes_back_as_itself_and_round_trips_in_an_agent(
    model: FakeModel,
) -> None:
    assert from_agno(to_agno(tag_count)) is tag_count
    st = from_agno(shout)

    def second(body: dict[str, Any]) -> None:
        results = tool_messages(body)
        assert results["call_1"] == "HEY"
        assert results["call_2"].startswith("Error: input validation failed: text: ")

    expect_turn(model, calls(("call_1", "shout", {"text": "hey"}), ("call_2", "shout", {})))
    expect_turn(model, answer("done"), second)

    result = asyncio.run(_agent(model, [to_agno(st)]).arun("Shout."))

    assert result.content == "done"


def test_agno_turns_the_string_null_into_none_before_our_tool_sees_it(model: FakeModel) -> None:
    """The documented Agno rewrite: the tool refuses it, naming the property."""

    def second(body: dict[str, Any]) -> None:
        text = tool_messages(body)["call_1"]
        assert text.startswith("Error: input validation failed: sku: ")

    expect_turn(model, calls(("call_1", "whoami", {"sku": "null"})))
    expect_turn(model, answer("done"), second)

    assert _agent(model, [to_agno(whoami)]).run("Who?").content == "done"


PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c63f8cfc0f01f0005000201e5270bde0000000049454e44ae426082"
)


def test_a_rich_result_reaches_the_model_as_agno_media_and_text(model: FakeModel) -> None:
    from standard_tool import tool
    from standard_tool.content import Image, ResourceLink, Text, ToolOutput

    @tool
    def snapshot() -> ToolOutput:
        """Take a picture."""
        return ToolOutput(
            [Text("The dashboard:"), Image(PNG, "image/png"), ResourceLink("file:///d.csv", "d")],
            structured={"rows": 3},
        )

    def second(body: dict[str, Any]) -> None:
        said = tool_messages(body)["call_1"]
        assert said == 'The dashboard:\n[resource link d: file:///d.csv]\n{"rows": 3}'
        # Agno hands a tool's media to the model in a user message after the tool message.
        last = body["messages"][-1]
        assert last["role"] == "user"
        urls = [p["image_url"]["url"] for p in last["content"] if p["type"] == "image_url"]
        assert len(urls) == 1
        assert urls[0].endswith(base64.b64encode(PNG).decode())

    expect_turn(model, calls(("call_1", "snapshot", {})))
    expect_turn(model, answer("a dot"), second)

    result = _agent(model, [to_agno(snapshot)]).run("Look.")

    assert result.content == "a dot"
    assert result.images is not None
    assert [image.content for image in result.images] == [PNG]


def test_an_agno_tool_answering_with_media_comes_back_as_a_tool_output() -> None:
    from agno.media import Image as AgnoImage
    from agno.tools.function import ToolResult

    from standard_tool.content import Image, ResourceLink, Text, ToolOutput

    @agno_tool
    def picture() -> ToolResult:
        """Take a picture."""
        return ToolResult(
            content="a dot",
            images=[
                AgnoImage(content=PNG, mime_type="image/png"),
                AgnoImage(url="https://example.test/dot.png"),
            ],
        )

    @agno_tool
    def words() -> ToolResult:
        """Say something."""
        return ToolResult(content="hello")

    got = asyncio.run(from_agno(picture).execute({}))

    assert isinstance(got, ToolOutput)
    assert got.content == (
        Text("a dot"),
        Image(PNG, "image/png"),
        ResourceLink("https://example.test/dot.png", "image"),
    )
    assert asyncio.run(from_agno(words).execute({})) == "hello"
