"""MCP serving fills the call context and sends ``notifications/progress``.

Driven by the official MCP Python client's ``call_tool(..., progress_callback=...)``:
in memory, over stdio as a subprocess, over Streamable HTTP on 127.0.0.1, and through
``register()`` on the SDK's ``MCPServer`` and on ``fastmcp.FastMCP``.
"""

from __future__ import annotations

import functools
import socket
import sys
from typing import Any

import anyio
import fastmcp
from fastmcp import FastMCP
from mcp import Client, ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.server import MCPServer

from standard_tool import ProgressEvent, Toolkit, current_context, standard_tool
from standard_tool.mcp import register, server
from standard_tool.mcp._server import progress_sender, request_id_text
from tests import mcp_targets
from tests.test_mcp_serve import ENV, TESTS, _free_port, _http_session, _process

Seen = list[tuple[float, float | None, str | None]]


def _recorder() -> tuple[Seen, Any]:
    seen: Seen = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        seen.append((progress, total, message))

    return seen, on_progress


async def _check_progress(session: ClientSession) -> None:
    seen, on_progress = _recorder()
    result = await session.call_tool(
        "index", {"files": ["a", "b", "c"]}, progress_callback=on_progress
    )
    assert result.is_error is False
    assert seen == [(1, 3, "indexed a"), (2, 3, "indexed b"), (3, 3, "indexed c")]
    content = result.structured_content
    assert content is not None
    assert content["count"] == 3
    assert content["same"] is True
    assert content["call"]
    assert not content["call"].startswith("call_")

    seen, on_progress = _recorder()
    stepped = await session.call_tool("steps", {"n": 3}, progress_callback=on_progress)
    assert stepped.structured_content == {"result": "step 3"}
    assert seen == [(1, None, "step 1"), (2, None, "step 2"), (3, None, "step 3")]

    # No progress token: the call runs as before, nothing is sent.
    plain = await session.call_tool("index", {"files": ["a"]})
    assert plain.structured_content is not None
    assert plain.structured_content["count"] == 1


async def test_in_memory_server_sends_progress_and_fills_the_call_id() -> None:
    with anyio.fail_after(60):
        async with Client(server(mcp_targets.toolkit)) as client:
            await _check_progress(client.session)


async def test_the_call_id_is_the_json_rpc_request_id() -> None:
    with anyio.fail_after(60):
        async with Client(server(mcp_targets.toolkit)) as client:
            first = await client.session.call_tool("index", {"files": []})
            second = await client.session.call_tool("index", {"files": []})
    assert first.structured_content is not None
    assert second.structured_content is not None
    ids = [first.structured_content["call"], second.structured_content["call"]]
    assert ids[0] != ids[1]
    assert all(i.isdigit() for i in ids)  # the SDK client numbers its requests


async def test_stdio_subprocess_sends_progress() -> None:
    params = StdioServerParameters(
        command=sys.executable, args=[str(TESTS / "mcp_targets.py")], env=ENV
    )
    with anyio.fail_after(60):
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            await _check_progress(session)


async def test_streamable_http_sends_progress() -> None:
    port = _free_port()
    script = (
        "import mcp_targets\nfrom standard_tool.mcp import serve\n"
        f"serve(mcp_targets.toolkit, transport='http', port={port})"
    )
    with _process([sys.executable, "-c", script], port):
        with anyio.fail_after(60):
            async with _http_session(f"http://127.0.0.1:{port}/mcp") as session:
                await _check_progress(session)


async def test_register_on_mcpserver_sends_progress() -> None:
    srv = MCPServer("existing")
    register(srv, mcp_targets.toolkit)
    with anyio.fail_after(60):
        async with Client(srv) as client:
            await _check_progress(client.session)


async def test_register_on_fastmcp_sends_progress() -> None:
    srv = FastMCP("existing")
    register(srv, mcp_targets.toolkit)
    with anyio.fail_after(60):
        async with fastmcp.Client(srv) as client:
            await _check_progress(client.session)


async def test_the_toolkits_own_listener_still_hears_every_event() -> None:
    heard: list[ProgressEvent] = []
    kit = Toolkit([mcp_targets.index], on_progress=heard.append)
    seen, on_progress = _recorder()
    with anyio.fail_after(60):
        async with Client(server(kit)) as client:
            await client.session.call_tool(
                "index", {"files": ["a", "b"]}, progress_callback=on_progress
            )
    assert [e.message for e in heard] == ["indexed a", "indexed b"]
    assert len(seen) == 2
    assert heard[0].call_id is not None
    assert heard[0].call_id == heard[1].call_id


async def test_hostile_progress_values_are_sent_bounded_or_counted() -> None:
    def handler(value: object) -> str:
        context = current_context()
        assert context is not None
        context.report_progress(float("nan"), float("inf"), "x" * 10_000)
        context.report_progress(True, None, None, data={"not": "text"})  # type: ignore[arg-type]
        return "done"

    weird = standard_tool(name="weird", description="Report odd progress.", execute=handler)
    seen, on_progress = _recorder()
    with anyio.fail_after(60):
        async with Client(server([weird])) as client:
            result = await client.session.call_tool("weird", {}, progress_callback=on_progress)
    assert result.is_error is False
    assert [(p, t) for p, t, _ in seen] == [(1, None), (2, None)]
    assert seen[0][2] is not None
    assert len(seen[0][2]) <= 500
    assert seen[1][2] is None


