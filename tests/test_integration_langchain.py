"""LangChain bridge: our tools as LangChain tools in LangChain's own tool-calling loop, and back.

The model is LangChain's own ``GenericFakeChatModel`` (recording what it is sent):
it asks for two tools in one turn, one with bad arguments; the tools answer with
``ToolMessage``s, the model receives them and gives its final answer.
"""

from __future__ import annotations

import asyncio
import inspect
import subprocess
import sys
import threading
from typing import Any

import pytest
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.outputs import ChatResult
from langchain_core.tools import BaseTool, StructuredTool, ToolException
from langchain_core.tools import tool as lc_tool
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import Field

from standard_tool import Toolkit, ToolResult, standard_tool, tool
from standard_tool.integrations.langchain import (
    LangChainCall,
    LangChainToolError,
    StandardLangChainTool,
    from_langchain,
    to_langchain,
)
from standard_tool.providers import (
    OpenAIStrictError,
    ProviderSchemaError,
    openai_strict,
    to_openai_chat,
)
from tests.context_tools import crawl, whoami
from tests.example_tools import tag_resource
from tests.fakes.tools import add, weather
from tests.hostile_schemas import HOSTILE_SCHEMAS

BAD_ADD_ERROR = "Error: input validation failed: b: 'two' is not of type 'integer'"


class RecordingChatModel(GenericFakeChatModel):
    """LangChain's fake chat model, keeping every list of messages it was sent."""

    seen: list[list[BaseMessage]] = Field(default_factory=list)

    def _generate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> ChatResult:
        self.seen.append(list(messages))
        return super()._generate(messages, *args, **kwargs)


def _model() -> RecordingChatModel:
    first = AIMessage(
        "",
        tool_calls=[
            {"name": "get_weather", "args": {"city": "Paris", "unit": "c"}, "id": "call_1"},
            {"name": "add", "args": {"a": 1, "b": "two"}, "id": "call_2"},
        ],
    )
    return RecordingChatModel(
        messages=iter([first, AIMessage("21 degrees; I could not add.")]), seen=[]
    )


def _run_loop(model: RecordingChatModel, tools: list[BaseTool]) -> list[BaseMessage]:
    """LangChain's tool-calling loop: invoke the model, run each tool call, repeat."""
    by_name = {t.name: t for t in tools}
    messages: list[BaseMessage] = [HumanMessage("Weather in Paris, and 1 + two?")]
    while True:
        reply = model.invoke(messages)
        messages.append(reply)
        assert isinstance(reply, AIMessage)
        if not reply.tool_calls:
            return messages
        for call in reply.tool_calls:
            messages.append(by_name[call["name"]].invoke(call))


async def _arun_loop(model: RecordingChatModel, tools: list[BaseTool]) -> list[BaseMessage]:
    by_name = {t.name: t for t in tools}
    messages: list[BaseMessage] = [HumanMessage("Weather in Paris, and 1 + two?")]
    while True:
        reply = await model.ainvoke(messages)
        messages.append(reply)
        assert isinstance(reply, AIMessage)
        if not reply.tool_calls:
            return messages
        results = await asyncio.gather(
            *(by_name[call["name"]].ainvoke(call) for call in reply.tool_calls)
        )
        messages.extend(results)


def _check_conversation(model: RecordingChatModel, messages: list[BaseMessage]) -> None:
    good, bad = messages[2], messages[3]
    assert isinstance(good, ToolMessage)
    assert isinstance(bad, ToolMessage)
    assert (good.tool_call_id, good.status) == ("call_1", "success")
    assert good.content == '{"city": "Paris", "temperature": 21}'
    assert good.artifact == {"city": "Paris", "temperature": 21}
    assert (bad.tool_call_id, bad.status) == ("call_2", "error")
    assert bad.content == BAD_ADD_ERROR
    # The model's second turn received both answers, the error as our text.
    assert model.seen[1][2:] == [good, bad]
    assert messages[-1].content == "21 degrees; I could not add."


def test_langchain_loop_runs_a_good_and_a_bad_call_and_the_answer_arrives() -> None:
    model = _model()
    messages = _run_loop(model, to_langchain([weather, add]))
    _check_conversation(model, messages)


async def test_langchain_async_loop_runs_sync_and_async_tools() -> None:
    model = _model()
    messages = await _arun_loop(model, to_langchain(Toolkit([weather, add])))
    _check_conversation(model, messages)


def test_declared_schema_is_the_tools_own_and_what_an_openai_model_is_sent() -> None:
    lc = to_langchain(weather)
    expected = to_openai_chat(weather, strict=False)["function"]
    assert lc.args_schema == expected["parameters"]
    sent = convert_to_openai_tool(lc)["function"]
    assert sent["name"] == "get_weather"
    assert sent["parameters"] == expected["parameters"]


