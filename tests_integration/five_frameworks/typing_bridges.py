"""Static inference of this folder's bridges (type-checked by test_types.py, never executed)."""

from __future__ import annotations

from typing import Any

from agno.tools.function import Function
from autogen_core.tools import FunctionTool
from haystack.tools.tool import Tool as HaystackTool
from semantic_kernel.functions import KernelFunction
from typing_extensions import assert_type

from standard_tool import StandardToolV0, Toolkit, standard_tool
from standard_tool.integrations.agno import from_agno, to_agno
from standard_tool.integrations.autogen import StandardAutoGenTool, from_autogen, to_autogen
from standard_tool.integrations.haystack import StandardHaystackTool, from_haystack, to_haystack
from standard_tool.integrations.semantic_kernel import (
    StandardKernelFunction,
    from_semantic_kernel,
    to_semantic_kernel,
)
from standard_tool.integrations.smolagents import StandardSmolagentsTool, to_smolagents

ping = standard_tool(name="ping", description="Ping.", execute=lambda: "pong")
kit = Toolkit([ping])

# One tool gives one framework tool; a toolkit or a list gives a list.
assert_type(to_agno(ping), Function)
assert_type(to_agno(kit), list[Function])
assert_type(to_semantic_kernel(ping), StandardKernelFunction)
assert_type(to_semantic_kernel([ping, ping], plugin_name="p"), list[StandardKernelFunction])
assert_type(to_autogen(ping), StandardAutoGenTool)
assert_type(to_autogen(kit), list[StandardAutoGenTool])
assert_type(to_haystack(ping), StandardHaystackTool)
assert_type(to_haystack(kit), list[StandardHaystackTool])
assert_type(to_smolagents(ping), StandardSmolagentsTool)
assert_type(to_smolagents(kit), list[StandardSmolagentsTool])


def back(fn: Function, kf: KernelFunction, ft: FunctionTool, ht: HaystackTool) -> None:
    assert_type(from_agno(fn), StandardToolV0[Any, Any, Any, Any])
    assert_type(from_semantic_kernel(kf), StandardToolV0[Any, Any, Any, Any])
    assert_type(from_autogen(ft), StandardToolV0[Any, Any, Any, Any])
    assert_type(from_haystack(ht), StandardToolV0[Any, Any, Any, Any])
