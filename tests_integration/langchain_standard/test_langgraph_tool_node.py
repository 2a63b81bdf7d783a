"""Bridged tools in LangGraph's own loop: its ``ToolNode``, its state, ``Command``s and interrupts.

A ``StateGraph`` with a scripted model node, LangGraph's ``ToolNode`` and
``tools_condition`` (the loop LangGraph's docs build), and ``create_agent`` with
LangChain's ``HumanInTheLoopMiddleware``. A turn asks for a good call, a rejected
call and a raising tool; a tool reads the graph's state, updates it with a
``Command``, and pauses the graph with ``interrupt()`` until it is resumed.
"""

from __future__ import annotations

import asyncio
from typing import Any

from langchain.agents import create_agent
from langchain.agents.middleware import HumanInTheLoopMiddleware
from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, ToolMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import START, StateGraph
from langgraph.graph.message import add_messages
from langgraph.prebuilt import ToolNode, tools_condition
from langgraph.types import Command, interrupt
from tests_integration.langchain_standard.test_langchain_agent_runtime import ScriptedModel
from typing_extensions import Annotated, TypedDict

from standard_tool import Meta, ToolContext, tool
from standard_tool.integrations.langchain import LangChainCall, to_langchain


class State(TypedDict):
    messages: Annotated[list[AnyMessage], add_messages]
    user: str


@tool
def tag_count(tags: dict[str, str], limit: int = 10) -> int:
    """Count the tags, at most ``limit``."""
    return min(len(tags), limit)


@tool
async def explode(reason: str) -> str:
    """Fail with ``reason``."""
    raise RuntimeError(reason)


@tool
def whoami(run: Meta[LangChainCall]) -> str:
    """Say whom the graph serves (read from its state)."""
    return str(run.runtime.state["user"])


@tool
def rename(user: str, ctx: ToolContext) -> Any:
    """Change whom the graph serves (an update of its state)."""
    done = ToolMessage(f"now serving {user}", tool_call_id=ctx.call_id)
    return Command(update={"user": user, "messages": [done]})


@tool
def transfer(amount: int) -> str:
    """Transfer money once a person approves."""
    answer = interrupt({"question": f"transfer {amount}?"})
    return f"transferred {amount}" if answer == "yes" else "cancelled"


def _graph(calls: list[dict[str, Any]]) -> Any:
    """The model asks for ``calls``, then answers with the tool messages it read."""

    def model(state: State) -> dict[str, Any]:
        if isinstance(state["messages"][-1], ToolMessage):
            return {"messages": [AIMessage("done")]}
        return {"messages": [AIMessage("", tool_calls=calls)]}

    tools = to_langchain([tag_count, explode, whoami, rename, transfer], meta=lambda call: call)
    graph = StateGraph(State)
    graph.add_node("model", model)
    graph.add_node("tools", ToolNode(tools))
    graph.add_edge(START, "model")
    graph.add_conditional_edges("model", tools_condition)
    graph.add_edge("tools", "model")
    return graph.compile(checkpointer=InMemorySaver())


def _answers(state: dict[str, Any]) -> dict[str, ToolMessage]:
    return {m.tool_call_id: m for m in state["messages"] if isinstance(m, ToolMessage)}


CALLS = [
    {"name": "tag_count", "args": {"tags": {"a": "1", "b": "2"}}, "id": "c1"},
    {"name": "tag_count", "args": {"tags": {}, "limit": "three"}, "id": "c2"},
    {"name": "explode", "args": {"reason": "no such luck"}, "id": "c3"},
    {"name": "whoami", "args": {}, "id": "c4"},
    {"name": "rename", "args": {"user": "grace"}, "id": "c5"},
]
START_STATE = {"messages": [HumanMessage("Go.")], "user": "ada"}


