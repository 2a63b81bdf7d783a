"""A tool of the proposal's current shape works through every consumer in the package.

The tools (tests/upstream_targets.py) are plain objects: no ``title``, no
``formatted``; ``ping`` takes no input, so it has no schema attributes and its
``execute()`` takes no argument; ``echo`` has both schemas and an
``execute(input)`` without ``meta``. Each test runs them through one consumer with
the real library behind it and checks what comes out: the declaration a provider
is sent and the answer a call gets.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import anyio
import fastmcp
import openai
import pytest
from agents import Agent as OpenAIAgent
from agents import RunConfig, Runner
from agents.models.openai_chatcompletions import OpenAIChatCompletionsModel
from fastmcp import FastMCP
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from mcp import Client, ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.server import MCPServer
from pydantic_ai import Agent
from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    ModelResponse,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel

from standard_tool import (
    ProgressEvent,
    Toolkit,
    ToolResult,
    input_json_schema,
    is_standard_tool,
    output_json_schema,
    stream_tool,
)
from standard_tool import providers as p
from standard_tool.integrations.langchain import from_langchain, to_langchain
from standard_tool.integrations.openai_agents import from_openai_agents, to_openai_agents
from standard_tool.integrations.pydantic_ai import to_pydantic_ai
from standard_tool.mcp import import_tools, register, server, tools_list_entries
from tests.fakes.server import FakeModel, serve_fake_model
from tests.upstream_targets import echo, ping, tools

TESTS = Path(__file__).parent
SRC = TESTS.parent / "src"
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join([str(SRC), str(TESTS)])}

ECHO_PARAMETERS = {
    "type": "object",
    "properties": {
        "text": {"type": "string", "description": "What to echo."},
        "times": {"type": "integer", "minimum": 1, "default": 1},
    },
    "required": ["text"],
    "additionalProperties": False,
}
ECHO_OUTPUT = {
    "type": "object",
    "properties": {"echo": {"type": "string"}},
    "required": ["echo"],
    "additionalProperties": False,
}
NO_PARAMETERS = {"type": "object", "properties": {}}
ECHO_ARGS = {"text": "hi", "times": 2}


def test_the_tools_have_the_current_shape_and_nothing_more() -> None:
    for tool in tools:
        assert not hasattr(tool, "title")
        assert not hasattr(tool, "formatted")
        assert is_standard_tool(tool)
    assert not hasattr(ping, "input_schema")
    assert not hasattr(ping, "output_schema")
    assert input_json_schema(echo) == ECHO_PARAMETERS
    assert output_json_schema(echo) == ECHO_OUTPUT
    assert input_json_schema(ping) == NO_PARAMETERS
    assert output_json_schema(ping) is None


# -- provider converters and checks ---------------------------------------------------------


def test_openai_chat_and_responses_declare_them() -> None:
    chat = p.to_openai_chat([echo, ping], strict=False)
    assert chat == [
        {
            "type": "function",
            "function": {
                "name": "echo",
                "description": "Echo a text back, repeated.",
                "parameters": ECHO_PARAMETERS,
                "strict": False,
            },
        },
        {
            "type": "function",
            "function": {
                "name": "ping",
                "description": "Answer pong.",
                "parameters": NO_PARAMETERS,
                "strict": False,
            },
        },
    ]
    strict = p.to_openai_chat(echo, strict=True)["function"]
    assert strict["strict"] is True
    assert strict["parameters"] == p.openai_strict(echo).schema
    assert strict["parameters"]["required"] == ["text", "times"]
    assert p.check_openai_strict(strict["parameters"]) == []
    responses = p.to_openai_responses(ping)
    assert (responses["type"], responses["name"]) == ("function", "ping")
    assert responses["description"] == "Answer pong."


def test_anthropic_declares_them_plain_and_strict() -> None:
    assert p.to_anthropic([echo, ping]) == [
        {
            "name": "echo",
            "description": "Echo a text back, repeated.",
            "input_schema": ECHO_PARAMETERS,
        },
        {"name": "ping", "description": "Answer pong.", "input_schema": NO_PARAMETERS},
    ]
    for tool in tools:
        strict = p.to_anthropic(tool, strict=True)
        assert strict["strict"] is True
        assert p.check_anthropic_strict(strict["input_schema"]) == []


def test_gemini_declares_them_as_parameters_and_as_json_schema() -> None:
    declared = p.to_gemini(echo)
    assert declared["name"] == "echo"
    assert declared["parameters"]["properties"]["text"] == {
        "type": "string",
        "description": "What to echo.",
    }
    assert p.check_gemini(declared["parameters"]) == []
    assert "parameters" not in p.to_gemini(ping)  # a tool without parameters, as Gemini says it
    as_json = p.to_gemini(echo, json_schema=True)["parametersJsonSchema"]
    assert as_json["required"] == ["text"]
    assert p.check_gemini_json_schema(as_json) == []


def test_bedrock_declares_them() -> None:
    spec = p.to_bedrock(echo)["toolSpec"]
    assert spec["name"] == "echo"
    assert spec["inputSchema"] == {"json": ECHO_PARAMETERS}
    assert p.check_bedrock(p.to_bedrock(ping)) == []
    assert [t["toolSpec"]["name"] for t in p.bedrock_tool_config(tools)["tools"]] == [
        "echo",
        "ping",
    ]


def test_mcp_declares_them_without_a_title() -> None:
    assert p.to_mcp(echo) == {
        "name": "echo",
        "description": "Echo a text back, repeated.",
        "inputSchema": ECHO_PARAMETERS,
        "outputSchema": ECHO_OUTPUT,
    }
    assert p.to_mcp(ping) == {
        "name": "ping",
        "description": "Answer pong.",
        "inputSchema": NO_PARAMETERS,
    }
    assert p.check_mcp_tool(p.to_mcp(ping)) == []
    assert tools_list_entries(tools) == p.to_mcp(tools)
    formatter = p.mcp_result_formatter(echo)
    assert formatter({"echo": "a"})["structuredContent"] == {"echo": "a"}
    assert p.mcp_result_formatter(ping)("pong")["content"] == [{"type": "text", "text": "pong"}]


# -- Toolkit and the runners -----------------------------------------------------------------


def test_toolkit_runs_them_inline_with_a_deadline_and_under_a_prefix() -> None:
    kit = Toolkit(tools)
    assert kit.execute("echo", ECHO_ARGS).value == {"echo": "hi hi"}
    assert kit.execute("ping").value == "pong"
    assert kit.execute("ping", {}).value == "pong"  # what a model sends a tool without parameters
    assert kit.execute("ping", {}, {"user": "u"}).value == "pong"  # meta it cannot take: left out
    assert kit.execute("echo", ECHO_ARGS, {"user": "u"}).value == {"echo": "hi hi"}
    assert kit.execute("ping", timeout=30).value == "pong"  # in a worker thread
    bad = kit.execute("echo", {"text": 3})
    assert bad.error == "input validation failed: text: expected string"
    prefixed = kit.with_prefix("up_")
    assert prefixed.execute("up_ping").value == "pong"
    assert prefixed.execute("up_echo", {"text": "x"}).value == {"echo": "x"}


async def test_toolkit_runs_them_from_async_code_and_streams_them() -> None:
    kit = Toolkit(tools)
    assert (await kit.aexecute("echo", ECHO_ARGS)).value == {"echo": "hi hi"}
    assert (await kit.aexecute("ping", {}, timeout=30)).value == "pong"
    events = [e async for e in kit.astream("ping", {}, call_id="c1")]
    assert events == [events[-1]]
    final = events[-1]
    assert isinstance(final, ToolResult)
    assert (final.value, final.call_id) == ("pong", "c1")
    assert not any(isinstance(e, ProgressEvent) for e in events)
    streamed = [e async for e in stream_tool(ping)]
    assert [(e.value, e.error) for e in streamed] == [("pong", None)]
    streamed = [e async for e in stream_tool(echo, {"text": "x"})]
    assert [(e.value, e.error) for e in streamed] == [({"echo": "x"}, None)]


def _openai_chat_response() -> dict[str, Any]:
    calls = [
        {"id": "c1", "type": "function", "function": {"name": n, "arguments": a}}
        for n, a in (("echo", json.dumps(ECHO_ARGS)), ("ping", "{}"))
    ]
    calls[1]["id"] = "c2"
    return {"choices": [{"message": {"role": "assistant", "tool_calls": calls}}]}


async def test_every_runner_runs_them() -> None:
    chat = await p.run_openai_chat_tool_calls(_openai_chat_response(), tools)
    assert [m["content"] for m in chat] == ['{"echo": "hi hi"}', "pong"]

    responses = await p.run_openai_responses_tool_calls(
        {
            "output": [
                {"type": "function_call", "call_id": "c1", "name": "echo", "arguments": "{}"},
                {"type": "function_call", "call_id": "c2", "name": "ping", "arguments": "{}"},
            ]
        },
        tools,
    )
    assert (
        responses[0]["output"] == "Error: input validation failed: text: missing required property"
    )
    assert responses[1]["output"] == "pong"

    anthropic = await p.run_anthropic_tool_calls(
        {
            "content": [
                {"type": "tool_use", "id": "t1", "name": "echo", "input": ECHO_ARGS},
                {"type": "tool_use", "id": "t2", "name": "ping", "input": {}},
            ]
        },
        tools,
    )
    assert [b["content"] for b in anthropic["content"]] == ['{"echo": "hi hi"}', "pong"]

    gemini_response = {
        "candidates": [
            {
                "content": {
                    "parts": [
                        {"functionCall": {"name": "echo", "args": ECHO_ARGS}},
                        {"functionCall": {"name": "ping", "args": {}}},
                    ]
                }
            }
        ]
    }
    gemini = await p.run_gemini_function_calls(gemini_response, tools)
    assert [part["function_response"]["response"] for part in gemini["parts"]] == [
        {"output": {"echo": "hi hi"}},
        {"output": "pong"},
    ]

    bedrock = await p.run_bedrock_tool_calls(
        {
            "output": {
                "message": {
                    "content": [
                        {"toolUse": {"toolUseId": "b1", "name": "echo", "input": ECHO_ARGS}},
                        {"toolUse": {"toolUseId": "b2", "name": "ping", "input": {}}},
                    ]
                }
            }
        },
        tools,
    )
    assert [b["toolResult"]["content"] for b in bedrock["content"]] == [
        [{"json": {"echo": "hi hi"}}],
        [{"text": "pong"}],
    ]


def test_the_sync_runners_run_them() -> None:
    gemini = p.run_gemini_function_calls_sync(
        {"candidates": [{"content": {"parts": [{"functionCall": {"name": "ping"}}]}}]}, tools
    )
    assert gemini["parts"][0]["function_response"]["response"] == {"output": "pong"}


# -- MCP: serving, registering, importing (the gateway) -----------------------------------------


async def _listed_and_called(session: ClientSession, *, titled: bool = False) -> None:
    listed = {t.name: t for t in (await session.list_tools()).tools}
    assert sorted(listed) == ["echo", "ping"]
    if not titled:  # fastmcp makes a title of the name; the others send none
        assert listed["echo"].title is None
    assert listed["echo"].input_schema == ECHO_PARAMETERS
    assert listed["ping"].input_schema == NO_PARAMETERS
    echoed = await session.call_tool("echo", ECHO_ARGS)
    assert (echoed.is_error, echoed.structured_content) == (False, {"echo": "hi hi"})
    ponged = await session.call_tool("ping", {})
    assert (ponged.is_error, ponged.content[0].text) == (False, "pong")  # type: ignore[union-attr]
    bad = await session.call_tool("echo", {"text": "x", "times": 0})
    assert bad.is_error is True
    assert bad.content[0].text.startswith(  # type: ignore[union-attr]
        "Error: input validation failed: times:"
    )


@pytest.mark.parametrize("make", [server, p.mcp_server], ids=["mcp.server", "mcp_server"])
async def test_the_sdks_client_lists_and_calls_them_in_process(make: Any) -> None:
    with anyio.fail_after(60):
        async with Client(make(tools)) as client:
            await _listed_and_called(client.session)


@asynccontextmanager
async def _connected(srv: Any) -> AsyncIterator[ClientSession]:
    if isinstance(srv, FastMCP):
        async with fastmcp.Client(srv) as fast:
            yield fast.session
    else:
        async with Client(srv) as client:
            yield client.session


@pytest.mark.parametrize("kind", [MCPServer, FastMCP])
async def test_register_adds_them_to_an_existing_server(kind: Any) -> None:
    srv = kind("existing")
    register(srv, tools)
    with anyio.fail_after(60):
        async with _connected(srv) as session:
            await _listed_and_called(session, titled=kind is FastMCP)


async def test_a_gateway_imports_them_and_serves_them_again() -> None:
    with anyio.fail_after(60):
        async with Client(server(tools)) as upstream:
            imported = Toolkit(await import_tools(upstream.session, prefix="up_"))
            assert imported.names == ("up_echo", "up_ping")
            assert (await imported.aexecute("up_echo", ECHO_ARGS)).value == {"echo": "hi hi"}
            async with Client(server(imported)) as client:
                listed = {t.name: t for t in (await client.session.list_tools()).tools}
                echoed = await client.session.call_tool("up_echo", ECHO_ARGS)
                ponged = await client.session.call_tool("up_ping", {})
    assert listed["up_echo"].output_schema == ECHO_OUTPUT
    assert listed["up_ping"].input_schema == NO_PARAMETERS
    assert (echoed.is_error, echoed.structured_content) == (False, {"echo": "hi hi"})
    assert ponged.is_error is False
    assert "pong" in ponged.content[0].text  # type: ignore[union-attr]


async def test_the_command_line_serves_them_over_stdio() -> None:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "standard_tool", "serve", "upstream_targets"],
        env=ENV,
    )
    with anyio.fail_after(60):
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            await _listed_and_called(session)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextmanager
def _uvicorn(port: int) -> Iterator[None]:
    args = [
        *(sys.executable, "-m", "uvicorn", "--factory", "upstream_targets:make_app"),
        *("--host", "127.0.0.1", "--port", str(port), "--log-level", "warning"),
    ]
    proc = subprocess.Popen(args, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(300):
            assert proc.poll() is None, f"uvicorn exited with {proc.returncode}"
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                time.sleep(0.1)
        yield
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


async def test_http_app_serves_them() -> None:
    port = _free_port()
    with _uvicorn(port), anyio.fail_after(60):
        async with (
            streamable_http_client(f"http://127.0.0.1:{port}/mcp") as (read, write, *_),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            await _listed_and_called(session)


# -- the framework bridges ---------------------------------------------------------------------


def test_langchain_runs_them_in_its_tool_calling_loop() -> None:
    first = AIMessage(
        "",
        tool_calls=[
            {"name": "echo", "args": ECHO_ARGS, "id": "call_1"},
            {"name": "ping", "args": {}, "id": "call_2"},
        ],
    )
    model = GenericFakeChatModel(messages=iter([first, AIMessage("done")]))
    by_name = {t.name: t for t in to_langchain(tools)}
    assert by_name["ping"].args == {}
    messages: list[Any] = [HumanMessage("go")]
    while True:
        reply = model.invoke(messages)
        messages.append(reply)
        assert isinstance(reply, AIMessage)
        if not reply.tool_calls:
            break
        messages.extend(by_name[call["name"]].invoke(call) for call in reply.tool_calls)
    answers = [m for m in messages if isinstance(m, ToolMessage)]
    assert [(m.tool_call_id, m.status, m.content) for m in answers] == [
        ("call_1", "success", '{"echo": "hi hi"}'),
        ("call_2", "success", "pong"),
    ]
    assert from_langchain(by_name["ping"]).execute({}) == "pong"  # and back


async def test_pydantic_ai_runs_them_in_an_agent_run() -> None:
    answers: list[tuple[str, str]] = []

    def script(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        if len(messages) == 1:
            declared = {t.name: t.parameters_json_schema for t in info.function_tools}
            assert declared == {"echo": ECHO_PARAMETERS, "ping": NO_PARAMETERS}
            return ModelResponse(
                parts=[
                    ToolCallPart("echo", ECHO_ARGS, tool_call_id="c1"),
                    ToolCallPart("ping", {}, tool_call_id="c2"),
                ]
            )
        last = messages[-1]
        assert isinstance(last, ModelRequest)
        for part in last.parts:
            assert isinstance(part, ToolReturnPart)
            answers.append((part.tool_call_id, part.model_response_str()))
        return ModelResponse(parts=[TextPart("done")])

    result = await Agent(FunctionModel(script), tools=to_pydantic_ai(tools)).run("go")
    assert result.output == "done"
    assert answers == [("c1", '{"echo": "hi hi"}'), ("c2", "pong")]


@pytest.fixture
def fake() -> Iterator[FakeModel]:
    with serve_fake_model() as model:
        yield model
        model.verify()


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


def test_openai_agents_runs_them_in_the_sdks_agent_loop(fake: FakeModel) -> None:
    def first(body: dict[str, Any]) -> None:
        sent = {t["function"]["name"]: t["function"] for t in body["tools"]}
        assert sent["echo"]["parameters"] == p.openai_strict(echo).schema
        assert sent["ping"]["description"] == "Answer pong."

    def second(body: dict[str, Any]) -> None:
        results = {m["tool_call_id"]: m["content"] for m in body["messages"] if m["role"] == "tool"}
        assert results == {"c1": '{"echo": "hi hi"}', "c2": "pong"}

    message = _openai_chat_response()["choices"][0]["message"]
    message["content"] = None
    fake.expect("/v1/chat/completions", _completion(message, "tool_calls"), first)
    fake.expect(
        "/v1/chat/completions",
        _completion({"role": "assistant", "content": "done"}, "stop"),
        second,
    )
    client = openai.AsyncOpenAI(base_url=f"{fake.base_url}/v1", api_key="test-key")
    model = OpenAIChatCompletionsModel(model="fake-model", openai_client=client)
    bridged = to_openai_agents(tools)
    agent = OpenAIAgent(name="helper", instructions="Use the tools.", model=model, tools=bridged)
    result = asyncio.run(Runner.run(agent, "Go.", run_config=RunConfig(tracing_disabled=True)))
    assert result.final_output == "done"
    back = from_openai_agents(bridged[1])  # and back, under the schema the SDK was given
    assert asyncio.run(back.execute({})) == "pong"


# -- the command line ---------------------------------------------------------------------------


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "standard_tool", *args],
        capture_output=True,
        text=True,
        env=ENV,
        timeout=120,
        check=False,
    )


def _json(*args: str) -> Any:
    result = _cli(*args)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_the_command_line_inspects_exports_and_diffs_them() -> None:
    inspected = _json("inspect", "upstream_targets")["tools"]
    assert [(t["name"], t["title"]) for t in inspected] == [("echo", None), ("ping", None)]
    assert inspected[1]["input_schema"] == NO_PARAMETERS
    exported = _json("export", "upstream_targets")["tools"]
    assert exported[0]["output_schema"] == ECHO_OUTPUT
    anthropic = _json("export", "upstream_targets", "--format", "anthropic")["tools"]
    assert anthropic == p.to_anthropic(tools)
    diffs = _json("diff", "upstream_targets", "--format", "openai-strict")["diffs"]
    echo_changes = next(d["changes"] for d in diffs if d["tool"] == "echo")
    assert {"op": "changed", "path": "/properties/times/type", "old": "integer"}.items() <= (
        echo_changes[0].items()
    )


def test_the_command_line_checks_and_calls_them() -> None:
    assert _json("check", "upstream_targets") == {"ok": True, "problems": []}
    assert _json("call", "upstream_targets:echo", "--text", "hi", "--times", "2") == {
        "echo": "hi hi"
    }
    assert _json("call", "upstream_targets:ping") == "pong"
    refused = _cli("call", "upstream_targets:echo", "--json", '{"text": 1}')
    assert refused.returncode == 1
    assert refused.stderr == "standard-tool: input validation failed: text: expected string\n"
