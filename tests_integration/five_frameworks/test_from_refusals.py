"""Issue 35: a framework tool whose schema is no JSON Schema is refused naming the tool.

Agno, AutoGen, Haystack and Semantic Kernel tools carrying a ``pattern`` that is no
regular expression: ``from_<framework>`` refuses each with ``InvalidSchemaError``
naming the bridge and the tool, then what is wrong and where.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from tests.env_checks import BROKEN_PROPERTIES as PROPERTIES
from tests.env_checks import BROKEN_SCHEMA as BROKEN
from tests.env_checks import check_refused_naming


def echo(x: str) -> str:
    """Echo."""
    return x


def _agno() -> tuple[Any, Callable[[Any], Any]]:
    from agno.tools import Function

    from standard_tool.integrations.agno import from_agno

    made = Function(name="odd_one", description="Echo.", parameters=BROKEN, entrypoint=echo)
    return made, from_agno


def _autogen() -> tuple[Any, Callable[[Any], Any]]:
    from autogen_core.tools import FunctionTool

    from standard_tool.integrations.autogen import from_autogen

    class Odd(FunctionTool):  # a tool declaring its own schema, as a subclass may
        @property
        def schema(self) -> Any:
            return {"name": "odd_one", "description": "Echo.", "parameters": BROKEN}

    return Odd(echo, description="Echo.", name="odd_one"), from_autogen


def _haystack() -> tuple[Any, Callable[[Any], Any]]:
    from haystack.tools import Tool

    from standard_tool.integrations.haystack import from_haystack

    plain = {"type": "object", "properties": {"x": {"type": "string"}}}
    made = Tool(name="odd_one", description="Echo.", parameters=plain, function=echo)
    made.parameters = BROKEN  # changed after Haystack checked it
    return made, from_haystack


def _semantic_kernel() -> tuple[Any, Callable[[Any], Any]]:
    from semantic_kernel.functions import KernelFunctionFromMethod, kernel_function

    from standard_tool.integrations.semantic_kernel import from_semantic_kernel

    @kernel_function(name="odd_one", description="Echo.")
    def odd_one(x: str) -> str:
        return x

    made = KernelFunctionFromMethod(method=odd_one, plugin_name="tools")
    made.metadata.parameters[0].schema_data = PROPERTIES["x"]  # changed after SK read it
    return made, from_semantic_kernel


@pytest.mark.parametrize(
    ("bridge", "make"),
    [
        ("from_agno", _agno),
        ("from_autogen", _autogen),
        ("from_haystack", _haystack),
        ("from_semantic_kernel", _semantic_kernel),
    ],
)
def test_a_tool_with_a_broken_schema_is_refused_naming_the_bridge_and_the_tool(
    bridge: str, make: Callable[[], tuple[Any, Callable[[Any], Any]]]
) -> None:
    native, convert = make()
    check_refused_naming(bridge, convert, native)
