"""Pydantic AI bridge: our tools in a Pydantic AI agent run, and Pydantic AI tools as ours.

The agent runs with Pydantic AI's own models: ``FunctionModel`` (a scripted model
that sees every message), ``TestModel`` (which calls every tool with arguments it
makes from the schema), and ``OpenAIChatModel`` with the official OpenAI client
against the scripted HTTP server on 127.0.0.1 (tests/fakes/server.py), which checks
the request Pydantic AI really sends.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from pydantic import BaseModel
from pydantic_ai import Agent, RunContext, Tool
from pydantic_ai.exceptions import UnexpectedModelBehavior
from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    ModelResponse,
    RetryPromptPart,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel
from pydantic_ai.models.openai import OpenAIChatModel
from pydantic_ai.models.test import TestModel
from pydantic_ai.providers.openai import OpenAIProvider

from standard_tool import Toolkit, standard_tool, tool
from standard_tool.integrations.pydantic_ai import from_pydantic_ai, to_pydantic_ai
from standard_tool.providers import (
    OpenAIStrictError,
    ProviderSchemaError,
    openai_strict,
    to_openai_chat,
)
from tests.context_tools import crawl, whoami
from tests.example_tools import tag_resource
from tests.fakes.server import FakeModel, serve_fake_model
from tests.fakes.tools import add, weather

BAD_ADD_ERROR = "input validation failed: b: 'two' is not of type 'integer'"


@dataclass(frozen=True)
class Answer:
    """What the model was sent for one tool call."""

    call_id: str
    text: str
    kind: str  # "success", "retry" (ModelRetry) or "failed" (ToolFailed)


def _returns(messages: list[ModelMessage]) -> list[Answer]:
    """The answers in the last request; older Pydantic AI sends a retry as a RetryPromptPart."""
    last = messages[-1]
    assert isinstance(last, ModelRequest)
    answers = []
    for part in last.parts:
        if isinstance(part, RetryPromptPart):
            answers.append(Answer(part.tool_call_id, part.model_response(), "retry"))
        elif isinstance(part, ToolReturnPart):
            kind = {"retried": "retry", "failed": "failed"}.get(part.outcome, "success")
            answers.append(Answer(part.tool_call_id, part.model_response_str(), kind))
    return answers


async def test_agent_runs_a_good_and_a_bad_call_and_the_answer_arrives() -> None:
    seen: list[list[Answer]] = []

    def script(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        if len(messages) == 1:
            assert [t.name for t in info.function_tools] == ["get_weather", "add"]
            return ModelResponse(
                parts=[
                    ToolCallPart("get_weather", {"city": "Paris", "unit": "c"}, tool_call_id="c1"),
                    ToolCallPart("add", {"a": 1, "b": "two"}, tool_call_id="c2"),
                ]
            )
        seen.append(_returns(messages))
        return ModelResponse(parts=[TextPart("21 degrees; I could not add.")])

    agent = Agent(FunctionModel(script), tools=to_pydantic_ai(Toolkit([weather, add])))
    result = await agent.run("Weather in Paris, and 1 + two?")
    assert result.output == "21 degrees; I could not add."
    good, bad = seen[0]
    assert good == Answer("c1", '{"city": "Paris", "temperature": 21}', "success")
    assert (bad.call_id, bad.kind) == ("c2", "retry")
    assert BAD_ADD_ERROR in bad.text


async def test_an_exception_in_the_tool_is_a_failure_the_model_sees_not_a_retry() -> None:
    async def fail(input: Any) -> Any:
        raise RuntimeError("the service is down")

    broken = standard_tool(name="broken", description="Fails.", execute=fail)
    seen: list[Answer] = []

    def script(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        if len(messages) == 1:
            return ModelResponse(parts=[ToolCallPart("broken", {}, tool_call_id="c1")])
        seen.extend(_returns(messages))
        return ModelResponse(parts=[TextPart("It is down.")])

    result = await Agent(FunctionModel(script), tools=[to_pydantic_ai(broken)]).run("go")
    assert result.output == "It is down."
    assert seen[0] == Answer("c1", '{"error":"RuntimeError: the service is down"}', "failed")


async def test_invalid_calls_spend_the_retry_budget() -> None:
    def script(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        return ModelResponse(parts=[ToolCallPart("add", {"a": "x", "b": 1})])

    agent = Agent(FunctionModel(script), tools=[to_pydantic_ai(add, max_retries=2)])
    with pytest.raises(UnexpectedModelBehavior, match="add"):
        await agent.run("go")


async def test_test_model_calls_the_tools_with_arguments_made_from_our_schema() -> None:
    calls: list[Any] = []

    def record(input: Any) -> str:
        calls.append(input)
        return "ok"

    recorder = standard_tool(
        name="record",
        description="Record.",
        input_schema={
            "type": "object",
            "properties": {"n": {"type": "integer"}, "s": {"type": "string"}},
            "required": ["n", "s"],
            "additionalProperties": False,
        },
        execute=record,
    )
    result = await Agent(TestModel(), tools=[to_pydantic_ai(recorder)]).run("go")
    assert result.output == '{"record":"ok"}'
    assert len(calls) == 1
    assert set(calls[0]) == {"n", "s"}


async def test_the_run_context_reaches_the_meta_function() -> None:
    def whoami(input: Any, meta: Any) -> str:
        return str(meta)

    tool_ = to_pydantic_ai(
        standard_tool(name="whoami", description="Who.", execute=whoami),
        meta=lambda ctx: f"{ctx.deps}/{ctx.tool_call_id}/{ctx.retry}",
    )

    def script(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        if len(messages) == 1:
            return ModelResponse(parts=[ToolCallPart("whoami", {}, tool_call_id="call_7")])
        return ModelResponse(parts=[TextPart(_returns(messages)[0].text)])

    agent = Agent(FunctionModel(script), tools=[tool_], deps_type=str)
    assert (await agent.run("go", deps="alice")).output == "alice/call_7/0"


def test_sync_stays_sync_and_async_stays_async() -> None:
    assert not inspect.iscoroutinefunction(to_pydantic_ai(weather).function)
    assert inspect.iscoroutinefunction(to_pydantic_ai(add).function)


def test_strict_true_refuses_a_schema_strict_mode_cannot_represent() -> None:
    loose = standard_tool(
        name="loose",
        description="Anything.",
        input_schema={"type": "object", "properties": {"x": {"not": {"type": "string"}}}},
        execute=lambda p: p,
    )
    with pytest.raises(OpenAIStrictError, match="loose"):
        to_pydantic_ai(loose, strict=True)
    assert to_pydantic_ai(loose).strict is None


def test_a_tool_whose_input_is_not_an_object_is_refused_at_conversion() -> None:
    scalar = standard_tool(
        name="scalar",
        description="A number.",
        input_schema={"type": "integer"},
        execute=lambda n: n,
    )
    with pytest.raises(ProviderSchemaError, match="JSON object"):
        to_pydantic_ai(scalar)


# -- hostile calls ------------------------------------------------------------------------


async def _one_call(pa_tool: Tool[Any], args: dict[str, Any]) -> Answer:
    seen: list[Answer] = []

    def script(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        if len(messages) == 1:
            return ModelResponse(parts=[ToolCallPart(pa_tool.name, args, tool_call_id="c")])
        seen.extend(_returns(messages))
        return ModelResponse(parts=[TextPart("done")])

    await Agent(FunctionModel(script), tools=[pa_tool]).run("go")
    return seen[0]


@pytest.mark.parametrize("key", ["ctx", "self", "arguments", "input", "meta"])
async def test_argument_names_of_our_own_functions_are_just_arguments(key: str) -> None:
    def keys(input: Any) -> list[str]:
        return sorted(input)

    open_tool = standard_tool(
        name="keys",
        description="List keys.",
        input_schema={"type": "object", "additionalProperties": {"type": "integer"}},
        execute=keys,
    )
    for meta in (None, lambda ctx: None):
        part = await _one_call(to_pydantic_ai(open_tool, meta=meta), {key: 1, "x": 2})
        assert part == Answer("c", json.dumps(sorted([key, "x"])), "success")


async def test_a_huge_bad_value_gives_a_bounded_error() -> None:
    @tool
    def short(text: str) -> str:
        """Take a short text."""
        return text

    part = await _one_call(to_pydantic_ai(short), {"text": ["x" * 1_000_000]})
    assert part.kind == "retry"
    assert "input validation failed: text: " in part.text
    assert len(part.text) <= 2_200


def test_cancellation_is_not_swallowed() -> None:
    async def stop(input: Any) -> Any:
        raise asyncio.CancelledError

    fn = to_pydantic_ai(standard_tool(name="stop", description="Stops.", execute=stop)).function
    with pytest.raises(asyncio.CancelledError):
        asyncio.run(fn())  # type: ignore[misc]


# -- the OpenAI provider path: what Pydantic AI really sends ------------------------------


def _completion(message: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1_700_000_000,
        "model": "fake-model",
        "choices": [{"index": 0, "finish_reason": "stop", "logprobs": None, "message": message}],
        "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
    }


@pytest.fixture
def fake() -> Iterator[FakeModel]:
    with serve_fake_model() as model:
        yield model
        model.verify()


async def _run_openai_agent(fake: FakeModel, tools: list[Tool[Any]], prompt: str) -> str:
    provider = OpenAIProvider(base_url=f"{fake.base_url}/v1", api_key="test-key")
    async with provider.client:
        agent = Agent(OpenAIChatModel("fake-model", provider=provider), tools=tools)
        return (await agent.run(prompt)).output


async def test_openai_chat_model_is_sent_our_schema_and_our_error_text(fake: FakeModel) -> None:
    def first(body: dict[str, Any]) -> None:
        declared = {t["function"]["name"]: t["function"] for t in body["tools"]}
        assert (
            declared["add"]["parameters"]
            == to_openai_chat(add, strict=False)["function"]["parameters"]
        )
        assert declared["get_weather"]["parameters"]["properties"]["city"] == {
            "type": "string",
            "description": "City name",
        }

    def second(body: dict[str, Any]) -> None:
        answers = {m["tool_call_id"]: m["content"] for m in body["messages"] if m["role"] == "tool"}
        assert answers["call_1"] == '{"city": "Paris", "temperature": 21}'
        assert BAD_ADD_ERROR in answers["call_2"]

    calls = [
        {
            "id": "call_1",
            "type": "function",
            "function": {"name": "get_weather", "arguments": '{"city": "Paris", "unit": "c"}'},
        },
        {
            "id": "call_2",
            "type": "function",
            "function": {"name": "add", "arguments": '{"a": 1, "b": "two"}'},
        },
    ]
    fake.expect(
        "/v1/chat/completions",
        _completion({"role": "assistant", "content": None, "tool_calls": calls}),
        first,
    )
    fake.expect(
        "/v1/chat/completions",
        _completion({"role": "assistant", "content": "21 degrees; I could not add."}),
        second,
    )
    output = await _run_openai_agent(fake, to_pydantic_ai([weather, add]), "Weather, 1 + two?")
    assert output == "21 degrees; I could not add."


async def test_openai_strict_sends_our_rewrite_and_the_map_is_decoded_back(fake: FakeModel) -> None:
    strict_schema = openai_strict(tag_resource).schema

    def first(body: dict[str, Any]) -> None:
        function = body["tools"][0]["function"]
        assert function["strict"] is True
        assert function["parameters"] == strict_schema

    def second(body: dict[str, Any]) -> None:
        answers = [m["content"] for m in body["messages"] if m["role"] == "tool"]
        assert answers == ['{"env": "prod"}']

    arguments = json.dumps({"resource_id": "r1", "tags": [{"key": "env", "value": "prod"}]})
    call = {
        "id": "c1",
        "type": "function",
        "function": {"name": "tag_resource", "arguments": arguments},
    }
    fake.expect(
        "/v1/chat/completions",
        _completion({"role": "assistant", "content": None, "tool_calls": [call]}),
        first,
    )
    fake.expect(
        "/v1/chat/completions", _completion({"role": "assistant", "content": "Tagged."}), second
    )
    tools = [to_pydantic_ai(tag_resource, strict=True)]
    assert await _run_openai_agent(fake, tools, "Tag r1 env=prod") == "Tagged."


# -- from Pydantic AI ---------------------------------------------------------------------


class Point(BaseModel):
    x: int
    y: int


def shift(point: Point, by: int = 1) -> dict[str, int]:
    """Shift a point."""
    return {"x": point.x + by, "y": point.y + by}


async def ashout(text: str) -> str:
    """Upper-case a text."""
    await asyncio.sleep(0)
    return text.upper()


def with_deps(ctx: RunContext[str], q: str) -> str:
    """Answer from the deps."""
    return f"{ctx.deps}:{q}"


async def test_from_pydantic_ai_validates_with_the_tools_own_schema() -> None:
    st = from_pydantic_ai(Tool(shift))
    assert (st.name, st.description) == ("shift", "Shift a point.")
    schema = st.input_schema.__standard__.json_schema.input(target="draft-2020-12")
    assert schema["required"] == ["point"]
    assert await st.execute({"point": {"x": 1, "y": 2}, "by": 2}) == {"x": 3, "y": 4}
    with pytest.raises(ValueError, match=r"input validation failed: point\.y: "):
        await st.execute({"point": {"x": 1, "y": "2"}})
    assert await from_pydantic_ai(Tool(ashout)).execute({"text": "hi"}) == "HI"


async def test_a_tool_taking_a_run_context_needs_one_as_meta() -> None:
    st = from_pydantic_ai(Tool(with_deps))
    with pytest.raises(TypeError, match="takes a Pydantic AI RunContext: pass one as meta"):
        await st.execute({"q": "x"})
    seen: list[str] = []

    def script(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        if len(messages) == 1:
            return ModelResponse(parts=[ToolCallPart("probe", {}, tool_call_id="c")])
        return ModelResponse(parts=[TextPart("done")])

    async def probe(ctx: RunContext[str]) -> str:
        """Run the converted tool with this run's context."""
        seen.append(await st.execute({"q": "x"}, ctx))
        return "ok"

    await Agent(FunctionModel(script), tools=[probe], deps_type=str).run("go", deps="bob")
    assert seen == ["bob:x"]


