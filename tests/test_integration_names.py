"""One naming rule for every framework bridge, and no two tools of one name (issue 35).

Each ``to_<framework>`` bridge refuses, naming the tool, a name outside the rule
(``[A-Za-z0-9_.-]{1,128}``, MCP's; a framework with a stricter rule of its own adds
it) and a list with two tools of one name, which a ``Toolkit`` refuses too. Run here
against the frameworks the core suite installs; the others run the same helper.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from standard_tool import DuplicateToolNameError, Toolkit, standard_tool
from standard_tool.integrations.langchain import to_langchain
from standard_tool.integrations.openai_agents import to_openai_agents
from standard_tool.integrations.pydantic_ai import to_pydantic_ai
from standard_tool.providers import ProviderSchemaError

BRIDGES: dict[str, Callable[[Any], Any]] = {
    "LangChain": to_langchain,
    "OpenAI Agents": to_openai_agents,
    "Pydantic AI": to_pydantic_ai,
}
_RULE = re.compile(r"[A-Za-z0-9_.-]{1,128}")
#: A framework's own rule, where it is stricter (its provider's).
_OWN = {"OpenAI Agents": re.compile(r"[A-Za-z0-9_-]{1,64}")}


def _named(name: str) -> Any:
    return standard_tool(name=name, description="A tool.", execute=lambda: "ok")


@pytest.mark.parametrize("bridge", BRIDGES)
@given(name=st.text(min_size=1, max_size=140) | st.text("ab_.-9 ", min_size=120, max_size=140))
@example(name="two words")
@example(name=" ")
@example(name="x" * 300)
@example(name="ok_name.v2-1")
def test_a_name_outside_the_rule_is_refused_naming_the_tool(bridge: str, name: str) -> None:
    try:
        BRIDGES[bridge](_named(name))
    except ProviderSchemaError as err:
        refused = str(err)
    else:
        refused = None
    if _RULE.fullmatch(name) and _OWN.get(bridge, _RULE).fullmatch(name):
        assert refused is None
    else:
        assert refused is not None
        assert refused.startswith("standard_tool.providers: tool name ")
        if not _RULE.fullmatch(name):
            assert f"is not accepted by the {bridge} bridge" in refused
        assert len(refused) < 300


@pytest.mark.parametrize("bridge", BRIDGES)
def test_two_tools_of_one_name_are_refused_as_a_toolkit_refuses_them(bridge: str) -> None:
    tools = [_named("lookup"), _named("lookup"), _named("other")]
    with pytest.raises(DuplicateToolNameError, match=r"'?\"?lookup\"?'? \(2 times\)"):
        Toolkit(tools)
    with pytest.raises(DuplicateToolNameError, match=rf"{bridge} bridge: duplicate tool names"):
        BRIDGES[bridge](tools)
    assert len(BRIDGES[bridge](tools[1:])) == 2
