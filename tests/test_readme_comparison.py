"""What the README's comparison table says about the peers, checked on the real libraries.

Each framework's own tool, built the framework's way from the same function, is
given ``{"a": "3", "b": 4}``: the string passes as an integer (Pydantic's lax
mode), where a ``@tool`` refuses it naming the path. These are the installed
releases' default behaviours; if a release changes them, this test says the
README has to change too.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from standard_tool import StandardToolValidationError, tool

LAX_INPUT = {"a": "3", "b": 4}


def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


def test_our_tool_refuses_a_string_for_an_integer() -> None:
    with pytest.raises(StandardToolValidationError, match="a: expected integer, got string"):
        tool(add).execute(LAX_INPUT)


def test_langchain_tool_coerces_it() -> None:
    from langchain_core.tools import tool as langchain_tool

    assert langchain_tool(add).invoke(LAX_INPUT) == 7


async def test_openai_agents_function_tool_coerces_it() -> None:
    from agents import function_tool
    from agents.tool_context import ToolContext

    ft = function_tool(add)
    ctx = ToolContext(None, tool_name=ft.name, tool_call_id="c1", tool_arguments="")
    assert str(await ft.on_invoke_tool(ctx, json.dumps(LAX_INPUT))) == "7"


async def test_pydantic_ai_tool_coerces_it() -> None:
    from pydantic_ai import Agent, Tool
    from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart, ToolCallPart
    from pydantic_ai.models.function import AgentInfo, FunctionModel

    seen: list[Any] = []

    def script(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        if len(messages) == 1:
            return ModelResponse(parts=[ToolCallPart("add", LAX_INPUT, tool_call_id="c1")])
        seen.append(messages[-1].parts[0])
        return ModelResponse(parts=[TextPart("done")])

    agent = Agent(FunctionModel(script), tools=[Tool(add)])
    assert (await agent.run("go")).output == "done"
    assert seen[0].content == 7


async def test_mcp_sdk_server_tool_coerces_it() -> None:
    from mcp.server import MCPServer

    server = MCPServer("peer")
    server.tool()(add)
    result = await server.call_tool("add", LAX_INPUT)
    assert "7" in json.dumps(result, default=str)