def test_a_toolkit_mixes_pydantic_ai_tools_and_ours() -> None:
    kit = Toolkit([weather, from_pydantic_ai(Tool(ashout))])
    assert kit.execute("ashout", {"text": "a"}).value == "A"
    assert (
        kit.execute("ashout", {"text": 1}).error == "input validation failed: text: expected string"
    )


async def test_round_trip_keeps_schema_validation_and_the_text() -> None:
    back = from_pydantic_ai(to_pydantic_ai(weather))
    assert (back.name, back.description) == (weather.name, weather.description)
    assert (
        back.input_schema.__standard__.json_schema.input(target="draft-2020-12")
        == to_openai_chat(weather, strict=False)["function"]["parameters"]
    )
    assert (
        await back.execute({"city": "Oslo", "unit": "f"}) == '{"city": "Oslo", "temperature": 70}'
    )
    with pytest.raises(ValueError, match="unit"):
        await back.execute({"city": "Oslo", "unit": "k"})


def test_importing_the_package_does_not_import_pydantic_ai() -> None:
    code = (
        "import sys, standard_tool, standard_tool.integrations\n"
        "print(sorted(m for m in ('langchain_core', 'pydantic_ai') if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert out.stdout.strip() == "[]"


# -- the call context ---------------------------------------------------------------------


@pytest.mark.parametrize("with_meta", [False, True])
async def test_a_tool_in_the_agent_loop_sees_the_call_id_and_its_deadline_holds(
    with_meta: bool,
) -> None:
    seen: list[Answer] = []

    def script(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        if len(messages) == 1:
            return ModelResponse(
                parts=[
                    ToolCallPart("whoami", {"sku": "A-1"}, tool_call_id="pa_7"),
                    ToolCallPart("crawl", {}, tool_call_id="pa_8"),
                ]
            )
        seen.extend(_returns(messages))
        return ModelResponse(parts=[TextPart("done")])

    hook = (lambda ctx: ctx.deps) if with_meta else None
    agent = Agent(FunctionModel(script), tools=to_pydantic_ai([whoami, crawl], meta=hook))
    assert (await agent.run("go")).output == "done"
    who, late = seen
    assert who.call_id == "pa_7"
    assert json.loads(who.text) == {
        "sku": "A-1",
        "tool": "whoami",
        "call": "pa_7",
        "raw": {"sku": "A-1"},
    }
    assert (late.call_id, late.kind) == ("pa_8", "failed")
    assert "timed out after 0.05 s" in late.text


# -- issue 26: a hostile schema is refused by a clear error naming the tool -------------


@pytest.mark.parametrize("reason", ["nests more than 96", "unsupported", "nowhere", "outside"])
def test_from_pydantic_ai_refuses_a_hostile_schema_naming_the_tool(reason: str) -> None:
    from standard_tool.schemas import InvalidSchemaError
    from tests.hostile_schemas import HOSTILE_SCHEMAS

    schema = next(s for key, s in HOSTILE_SCHEMAS.items() if reason in key)
    hostile = Tool.from_schema(
        lambda **kw: "x", name="hostile", description="d", json_schema=schema
    )
    with pytest.raises(InvalidSchemaError, match=r"^from_pydantic_ai: tool 'hostile': "):
        from_pydantic_ai(hostile)


# -- issue 26: arguments that are JSON but not an object ask the model to retry --------


@pytest.mark.parametrize("arguments", ["[1, 2]", '"a"', "3", "null"])
async def test_arguments_that_are_not_an_object_ask_the_model_to_retry(arguments: str) -> None:
    seen: list[Answer] = []

    def script(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        if len(messages) == 1:
            return ModelResponse(parts=[ToolCallPart("add", arguments, tool_call_id="c1")])
        seen.extend(_returns(messages))
        if len(messages) == 3:  # the retry: now a good call
            return ModelResponse(parts=[ToolCallPart("add", {"a": 1, "b": 2}, tool_call_id="c2")])
        return ModelResponse(parts=[TextPart("done")])

    result = await Agent(FunctionModel(script), tools=[to_pydantic_ai(add)]).run("go")
    assert result.output == "done"
    assert seen[0].call_id == "c1"
    assert seen[0].kind == "retry"
    assert "object" in seen[0].text
    assert seen[1] == Answer("c2", "3", "success")
