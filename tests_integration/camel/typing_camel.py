"""Static inference of the CAMEL bridge (type-checked, never executed)."""

from __future__ import annotations

from typing import Any

from camel.toolkits import FunctionTool
from typing_extensions import assert_type

from standard_tool import StandardToolV0, Toolkit, standard_tool
from standard_tool.integrations.camel import StandardCamelTool, from_camel, to_camel

ping = standard_tool(name="ping", description="Ping.", execute=lambda: "pong")
kit = Toolkit([ping])

assert_type(to_camel(ping), StandardCamelTool)
assert_type(to_camel(kit), list[StandardCamelTool])
assert_type(to_camel([ping]), list[StandardCamelTool])
assert_type(from_camel(FunctionTool(len)), StandardToolV0[Any, Any, Any, Any])
