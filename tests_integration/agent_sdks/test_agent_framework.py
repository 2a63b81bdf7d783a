"""Agent Framework bridge: our tools in an Agent Framework ``Agent``'s loop, and its tools as ours.

The agent uses Agent Framework's ``OpenAIChatCompletionClient`` on the official
``openai`` client, pointed at the scripted model of tests/fakes/server.py on
127.0.0.1. The scripted model checks what the agent sends (our schemas, the
results of a good call, a refused call and a failing tool, each under its call
id) and answers.
"""

from __future__ import annotations

import asyncio
import base64
import json
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from agent_framework import Agent, FunctionInvocationContext, tool
from agent_framework.openai import OpenAIChatCompletionClient
from tests.content_bounds import HUGE_OUTPUTS, assert_within_bound, bound_cases
from tests.context_tools import whoami
from tests.fakes.server import FakeModel, serve_fake_model
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
from standard_tool.content import ToolOutput as RichOutput
from standard_tool.integrations.agent_framework import (
    AgentFrameworkCall,
    AgentFrameworkToolError,
    StandardAgentFrameworkTool,
    agent_framework_content,
    from_agent_framework,
    to_agent_framework,
)
from standard_tool.providers import ProviderSchemaError, to_openai_chat
from standard_tool.providers._text import OUTPUT_MAX_CHARS


@pytest.fixture
def model() -> Iterator[FakeModel]:
    with serve_streaming_fake_model() as fake:
        yield fake
        fake.verify()


def _agent(fake: FakeModel, tools: list[Any]) -> Agent[Any]:
    client = OpenAIChatCompletionClient(
        model="fake-model", base_url=f"{fake.base_url}/v1", api_key="test-key"
    )
    return Agent(client=client, tools=tools)


def _good_bad_and_failing(model: FakeModel) -> None:
    def first(body: dict[str, Any]) -> None:
        sent = sent_tools(body)
        assert set(sent) == {"tag_count", "forecast", "explode"}
        for ours in (tag_count, forecast, explode):
            shown = to_openai_chat(ours, strict=False)["function"]["parameters"]
            assert sent[ours.name]["parameters"] == shown

    def second(body: dict[str, Any]) -> None:
        results = tool_messages(body)
        assert results["call_1"] == "2"
        assert results["call_2"].startswith("Error: input validation failed: limit: ")
        assert results["call_3"] == "Error: RuntimeError: no such luck"
        assert json.loads(results["call_4"]) == {"city": "Oslo", "days": 2, "sky": "clear"}

    turn = calls(
        ("call_1", "tag_count", {"tags": {"a": "1", "b": "2"}}),
        ("call_2", "tag_count", {"tags": {}, "limit": "three"}),
        ("call_3", "explode", {"reason": "no such luck"}),
        ("call_4", "forecast", {"city": "Oslo", "days": 2}),
    )
    expect_turn(model, turn, first)
    expect_turn(model, answer("Two tags, clear in Oslo."), second)


def test_a_run_calls_well_badly_and_a_failing_tool_and_goes_on(model: FakeModel) -> None:
    _good_bad_and_failing(model)
    agent = _agent(model, to_agent_framework(Toolkit([tag_count, forecast, explode])))

    response = asyncio.run(agent.run("Count, forecast and explode."))

    assert response.text == "Two tags, clear in Oslo."


def test_a_streamed_run_does_the_same(model: FakeModel) -> None:
    _good_bad_and_failing(model)
    agent = _agent(model, to_agent_framework([tag_count, forecast, explode]))

    async def main() -> str:
        stream = agent.run("Count, forecast and explode.", stream=True)
        texts = [update.text async for update in stream]
        return "".join(texts)

    assert asyncio.run(main()) == "Two tags, clear in Oslo."


def test_a_sync_tool_runs_off_the_loop_and_an_async_one_on_it(model: FakeModel) -> None:
    threads: dict[str, int] = {}

    def where_sync() -> str:
        threads["sync"] = threading.get_ident()
        return "s"

    async def where_async() -> str:
        threads["async"] = threading.get_ident()
        return "a"

    sync_tool = standard_tool(name="where_sync", description="Where.", execute=where_sync)
    async_tool = standard_tool(name="where_async", description="Where.", execute=where_async)

    def second(body: dict[str, Any]) -> None:
        assert tool_messages(body) == {"c1": "s", "c2": "a"}

    expect_turn(model, calls(("c1", "where_sync", {}), ("c2", "where_async", {})))
    expect_turn(model, answer("done"), second)
    agent = _agent(model, to_agent_framework([sync_tool, async_tool]))

    async def main() -> int:
        await agent.run("Where?")
        return threading.get_ident()

    loop_thread = asyncio.run(main())
    assert threads["async"] == loop_thread
    assert threads["sync"] != loop_thread


