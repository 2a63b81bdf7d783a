"""Semantic Kernel bridge: our tools in a ``ChatCompletionAgent``'s loop, and functions as ours.

The agent uses Semantic Kernel's ``OpenAIChatCompletion`` on the official ``openai``
client, pointed at the scripted model of tests/fakes/server.py on 127.0.0.1, with
automatic function calling. The scripted model checks what Semantic Kernel sends
(our schemas, the results of a good call, a refused call and a failing tool, each
under its call id) and answers.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import pytest
from openai import AsyncOpenAI
from pydantic import BaseModel
from semantic_kernel import Kernel
from semantic_kernel.agents import ChatCompletionAgent
from semantic_kernel.connectors.ai.open_ai import OpenAIChatCompletion
from semantic_kernel.functions import KernelArguments, KernelFunction, KernelPlugin, kernel_function
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

from standard_tool import StandardToolValidationError, standard_tool, tool
from standard_tool.integrations.semantic_kernel import (
    SemanticKernelCall,
    StandardKernelFunction,
    from_semantic_kernel,
    to_semantic_kernel,
)
from standard_tool.providers import ProviderSchemaError, to_openai_chat
from standard_tool.schemas.jsonschema import from_json_schema


@pytest.fixture
def model() -> Iterator[FakeModel]:
    with serve_streaming_fake_model() as fake:
        yield fake
        fake.verify()


def _agent(fake: FakeModel, functions: list[Any]) -> ChatCompletionAgent:
    client = AsyncOpenAI(base_url=f"{fake.base_url}/v1", api_key="test-key")
    service = OpenAIChatCompletion(ai_model_id="fake-model", async_client=client)
    plugin = KernelPlugin(name="tools", functions=functions)
    return ChatCompletionAgent(service=service, name="helper", plugins=[plugin])


def _ask(agent: ChatCompletionAgent, text: str, **kwargs: Any) -> str:
    async def main() -> str:
        response = await agent.get_response(messages=text, **kwargs)
        return str(response.content)

    return asyncio.run(main())


def test_the_agent_calls_well_badly_and_a_failing_tool_and_goes_on(model: FakeModel) -> None:
    def first(body: dict[str, Any]) -> None:
        sent = sent_tools(body)
        assert set(sent) == {"tools-tag_count", "tools-forecast", "tools-explode"}
        for ours in (tag_count, forecast, explode):
            shown = to_openai_chat(ours, strict=False)["function"]["parameters"]
            # Semantic Kernel declares no additionalProperties; it refuses extras itself.
            assert shown.pop("additionalProperties") is False
            assert sent[f"tools-{ours.name}"]["parameters"] == shown

    def second(body: dict[str, Any]) -> None:
        results = tool_messages(body)
        assert results["call_1"] == "2"
        assert results["call_2"].startswith("Error: input validation failed: days: ")
        assert results["call_3"] == "Error: RuntimeError: no such luck"

    turn = calls(
        ("call_1", "tools-tag_count", {"tags": {"a": "1", "b": "2"}}),
        ("call_2", "tools-forecast", {"city": "Paris", "days": "three"}),
        ("call_3", "tools-explode", {"reason": "no such luck"}),
    )
    expect_turn(model, turn, first)
    expect_turn(model, answer("Two tags; no forecast."), second)
    agent = _agent(model, to_semantic_kernel([tag_count, forecast, explode]))

    assert _ask(agent, "Count, forecast and explode.") == "Two tags; no forecast."


def test_the_call_id_reaches_the_tool_context_and_the_kernel_arguments_reach_meta(
    model: FakeModel,
) -> None:
    seen: list[Any] = []

    def record(input: Any, meta: Any) -> str:
        seen.append((input, meta))
        return "ok"

    probe = standard_tool(name="probe", description="Record the call.", execute=record)

    def second(body: dict[str, Any]) -> None:
        said = json.loads(tool_messages(body)["call_7"])
        assert (said["call"], said["tool"], said["raw"]) == ("call_7", "whoami", {"sku": "A1"})

    expect_turn(
        model, calls(("call_7", "tools-whoami", {"sku": "A1"}), ("call_8", "tools-probe", {}))
    )
    expect_turn(model, answer("done"), second)
    agent = _agent(model, to_semantic_kernel([whoami, probe], meta=lambda call: call))

    _ask(agent, "Who?", arguments=KernelArguments(user="ada"))

    ((input, call),) = seen
    assert input == {}  # the run's own arguments are not the tool's input
    assert isinstance(call, SemanticKernelCall)
    assert call.call_id == "call_8"
    assert call.arguments["user"] == "ada"
    assert isinstance(call.kernel, Kernel)


class Point(BaseModel):
    x: int
    y: int


@tool
def distance(a: Point, b: Point) -> int:
    """Manhattan distance between two points."""
    return abs(a.x - b.x) + abs(a.y - b.y)


def test_refs_are_inlined_in_each_declared_parameter() -> None:
    function = to_semantic_kernel(distance)
    (a, b) = function.parameters
    assert a.schema_data is not None
    assert a.schema_data["properties"]["x"]["type"] == "integer"
    assert "$ref" not in json.dumps([a.schema_data, b.schema_data])


def test_names_semantic_kernel_cannot_hold_are_refused() -> None:
    odd = standard_tool(name="two words", description="x", execute=lambda: 1)
    with pytest.raises(ProviderSchemaError, match="Semantic Kernel"):
        to_semantic_kernel(odd)


def test_a_root_constraint_semantic_kernel_cannot_send_is_refused() -> None:
    schema = {"type": "object", "properties": {"a": {}, "b": {}}, "minProperties": 1}
    either = standard_tool(
        name="either",
        description="x",
        execute=lambda input: input,
        input_schema=from_json_schema(schema),
    )
    with pytest.raises(ProviderSchemaError, match="minProperties"):
        to_semantic_kernel(either)


def test_missing_and_unexpected_arguments_are_refused_by_semantic_kernel_and_it_goes_on(
    model: FakeModel,
) -> None:
    def second(body: dict[str, Any]) -> None:
        results = tool_messages(body)
        assert "unexpected argument(s): ['cty']" in results["call_1"]
        assert "Missing required argument(s): ['days']" in results["call_2"]

    turn = calls(
        ("call_1", "tools-forecast", {"cty": "Oslo", "city": "x", "days": 1}),
        ("call_2", "tools-forecast", {"city": "x"}),
    )
    expect_turn(model, turn)
    expect_turn(model, answer("done"), second)

    assert _ask(_agent(model, to_semantic_kernel([forecast])), "Go.") == "done"


# -- from_semantic_kernel ---------------------------------------------------------------


@kernel_function(description="Upper-case a text.")
def shout(text: str) -> str:
    return text.upper()


@kernel_function(description="Lower-case a text.")
async def whisper(text: str) -> str:
    await asyncio.sleep(0)
    return text.lower()


def test_from_semantic_kernel_keeps_the_schema_and_runs_sync_and_async_functions() -> None:
    st = from_semantic_kernel(KernelFunction.from_method(shout))
    assert st.input_schema is not None
    schema = st.input_schema.__standard__.json_schema.input(target="draft-2020-12")
    assert schema["properties"]["text"]["type"] == "string"
    assert schema["required"] == ["text"]
    assert asyncio.run(st.execute({"text": "hi"})) == "HI"
    assert (
        asyncio.run(
            from_semantic_kernel(KernelFunction.from_method(whisper)).execute({"text": "HI"})
        )
        == "hi"
    )
    with pytest.raises(StandardToolValidationError, match="text"):
        asyncio.run(st.execute({"text": 3}))


def test_a_bridged_function_comes_back_as_itself_and_round_trips_in_an_agent(
    model: FakeModel,
) -> None:
    assert from_semantic_kernel(to_semantic_kernel(tag_count)) is tag_count
    st = from_semantic_kernel(KernelFunction.from_method(shout))

    def second(body: dict[str, Any]) -> None:
        results = tool_messages(body)
        assert results["call_1"] == "HEY"
        assert results["call_2"].startswith("Error: input validation failed: text: ")

    turn = calls(("call_1", "tools-shout", {"text": "hey"}), ("call_2", "tools-shout", {"text": 3}))
    expect_turn(model, turn)
    expect_turn(model, answer("done"), second)

    assert isinstance(to_semantic_kernel(st), StandardKernelFunction)
    assert _ask(_agent(model, [to_semantic_kernel(st)]), "Shout.") == "done"


def test_a_rich_result_is_its_bounded_text_naming_semantic_kernel() -> None:
    from tests_integration.five_frameworks.chat import snapshot, snapshot_text

    function = to_semantic_kernel(snapshot)
    result = asyncio.run(function.invoke(Kernel(), KernelArguments()))

    assert result is not None
    assert result.value == snapshot_text("Semantic Kernel")