def _check_turn(state: dict[str, Any]) -> None:
    answers = _answers(state)
    assert (answers["c1"].content, answers["c1"].status) == ("2", "success")
    assert answers["c2"].status == "error"
    assert answers["c2"].content == (
        "Error: input validation failed: limit: expected integer, got string 'three'"
    )
    assert (answers["c3"].content, answers["c3"].status) == (
        "Error: RuntimeError: no such luck",
        "error",
    )
    assert answers["c4"].content == "ada"
    assert answers["c5"].content == "now serving grace"
    assert state["user"] == "grace"
    assert state["messages"][-1].content == "done"


def test_tool_node_runs_a_turn_reads_the_state_and_applies_a_command() -> None:
    config = {"configurable": {"thread_id": "sync"}}
    _check_turn(_graph(CALLS).invoke(START_STATE, config))


def test_tool_node_does_the_same_when_the_graph_runs_async() -> None:
    config = {"configurable": {"thread_id": "async"}}
    _check_turn(asyncio.run(_graph(CALLS).ainvoke(START_STATE, config)))


def test_an_interrupt_in_a_tool_pauses_the_graph_until_it_is_resumed() -> None:
    graph = _graph([{"name": "transfer", "args": {"amount": 5}, "id": "t1"}])
    config = {"configurable": {"thread_id": "interrupt"}}

    paused = graph.invoke(START_STATE, config)

    (pause,) = paused["__interrupt__"]
    assert pause.value == {"question": "transfer 5?"}
    assert _answers(paused) == {}
    resumed = graph.invoke(Command(resume="yes"), config)
    assert _answers(resumed)["t1"].content == "transferred 5"
    assert resumed["messages"][-1].content == "done"


def test_an_interrupt_in_a_tool_pauses_an_async_graph_too() -> None:
    graph = _graph([{"name": "transfer", "args": {"amount": 7}, "id": "t2"}])
    config = {"configurable": {"thread_id": "interrupt-async"}}

    async def main() -> tuple[dict[str, Any], dict[str, Any]]:
        paused = await graph.ainvoke(START_STATE, config)
        return paused, await graph.ainvoke(Command(resume="no"), config)

    paused, resumed = asyncio.run(main())

    assert [p.value for p in paused["__interrupt__"]] == [{"question": "transfer 7?"}]
    assert _answers(resumed)["t2"].content == "cancelled"


def test_an_edit_a_person_makes_in_human_in_the_loop_is_validated_by_the_tool() -> None:
    """create_agent's HumanInTheLoopMiddleware pauses before the calls; the tool checks the edit."""
    calls = AIMessage(
        "",
        tool_calls=[
            {"name": "tag_count", "args": {"tags": {"a": "1"}}, "id": "h1"},
            {"name": "tag_count", "args": {"tags": {"a": "1"}}, "id": "h2"},
        ],
    )
    model = ScriptedModel(messages=iter([calls, AIMessage("done")]), bound=[])
    gate = HumanInTheLoopMiddleware(interrupt_on={"tag_count": True})
    agent = create_agent(
        model, tools=to_langchain([tag_count]), middleware=[gate], checkpointer=InMemorySaver()
    )
    config = {"configurable": {"thread_id": "hitl"}}

    paused = agent.invoke({"messages": [HumanMessage("Count.")]}, config)

    assert paused["__interrupt__"]
    assert _answers(paused) == {}
    edited = {"name": "tag_count", "args": {"tags": {"a": "1"}, "limit": "ten"}}
    decisions = [{"type": "approve"}, {"type": "edit", "edited_action": edited}]
    resumed = agent.invoke(Command(resume={"decisions": decisions}), config)
    answers = _answers(resumed)
    assert (answers["h1"].content, answers["h1"].status) == ("1", "success")
    assert answers["h2"].status == "error"
    # The middleware heads the answer with a note about the edit; the rest is the tool's.
    assert answers["h2"].content.endswith(
        "Error: input validation failed: limit: expected integer, got string 'ten'"
    )
