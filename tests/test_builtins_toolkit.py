"""The built-in tools are ordinary tools: in a Toolkit, through providers, formatted."""

from __future__ import annotations

import inspect
import json
import pickle
from typing import Any

import pytest

from standard_tool import StandardToolValidationError, Toolkit, is_standard_tool, run_tool_sync
from standard_tool.builtins import calculator, current_time, http_fetch, json_query, make_http_fetch

ALL = [calculator, current_time, json_query, http_fetch]


def test_the_package_exports_the_contract_names() -> None:
    import standard_tool.builtins as builtins

    assert {"calculator", "current_time", "json_query", "http_fetch"} <= set(builtins.__all__)
    assert sorted(builtins.__all__) == builtins.__all__
    assert [t.name for t in ALL] == ["calculator", "current_time", "json_query", "http_fetch"]


@pytest.mark.parametrize("tool", ALL, ids=lambda t: t.name)
def test_each_is_a_standard_tool_and_a_sync_one(tool: Any) -> None:
    assert is_standard_tool(tool)
    assert not inspect.iscoroutinefunction(tool.execute)
    assert tool.description
    assert tool.title


def test_a_toolkit_runs_them_by_name_and_turns_bad_input_into_results() -> None:
    kit = Toolkit(ALL)
    assert kit.execute("calculator", {"expression": "6 * 7"}).value == 42
    assert kit.execute("current_time", {"timezone": "UTC"}).value["timezone"] == "UTC"
    assert kit.execute("json_query", {"json": '{"a": [5]}', "path": "a[0]"}).value == 5

    for name, payload, where in [
        ("calculator", {"expression": "9**9**9**9"}, "expression: "),
        ("current_time", {"timezone": "Nowhere/Land"}, "timezone: unknown time zone"),
        ("json_query", {"json": "[1", "path": ""}, "json: not valid JSON"),
        ("http_fetch", {"url": "http://169.254.169.254/"}, "url: 169.254.169.254 is a link-local"),
    ]:
        result = kit.execute(name, payload)
        assert result.success is False
        assert isinstance(result.exception, StandardToolValidationError)
        assert where in (result.error or "")


async def test_a_toolkit_runs_them_from_async_code_too() -> None:
    kit = Toolkit(ALL)
    result = await kit.aexecute("calculator", {"expression": "2 ** 8"}, timeout=30)
    assert result.value == 256


def test_formatted_tools_return_errors_as_values() -> None:
    safe = calculator.formatted()
    assert safe.execute({"expression": "1/0"}) == {
        "error": "input validation failed: expression: division by zero"
    }
    assert safe.execute({"expression": "1+1"}) == 2
    assert run_tool_sync(json_query, {"json": "[true]", "path": "[0]"}) is True


def test_validation_errors_pickle_intact() -> None:
    with pytest.raises(StandardToolValidationError) as info:
        calculator.execute({"expression": "factorial(1000)"})
    again = pickle.loads(pickle.dumps(info.value))
    assert str(again) == str(info.value)


@pytest.mark.parametrize("tool", [*ALL, make_http_fetch(allow=["10.0.0.0/8"])], ids=repr)
def test_each_converts_for_openai_anthropic_gemini_and_mcp(tool: Any) -> None:
    from standard_tool.providers import to_anthropic, to_gemini, to_mcp, to_openai_chat

    chat = to_openai_chat(tool)
    assert chat["function"]["name"] == tool.name
    assert chat["function"]["parameters"]["type"] == "object"
    json.dumps(chat)
    mcp = to_mcp(tool)
    assert mcp["name"] == tool.name
    assert mcp["inputSchema"]["type"] == "object"
    json.dumps(mcp)
    assert to_anthropic(tool)["name"] == tool.name
    assert to_gemini(tool)["name"] == tool.name


def test_a_toolkit_of_builtins_converts_at_once() -> None:
    from standard_tool.providers import to_mcp, to_openai_chat

    kit = Toolkit(ALL)
    assert [d["function"]["name"] for d in to_openai_chat(kit)] == [t.name for t in ALL]
    assert [d["name"] for d in to_mcp(kit)] == [t.name for t in ALL]
    assert [to_openai_chat(t)["function"]["name"] for t in kit] == [t.name for t in ALL]
