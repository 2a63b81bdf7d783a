"""OpenAI Agents SDK bridge: our tools in the SDK's own agent loop, and its tools as ours.

The agent loop is the SDK's ``Runner`` with its ``OpenAIChatCompletionsModel`` on
the official ``AsyncOpenAI`` client, pointed at the scripted model of
tests/fakes/server.py on 127.0.0.1. The scripted model checks what the SDK sends
(our strict schema, the results of a good and a bad call) and answers.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import threading
from collections.abc import Iterator
from typing import Any

import openai
import pytest
from agents import Agent, FunctionTool, RunConfig, Runner, function_tool
from agents.exceptions import UserError
from agents.models.openai_chatcompletions import OpenAIChatCompletionsModel
from agents.run_context import RunContextWrapper
from agents.tool_context import ToolContext

from standard_tool import StandardToolValidationError, Toolkit, standard_tool, tool
from standard_tool.integrations.openai_agents import from_openai_agents, to_openai_agents
from standard_tool.providers import OpenAIStrictError, openai_strict, to_openai_chat
from tests.context_tools import crawl, whoami
from tests.fakes.server import FakeModel, serve_fake_model
from tests.fakes.tools import PlainTool


@tool
def tag_count(tags: dict[str, str], limit: int = 10) -> int:
    """Count the tags, at most ``limit``.

    Args:
        tags: the tags, name to value.
        limit: the largest count reported.
    """
    return min(len(tags), limit)


@tool
async def forecast(city: str, days: int) -> dict[str, Any]:
    """Forecast the weather.

    Args:
        city: the city.
        days: how many days ahead.
    """
    await asyncio.sleep(0)
    return {"city": city, "days": days, "sky": "clear"}


@tool
def explode(reason: str) -> str:
    """Fail with ``reason``."""
    raise RuntimeError(reason)


# -- helpers ----------------------------------------------------------------------------


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


def _calls(*calls: tuple[str, str, str]) -> dict[str, Any]:
    tool_calls = [
        {"id": i, "type": "function", "function": {"name": n, "arguments": a}} for i, n, a in calls
    ]
    message = {"role": "assistant", "content": None, "tool_calls": tool_calls}
    return _completion(message, "tool_calls")


def _answer(text: str) -> dict[str, Any]:
    return _completion({"role": "assistant", "content": text}, "stop")


def _tool_messages(body: dict[str, Any]) -> dict[str, str]:
    return {m["tool_call_id"]: m["content"] for m in body["messages"] if m["role"] == "tool"}


def _agent(fake: FakeModel, tools: list[FunctionTool]) -> Agent[Any]:
    client = openai.AsyncOpenAI(base_url=f"{fake.base_url}/v1", api_key="test-key")
    model = OpenAIChatCompletionsModel(model="fake-model", openai_client=client)
    return Agent(name="helper", instructions="Use the tools.", model=model, tools=tools)


RUN_CONFIG = RunConfig(tracing_disabled=True)


def _invoke(function_tool: FunctionTool, arguments: str, call_id: str = "call_x") -> Any:
    ctx = ToolContext(None, tool_name=function_tool.name, tool_call_id=call_id, tool_arguments="")
    return asyncio.run(function_tool.on_invoke_tool(ctx, arguments))


# -- the SDK's own agent loop -----------------------------------------------------------


def test_the_runner_calls_one_tool_well_and_one_badly_and_the_answer_arrives(
    model: FakeModel,
) -> None:
    good = json.dumps({"tags": [{"key": "env", "value": "prod"}], "limit": None})
    bad = json.dumps({"city": "Paris", "days": "three"})

    def first(body: dict[str, Any]) -> None:
        sent = {t["function"]["name"]: t["function"] for t in body["tools"]}
        assert list(sent) == ["tag_count", "forecast"]
        assert sent["tag_count"]["strict"] is True
        assert sent["tag_count"]["parameters"] == openai_strict(tag_count).schema
        assert sent["forecast"]["parameters"] == openai_strict(forecast).schema

    def second(body: dict[str, Any]) -> None:
        results = _tool_messages(body)
        assert results["call_1"] == "1"
        assert results["call_2"].startswith("Error: input validation failed: days: ")

    model.expect("/v1/chat/completions", _calls(("call_1", "tag_count", good)), first)
    model.expect("/v1/chat/completions", _calls(("call_2", "forecast", bad)), second)
    model.expect("/v1/chat/completions", _answer("One tag; no forecast."))
    agent = _agent(model, to_openai_agents(Toolkit([tag_count, forecast])))

    result = asyncio.run(Runner.run(agent, "Count and forecast.", run_config=RUN_CONFIG))

    assert result.final_output == "One tag; no forecast."


def test_two_calls_in_one_turn_each_get_their_own_result(model: FakeModel) -> None:
    def second(body: dict[str, Any]) -> None:
        assert _tool_messages(body) == {
            "call_a": json.dumps({"city": "Oslo", "days": 2, "sky": "clear"}),
            "call_b": "Error: RuntimeError: no such luck",
        }

    turn = _calls(
        ("call_a", "forecast", '{"city": "Oslo", "days": 2}'),
        ("call_b", "explode", '{"reason": "no such luck"}'),
    )
    model.expect("/v1/chat/completions", turn)
    model.expect("/v1/chat/completions", _answer("done"), second)
    agent = _agent(model, to_openai_agents([forecast, explode]))

    result = asyncio.run(Runner.run(agent, "Go.", run_config=RUN_CONFIG))

    assert result.final_output == "done"


def test_the_call_id_and_run_context_reach_the_tool_through_meta(model: FakeModel) -> None:
    seen: list[Any] = []

    def record(input: Any, meta: Any) -> str:
        seen.append(meta)
        return "ok"

    probe = standard_tool(name="probe", description="Record the call.", execute=record)
    model.expect("/v1/chat/completions", _calls(("call_7", "probe", "{}")))
    model.expect("/v1/chat/completions", _answer("done"))
    bridged = to_openai_agents(probe, meta=lambda ctx: (ctx.tool_call_id, ctx.context))
    agent = _agent(model, [bridged])

    asyncio.run(Runner.run(agent, "Go.", context={"user": "ada"}, run_config=RUN_CONFIG))

    assert seen == [("call_7", {"user": "ada"})]


# -- to the SDK: the schema ------------------------------------------------------------


def test_the_plain_schema_of_a_map_is_refused_by_the_sdk_and_ours_is_accepted() -> None:
    plain = to_openai_chat(tag_count, strict=False)["function"]["parameters"]

    async def unused(ctx: Any, arguments: str) -> str:
        return arguments

    with pytest.raises(UserError):
        FunctionTool(
            name="tag_count",
            description="Count.",
            params_json_schema=plain,
            on_invoke_tool=unused,
            strict_json_schema=True,
        )
    bridged = to_openai_agents(tag_count)
    assert bridged.strict_json_schema is True
    assert bridged.params_json_schema == openai_strict(tag_count).schema


def test_a_schema_strict_mode_cannot_represent_is_sent_plain_or_refused() -> None:
    loose = standard_tool(
        name="loose",
        description="Anything goes.",
        input_schema={"type": "object", "properties": {"p": {"not": {"type": "string"}}}},
        execute=lambda input: input,
    )

    bridged = to_openai_agents(loose)

    assert bridged.strict_json_schema is False
    assert bridged.params_json_schema["properties"]["p"] == {"not": {"type": "string"}}
    assert _invoke(bridged, '{"p": 1}') == '{"p": 1}'
    assert _invoke(bridged, '{"p": "x"}').startswith("Error: input validation failed: p: ")
    with pytest.raises(OpenAIStrictError, match="loose"):
        to_openai_agents(loose, strict=True)


def test_strict_false_declares_the_tools_own_schema() -> None:
    bridged = to_openai_agents(tag_count, strict=False)

    assert bridged.strict_json_schema is False
    assert (
        bridged.params_json_schema
        == to_openai_chat(tag_count, strict=False)["function"]["parameters"]
    )
    assert _invoke(bridged, '{"tags": {"a": "b"}}') == "1"


def test_a_toolkit_becomes_a_list_in_order_and_one_tool_stays_one() -> None:
    bridged = to_openai_agents(Toolkit([forecast, tag_count, explode]))

    assert [t.name for t in bridged] == ["forecast", "tag_count", "explode"]
    assert isinstance(to_openai_agents(forecast), FunctionTool)
    assert bridged[0].description == forecast.description


def test_a_name_openai_refuses_is_refused_before_anything_runs() -> None:
    bad = standard_tool(name="has space", description="x", execute=lambda: 1)

    with pytest.raises(ValueError, match="has space"):
        to_openai_agents(bad)


# -- to the SDK: running ----------------------------------------------------------------


def test_the_strict_rewrite_is_decoded_before_our_validation() -> None:
    bridged = to_openai_agents(tag_count)
    entries = [{"key": "a", "value": "1"}, {"key": "b", "value": "2"}]

    assert _invoke(bridged, json.dumps({"tags": entries, "limit": None})) == "2"
    assert _invoke(bridged, json.dumps({"tags": entries, "limit": 1})) == "1"
    wrong = json.dumps({"tags": [{"key": "a", "value": 3}], "limit": None})
    assert _invoke(bridged, wrong) == "Error: input validation failed: tags.a: " + (
        "expected string, got integer 3"
    )


@pytest.mark.parametrize(
    ("arguments", "words"),
    [
        ('{"tags": ', "the arguments are not valid JSON"),
        ("[1, 2]", "input validation failed"),
        ('"tags"', "input validation failed"),
        ('{"tags": [], "limit": null, "extra": 1}', "extra"),
        ('{"tags": [], "limit": 1e999}', "input validation failed: limit"),
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    ],
)
def test_hostile_arguments_get_a_bounded_error_naming_the_problem(
    arguments: str, words: str
) -> None:
    text = _invoke(to_openai_agents(tag_count), arguments)

    assert text.startswith("Error: ")
    assert words in text
    assert len(text) <= 2100


def test_a_huge_bad_value_is_not_pasted_back_whole() -> None:
    arguments = json.dumps({"city": "x" * 1_000_000, "days": "y" * 1_000_000})

    text = _invoke(to_openai_agents(forecast), arguments)

    assert text.startswith("Error: input validation failed: days")
    assert len(text) <= 2100


def test_an_exception_in_the_tool_is_answered_not_raised_and_bounded() -> None:
    text = _invoke(to_openai_agents(explode), json.dumps({"reason": "z" * 50_000}))

    assert text.startswith("Error: RuntimeError: zzz")
    assert len(text) <= 2100


def test_a_sync_tool_runs_in_a_worker_thread_and_an_async_one_in_the_loop() -> None:
    threads: dict[str, int] = {}

    def sync_handler(input: Any) -> str:
        threads["sync"] = threading.get_ident()
        return "s"

    async def async_handler(input: Any) -> str:
        threads["async"] = threading.get_ident()
        return "a"

    sync_tool = standard_tool(name="s", description="Sync.", execute=sync_handler)
    async_tool = standard_tool(name="a", description="Async.", execute=async_handler)

    async def main() -> list[Any]:
        threads["loop"] = threading.get_ident()
        out = []
        for t in to_openai_agents([sync_tool, async_tool]):
            ctx = ToolContext(None, tool_name=t.name, tool_call_id="c", tool_arguments="{}")
            out.append(await t.on_invoke_tool(ctx, "{}"))
        return out

    assert asyncio.run(main()) == ["s", "a"]
    assert threads["async"] == threads["loop"]
    assert threads["sync"] != threads["loop"]


def test_an_output_is_written_as_every_runner_writes_it() -> None:
    assert _invoke(to_openai_agents(forecast), '{"city": "Rome", "days": 1}') == json.dumps(
        {"city": "Rome", "days": 1, "sky": "clear"}
    )


# -- from the SDK -----------------------------------------------------------------------


@function_tool
def shout(text: str, times: int) -> str:
    """Shout a text.

    Args:
        text: what to shout.
        times: how often.
    """
    return " ".join([text.upper()] * times)


@function_tool
def call_id_of(ctx: RunContextWrapper[Any], label: str) -> str:
    """Say the call id and the run context.

    Args:
        label: a label.
    """
    assert isinstance(ctx, ToolContext)
    return f"{label}:{ctx.tool_call_id}:{ctx.context}"


def test_an_sdk_tool_becomes_a_standard_tool_validated_by_us() -> None:
    st = from_openai_agents(shout)

    assert st.name == "shout"
    assert st.description == shout.description
    assert asyncio.run(st.execute({"text": "hi", "times": 2})) == "HI HI"
    with pytest.raises(StandardToolValidationError) as info:
        asyncio.run(st.execute({"text": "hi", "times": "2"}))
    assert info.value.target == "input"
    assert "times" in str(info.value)
    with pytest.raises(StandardToolValidationError, match="text"):
        asyncio.run(st.execute({"times": 2}))


def test_the_sdk_tools_context_comes_from_meta() -> None:
    st = from_openai_agents(call_id_of)
    ctx = ToolContext({"user": "ada"}, tool_name="call_id_of", tool_call_id="c9", tool_arguments="")

    assert asyncio.run(st.execute({"label": "x"}, ctx)) == "x:c9:{'user': 'ada'}"
    wrapper = RunContextWrapper(context="run")
    assert asyncio.run(st.execute({"label": "y"}, wrapper)).startswith("y:call_")
    assert asyncio.run(st.execute({"label": "z"}, "plain")).endswith(":plain")


def test_a_toolkit_mixes_sdk_tools_and_ours() -> None:
    kit = Toolkit([from_openai_agents(shout), tag_count])

    async def main() -> list[Any]:
        return [
            await kit.aexecute("shout", {"text": "a", "times": 3}, call_id="1"),
            await kit.aexecute("shout", {"text": "a"}, call_id="2"),
            await kit.aexecute("tag_count", {"tags": {"x": "y"}}, call_id="3"),
        ]

    ok, bad, ours = asyncio.run(main())
    assert ok.success
    assert ok.value == "A A A"
    assert not bad.success
    assert "times" in str(bad.error)
    assert ours.success
    assert ours.value == 1


def test_an_sdk_tool_that_raises_raises_from_execute() -> None:
    @function_tool(failure_error_function=None)
    def broken(x: int) -> int:
        """Break."""
        raise KeyError("nope")

    with pytest.raises(KeyError):
        asyncio.run(from_openai_agents(broken).execute({"x": 1}))


def test_round_trip_gives_back_the_same_tool() -> None:
    assert from_openai_agents(to_openai_agents(tag_count)) is tag_count
    assert from_openai_agents(to_openai_agents(forecast)) is forecast


def test_round_trip_of_a_plain_object_tool_runs_it_under_the_declared_schema() -> None:
    plain = PlainTool()

    back = from_openai_agents(to_openai_agents(plain))

    assert back is not plain
    assert asyncio.run(back.execute({})) == json.dumps({"input": {}, "meta": None})
    with pytest.raises(StandardToolValidationError):
        asyncio.run(back.execute({"unexpected": 1}))


# -- optional dependency ----------------------------------------------------------------


def test_importing_the_package_and_the_integrations_never_imports_the_sdk() -> None:
    code = (
        "import sys, standard_tool, standard_tool.integrations; "
        "print(any(m == 'agents' or m.startswith('agents.') for m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert out.stdout.strip() == "False"


# -- the call context -------------------------------------------------------------------


def test_a_tool_in_the_runner_sees_the_call_id_and_its_deadline_holds(model: FakeModel) -> None:
    answers: dict[str, str] = {}

    def second(body: dict[str, Any]) -> None:
        answers.update(_tool_messages(body))

    turn = _calls(("oa_7", "whoami", '{"sku": "A-1"}'), ("oa_8", "crawl", "{}"))
    model.expect("/v1/chat/completions", turn)
    model.expect("/v1/chat/completions", _answer("done"), second)
    agent = _agent(model, to_openai_agents([whoami, crawl], meta=lambda ctx: ctx.context))

    result = asyncio.run(Runner.run(agent, "Go.", run_config=RUN_CONFIG))

    assert result.final_output == "done"
    assert json.loads(answers["oa_7"]) == {
        "sku": "A-1",
        "tool": "whoami",
        "call": "oa_7",
        "raw": {"sku": "A-1"},
    }
    assert answers["oa_8"] == "Error: timed out after 0.05 s"


# -- issue 26: a hostile schema is refused by a clear error naming the tool -------------


@pytest.mark.parametrize("reason", ["nests more than 96", "unsupported", "nowhere", "outside"])
def test_from_openai_agents_refuses_a_hostile_schema_naming_the_tool(reason: str) -> None:
    from standard_tool.schemas import InvalidSchemaError
    from tests.hostile_schemas import HOSTILE_SCHEMAS

    async def invoke(ctx: Any, args: str) -> str:
        return "x"

    schema = next(s for key, s in HOSTILE_SCHEMAS.items() if reason in key)
    hostile = FunctionTool(
        name="hostile",
        description="d",
        params_json_schema=schema,
        on_invoke_tool=invoke,
        strict_json_schema=False,
    )
    with pytest.raises(InvalidSchemaError, match=r"^from_openai_agents: tool 'hostile': "):
        from_openai_agents(hostile)
