"""Static inference of this environment's bridges (type-checked, never executed)."""

from __future__ import annotations

from typing import Any

from ag2.tools.final.function_tool import FunctionTool as AG2FunctionTool
from agent_framework import FunctionTool
from claude_agent_sdk import McpSdkServerConfig
from mirascope.llm import Tool as MirascopeTool  # pyright: ignore[reportMissingTypeStubs]
from typing_extensions import assert_type

from standard_tool import StandardToolV0, Toolkit, standard_tool
from standard_tool.integrations.ag2 import StandardAG2Tool, from_ag2, to_ag2
from standard_tool.integrations.agent_framework import (
    StandardAgentFrameworkTool,
    from_agent_framework,
    to_agent_framework,
)
from standard_tool.integrations.claude_agent_sdk import allowed_tools, to_claude_agent_sdk
from standard_tool.integrations.mirascope import (
    StandardMirascopeAsyncTool,
    StandardMirascopeTool,
    from_mirascope,
    to_mirascope,
)

ping = standard_tool(name="ping", description="Ping.", execute=lambda: "pong")
kit = Toolkit([ping])

# One tool gives one framework tool; a toolkit or a list gives a list.
assert_type(to_agent_framework(ping), StandardAgentFrameworkTool)
assert_type(to_agent_framework(kit), list[StandardAgentFrameworkTool])
assert_type(to_agent_framework([ping, ping]), list[StandardAgentFrameworkTool])
assert_type(to_ag2(ping), StandardAG2Tool)
assert_type(to_ag2(kit), list[StandardAG2Tool])
assert_type(to_claude_agent_sdk(kit, name="kit"), McpSdkServerConfig)
assert_type(allowed_tools([ping]), list[str])
assert_type(to_mirascope(ping), StandardMirascopeTool | StandardMirascopeAsyncTool)
assert_type(to_mirascope(kit), list[StandardMirascopeTool | StandardMirascopeAsyncTool])


def back(ft: FunctionTool, at: AG2FunctionTool) -> None:
    assert_type(from_agent_framework(ft), StandardToolV0[Any, Any, Any, Any])
    assert_type(from_ag2(at), StandardToolV0[Any, Any, Any, Any])


def back_mirascope(mt: MirascopeTool[..., Any]) -> None:
    assert_type(from_mirascope(mt), StandardToolV0[Any, Any, Any, Any])