async def test_a_listener_that_fails_does_not_fail_the_call() -> None:
    async def broken(progress: float, total: float | None, message: str | None) -> None:
        raise RuntimeError("client side boom")

    with anyio.fail_after(60):
        async with Client(server(mcp_targets.toolkit)) as client:
            result = await client.session.call_tool(
                "index", {"files": ["a", "b"]}, progress_callback=broken
            )
    assert result.is_error is False
    assert result.structured_content is not None
    assert result.structured_content["count"] == 2


def test_request_ids_are_read_defensively() -> None:
    assert request_id_text(7) == "7"
    assert request_id_text("abc") == "abc"
    assert request_id_text(None) is None
    assert request_id_text(True) is None
    assert request_id_text("x" * 1000) is None  # a huge id gets a generated one


async def test_many_quick_events_arrive_in_order_before_the_result() -> None:
    def burst(ctx: Any) -> int:
        for i in range(1, 201):
            ctx.report_progress(i, 200)
        return 200

    async def aburst(value: object) -> int:
        context = current_context()
        assert context is not None
        for i in range(1, 201):
            context.report_progress(i, 200)
        return 200

    sync_tool = standard_tool(
        name="burst", description="Report fast.", execute=lambda v: burst(current_context())
    )
    async_tool = standard_tool(name="aburst", description="Report fast.", execute=aburst)
    with anyio.fail_after(60):
        async with Client(server([sync_tool, async_tool])) as client:
            for name in ("burst", "aburst"):
                seen, on_progress = _recorder()
                result = await client.session.call_tool(name, {}, progress_callback=on_progress)
                assert result.content[0].text == "200"  # type: ignore[union-attr]
                assert [p for p, _, _ in seen] == list(range(1, 201))


async def test_the_cached_tools_list_cannot_be_changed_by_what_receives_it() -> None:
    srv = server(mcp_targets.toolkit)

    async def vandal(ctx: Any, call_next: Any) -> Any:
        answer = await call_next(ctx)
        if ctx.method == "tools/list":
            for listed in answer["tools"]:
                listed["inputSchema"]["properties"].clear()
            answer["tools"].clear()
        return answer

    srv.middleware.append(vandal)
    with anyio.fail_after(60):
        async with Client(srv) as client:
            await client.session.list_tools()
    with anyio.fail_after(60):
        async with Client(server(mcp_targets.toolkit)) as fresh:
            expected = (await fresh.session.list_tools()).tools
    srv.middleware.remove(vandal)
    with anyio.fail_after(60):
        async with Client(srv) as client:
            assert (await client.session.list_tools()).tools == expected


async def _senders_seen(kit: Toolkit, over_http: bool) -> list[object]:
    """The progress sender ``progress_sender`` finds for a call without, then with, a token."""
    import uvicorn

    served = server(kit)
    senders: list[object] = []

    async def spy(ctx: Any, call_next: Any) -> Any:
        if ctx.method == "tools/call":
            senders.append(progress_sender(ctx)[1])
        return await call_next(ctx)

    served.middleware.append(spy)
    _, on_progress = _recorder()

    async def calls(session: ClientSession) -> None:
        await session.call_tool("index", {"files": ["a"]})
        await session.call_tool("index", {"files": ["a"]}, progress_callback=on_progress)

    if not over_http:
        async with Client(served) as client:
            await calls(client.session)
        return senders
    # A socket listening before uvicorn starts: the client's connection waits in its backlog.
    listening = socket.create_server(("127.0.0.1", 0))
    port = listening.getsockname()[1]
    web = uvicorn.Server(uvicorn.Config(served.streamable_http_app(), log_level="warning"))
    with listening:
        async with anyio.create_task_group() as group:
            group.start_soon(functools.partial(web.serve, sockets=[listening]))
            async with _http_session(f"http://127.0.0.1:{port}/mcp") as session:
                await calls(session)
            web.should_exit = True
    return senders


async def test_a_call_without_a_progress_token_gets_no_progress_sender() -> None:
    # Nobody asked for progress: the call runs without a relay (the toolkit's own
    # listener still hears every event, as the test above shows).
    for over_http in (False, True):
        with anyio.fail_after(60):
            senders = await _senders_seen(Toolkit([mcp_targets.index]), over_http)
        assert len(senders) == 2
        assert senders[0] is None
        assert callable(senders[1])


async def test_the_toolkits_own_listener_hears_a_call_that_asked_no_progress() -> None:
    heard: list[ProgressEvent] = []
    kit = Toolkit([mcp_targets.index], on_progress=heard.append)
    with anyio.fail_after(60):
        async with Client(server(kit)) as client:
            result = await client.session.call_tool("index", {"files": ["a", "b"]})
    assert result.is_error is False
    assert [e.message for e in heard] == ["indexed a", "indexed b"]
