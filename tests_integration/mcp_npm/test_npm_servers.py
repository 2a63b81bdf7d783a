"""Real third-party MCP servers from npm, started over stdio with ``npx``.

``@modelcontextprotocol/server-everything``, ``server-memory`` and
``server-filesystem`` (on a temporary directory): import their tools, convert them
for every provider, call them with valid and invalid arguments.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import anyio
import pytest
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from standard_tool import StandardToolValidationError, Toolkit
from standard_tool.content import Image, ToolOutput
from standard_tool.mcp import MCPTool, MCPToolError, import_tools
from standard_tool.providers import to_anthropic, to_gemini, to_mcp, to_openai_chat

HERE = Path(__file__).parent


@asynccontextmanager
async def npx(*args: str, env: dict[str, str] | None = None) -> AsyncIterator[ClientSession]:
    params = StdioServerParameters(
        command="npx",
        args=["--no-install", *args],
        cwd=str(HERE),
        env={**os.environ, **(env or {})},
    )
    with anyio.fail_after(120):
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            yield session


def by_name(tools: list[MCPTool]) -> dict[str, MCPTool]:
    return {t.name: t for t in tools}


def convert_everywhere(tools: list[MCPTool]) -> None:
    names = {t.name for t in tools}
    assert {t["function"]["name"] for t in to_openai_chat(tools)} == names
    assert {t["name"] for t in to_anthropic(tools)} == names
    assert len(to_gemini(tools)) == len(tools)
    assert {t["name"] for t in to_mcp(tools)} == names


async def test_server_everything() -> None:
    async with npx("mcp-server-everything") as session:
        tools = by_name(await import_tools(session))
        convert_everywhere(list(tools.values()))
        echo = tools["echo"]
        assert echo.title == "Echo Tool"
        assert echo.annotations is not None
        assert echo.annotations["readOnlyHint"] is True
        assert "hello" in await echo.execute({"message": "hello"})
        with pytest.raises(StandardToolValidationError, match=r"^input validation failed: message"):
            await echo.execute({"message": 42})
        with pytest.raises(StandardToolValidationError, match="message"):
            await echo.execute({})
        total = await tools["get-sum"].execute({"a": 2, "b": 3})
        assert "5" in total
        weather = await tools["get-structured-content"].execute({"location": "Chicago"})
        assert isinstance(weather, dict)
        with pytest.raises(StandardToolValidationError, match="location"):
            await tools["get-structured-content"].execute({"location": "Atlantis"})
        image = await tools["get-tiny-image"].execute()
        assert isinstance(image, ToolOutput)  # the upstream's blocks, passed through
        assert any(isinstance(block, Image) for block in image.content)


async def test_server_memory(tmp_path: Path) -> None:
    memory = {"MEMORY_FILE_PATH": str(tmp_path / "memory.jsonl")}
    async with npx("mcp-server-memory", env=memory) as session:
        tools = by_name(await import_tools(session, prefix="memory_"))
        convert_everywhere(list(tools.values()))
        create = tools["memory_create_entities"]
        assert create.remote_name == "create_entities"
        assert create.output_schema is not None
        entity = {"name": "Ada", "entityType": "person", "observations": ["wrote notes"]}
        created = await create.execute({"entities": [entity]})
        assert created["entities"][0]["name"] == "Ada"
        with pytest.raises(StandardToolValidationError, match=r"entities\.0"):
            await create.execute({"entities": [{"name": "Bob"}]})
        graph = await tools["memory_read_graph"].execute()
        assert [e["name"] for e in graph["entities"]] == ["Ada"]
        result = await Toolkit(tools.values()).aexecute("memory_search_nodes", {"query": 3})
        assert not result.success
        assert result.error is not None
        assert result.error.startswith("input validation failed: query")


async def test_server_filesystem(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    async with npx("mcp-server-filesystem", str(root)) as session:
        tools = by_name(await import_tools(session, prefix="fs_"))
        convert_everywhere(list(tools.values()))
        note = str(root.resolve() / "note.txt")
        await tools["fs_write_file"].execute({"path": note, "content": "hi there"})
        assert (root / "note.txt").read_text() == "hi there"
        read = await tools["fs_read_text_file"].execute({"path": note})
        assert "hi there" in str(read)
        with pytest.raises(StandardToolValidationError, match="path"):
            await tools["fs_read_text_file"].execute({"path": ["not", "a", "string"]})
        outside = str(tmp_path / "secret.txt")
        (tmp_path / "secret.txt").write_text("no")
        with pytest.raises(MCPToolError):
            await tools["fs_read_text_file"].execute({"path": outside})
        refused = await tools["fs_read_text_file"].formatted().execute({"path": outside})
        assert set(refused) == {"error"}


async def test_three_servers_in_one_toolkit(tmp_path: Path) -> None:
    memory = {"MEMORY_FILE_PATH": str(tmp_path / "memory.jsonl")}
    async with (
        npx("mcp-server-everything") as everything,
        npx("mcp-server-memory", env=memory) as mem,
        npx("mcp-server-filesystem", str(tmp_path)) as fs,
    ):
        kit = Toolkit(
            [
                *await import_tools(everything, prefix="ev_"),
                *await import_tools(mem, prefix="mem_"),
                *await import_tools(fs, prefix="fs_"),
            ]
        )
        echoed = await kit.aexecute("ev_echo", {"message": "x"})
        listed = await kit.aexecute("fs_list_allowed_directories", {})
        graph = await kit.aexecute("mem_read_graph", {})
        assert (echoed.success, listed.success, graph.success) == (True, True, True)
