"""Serving tools over MCP: the official SDK's client and low-level server, in process.

``mode="legacy"`` runs the JSON-RPC session over in-memory streams; ``"auto"`` the
SDK's direct in-process dispatch. Both must list the tools and answer calls.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from mcp import Client

from standard_tool import standard_tool
from standard_tool.providers import mcp_server, mcp_tool_handlers, to_mcp
from tests.example_tools import get_weather
from tests.fakes.tools import add, weather

MODES = ["legacy", "auto"]


def _explode() -> Any:
    raise RuntimeError("disk full " + "!" * 100_000)


explode = standard_tool(name="explode", description="Always fails.", execute=_explode)


def _server(**options: Any) -> Any:
    return mcp_server([get_weather, add, explode], name="demo", **options)


@pytest.mark.parametrize("mode", MODES)
async def test_lists_every_tool_as_to_mcp_declares_it(mode: Any) -> None:
    async with Client(_server(), mode=mode) as client:
        listed = await client.list_tools()
    assert [t.name for t in listed.tools] == ["get_weather", "add", "explode"]
    declared = listed.tools[0].model_dump(by_alias=True, exclude_none=True)
    assert declared["inputSchema"] == to_mcp(get_weather)["inputSchema"]
    assert declared["outputSchema"] == to_mcp(get_weather)["outputSchema"]


@pytest.mark.parametrize("mode", MODES)
async def test_a_successful_call_returns_text_and_structured_content(mode: Any) -> None:
    async with Client(_server(), mode=mode) as client:
        result = await client.call_tool("get_weather", {"city": "Paris", "unit": "fahrenheit"})
    assert result.is_error is False
    assert result.content[0].type == "text"
    assert result.content[0].text == "21 degrees fahrenheit in Paris"
    assert result.structured_content == {"result": "21 degrees fahrenheit in Paris"}


@pytest.mark.parametrize("mode", MODES)
async def test_failures_are_is_error_results_the_model_can_read(mode: Any) -> None:
    async with Client(_server(), mode=mode) as client:
        invalid = await client.call_tool("add", {"a": 1, "b": "two"})
        unknown = await client.call_tool("mul", {})
        crashed = await client.call_tool("explode", {})
    texts: list[str] = []
    for result in (invalid, unknown, crashed):
        assert result.is_error is True
        assert result.structured_content is None
        assert result.content[0].type == "text"
        texts.append(result.content[0].text)
    assert texts[0] == "Error: input validation failed: b: 'two' is not of type 'integer'"
    assert texts[1] == "Error: unknown tool 'mul'; available tools: get_weather, add, explode"
    assert texts[2].startswith("Error: RuntimeError: disk full !!!")
    assert len(texts[2]) < 2200


async def test_meta_and_timeout_reach_the_calls() -> None:
    seen: list[Any] = []

    async def slow(_: Any, meta: Any) -> str:
        seen.append(meta)
        await asyncio.sleep(60)
        return "late"

    tool = standard_tool(name="slow", description="Slow.", execute=slow)
    server = mcp_server([tool], meta={"tenant": "t1"}, timeout=0.05)
    async with Client(server, mode="legacy") as client:
        result = await client.call_tool("slow", {})
    assert result.is_error is True
    assert result.content[0].type == "text"
    assert result.content[0].text == "Error: timed out after 0.05 s"
    assert seen == [{"tenant": "t1"}]


async def test_handlers_compose_with_a_server_built_by_hand() -> None:
    from mcp.server.lowlevel import Server

    server: Server[Any] = Server("mine", version="1.2", **mcp_tool_handlers([weather]))
    async with Client(server, mode="legacy") as client:
        listed = await client.list_tools()
        result = await client.call_tool("get_weather", {"city": "Oslo", "unit": "c"})
    assert [t.name for t in listed.tools] == ["get_weather"]
    assert result.structured_content == {"city": "Oslo", "temperature": 21}