def test_no_lax_coercion_our_validation_decides() -> None:
    @tool
    def double(n: int) -> int:
        """Double a number."""
        return 2 * n

    lc = to_langchain(double)
    assert lc.invoke({"n": 4}) == "8"
    assert (
        lc.invoke({"n": "4"})
        == "Error: input validation failed: n: expected integer, got string '4'"
    )
    assert lc.invoke({}) == "Error: input validation failed: n: missing required property"


def test_the_call_id_and_config_reach_the_meta_function() -> None:
    seen: list[LangChainCall] = []

    def echo(input: Any, meta: Any) -> str:
        return f"{input['x']} from {meta}"

    echo_tool = standard_tool(name="echo", description="Echo.", execute=echo)

    def meta(call: LangChainCall) -> str:
        seen.append(call)
        return str(call.call_id)

    lc = to_langchain(echo_tool, meta=meta)
    call = {"type": "tool_call", "name": "echo", "args": {"x": 1}, "id": "call_9"}
    out = lc.invoke(call, {"tags": ["t1"]})
    assert isinstance(out, ToolMessage)
    assert out.content == "1 from call_9"
    assert seen[0].call_id == "call_9"
    assert seen[0].config.get("tags") == ["t1"]
    assert lc.invoke({"x": 2}) == "2 from None"


async def test_the_call_id_reaches_an_async_tool_too() -> None:
    async def echo(input: Any, meta: Any) -> str:
        await asyncio.sleep(0)
        return str(meta)

    lc = to_langchain(
        standard_tool(name="echo", description="Echo.", execute=echo),
        meta=lambda call: call.call_id,
    )
    calls = [{"type": "tool_call", "name": "echo", "args": {}, "id": f"c{i}"} for i in range(5)]
    outs = await asyncio.gather(*(lc.ainvoke(c) for c in calls))
    assert [o.content for o in outs] == [f"c{i}" for i in range(5)]


def test_strict_declares_the_rewrite_and_decodes_the_map_back() -> None:
    lc = to_langchain(tag_resource, strict=True)
    assert lc.strict
    assert lc.args_schema == openai_strict(tag_resource).schema
    tags_schema = lc.args_schema["properties"]["tags"]
    assert tags_schema["type"] == "array"
    out = lc.invoke(
        {"resource_id": "r1", "tags": [{"key": "env", "value": "prod"}, {"key": "t", "value": "1"}]}
    )
    assert out == '{"env": "prod", "t": "1"}'


def test_strict_true_refuses_a_schema_strict_mode_cannot_represent() -> None:
    loose = standard_tool(
        name="loose",
        description="Anything.",
        input_schema={"type": "object", "properties": {"x": {"not": {"type": "string"}}}},
        execute=lambda p: p,
    )
    with pytest.raises(OpenAIStrictError, match="loose"):
        to_langchain(loose, strict=True)
    fallback = to_langchain(loose, strict="auto")
    assert not fallback.strict
    assert fallback.invoke({"x": "s"}).startswith("Error: input validation failed: x: ")


def test_a_tool_whose_input_is_not_an_object_is_refused_at_conversion() -> None:
    scalar = standard_tool(
        name="scalar",
        description="A number.",
        input_schema={"type": "integer"},
        execute=lambda n: n,
    )
    with pytest.raises(ProviderSchemaError, match="JSON object"):
        to_langchain(scalar)


# -- hostile calls ------------------------------------------------------------------------


@pytest.mark.parametrize("key", ["self", "run_manager", "config", "callbacks", "tool_call_id"])
def test_argument_names_langchain_uses_itself_are_just_arguments(key: str) -> None:
    def keys(input: Any) -> list[str]:
        return sorted(input)

    open_tool = standard_tool(
        name="keys",
        description="List keys.",
        input_schema={"type": "object", "additionalProperties": {"type": "integer"}},
        execute=keys,
    )
    lc = to_langchain(open_tool)
    call = {"type": "tool_call", "name": "keys", "args": {key: 1, "x": 2}, "id": "c"}
    out = lc.invoke(call)
    assert out.status == "success"
    assert out.artifact == sorted([key, "x"])


def test_a_huge_bad_value_gives_a_bounded_error() -> None:
    @tool
    def short(text: str) -> str:
        """Take a short text."""
        return text

    out = to_langchain(short).invoke({"text": ["x" * 1_000_000]})
    assert out.startswith("Error: input validation failed: text: ")
    assert len(out) <= 2_000