def test_the_call_id_reaches_the_tool_and_the_context_reaches_meta(model: FakeModel) -> None:
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
    agent = _agent(model, to_agent_framework([whoami, probe], meta=lambda call: call))

    asyncio.run(agent.run("Who?", function_invocation_kwargs={"user": "ada"}))

    (call,) = seen
    assert isinstance(call, AgentFrameworkCall)
    assert call.call_id == "call_8"
    assert isinstance(call.context, FunctionInvocationContext)
    assert call.context.kwargs["user"] == "ada"


def test_names_the_model_api_refuses_are_refused_with_our_message() -> None:
    bad = standard_tool(name="no spaces", description="Bad.", execute=lambda: "x")
    with pytest.raises(
        ProviderSchemaError, match='tool name "no spaces" is not accepted by OpenAI'
    ):
        to_agent_framework(bad)


def test_calling_the_tool_directly_runs_it_and_raises_our_error() -> None:
    bridged = to_agent_framework(tag_count)
    assert isinstance(bridged, StandardAgentFrameworkTool)
    assert bridged(tags={"a": "1"}) == 1
    with pytest.raises(AgentFrameworkToolError, match=r"^Error: input validation failed: tags"):
        bridged(tags=3)
    raw = asyncio.run(bridged.invoke(arguments={"tags": {}}, skip_parsing=True))
    assert raw == 0


# -- from_agent_framework -----------------------------------------------------------


@tool
def shout(text: str) -> str:
    """Upper-case a text."""
    return text.upper()


@tool
async def whisper(text: str) -> str:
    """Lower-case a text."""
    await asyncio.sleep(0)
    return text.lower()


@tool
def fail(text: str) -> str:
    """Fail."""
    raise ValueError(f"cannot {text}")


@tool
def where(text: str, ctx: FunctionInvocationContext) -> str:
    """Say who asks."""
    return f"{text}@{ctx.kwargs.get('user')}"


def test_from_agent_framework_keeps_the_schema_and_runs_sync_and_async_tools() -> None:
    st = from_agent_framework(shout)
    assert st.input_schema is not None
    schema = st.input_schema.__standard__.json_schema.input(target="draft-2020-12")
    assert schema["properties"]["text"]["type"] == "string"
    assert schema["required"] == ["text"]
    assert asyncio.run(st.execute({"text": "hi"})) == "HI"
    assert asyncio.run(from_agent_framework(whisper).execute({"text": "HI"})) == "hi"


def test_from_agent_framework_validates_first_and_lets_failures_raise() -> None:
    st = from_agent_framework(shout)
    with pytest.raises(StandardToolValidationError, match="text"):
        asyncio.run(st.execute({"text": 3}))
    with pytest.raises(ValueError, match="cannot go"):
        asyncio.run(from_agent_framework(fail).execute({"text": "go"}))


def test_from_agent_framework_hands_the_context_to_a_tool_that_asks_for_it() -> None:
    context = FunctionInvocationContext(function=where, arguments={}, kwargs={"user": "ada"})
    st = from_agent_framework(where)
    got = asyncio.run(st.execute({"text": "x"}, AgentFrameworkCall("c1", context)))
    assert got == "x@ada"


def test_a_bridged_tool_comes_back_as_itself_and_round_trips_in_an_agent(
    model: FakeModel,
) -> None:
    assert from_agent_framework(to_agent_framework(tag_count)) is tag_count
    st = from_agent_framework(shout)

    def second(body: dict[str, Any]) -> None:
        results = tool_messages(body)
        assert results["call_1"] == "HEY"
        assert results["call_2"].startswith("Error: input validation failed: text: ")

    expect_turn(model, calls(("call_1", "shout", {"text": "hey"}), ("call_2", "shout", {})))
    expect_turn(model, answer("done"), second)

    response = asyncio.run(_agent(model, [to_agent_framework(st)]).run("Shout."))

    assert response.text == "done"


# -- rich results --------------------------------------------------------------------

PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c63f8cfc0f01f0005000201e5270bde0000000049454e44ae426082"
)


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


