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
from tests.env_checks import BROKEN_SCHEMA as BROKEN
from tests.env_checks import check_refused_naming


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
    check_refused_naming(bridge, convert, native)


def _shout() -> Any:
    from standard_tool import tool

    @tool
    def shout(text: str) -> str:
        """Upper-case a text."""
        return text.upper()

    return shout


POSITIONAL = "Error: input validation failed: {} positional argument{} given; pass every"


@pytest.mark.parametrize("given", [("hi",), ("hi", "there"), ({"text": "hi"},)])
def test_a_converted_tool_called_by_position_answers_a_tool_error(given: tuple[Any, ...]) -> None:
    """Issue 35: CrewAI and DSPy raised a bare TypeError; LlamaIndex dropped the value."""
    import asyncio

    from standard_tool.integrations.crewai import to_crewai
    from standard_tool.integrations.dspy import to_dspy
    from standard_tool.integrations.llama_index import to_llama_index

    expected = POSITIONAL.format(len(given), "" if len(given) == 1 else "s")
    crewai_tool = to_crewai(_shout())
    dspy_tool = to_dspy(_shout())
    llama_tool = to_llama_index(_shout())
    texts = [
        crewai_tool.run(*given),
        dspy_tool(*given),
        asyncio.run(dspy_tool.acall(*given)),
    ]
    for output in (llama_tool.call(*given), asyncio.run(llama_tool.acall(*given))):
        assert output.is_error is True
        texts.append(str(output.content))
    assert all(text.startswith(expected) for text in texts), texts
    # By name, the same tools answer as usual.
    assert crewai_tool.run(text="hi") == "HI"
    assert dspy_tool(text="hi") == "HI"
    assert llama_tool.call(text="hi").content == "HI"
