"""Mirascope bridge: our tools in Mirascope's own tool loop, and Mirascope tools as ours.

Mirascope's OpenAI provider (``llm.register_provider``) talks to the scripted model
of tests/fakes/server.py on 127.0.0.1. The loop is Mirascope's: call, then
``execute_tools()`` and ``resume()`` while the response has tool calls. The
scripted model asks for a good call, a refused call and a failing tool in one turn.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from importlib.metadata import version
from typing import Any

import pytest
from mirascope import llm
from tests.context_tools import whoami
from tests.fakes.server import FakeModel, serve_fake_model
from tests_integration.five_frameworks.chat import (
    answer,
    calls,
    expect_turn,
    explode,
    forecast,
    sent_tools,
    snapshot,
    snapshot_text,
    tag_count,
    tool_messages,
)

from standard_tool import StandardToolValidationError, standard_tool
from standard_tool.integrations.mirascope import (
    MirascopeToolError,
    StandardMirascopeAsyncTool,
    StandardMirascopeTool,
    from_mirascope,
    to_mirascope,
)
from standard_tool.providers import ProviderSchemaError, to_openai_chat

MODEL = "openai/fake-model:completions"


@pytest.fixture
def model() -> Iterator[FakeModel]:
    with serve_fake_model() as fake:
        llm.register_provider(
            "openai", "openai/", api_key="test-key", base_url=f"{fake.base_url}/v1"
        )
        yield fake
        fake.verify()


def _run(tools: list[Any], prompt: str) -> str:
    @llm.call(MODEL, tools=tools)
    def ask(question: str) -> str:
        return question

    response = ask(prompt)
    while response.tool_calls:  # the fake model's script bounds the loop
        response = response.resume(response.execute_tools())
    return response.text()


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
        assert results["call_2"] == (
            "Error: input validation failed: limit: expected integer, got string 'three'"
        )
        assert results["call_3"] == "Error: RuntimeError: no such luck"
        if "forecast" in names:
            sky = {"city": "Oslo", "days": 2, "sky": "clear"}
            assert json.loads(results["call_4"]) == sky

    made = [
        ("call_1", "tag_count", {"tags": {"a": "1", "b": "2"}}),
        ("call_2", "tag_count", {"tags": {}, "limit": "three"}),
        ("call_3", "explode", {"reason": "no such luck"}),
    ]
    if "forecast" in names:
        made.append(("call_4", "forecast", {"city": "Oslo", "days": 2}))
    expect_turn(model, calls(*made), first)
    expect_turn(model, answer("Two tags."), second)


def test_a_sync_call_runs_a_good_a_refused_and_a_failing_call_and_goes_on(
    model: FakeModel,
) -> None:
    _good_bad_and_failing(model, {"tag_count", "explode"})

    assert _run(to_mirascope([tag_count, explode]), "Count and explode.") == "Two tags."


def test_an_async_call_runs_an_async_tool_in_its_loop(model: FakeModel) -> None:
    threads: dict[str, int] = {}

    async def where(input: Any) -> str:
        threads["tool"] = threading.get_ident()
        return "here"

    async_tool = standard_tool(name="where", description="Where.", execute=where)
    bridged = to_mirascope([forecast, async_tool])
    assert all(isinstance(t, StandardMirascopeAsyncTool) for t in bridged)

    def second(body: dict[str, Any]) -> None:
        results = tool_messages(body)
        assert json.loads(results["c1"]) == {"city": "Oslo", "days": 2, "sky": "clear"}
        assert results["c2"] == "here"

    expect_turn(model, calls(("c1", "forecast", {"city": "Oslo", "days": 2}), ("c2", "where", {})))
    expect_turn(model, answer("clear"), second)

    @llm.call(MODEL, tools=bridged)
    async def ask(question: str) -> str:
        return question

    async def main() -> tuple[str, int]:
        response = await ask("Forecast.")
        while response.tool_calls:
            response = await response.resume(await response.execute_tools())
        return response.text(), threading.get_ident()

    text, loop_thread = asyncio.run(main())
    assert text == "clear"
    assert threads["tool"] == loop_thread


def test_the_call_id_reaches_the_tool(model: FakeModel) -> None:
    def second(body: dict[str, Any]) -> None:
        said = json.loads(tool_messages(body)["call_7"])
        assert (said["call"], said["tool"], said["raw"]) == ("call_7", "whoami", {"sku": "A1"})

    expect_turn(model, calls(("call_7", "whoami", {"sku": "A1"})))
    expect_turn(model, answer("done"), second)

    assert _run([to_mirascope(whoami)], "Who?") == "done"


def test_names_the_model_api_refuses_are_refused_with_our_message() -> None:
    bad = standard_tool(name="no spaces", description="Bad.", execute=lambda: "x")
    with pytest.raises(ProviderSchemaError, match='tool name "no spaces" is not accepted'):
        to_mirascope(bad)


def test_called_directly_the_tool_returns_its_value_or_raises_our_error() -> None:
    bridged = to_mirascope(tag_count)
    assert isinstance(bridged, StandardMirascopeTool)
    assert bridged(tags={"a": "1"}) == 1
    with pytest.raises(MirascopeToolError, match=r"^Error: input validation failed: tags"):
        bridged(tags=3)


# -- from_mirascope -------------------------------------------------------------------


@llm.tool
def shout(text: str) -> str:
    """Upper-case a text."""
    return text.upper()


@llm.tool
async def whisper(text: str) -> str:
    """Lower-case a text."""
    await asyncio.sleep(0)
    return text.lower()


@llm.tool
def fail(text: str) -> str:
    """Fail."""
    raise ValueError(f"cannot {text}")


def test_from_mirascope_keeps_the_schema_and_runs_sync_and_async_tools() -> None:
    st = from_mirascope(shout)
    assert st.input_schema is not None
    schema = st.input_schema.__standard__.json_schema.input(target="draft-2020-12")
    assert schema["properties"]["text"]["type"] == "string"
    assert schema["required"] == ["text"]
    assert st.execute({"text": "hi"}) == "HI"
    assert asyncio.run(from_mirascope(whisper).execute({"text": "HI"})) == "hi"


def test_from_mirascope_validates_first_and_raises_mirascopes_failures() -> None:
    with pytest.raises(StandardToolValidationError, match="text"):
        from_mirascope(shout).execute({"text": 3})
    with pytest.raises(MirascopeToolError, match="cannot go"):
        from_mirascope(fail).execute({"text": "go"})


def test_a_bridged_tool_comes_back_as_itself_and_round_trips_in_a_call(
    model: FakeModel,
) -> None:
    assert from_mirascope(to_mirascope(tag_count)) is tag_count

    def second(body: dict[str, Any]) -> None:
        results = tool_messages(body)
        assert results["call_1"] == "HEY"
        assert results["call_2"].startswith("Error: input validation failed: text: ")

    expect_turn(model, calls(("call_1", "shout", {"text": "hey"}), ("call_2", "shout", {})))
    expect_turn(model, answer("done"), second)

    assert _run([to_mirascope(from_mirascope(shout))], "Shout.") == "done"


def test_the_readme_cell_mirascope_tool_coerces_a_string_to_an_int_since_2_0_0() -> None:
    """README's comparison table: Mirascope's own ``@llm.tool`` is lax (2.0.0: unchecked)."""
    seen: list[Any] = []

    @llm.tool
    def add(a: int, b: int) -> int:
        """Add two integers."""
        seen.append(a)
        return a + b

    add.execute(llm.ToolCall(id="c1", name="add", args='{"a": "3", "b": 4}'))

    # 2.0.0 (the floor) hands the string through; later releases validate it with Pydantic.
    assert seen == (["3"] if version("mirascope") == "2.0.0" else [3])


def test_a_rich_result_is_its_text() -> None:
    output = to_mirascope(snapshot).execute(llm.ToolCall(id="c1", name="snapshot", args="{}"))
    assert output.result == snapshot_text("Mirascope")
    assert output.error is None
