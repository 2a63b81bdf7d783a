"""Static inference of the OpenAI Agents bridge (type-checked, never executed)."""

from __future__ import annotations

from typing import Any

from agents import FunctionTool
from typing_extensions import assert_type

from standard_tool import StandardToolV0, Toolkit, standard_tool
from standard_tool.integrations.openai_agents import from_openai_agents, to_openai_agents

ping = standard_tool(name="ping", description="Ping.", execute=lambda: "pong")
kit = Toolkit([ping])

# One tool gives one FunctionTool; a toolkit or a list gives a list.
assert_type(to_openai_agents(ping), FunctionTool)
assert_type(to_openai_agents(kit), list[FunctionTool])
assert_type(to_openai_agents([ping, ping], strict=True), list[FunctionTool])
assert_type(to_openai_agents(ping, meta=lambda ctx: ctx.tool_call_id), FunctionTool)


def back(function_tool: FunctionTool) -> None:
    assert_type(from_openai_agents(function_tool), StandardToolV0[Any, Any, Any, Any])
