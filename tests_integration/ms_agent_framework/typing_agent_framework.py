"""Static inference of the Agent Framework bridge (type-checked, never executed)."""

from __future__ import annotations

from typing import Any

from agent_framework import FunctionTool
from typing_extensions import assert_type

from standard_tool import StandardToolV0, Toolkit, standard_tool
from standard_tool.integrations.agent_framework import (
    StandardAgentFrameworkTool,
    from_agent_framework,
    to_agent_framework,
)

ping = standard_tool(name="ping", description="Ping.", execute=lambda: "pong")
kit = Toolkit([ping])

# One tool gives one framework tool; a toolkit or a list gives a list.
assert_type(to_agent_framework(ping), StandardAgentFrameworkTool)
assert_type(to_agent_framework(kit), list[StandardAgentFrameworkTool])
assert_type(to_agent_framework([ping, ping]), list[StandardAgentFrameworkTool])


def back(ft: FunctionTool) -> None:
    assert_type(from_agent_framework(ft), StandardToolV0[Any, Any, Any, Any])
