"""Issue 35: a framework tool whose schema is no JSON Schema is refused naming the tool.

Each framework's own tool type, made as its users make it, carries one schema that is
not a valid JSON Schema (a ``pattern`` that is no regular expression); every
``from_<framework>`` refuses it with ``InvalidSchemaError`` saying which bridge and
which tool, then what is wrong and where.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from pydantic import BaseModel

from standard_tool.schemas import InvalidSchemaError

BROKEN: dict[str, Any] = {
    "type": "object",
    "properties": {"x": {"type": "string", "pattern": "("}},
}


def echo(x: str) -> str:
    """Echo."""
    return x


class BrokenArgs(BaseModel):
    """Arguments whose JSON Schema is the broken one (as a hand-written model may give)."""

    x: str

    @classmethod
    def model_json_schema(cls, *args: Any, **kwargs: Any) -> dict[str, Any]:
        return BROKEN


def _dspy() -> tuple[Any, Callable[[Any], Any]]:
    import dspy

    from standard_tool.integrations.dspy import from_dspy

    made = dspy.Tool(echo, name="odd_one")
    made.args = {"x": {"type": "string", "pattern": "("}}
    return made, from_dspy


def _crewai() -> tuple[Any, Callable[[Any], Any]]:
    from crewai.tools import BaseTool

    from standard_tool.integrations.crewai import from_crewai

    class Odd(BaseTool):  # type: ignore[misc]
        name: str = "odd_one"
        description: str = "Echo."
        args_schema: type[BaseModel] = BrokenArgs

        def _run(self, x: str) -> str:
            return x

    return Odd(), from_crewai


def _llama_index() -> tuple[Any, Callable[[Any], Any]]:
    from llama_index.core.tools import FunctionTool

    from standard_tool.integrations.llama_index import from_llama_index

    made = FunctionTool.from_defaults(fn=echo, name="odd_one", fn_schema=BrokenArgs)
    return made, from_llama_index


def _google_adk() -> tuple[Any, Callable[[Any], Any]]:
    from google.adk.tools.base_tool import BaseTool
    from google.genai import types

    from standard_tool.integrations.google_adk import from_google_adk

    class Odd(BaseTool):  # type: ignore[misc]
        def __init__(self) -> None:
            super().__init__(name="odd_one", description="Echo.")

        def _get_declaration(self) -> types.FunctionDeclaration:
            return types.FunctionDeclaration(
                name="odd_one", description="Echo.", parameters_json_schema=BROKEN
            )

    return Odd(), from_google_adk


@pytest.mark.parametrize(
    ("bridge", "make"),
    [
        ("from_dspy", _dspy),
        ("from_crewai", _crewai),
        ("from_llama_index", _llama_index),
        ("from_google_adk", _google_adk),
    ],
)
def test_a_tool_with_a_broken_schema_is_refused_naming_the_bridge_and_the_tool(
    bridge: str, make: Callable[[], tuple[Any, Callable[[Any], Any]]]
) -> None:
    native, convert = make()
    with pytest.raises(InvalidSchemaError) as refused:
        convert(native)
    message = str(refused.value)
    assert message.startswith(f"{bridge}: tool 'odd_one': "), message
    assert "properties/x/pattern" in message
    assert len(message) < 500