def test_a_rich_result_reaches_the_responses_api_as_an_image_and_text() -> None:
    from agent_framework.openai import OpenAIChatClient

    from standard_tool import tool as st_tool
    from standard_tool.content import Image, ResourceLink, Text, ToolOutput

    @st_tool
    def snapshot() -> ToolOutput:
        """Take a picture."""
        blocks = [
            Text("The dashboard:"),
            Image(PNG, "image/png"),
            ResourceLink("file:///d.csv", "d"),
        ]
        return ToolOutput(blocks, structured={"rows": 3})

    call = {
        "type": "function_call",
        "id": "fc_1",
        "call_id": "call_1",
        "name": "snapshot",
        "arguments": "{}",
        "status": "completed",
    }
    final = {
        "type": "message",
        "id": "msg_1",
        "role": "assistant",
        "status": "completed",
        "content": [{"type": "output_text", "text": "a dot", "annotations": []}],
    }

    def second(body: dict[str, Any]) -> None:
        (output,) = [i for i in body["input"] if i.get("type") == "function_call_output"]
        assert output["call_id"] == "call_1"
        url = f"data:image/png;base64,{base64.b64encode(PNG).decode()}"
        assert output["output"] == [
            {"type": "input_text", "text": "The dashboard:"},
            {"type": "input_image", "image_url": url, "detail": "auto"},
            {"type": "input_text", "text": "[resource link d: file:///d.csv]"},
            {"type": "input_text", "text": '{"rows": 3}'},
        ]

    with serve_fake_model() as fake:
        fake.expect("/v1/responses", _response([call]))
        fake.expect("/v1/responses", _response([final]), second)
        client = OpenAIChatClient(model="fake-model", base_url=f"{fake.base_url}/v1", api_key="k")
        agent = Agent(client=client, tools=[to_agent_framework(snapshot)])

        response = asyncio.run(agent.run("Look."))

        fake.verify()
    assert response.text == "a dot"


def test_an_agent_framework_tool_answering_with_media_comes_back_as_a_tool_output() -> None:
    from agent_framework import Content

    from standard_tool.content import EmbeddedResource, Image, ResourceLink, Text, ToolOutput

    @tool
    def picture() -> list[Content]:
        """Take a picture."""
        return [
            Content.from_text("a dot"),
            Content.from_data(PNG, "image/png"),
            Content.from_data(b"%PDF-1.4", "application/pdf"),
            Content.from_uri("https://example.test/d.csv", media_type="text/csv"),
        ]

    got = asyncio.run(from_agent_framework(picture).execute({}))

    assert isinstance(got, ToolOutput)
    assert got.content == (
        Text("a dot"),
        Image(PNG, "image/png"),
        EmbeddedResource("file:data", blob=b"%PDF-1.4", mime_type="application/pdf"),
        ResourceLink("https://example.test/d.csv", "uri", mime_type="text/csv"),
    )


def test_audio_and_file_bytes_become_data_items_of_their_mime_type() -> None:
    from standard_tool import tool as st_tool
    from standard_tool.content import Audio, EmbeddedResource, ToolOutput

    @st_tool
    def recording() -> ToolOutput:
        """Record."""
        pdf = EmbeddedResource("file:///r/q3.pdf", blob=b"%PDF-1.4", mime_type="application/pdf")
        return ToolOutput([Audio(b"RIFF", "audio/wav"), pdf])

    items = asyncio.run(to_agent_framework(recording).invoke(arguments={}))

    assert [(i.type, i.media_type) for i in items] == [
        ("data", "audio/wav"),
        ("data", "application/pdf"),
    ]


def test_the_readme_cell_agent_framework_tool_coerces_a_string_to_an_int() -> None:
    """README's comparison table: Agent Framework's own ``@tool`` is Pydantic, lax."""
    seen: list[Any] = []

    @tool
    def add(a: int, b: int) -> int:
        """Add two integers."""
        seen.append(a)
        return a + b

    asyncio.run(add.invoke(arguments={"a": "3", "b": 4}))

    assert seen == [3]


def _af_texts(items: list[Any]) -> list[str]:
    return [item.text for item in items if item.type == "text"]


@bound_cases
def test_a_rich_result_is_written_within_max_chars(output: RichOutput[Any], max_chars: int) -> None:
    assert_within_bound(_af_texts(agent_framework_content(output, max_chars)), output, max_chars)


@pytest.mark.parametrize("output", HUGE_OUTPUTS, ids=range(len(HUGE_OUTPUTS)))
def test_a_rich_result_is_written_within_the_default_bound(output: RichOutput[Any]) -> None:
    assert_within_bound(_af_texts(agent_framework_content(output)), output, OUTPUT_MAX_CHARS)
