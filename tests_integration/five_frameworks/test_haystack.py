"""Haystack bridge: our tools in a Haystack ``Agent``'s own loop, and Haystack tools as ours.

The agent's chat generator is Haystack's own test component, ``MockChatGenerator``,
driven by a function that replays a script (tool calls, then an answer) and records
what the agent handed it: the tools (their ``parameters``, what a chat generator
sends a model) and the tool results the model read.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from haystack.components.agents import Agent
from haystack.components.agents.state import State
from haystack.components.generators.chat import MockChatGenerator
from haystack.dataclasses import ChatMessage, ToolCall
from haystack.tools import Tool
from haystack.tools import tool as haystack_tool
from haystack.tools.errors import ToolInvocationError
from tests.content_bounds import HUGE_OUTPUTS, assert_within_bound
from tests.context_tools import whoami
from tests_integration.five_frameworks.chat import explode, forecast, tag_count

from standard_tool import StandardToolValidationError, standard_tool
from standard_tool.content import ToolOutput
from standard_tool.integrations.haystack import (
    HaystackCall,
    StandardHaystackTool,
    from_haystack,
    to_haystack,
)
from standard_tool.providers import to_openai_chat
from standard_tool.providers._text import OUTPUT_MAX_CHARS


class Script:
    """A model for ``MockChatGenerator``: one reply per request, recording each request."""

    def __init__(self, *replies: ChatMessage) -> None:
        self.replies = list(replies)
        self.requests: list[tuple[list[ChatMessage], list[Tool]]] = []

    def __call__(self, messages: list[ChatMessage], tools: Any = None) -> ChatMessage:
        self.requests.append((list(messages), list(tools or [])))
        return self.replies.pop(0)

    def results(self) -> dict[str, Any]:
        """The tool results the model read on its last request, by call id."""
        messages, _ = self.requests[-1]
        found = [m.tool_call_result for m in messages if m.tool_call_result is not None]
        return {r.origin.id: r for r in found}


def _calls(*made: tuple[str, str, Any]) -> ChatMessage:
    tool_calls = [ToolCall(tool_name=n, arguments=a, id=i) for i, n, a in made]
    return ChatMessage.from_assistant(tool_calls=tool_calls)


def _agent(script: Script, tools: list[Any], **kwargs: Any) -> Agent:
    return Agent(chat_generator=MockChatGenerator(response_fn=script), tools=tools, **kwargs)


def _good_bad_and_failing() -> Script:
    return Script(
        _calls(
            ("call_1", "tag_count", {"tags": {"a": "1", "b": "2"}}),
            ("call_2", "forecast", {"city": "Paris", "days": "three"}),
            ("call_3", "explode", {"reason": "no such luck"}),
        ),
        ChatMessage.from_assistant("Two tags; no forecast."),
    )


def _check_turn(script: Script, answer: ChatMessage) -> None:
    assert answer.text == "Two tags; no forecast."
    (_, sent) = script.requests[0]
    for ours in (tag_count, forecast, explode):
        (declared,) = [t for t in sent if t.name == ours.name]
        assert (
            declared.tool_spec["parameters"]
            == (to_openai_chat(ours, strict=False)["function"]["parameters"])
        )
    results = script.results()
    assert (results["call_1"].result, results["call_1"].error) == ("2", False)
    assert results["call_2"].error
    assert results["call_2"].result.startswith("Error: input validation failed: days: ")
    assert (results["call_3"].result, results["call_3"].error) == (
        "Error: RuntimeError: no such luck",
        True,
    )


def test_a_sync_run_calls_well_badly_and_a_failing_tool_and_goes_on() -> None:
    script = _good_bad_and_failing()
    agent = _agent(script, to_haystack([tag_count, forecast, explode]))

    output = agent.run(messages=[ChatMessage.from_user("Count, forecast and explode.")])

    _check_turn(script, output["last_message"])


def test_an_async_run_does_the_same_without_blocking_its_loop() -> None:
    script = _good_bad_and_failing()
    agent = _agent(script, to_haystack([tag_count, forecast, explode]))

    async def main() -> Any:
        return await agent.run_async(messages=[ChatMessage.from_user("Go.")])

    _check_turn(script, asyncio.run(main())["last_message"])


def test_the_agents_state_reaches_meta_and_the_call_reaches_the_tool_context() -> None:
    seen: list[Any] = []

    def record(input: Any, meta: Any) -> str:
        seen.append((input, meta))
        return "ok"

    probe = standard_tool(name="probe", description="Record the call.", execute=record)
    script = Script(
        _calls(("call_7", "whoami", {"sku": "A1"}), ("call_8", "probe", {})),
        ChatMessage.from_assistant("done"),
    )
    tools = to_haystack([whoami, probe], meta=lambda call: call)
    agent = _agent(script, tools, state_schema={"user": {"type": str}})

    agent.run(messages=[ChatMessage.from_user("Who?")], user="ada")

    said = json.loads(script.results()["call_7"].result)
    assert (said["tool"], said["raw"]) == ("whoami", {"sku": "A1"})
    ((input, call),) = seen
    assert input == {}
    assert isinstance(call, HaystackCall)
    assert isinstance(call.state, State)
    assert call.state.get("user") == "ada"


def test_invoke_outside_an_agent_raises_haystacks_error_naming_the_field() -> None:
    bridged = to_haystack(forecast)
    assert json.loads(bridged.invoke(city="Oslo", days=2))["sky"] == "clear"
    with pytest.raises(ToolInvocationError, match="days: "):
        bridged.invoke(city="Oslo", days="two")


# -- from_haystack ----------------------------------------------------------------------


@haystack_tool
def shout(text: str) -> str:
    """Upper-case a text."""
    return text.upper()


@haystack_tool
async def whisper(text: str) -> str:
    """Lower-case a text."""
    await asyncio.sleep(0)
    return text.lower()


def test_from_haystack_keeps_the_schema_and_runs_sync_and_async_tools() -> None:
    st = from_haystack(shout)
    assert st.input_schema is not None
    schema = st.input_schema.__standard__.json_schema.input(target="draft-2020-12")
    assert schema["properties"]["text"]["type"] == "string"
    assert schema["required"] == ["text"]
    assert asyncio.run(st.execute({"text": "hi"})) == "HI"
    assert asyncio.run(from_haystack(whisper).execute({"text": "HI"})) == "hi"
    with pytest.raises(StandardToolValidationError, match="text"):
        asyncio.run(st.execute({"text": 3}))


def test_a_bridged_tool_comes_back_as_itself_and_round_trips_in_an_agent() -> None:
    assert from_haystack(to_haystack(tag_count)) is tag_count
    bridged = to_haystack(from_haystack(shout))
    assert isinstance(bridged, StandardHaystackTool)
    script = Script(
        _calls(("call_1", "shout", {"text": "hey"}), ("call_2", "shout", {"text": 3})),
        ChatMessage.from_assistant("done"),
    )

    output = _agent(script, [bridged]).run(messages=[ChatMessage.from_user("Shout.")])

    assert output["last_message"].text == "done"
    results = script.results()
    assert results["call_1"].result == "HEY"
    assert results["call_2"].result.startswith("Error: input validation failed: text: ")


def test_an_agent_told_to_raise_on_tool_failures_ends_the_run_with_our_error() -> None:
    script = Script(
        _calls(("call_1", "explode", {"reason": "no such luck"})),
        ChatMessage.from_assistant("never"),
    )
    agent = _agent(script, [to_haystack(explode)], raise_on_tool_invocation_failure=True)

    with pytest.raises(Exception, match="no such luck") as caught:
        agent.run(messages=[ChatMessage.from_user("Go.")])

    chain = [caught.value, caught.value.__cause__, caught.value.__context__]
    assert any(isinstance(e, ToolInvocationError) for e in chain)


def test_haystacks_own_tool_does_not_validate_as_the_readme_says() -> None:
    @haystack_tool
    def double(n: int) -> int:
        """Double."""
        return n * 2

    assert double.invoke(n="3") == "33"
    with pytest.raises(StandardToolValidationError, match="n: "):
        asyncio.run(from_haystack(double).execute({"n": "3"}))


PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c63f8cfc0f01f0005000201e5270bde0000000049454e44ae426082"
)


@pytest.mark.parametrize("run_async", [False, True])
def test_a_rich_result_reaches_the_model_as_haystack_content_parts(run_async: bool) -> None:
    from haystack.dataclasses import FileContent, ImageContent, TextContent

    from standard_tool import tool
    from standard_tool.content import Audio, EmbeddedResource, Image, Text, ToolOutput

    @tool
    def snapshot() -> ToolOutput:
        """Take a picture."""
        return ToolOutput(
            [
                Text("The dashboard:"),
                Image(PNG, "image/png"),
                EmbeddedResource("file:///r.pdf", blob=b"%PDF-1.4", mime_type="application/pdf"),
                Audio(b"RIFF", "audio/wav"),
            ],
            structured={"rows": 3},
        )

    script = Script(_calls(("call_1", "snapshot", {})), ChatMessage.from_assistant("a dot"))
    agent = _agent(script, [to_haystack(snapshot)])
    messages = [ChatMessage.from_user("Look.")]
    if run_async:
        output = asyncio.run(agent.run_async(messages=messages))
    else:
        output = agent.run(messages=messages)

    assert output["last_message"].text == "a dot"
    result = script.results()["call_1"]
    assert not result.error
    parts = result.result
    assert [type(p) for p in parts] == [
        TextContent,
        ImageContent,
        FileContent,
        TextContent,
        TextContent,
    ]
    assert parts[0].text == "The dashboard:"
    assert (parts[1].base64_image, parts[1].mime_type) == (Image(PNG, "").base64, "image/png")
    assert (parts[2].mime_type, parts[2].filename) == ("application/pdf", "r.pdf")
    assert parts[3].text == "[audio/wav audio, 4 bytes: Haystack tool results cannot carry audio]"
    assert parts[4].text == '{"rows": 3}'


def test_a_haystack_tool_answering_with_image_parts_comes_back_as_a_tool_output() -> None:
    import base64

    from haystack.dataclasses import FileContent, ImageContent, TextContent

    from standard_tool.content import EmbeddedResource, Image, Text, ToolOutput

    @haystack_tool
    def picture() -> list[Any]:
        """Take a picture."""
        return [
            TextContent("a dot"),
            ImageContent(base64_image=base64.b64encode(PNG).decode(), mime_type="image/png"),
            FileContent(
                base64_data=base64.b64encode(b"%PDF-1.4").decode(),
                mime_type="application/pdf",
                filename="r.pdf",
            ),
        ]

    @haystack_tool
    def words() -> list[Any]:
        """Say something."""
        return [TextContent("hello")]

    got = asyncio.run(from_haystack(picture).execute({}))

    assert isinstance(got, ToolOutput)
    assert got.content == (
        Text("a dot"),
        Image(PNG, "image/png"),
        EmbeddedResource("file:r.pdf", blob=b"%PDF-1.4", mime_type="application/pdf"),
    )
    said = asyncio.run(from_haystack(words).execute({}))
    assert [p.text for p in said] == ["hello"]


@pytest.mark.parametrize("output", HUGE_OUTPUTS, ids=range(len(HUGE_OUTPUTS)))
def test_a_rich_result_is_written_within_the_output_bound(output: ToolOutput[Any]) -> None:
    from haystack.dataclasses import TextContent

    from standard_tool.integrations.haystack import _haystack_parts  # pyright: ignore[reportPrivateUsage]

    parts = _haystack_parts(output)
    texts = [part.text for part in parts if isinstance(part, TextContent)]
    assert_within_bound(texts, output, OUTPUT_MAX_CHARS)
