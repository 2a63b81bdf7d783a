"""Sync tools served over MCP run off the event loop: concurrently, streaming, never blocking.

Driven by the official MCP Python client, in memory and over stdio.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any

import anyio
from mcp import Client, ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from standard_tool.mcp import server
from tests import mcp_sync_targets
from tests.test_mcp_serve import ENV, TESTS


async def until(happened: Callable[[], bool]) -> None:
    """Wait (at most 30 s) until ``happened()`` is true."""
    for _ in range(3000):
        if happened():
            return
        await anyio.sleep(0.01)
    raise AssertionError("it never happened")


async def _four_sleepy_calls(session: ClientSession) -> tuple[float, list[Any]]:
    results: list[Any] = []

    async def one() -> None:
        results.append(await session.call_tool("sleepy", {"seconds": 0.5}))

    start = time.perf_counter()
    async with anyio.create_task_group() as calls:
        for _ in range(4):
            calls.start_soon(one)
    return time.perf_counter() - start, results


async def test_four_sync_calls_run_at_once_in_memory() -> None:
    with anyio.fail_after(60):
        async with Client(server(mcp_sync_targets.toolkit)) as client:
            took, results = await _four_sleepy_calls(client.session)
    assert [r.structured_content for r in results] == [{"result": "slept"}] * 4
    assert took < 1.5  # one after another they take 2 s


async def test_four_sync_calls_run_at_once_over_stdio() -> None:
    params = StdioServerParameters(
        command=sys.executable, args=[str(TESTS / "mcp_sync_targets.py")], env=ENV
    )
    with anyio.fail_after(60):
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            took, results = await _four_sleepy_calls(session)
    assert [r.structured_content for r in results] == [{"result": "slept"}] * 4
    assert took < 1.5


async def test_a_stuck_sync_tool_does_not_stop_other_requests() -> None:
    mcp_sync_targets.SEEN.clear()
    with anyio.fail_after(60):
        async with Client(server(mcp_sync_targets.toolkit)) as client:
            session = client.session
            async with anyio.create_task_group() as held:
                held.start_soon(session.call_tool, "hold", {})
                await until(lambda: "hold started" in mcp_sync_targets.SEEN)
                # The held call blocks its thread, not the server.
                listed = await session.list_tools()
                assert "hold" in {t.name for t in listed.tools}
                slept = await session.call_tool("sleepy", {"seconds": 0})
                assert slept.structured_content == {"result": "slept"}
                seen = await session.call_tool("seen", {})
                assert seen.structured_content == {"result": ["hold started"]}
                held.cancel_scope.cancel()
            await until(lambda: "hold cancelled" in mcp_sync_targets.SEEN)


async def test_a_sync_generator_streams_its_progress_while_it_runs() -> None:
    mcp_sync_targets.SEEN.clear()
    mcp_sync_targets.CLIENT_HEARD.clear()
    heard: list[str | None] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        heard.append(message)
        if message == "tick 1":
            mcp_sync_targets.CLIENT_HEARD.set()

    with anyio.fail_after(60):
        async with Client(server(mcp_sync_targets.toolkit)) as client:
            result = await client.session.call_tool(
                "ticks", {"n": 3}, progress_callback=on_progress
            )
    assert result.structured_content == {"result": "tick 3"}
    assert heard == ["tick 1", "tick 2", "tick 3"]
    # The tool waited, after its first yield, until the client had heard it.
    assert mcp_sync_targets.SEEN == ["client heard tick 1 first: True"]


async def test_registered_sync_tools_run_at_once_on_mcpserver_and_fastmcp() -> None:
    import fastmcp
    from fastmcp import FastMCP
    from mcp.server import MCPServer

    from standard_tool.mcp import register

    sdk = MCPServer("existing")
    register(sdk, mcp_sync_targets.toolkit)
    fast = FastMCP("existing")
    register(fast, mcp_sync_targets.toolkit)
    with anyio.fail_after(60):
        async with Client(sdk) as client:
            took, results = await _four_sleepy_calls(client.session)
        assert [r.structured_content for r in results] == [{"result": "slept"}] * 4
        assert took < 1.5
        async with fastmcp.Client(fast) as fast_client:
            took, results = await _four_sleepy_calls(fast_client.session)
        assert [r.structured_content for r in results] == [{"result": "slept"}] * 4
        assert took < 1.5
