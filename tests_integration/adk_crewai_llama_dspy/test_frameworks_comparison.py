"""What the README's comparison table says about these frameworks, checked on the real releases.

Each framework's own tool, built the framework's way from the same function, is
given ``{"a": "3", "b": 4}``, as tests/test_readme_comparison.py does for the
frameworks of the core suite. If a release changes the behaviour, this test says
the README has to change too.
"""

from __future__ import annotations

import asyncio
from typing import Any

LAX_INPUT = {"a": "3", "b": 4}


def test_google_adk_function_tool_passes_the_string_through_unchecked() -> None:
    from google.adk.tools import FunctionTool

    seen: list[Any] = []

    def add(a: int, b: int) -> str:
        """Add two integers."""
        seen.append(a)
        return "called"

    result = asyncio.run(FunctionTool(add).run_async(args=LAX_INPUT, tool_context=None))  # type: ignore[arg-type]

    assert result == "called"
    assert seen == ["3"]


def test_crewai_tool_coerces_it() -> None:
    from crewai.tools import tool as crewai_tool

    def add(a: int, b: int) -> int:
        """Add two integers."""
        return a + b

    assert crewai_tool("add")(add).run(**LAX_INPUT) == 7


def test_llama_index_function_tool_passes_the_string_through_unchecked() -> None:
    from llama_index.core.tools import FunctionTool

    seen: list[Any] = []

    def add(a: int, b: int) -> str:
        """Add two integers."""
        seen.append(a)
        return "called"

    assert FunctionTool.from_defaults(add).call(**LAX_INPUT).raw_output == "called"
    assert seen == ["3"]


def test_dspy_tool_refuses_it_per_argument_but_not_a_missing_one() -> None:
    import dspy
    import pytest

    def add(a: int, b: int) -> int:
        """Add two integers."""
        return a + b

    with pytest.raises(ValueError, match="Arg a is invalid"):
        dspy.Tool(add)(**LAX_INPUT)
    with pytest.raises(TypeError, match="missing 1 required positional argument"):
        dspy.Tool(add)(a=3)