def test_an_exception_in_the_tool_becomes_an_error_message_not_a_crash() -> None:
    def fail(input: Any) -> Any:
        raise KeyError("x" * 100_000)

    lc = to_langchain(standard_tool(name="fail", description="Fails.", execute=fail))
    out = lc.invoke({"type": "tool_call", "name": "fail", "args": {}, "id": "c"})
    assert out.status == "error"
    assert out.content.startswith("Error: KeyError: 'xxx")
    assert len(out.content) <= 2_000


def test_cancellation_is_not_swallowed() -> None:
    async def stop(input: Any) -> Any:
        raise asyncio.CancelledError

    lc = to_langchain(standard_tool(name="stop", description="Stops.", execute=stop))
    with pytest.raises(asyncio.CancelledError):
        asyncio.run(lc.ainvoke({}))


# -- sync and async -----------------------------------------------------------------------


def test_a_sync_tool_runs_in_a_worker_thread_so_its_deadline_holds() -> None:
    threads: list[int] = []

    def where(input: Any) -> str:
        threads.append(threading.get_ident())
        return "ok"

    lc = to_langchain(standard_tool(name="where", description="Thread.", execute=where))
    assert asyncio.run(lc.ainvoke({})) == "ok"
    assert threads[0] != threading.get_ident()
    assert lc.invoke({}) == "ok"
    assert threads[1] != threading.get_ident()  # the runners' 60 s deadline needs a thread


def test_an_async_tool_runs_from_sync_invoke() -> None:
    lc = to_langchain(add)
    assert lc.invoke({"a": 2, "b": 3}) == "5"


def test_a_toolkit_becomes_a_list_in_order() -> None:
    tools = to_langchain(Toolkit([weather, add]))
    assert [t.name for t in tools] == ["get_weather", "add"]
    assert all(isinstance(t, StandardLangChainTool) for t in tools)
    assert tools[1].standard_tool is add


# -- from LangChain -----------------------------------------------------------------------


@lc_tool
def shout(text: str, times: int = 1) -> str:
    """Upper-case a text."""
    return text.upper() * times


@lc_tool
async def ashout(text: str) -> str:
    """Upper-case a text, async."""
    await asyncio.sleep(0)
    return text.upper()


def test_from_langchain_validates_with_langchains_own_schema() -> None:
    st = from_langchain(shout)
    assert st.name == "shout"
    assert st.description == "Upper-case a text."
    assert not inspect.iscoroutinefunction(st.execute)
    assert st.execute({"text": "hi", "times": 2}) == "HIHI"
    with pytest.raises(ValueError, match="input validation failed: text: expected string"):
        st.execute({"text": 3})
    schema = st.input_schema.__standard__.json_schema.input(target="draft-2020-12")
    assert schema["properties"]["times"] == {"default": 1, "title": "Times", "type": "integer"}


async def test_from_langchain_keeps_an_async_tool_async() -> None:
    st = from_langchain(ashout)
    assert inspect.iscoroutinefunction(st.execute)
    assert await st.execute({"text": "hi"}) == "HI"


def test_from_langchain_takes_a_json_schema_tool_and_a_base_tool_subclass() -> None:
    def lookup(key: str) -> str:
        return f"value of {key}"

    json_tool = StructuredTool.from_function(
        lookup,
        name="lookup",
        description="Look up a key.",
        args_schema={
            "type": "object",
            "properties": {"key": {"type": "string", "minLength": 2}},
            "required": ["key"],
        },
    )
    st = from_langchain(json_tool)
    assert st.execute({"key": "ab"}) == "value of ab"
    with pytest.raises(ValueError, match="key: "):
        st.execute({"key": "a"})

    class Count(BaseTool):
        name: str = "count"
        description: str = "Count letters."

        def _run(self, text: str) -> int:
            return len(text)

    counted = from_langchain(Count())
    assert counted.execute({"text": "four"}) == 4


def test_an_error_answered_by_a_langchain_tool_raises_with_its_text() -> None:
    def refuse(x: int) -> str:
        raise ToolException("no " * 5000)

    refusing = StructuredTool.from_function(
        refuse, name="refuse", description="Refuse.", handle_tool_error=True
    )
    st = from_langchain(refusing)
    with pytest.raises(LangChainToolError, match=r"^no no ") as info:
        st.execute({"x": 1})
    assert len(str(info.value)) <= 2_000
    result = Toolkit([st]).execute("refuse", {"x": 1})
    assert not result.success
    assert result.error is not None
    assert result.error.startswith("LangChainToolError: no no")


def test_a_toolkit_mixes_langchain_tools_and_ours() -> None:
    kit = Toolkit([weather, from_langchain(shout), from_langchain(ashout)])
    assert kit.execute("shout", {"text": "a"}).value == "A"
    assert kit.execute("ashout", {"text": "b"}).value == "B"
    bad = kit.execute("shout", {"text": 1})
    assert bad.error == "input validation failed: text: expected string"


