"""Bridged tools in LangChain 1.x's own agent loop (``create_agent``) get its ``ToolRuntime``.

``create_agent`` runs tools through LangGraph's ``ToolNode``, which injects a
``ToolRuntime`` into a tool whose input schema has a ``runtime`` field. The
model is LangChain's ``GenericFakeChatModel`` (scripted turns) that records the
tools it is bound with. One turn asks for a good call, a rejected call and a
raising tool; the agent goes on and answers.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pytest
from langchain.agents import create_agent
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.runnables import Runnable
from langchain_core.utils.function_calling import convert_to_openai_tool
from langgraph.prebuilt import ToolRuntime
from pydantic import Field

from standard_tool import Meta, ProgressEvent, ToolContext, tool
from standard_tool.integrations.langchain import LangChainCall, to_langchain


@dataclass
class Ctx:
    user: str


class ScriptedModel(GenericFakeChatModel):
    """LangChain's fake chat model, bindable to tools (it records their schemas)."""

    bound: list[dict[str, Any]] = Field(default_factory=list)

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> Runnable[Any, Any]:
        self.bound.extend(convert_to_openai_tool(t) for t in tools)
        return self


@tool
def whoami(name: str, run: Meta[LangChainCall], ctx: ToolContext) -> str:
    """Say who runs the call."""
    ctx.report_progress(1, 2, f"looking up {name}")
    runtime = run.runtime
    assert isinstance(runtime, ToolRuntime)
    assert run.call_id == runtime.tool_call_id == ctx.call_id
    user = runtime.context.user
    said = [m.content for m in runtime.state["messages"] if isinstance(m, HumanMessage)]
    return f"{name}, for {user} ({said[0]})"


@tool
async def boom(run: Meta[LangChainCall]) -> str:
    """Always fails."""
    assert isinstance(run.runtime, ToolRuntime)
    raise RuntimeError("kaput")


@tool
def echo(runtime: str) -> str:
    """A tool with an argument of its own named runtime."""
    return runtime


def _model() -> ScriptedModel:
    calls = AIMessage(
        "",
        tool_calls=[
            {"name": "whoami", "args": {"name": "Ada"}, "id": "call_1"},
            {"name": "whoami", "args": {"name": 3}, "id": "call_2"},
            {"name": "boom", "args": {}, "id": "call_3"},
            {"name": "echo", "args": {"runtime": "mine"}, "id": "call_4"},
        ],
    )
    return ScriptedModel(messages=iter([calls, AIMessage("done")]), bound=[])


def _agent(model: ScriptedModel) -> Any:
    tools = to_langchain([whoami, boom, echo], meta=lambda call: call)
    return create_agent(model, tools=tools, context_schema=Ctx)


def _check(messages: list[BaseMessage], model: ScriptedModel) -> None:
    answers = {m.tool_call_id: m for m in messages if isinstance(m, ToolMessage)}
    assert answers["call_1"].content == "Ada, for grace (Who is Ada?)"
    assert answers["call_1"].status == "success"
    assert answers["call_2"].status == "error"
    assert answers["call_2"].content == (
        "Error: input validation failed: name: expected string, got integer 3"
    )
    assert answers["call_3"].status == "error"
    assert answers["call_3"].content == "Error: RuntimeError: kaput"
    assert answers["call_4"].content == "mine"
    assert messages[-1].content == "done"
    # The model is shown each tool's own schema: no runtime argument it could fill.
    shown = {t["function"]["name"]: t["function"]["parameters"] for t in model.bound}
    assert "runtime" not in shown["whoami"]["properties"]
    assert shown["boom"]["properties"] == {}
    assert shown["echo"]["properties"] == {"runtime": {"type": "string"}}


def test_create_agent_hands_the_tool_runtime_and_streams_progress() -> None:
    """Sync: the runtime reaches meta, progress reaches the "custom" stream."""
    model = _model()
    custom: list[Any] = []
    final: dict[str, Any] = {}
    for mode, chunk in _agent(model).stream(
        {"messages": [HumanMessage("Who is Ada?")]},
        context=Ctx("grace"),
        stream_mode=["custom", "values"],
    ):
        if mode == "custom":
            custom.append(chunk)
        else:
            final = chunk
    _check(final["messages"], model)
    assert custom == [ProgressEvent(1, 2, "looking up Ada", None, "whoami", "call_1")]


async def test_create_agent_async_hands_the_tool_runtime_and_streams_progress() -> None:
    """Async: the same through astream (the sync tool runs in a worker thread)."""
    model = _model()
    custom: list[Any] = []
    final: dict[str, Any] = {}
    async for mode, chunk in _agent(model).astream(
        {"messages": [HumanMessage("Who is Ada?")]},
        context=Ctx("grace"),
        stream_mode=["custom", "values"],
    ):
        if mode == "custom":
            custom.append(chunk)
        else:
            final = chunk
    _check(final["messages"], model)
    assert custom == [ProgressEvent(1, 2, "looking up Ada", None, "whoami", "call_1")]


def test_a_model_cannot_forge_the_runtime() -> None:
    """ToolNode strips a "runtime" the model sends and injects its own."""
    forged = AIMessage(
        "", tool_calls=[{"name": "whoami", "args": {"name": "Ada", "runtime": "x"}, "id": "c9"}]
    )
    model = ScriptedModel(messages=iter([forged, AIMessage("done")]), bound=[])
    out = _agent(model).invoke({"messages": [HumanMessage("Who is Ada?")]}, context=Ctx("grace"))
    answer = next(m for m in out["messages"] if isinstance(m, ToolMessage))
    assert answer.content == "Ada, for grace (Who is Ada?)"


def test_outside_langgraph_a_runtime_argument_is_just_an_argument() -> None:
    """Invoked directly, "runtime" is validated like any argument (refused when unknown)."""
    answer = to_langchain(whoami, meta=lambda call: call).invoke(
        {"type": "tool_call", "name": "whoami", "args": {"name": "A", "runtime": 1}, "id": "c"}
    )
    assert isinstance(answer, ToolMessage)
    assert answer.status == "error"
    assert "runtime" in str(answer.content)


@pytest.mark.parametrize("kind", ["sync", "async"])
def test_meta_sees_no_runtime_outside_langgraph(kind: str) -> None:
    """Invoked directly, the tool's LangChainCall has the call id and no runtime."""
    seen: list[LangChainCall] = []

    @tool
    def ping() -> str:
        """Answer pong."""
        return "pong"

    lc_ping = to_langchain(ping, meta=seen.append)
    call = {"type": "tool_call", "name": "ping", "args": {}, "id": "c1"}
    if kind == "sync":
        lc_ping.invoke(call)
    else:
        asyncio.run(lc_ping.ainvoke(call))
    assert [(c.call_id, c.runtime) for c in seen] == [("c1", None)]
