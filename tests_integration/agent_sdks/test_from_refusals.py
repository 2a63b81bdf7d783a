"""Issue 35: a framework tool whose schema is no JSON Schema is refused naming the tool.

Agent Framework, AG2 and Mirascope tools carrying a ``pattern`` that is no regular
expression: ``from_<framework>`` refuses each with ``InvalidSchemaError`` naming the
bridge and the tool, then what is wrong and where.
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


def _agent_framework() -> tuple[Any, Callable[[Any], Any]]:
    from agent_framework import FunctionTool

    from standard_tool.integrations.agent_framework import from_agent_framework

    made = FunctionTool(name="odd_one", description="Echo.", func=echo, input_model=BROKEN)
    return made, from_agent_framework


def _ag2() -> tuple[Any, Callable[[Any], Any]]:
    from ag2 import tool

    from standard_tool.integrations.ag2 import from_ag2

    @tool
    def odd_one(x: str) -> str:
        """Echo."""
        return x

    odd_one.schema.function.parameters = BROKEN  # changed after AG2 made it
    return odd_one, from_ag2


def _mirascope() -> tuple[Any, Callable[[Any], Any]]:
    from mirascope import llm

    from standard_tool.integrations.mirascope import from_mirascope

    @llm.tool
    def odd_one(x: str) -> str:
        """Echo."""
        return x

    object.__setattr__(odd_one.parameters, "properties", PROPERTIES)  # after Mirascope
    return odd_one, from_mirascope


@pytest.mark.parametrize(
    ("bridge", "make"),
    [
        ("from_agent_framework", _agent_framework),
        ("from_ag2", _ag2),
        ("from_mirascope", _mirascope),
    ],
)
def test_a_tool_with_a_broken_schema_is_refused_naming_the_bridge_and_the_tool(
    bridge: str, make: Callable[[], tuple[Any, Callable[[Any], Any]]]
) -> None:
    native, convert = make()
    check_refused_naming(bridge, convert, native)
