"""A copy of the core file and the package work together, both ways (issue 22).

A tool built by a vendored copy of ``_core.py`` (loaded here under another module
name, so none of its classes are the package's) runs through the package's
consumers: ``Toolkit``, every converter, an MCP server driven by the official
client, and the framework bridges. A tool the package builds (``@tool``, the
package's ``standard_tool`` with a pydantic model) runs through the copy's helpers
and its ``with_formatted_output``.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import anyio
import pytest
from mcp import Client
from pydantic import BaseModel

import standard_tool._core as core
from standard_tool import Toolkit, is_standard_tool, standard_tool, tool, with_formatted_output
from standard_tool.mcp import server
from standard_tool.providers import (
    to_anthropic,
    to_gemini,
    to_mcp,
    to_openai_chat,
    to_openai_responses,
)
from standard_tool.schemas.pydantic import pydantic_schema


def _vendored(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    folder = tmp_path_factory.mktemp("vendored")
    target = folder / "my_tools_contract.py"
    target.write_text(Path(core.__file__).read_text(encoding="utf-8"), encoding="utf-8")
    spec = importlib.util.spec_from_file_location("my_tools_contract", target)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["my_tools_contract"] = module  # dataclasses resolve their module by name
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def copy(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    return _vendored(tmp_path_factory)


class City(BaseModel):
    city: str


class Temp(BaseModel):
    temp_c: float


class _Props:
    version = 1
    vendor = "vendored-test"

    def __init__(self, copy: ModuleType) -> None:
        self._copy = copy

    def validate(self, value: Any) -> Any:
        if isinstance(value, dict) and isinstance(value.get("city"), str):
            return self._copy.SuccessResult({"city": value["city"]})
        return self._copy.FailureResult((self._copy.Issue("expected a string", ("city",)),))

    class json_schema:
        @staticmethod
        def input(*, target: str, library_options: Any = None) -> dict[str, Any]:
            return {
                "type": "object",
                "properties": {"city": {"type": "string"}},
                "required": ["city"],
                "additionalProperties": False,
            }

        output = input


class _CitySchema:
    def __init__(self, copy: ModuleType) -> None:
        self.__standard__ = _Props(copy)


def _weather(copy: ModuleType) -> Any:
    def weather(place: dict[str, str]) -> str:
        return f"sunny in {place['city']}"

    built = copy.standard_tool(
        name="weather",
        description="Weather for a city.",
        input_schema=_CitySchema(copy),
        execute=weather,
    )
    assert not isinstance(built, core.Tool)  # the copy's own class, not the package's
    return built


def test_a_copy_built_tool_runs_in_the_toolkit(copy: ModuleType) -> None:
    kit = Toolkit([_weather(copy)])
    assert kit.execute("weather", {"city": "Oslo"}).value == "sunny in Oslo"
    failed = kit.execute("weather", {"city": 3})
    assert failed.success is False
    assert "input validation failed: city: expected a string" in str(failed.error)


def test_a_copy_built_tool_converts_for_every_provider(copy: ModuleType) -> None:
    weather = _weather(copy)
    assert is_standard_tool(weather)
    assert to_openai_chat(weather)["function"]["name"] == "weather"
    assert to_openai_responses(weather)["name"] == "weather"
    assert to_anthropic(weather)["input_schema"]["required"] == ["city"]
    assert to_gemini(weather)["name"] == "weather"
    assert to_mcp(weather)["inputSchema"]["properties"] == {"city": {"type": "string"}}


async def test_a_copy_built_tool_is_served_over_mcp(copy: ModuleType) -> None:
    with anyio.fail_after(60):
        async with Client(server([_weather(copy)])) as client:
            listed = await client.session.list_tools()
            result = await client.session.call_tool("weather", {"city": "Rome"})
    assert [t.name for t in listed.tools] == ["weather"]
    assert result.is_error is False
    assert "sunny in Rome" in json.dumps([c.model_dump() for c in result.content])


def test_a_copy_built_tool_runs_through_the_langchain_bridge(copy: ModuleType) -> None:
    from standard_tool.integrations.langchain import to_langchain

    assert to_langchain(_weather(copy)).invoke({"city": "Lima"}) == "sunny in Lima"


async def test_a_copy_built_tool_runs_through_the_pydantic_ai_bridge(copy: ModuleType) -> None:
    from pydantic_ai import Agent
    from pydantic_ai.models.test import TestModel

    from standard_tool.integrations.pydantic_ai import to_pydantic_ai

    agent = Agent(TestModel(call_tools=["weather"]), tools=[to_pydantic_ai(_weather(copy))])
    result = await agent.run("weather?")
    assert "sunny in" in result.output


async def test_a_copy_built_tool_runs_through_the_openai_agents_bridge(copy: ModuleType) -> None:
    from agents import RunContextWrapper
    from agents.tool_context import ToolContext

    from standard_tool.integrations.openai_agents import to_openai_agents

    agent_tool = to_openai_agents(_weather(copy))
    context = ToolContext(
        context=None, tool_name="weather", tool_call_id="c1", tool_arguments='{"city": "Bern"}'
    )
    assert isinstance(context, RunContextWrapper)
    output = await agent_tool.on_invoke_tool(context, '{"city": "Bern"}')
    assert "sunny in Bern" in str(output)


def test_a_copy_formats_a_package_tool(copy: ModuleType) -> None:
    @tool
    def add(a: int, b: int) -> int:
        """Add two integers."""
        return a + b

    assert copy.is_standard_tool(add)
    assert copy.run_tool_sync(add, {"a": 1, "b": 2}) == 3
    assert copy.input_json_schema(add)["required"] == ["a", "b"]
    formatted = copy.with_formatted_output(add)
    assert formatted.execute({"a": 1, "b": 2}) == 3
    error = formatted.execute({"a": "x", "b": 2})["error"]
    assert error.startswith("input validation failed: a: ")
    assert formatted.name == "add"
    assert formatted.input_schema is add.input_schema
    assert formatted.timeout is None  # every other field reads through


def test_a_copy_runs_a_package_tool_with_a_pydantic_schema(copy: ModuleType) -> None:
    forecast = standard_tool(
        name="forecast",
        description="Forecast.",
        input_schema=City,
        output_schema=pydantic_schema(Temp),
        execute=lambda c: {"temp_c": 21},
    )
    assert copy.run_tool_sync(forecast, {"city": "Paris"}) == Temp(temp_c=21)
    assert asyncio.run(copy.run_tool(forecast, {"city": "Paris"})) == Temp(temp_c=21)
    assert copy.output_json_schema(forecast)["required"] == ["temp_c"]
    failed = copy.with_formatted_output(forecast).execute({"city": 1})
    assert failed["error"].startswith("input validation failed: city: ")


def test_the_package_formats_a_copy_built_tool(copy: ModuleType) -> None:
    formatted = with_formatted_output(_weather(copy))
    assert formatted.execute({"city": "Oslo"}) == "sunny in Oslo"
    assert formatted.execute({}) == {"error": "input validation failed: city: expected a string"}
