"""AG2 bridge: our tools in an AG2 ``Agent``'s own loop, and AG2 tools as ours.

The agent's model is AG2's own scripted test model (``ag2.testing.TestConfig``,
wrapped in ``TrackingConfig`` to record what each model call was handed). It
asks for a good call, a refused call and a failing tool in one turn; the agent
goes on and answers. ``raise_tool_errors=False`` makes the test model behave as a
real provider does: a failed call is handed back as a result.
"""

from __future__ import annotations

import asyncio
import json
import threading
from typing import Any

import pytest
from ag2 import Agent, MemoryStream
from ag2 import tool as ag2_tool
from ag2.context import ConversationContext
from ag2.events import ToolCallEvent, ToolErrorEvent, ToolResultEvent, ToolResultsEvent
from ag2.testing import TestConfig, TrackingConfig
from tests.context_tools import whoami

from standard_tool import StandardToolValidationError, Toolkit, standard_tool, tool
from standard_tool.integrations.ag2 import AG2Call, AG2ToolError, from_ag2, to_ag2
from standard_tool.providers import ProviderSchemaError, to_openai_chat


@tool
def tag_count(tags: dict[str, str], limit: int = 10) -> int:
    """Count the tags, at most ``limit``."""
    return min(len(tags), limit)


@tool
async def forecast(city: str, days: int) -> dict[str, Any]:
    """Forecast the weather."""
    await asyncio.sleep(0)
    return {"city": city, "days": days, "sky": "clear"}


@tool
def explode(reason: str) -> str:
    """Fail with ``reason``."""
    raise RuntimeError(reason)


def _call(call_id: str, name: str, arguments: Any) -> ToolCallEvent:
    text = arguments if isinstance(arguments, str) else json.dumps(arguments)
    return ToolCallEvent(name=name, arguments=text, id=call_id)


def _config(*turns: Any) -> TrackingConfig:
    return TrackingConfig(TestConfig(*turns, raise_tool_errors=False))


def _results(config: TrackingConfig) -> dict[str, ToolResultEvent]:
    """The tool results the model was handed, by call id."""
    found: dict[str, ToolResultEvent] = {}
    for call in config.mock.call_args_list:
        message = call.args[0]
        if isinstance(message, ToolResultsEvent):
            found.update({r.parent_id: r for r in message.results})
    return found


def _text(result: ToolResultEvent) -> str:
    return "".join(part.content for part in result.result.parts)  # type: ignore[attr-defined]


def test_an_agent_runs_a_good_a_refused_and_a_failing_call_and_goes_on() -> None:
    config = _config(
        [
            _call("c1", "tag_count", {"tags": {"a": "1", "b": "2"}}),
            _call("c2", "tag_count", {"tags": {}, "limit": "three"}),
            _call("c3", "explode", {"reason": "no such luck"}),
            _call("c4", "forecast", {"city": "Oslo", "days": 2}),
            _call("c5", "tag_count", "{not json"),
        ],
        "Two tags, clear in Oslo.",
    )
    tools = to_ag2(Toolkit([tag_count, explode, forecast]))
    agent = Agent("helper", config=config, tools=tools)

    reply = asyncio.run(agent.ask("Count, explode and forecast."))

    assert reply.body == "Two tags, clear in Oslo."
    context = ConversationContext(stream=MemoryStream())
    for ours, bridged in zip((tag_count, explode, forecast), tools, strict=True):
        (shown,) = asyncio.run(bridged.schemas(context))
        expected = to_openai_chat(ours, strict=False)["function"]
        assert (shown.function.name, shown.function.parameters) == (
            expected["name"],
            expected["parameters"],
        )
    results = _results(config)
    assert not isinstance(results["c1"], ToolErrorEvent)
    assert _text(results["c1"]) == "2"
    assert isinstance(results["c2"], ToolErrorEvent)
    assert isinstance(results["c2"].error, AG2ToolError)
    assert _text(results["c2"]) == (
        "Error: input validation failed: limit: expected integer, got string 'three'"
    )
    assert isinstance(results["c3"], ToolErrorEvent)
    assert _text(results["c3"]) == "Error: RuntimeError: no such luck"
    assert json.loads(_text(results["c4"])) == {"city": "Oslo", "days": 2, "sky": "clear"}
    assert isinstance(results["c5"], ToolErrorEvent)
    assert _text(results["c5"]).startswith("Error: ")


def test_a_sync_tool_runs_off_the_loop_and_an_async_one_on_it() -> None:
    threads: dict[str, int] = {}

    def where_sync() -> str:
        threads["sync"] = threading.get_ident()
        return "s"

    async def where_async() -> str:
        threads["async"] = threading.get_ident()
        return "a"

    sync_tool = standard_tool(name="where_sync", description="Where.", execute=where_sync)
    async_tool = standard_tool(name="where_async", description="Where.", execute=where_async)
    config = _config([_call("c1", "where_sync", {}), _call("c2", "where_async", {})], "done")
    agent = Agent("helper", config=config, tools=to_ag2([sync_tool, async_tool]))

    async def main() -> int:
        await agent.ask("Where?")
        return threading.get_ident()

    loop_thread = asyncio.run(main())
    assert {k: _text(v) for k, v in _results(config).items()} == {"c1": "s", "c2": "a"}
    assert threads["async"] == loop_thread
    assert threads["sync"] != loop_thread