def test_round_trip_keeps_schema_validation_and_output() -> None:
    back = from_langchain(to_langchain(weather))
    assert back.name == weather.name
    assert back.description == weather.description
    assert (
        back.input_schema.__standard__.json_schema.input(target="draft-2020-12")
        == to_openai_chat(weather, strict=False)["function"]["parameters"]
    )
    assert back.execute({"city": "Oslo", "unit": "f"}) == {"city": "Oslo", "temperature": 70}
    with pytest.raises(ValueError, match="unit"):
        back.execute({"city": "Oslo", "unit": "k"})


async def test_round_trip_of_an_async_tool_stays_async_and_raises_its_error() -> None:
    async def fail(input: Any) -> Any:
        raise RuntimeError("down")

    back = from_langchain(to_langchain(standard_tool(name="f", description="F.", execute=fail)))
    assert inspect.iscoroutinefunction(back.execute)
    with pytest.raises(LangChainToolError, match=r"^Error: RuntimeError: down$"):
        await back.execute({})


def test_importing_the_package_does_not_import_langchain() -> None:
    code = (
        "import sys, standard_tool, standard_tool.integrations\n"
        "print(sorted(m for m in ('langchain_core', 'pydantic_ai') if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert out.stdout.strip() == "[]"


# -- the call context ---------------------------------------------------------------------


def _context_model() -> RecordingChatModel:
    first = AIMessage(
        "",
        tool_calls=[
            {"name": "whoami", "args": {"sku": "A-1"}, "id": "lc_call_7"},
            {"name": "crawl", "args": {}, "id": "lc_call_8"},
        ],
    )
    return RecordingChatModel(messages=iter([first, AIMessage("done")]), seen=[])


def _check_context(messages: list[BaseMessage]) -> None:
    who, late = messages[2], messages[3]
    assert isinstance(who, ToolMessage)
    assert isinstance(late, ToolMessage)
    assert who.artifact == {
        "sku": "A-1",
        "tool": "whoami",
        "call": "lc_call_7",
        "raw": {"sku": "A-1"},
    }
    assert (late.tool_call_id, late.status) == ("lc_call_8", "error")
    assert late.content == "Error: timed out after 0.05 s"


def test_a_tool_in_the_langchain_loop_sees_the_call_id_and_its_deadline_holds() -> None:
    _check_context(_run_loop(_context_model(), to_langchain([whoami, crawl])))


async def test_the_async_langchain_loop_fills_the_context_too() -> None:
    _check_context(await _arun_loop(_context_model(), to_langchain([whoami, crawl])))


def test_a_plain_invoke_gets_a_generated_call_id_and_meta_still_works() -> None:
    lc = to_langchain(whoami, meta=lambda call: call.call_id)
    out = lc.invoke({"sku": "B-2"})
    assert out.startswith('{"sku": "B-2", "tool": "whoami", "call": "call_')


# -- issue 26: a hostile schema is refused by a clear error naming the tool -------------


@pytest.mark.parametrize("reason", list(HOSTILE_SCHEMAS))
def test_from_langchain_refuses_a_hostile_schema_naming_the_tool(reason: str) -> None:
    from standard_tool.schemas import InvalidSchemaError

    hostile = StructuredTool.from_function(
        func=lambda **kw: "x", name="hostile", description="d", args_schema=HOSTILE_SCHEMAS[reason]
    )
    with pytest.raises(InvalidSchemaError, match=rf"^from_langchain: tool 'hostile': .*{reason}"):
        from_langchain(hostile)


def test_a_call_returning_none_has_its_tool_result_as_artifact() -> None:
    """LangChain reads a None artifact as none at all: the call's ToolResult stands in."""

    @tool
    def remember(note: str) -> None:
        """Keep a note."""

    call = {"type": "tool_call", "name": "remember", "args": {"note": "milk"}, "id": "call_9"}
    answer = to_langchain(remember).invoke(call)
    assert isinstance(answer, ToolMessage)
    assert (answer.status, answer.content) == ("success", "null")
    assert isinstance(answer.artifact, ToolResult)
    assert (answer.artifact.success, answer.artifact.value) == (True, None)
    assert answer.artifact.call_id == "call_9"


def test_input_schema_of_a_no_input_tool_takes_no_arguments() -> None:
    """get_input_schema() is an open model: a call without arguments fits it (LangChain's check)."""

    @tool
    def ping() -> str:
        """Answer pong."""
        return "pong"

    lc_ping = to_langchain(ping)
    assert lc_ping.get_input_schema()() is not None
    assert lc_ping.get_input_schema()(a=1).model_extra == {"a": 1}
    assert lc_ping.args == {}  # the model is still shown the tool's own schema
