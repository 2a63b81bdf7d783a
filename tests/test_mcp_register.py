"""``standard_tool.mcp.register`` on the SDK's ``MCPServer`` and on ``fastmcp.FastMCP``.

Each server keeps its own tools; ours keep their validation, output schema and
``structuredContent``, ``isError`` results, title and annotations.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
import fastmcp
import pytest
from fastmcp import FastMCP
from mcp import Client, ClientSession
from mcp.server import MCPServer

from standard_tool.mcp import register
from tests import mcp_targets

ANNOTATIONS = {"move": {"readOnlyHint": True, "idempotentHint": True}}


def native_mcpserver() -> Any:
    srv = MCPServer("existing")

    @srv.tool()
    def hello(who: str) -> str:
        """Say hello."""
        return f"hello {who}"

    return srv


def native_fastmcp() -> Any:
    srv = FastMCP("existing")

    @srv.tool
    def hello(who: str) -> str:
        """Say hello."""
        return f"hello {who}"

    return srv


@asynccontextmanager
async def connected(srv: Any) -> AsyncIterator[ClientSession]:
    with anyio.fail_after(60):
        if isinstance(srv, FastMCP):
            async with fastmcp.Client(srv) as fast:
                yield fast.session
        else:
            async with Client(srv) as client:
                yield client.session


async def _check(srv: Any) -> None:
    register(srv, mcp_targets.toolkit, annotations=ANNOTATIONS)
    async with connected(srv) as session:
        listed = {t.name: t for t in (await session.list_tools()).tools}
        assert {"hello", "add", "move", "code", "explode"} <= set(listed)
        move = listed["move"]
        assert move.title == "Move a point"
        assert move.annotations is not None
        assert (move.annotations.read_only_hint, move.annotations.idempotent_hint) == (
            True,
            True,
        )
        assert move.output_schema is not None
        assert move.output_schema["required"] == ["x", "y", "worker"]
        assert listed["code"].input_schema["properties"]["value"]["pattern"] == ("^[A-Z]{2}-\\d+$")

        hello = await session.call_tool("hello", {"who": "you"})
        assert "hello you" in hello.content[0].text  # type: ignore[union-attr]

        moved = await session.call_tool("move", {"point": {"x": 1, "y": 1}, "dy": 2})
        assert moved.is_error is False
        assert moved.structured_content is not None
        assert (moved.structured_content["x"], moved.structured_content["y"]) == (1, 3)

        added = await session.call_tool("add", {"a": 2})
        assert added.structured_content == {"result": 2}

        bad = await session.call_tool("code", {"value": "lower-1"})
        assert bad.is_error is True
        assert bad.content[0].text.startswith(  # type: ignore[union-attr]
            "Error: input validation failed: value"
        )
        failed = await session.call_tool("explode", {"reason": "on purpose"})
        assert failed.is_error is True
        assert "on purpose" in failed.content[0].text  # type: ignore[union-attr]


async def test_register_on_the_sdks_mcpserver() -> None:
    await _check(native_mcpserver())


async def test_register_on_fastmcp() -> None:
    await _check(native_fastmcp())


def test_register_refuses_another_kind_of_server() -> None:
    with pytest.raises(TypeError, match=r"register\(\) takes an MCPServer or a fastmcp.FastMCP"):
        register(object(), mcp_targets.toolkit)


def fastmcp_as_written() -> Any:
    """fastmcp inlines every tool's $refs itself unless told not to."""
    return FastMCP("existing", dereference_schemas=False)


@pytest.mark.parametrize(
    "make", [native_mcpserver, fastmcp_as_written], ids=["mcpserver", "fastmcp"]
)
@pytest.mark.parametrize("keep", [False, True])
async def test_register_keeps_a_2020_12_schema_as_written_when_asked(make: Any, keep: bool) -> None:
    """As ``server(keep_schemas=True)``: ``$schema``, ``$defs`` and ``$ref`` stay."""
    from standard_tool import standard_tool
    from standard_tool.mcp import tools_list_entries
    from standard_tool.schemas.jsonschema import from_json_schema

    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {"at": {"$ref": "#/$defs/point"}},
        "required": ["at"],
        "$defs": {"point": {"type": "object", "properties": {"x": {"type": "integer"}}}},
    }
    where = standard_tool(
        name="where",
        description="Say where.",
        input_schema=from_json_schema(schema),
        execute=lambda value: str(value["at"]),
    )
    srv = make()
    register(srv, [where], keep_schemas=keep)
    async with connected(srv) as session:
        listed = {t.name: t for t in (await session.list_tools()).tools}
        answer = await session.call_tool("where", {"at": {"x": 1}})
    declared = listed["where"].input_schema
    assert declared == tools_list_entries([where], keep_schemas=keep)[0]["inputSchema"]
    assert ("$schema" in declared, "$defs" in declared) == (keep, keep)
    assert answer.is_error is False
