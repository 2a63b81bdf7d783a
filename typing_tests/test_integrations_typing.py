"""Static inference of the framework bridges (type-checked, never executed)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from langchain_core.tools import StructuredTool
from pydantic_ai import Tool as PydanticAITool
from typing_extensions import assert_type

from standard_tool import StandardToolV0, Toolkit, standard_tool
from standard_tool.integrations.google_genai import to_google_genai
from standard_tool.integrations.langchain import (
    StandardLangChainTool,
    from_langchain,
    to_langchain,
)
from standard_tool.integrations.pydantic_ai import from_pydantic_ai, to_pydantic_ai

ping = standard_tool(name="ping", description="Ping.", execute=lambda: "pong")
kit = Toolkit([ping])

# One tool gives one framework tool; a toolkit or a list gives a list.
assert_type(to_langchain(ping), StandardLangChainTool)
assert_type(to_langchain(kit), list[StandardLangChainTool])
assert_type(to_langchain([ping, ping], strict="auto"), list[StandardLangChainTool])
assert_type(to_pydantic_ai(ping), PydanticAITool[Any])
assert_type(to_pydantic_ai(kit, strict=True), list[PydanticAITool[Any]])
assert_type(to_google_genai(ping), Callable[..., Any])
assert_type(to_google_genai(kit), list[Callable[..., Any]])


def back(lc: StructuredTool, pa: PydanticAITool[Any]) -> None:
    assert_type(from_langchain(lc), StandardToolV0[Any, Any, Any, Any])
    assert_type(from_pydantic_ai(pa), StandardToolV0[Any, Any, Any, Any])