def test_the_call_id_reaches_the_tool_and_the_context_reaches_meta() -> None:
    seen: list[Any] = []

    def record(input: Any, meta: Any) -> str:
        seen.append(meta)
        return "ok"

    probe = standard_tool(name="probe", description="Record the call.", execute=record)
    config = _config([_call("call_7", "whoami", {"sku": "A1"}), _call("call_8", "probe", {})], "ok")
    tools = to_ag2([whoami, probe], meta=lambda call: call)
    agent = Agent("helper", config=config, tools=tools, variables={"user": "ada"})

    asyncio.run(agent.ask("Who?"))

    said = json.loads(_text(_results(config)["call_7"]))
    assert (said["call"], said["tool"], said["raw"]) == ("call_7", "whoami", {"sku": "A1"})
    (call,) = seen
    assert isinstance(call, AG2Call)
    assert call.call_id == "call_8"
    assert call.context.variables["user"] == "ada"


def test_names_the_model_api_refuses_are_refused_with_our_message() -> None:
    bad = standard_tool(name="no spaces", description="Bad.", execute=lambda: "x")
    with pytest.raises(ProviderSchemaError, match='tool name "no spaces" is not accepted'):
        to_ag2(bad)


# -- from_ag2 -------------------------------------------------------------------------


@ag2_tool
def shout(text: str) -> str:
    """Upper-case a text."""
    return text.upper()


@ag2_tool
async def whisper(text: str) -> str:
    """Lower-case a text."""
    await asyncio.sleep(0)
    return text.lower()


@ag2_tool
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


@ag2_tool
def fail(text: str) -> str:
    """Fail."""
    raise ValueError(f"cannot {text}")


def test_from_ag2_keeps_the_schema_and_runs_sync_and_async_tools() -> None:
    st = from_ag2(shout)
    assert st.input_schema is not None
    schema = st.input_schema.__standard__.json_schema.input(target="draft-2020-12")
    assert schema["properties"]["text"]["type"] == "string"
    assert schema["required"] == ["text"]
    assert asyncio.run(st.execute({"text": "hi"})) == "HI"
    assert asyncio.run(from_ag2(whisper).execute({"text": "HI"})) == "hi"
    assert asyncio.run(from_ag2(add).execute({"a": 2, "b": 3})) == 5


def test_from_ag2_validates_first_and_raises_ag2s_failures() -> None:
    with pytest.raises(StandardToolValidationError, match="text"):
        asyncio.run(from_ag2(shout).execute({"text": 3}))
    with pytest.raises(AG2ToolError, match="cannot go"):
        asyncio.run(from_ag2(fail).execute({"text": "go"}))


def test_from_ag2_hands_the_context_to_a_tool_that_asks_for_it() -> None:
    from ag2 import Context

    @ag2_tool
    def where(text: str, ctx: Context) -> str:
        """Say who asks."""
        return f"{text}@{ctx.variables['user']}"

    context = ConversationContext(stream=MemoryStream(), variables={"user": "ada"})
    got = asyncio.run(from_ag2(where).execute({"text": "x"}, AG2Call("c1", context)))
    assert got == "x@ada"


def test_a_bridged_tool_comes_back_as_itself_and_round_trips_in_an_agent() -> None:
    assert from_ag2(to_ag2(tag_count)) is tag_count
    config = _config([_call("c1", "shout", {"text": "hey"}), _call("c2", "shout", {})], "done")
    agent = Agent("helper", config=config, tools=[to_ag2(from_ag2(shout))])

    assert asyncio.run(agent.ask("Shout.")).body == "done"

    results = _results(config)
    assert _text(results["c1"]) == "HEY"
    assert _text(results["c2"]).startswith("Error: input validation failed: text: ")


def test_the_readme_cell_ag2_tool_coerces_a_string_to_an_int() -> None:
    """README's comparison table: AG2's own ``@tool`` is Pydantic, lax."""
    seen: list[Any] = []

    @ag2_tool
    def add_seen(a: int, b: int) -> int:
        """Add two integers."""
        seen.append(a)
        return a + b

    call = _call("c1", "add_seen", {"a": "3", "b": 4})
    asyncio.run(add_seen(call, ConversationContext(stream=MemoryStream())))

    assert seen == [3]


def test_a_rich_result_reaches_the_model_as_its_text() -> None:
    from standard_tool.content import Image, Text, ToolOutput

    @tool
    def snapshot() -> ToolOutput:
        """Take a picture."""
        return ToolOutput([Text("The dashboard:"), Image(b"\x89PNG", "image/png")], {"rows": 3})

    config = _config([_call("c1", "snapshot", {})], "seen")
    agent = Agent("helper", config=config, tools=[to_ag2(snapshot)])

    asyncio.run(agent.ask("Look."))

    assert _text(_results(config)["c1"]) == (
        "The dashboard:\n[image/png image, 4 bytes: AG2 tool results cannot carry images]"
        '\n{"rows": 3}'
    )


def test_an_ag2_tool_answering_with_bytes_comes_back_as_a_tool_output() -> None:
    from ag2 import BinaryInput, TextInput, ToolResult

    from standard_tool.content import Image, Text, ToolOutput

    @ag2_tool
    def picture() -> ToolResult:
        """Take a picture."""
        return ToolResult(TextInput("a dot"), BinaryInput(b"\x89PNG", media_type="image/png"))

    got = asyncio.run(from_ag2(picture).execute({}))

    assert isinstance(got, ToolOutput)
    assert got.content == (Text("a dot"), Image(b"\x89PNG", "image/png"))
