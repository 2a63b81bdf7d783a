"""One MCP server for ``bench_serve.py``: ours, the SDK's or fastmcp's, under uvicorn.

Usage: ``python benchmarks/_serve_app.py KIND PORT FILLERS`` with KIND ``ours``,
``sdk`` or ``fastmcp``. The process pins itself to CPU 0 (when the machine has two
or more) and serves the same tools each way: ``add``, a nested ``order``, a sync
``nap`` that sleeps 100 ms, and FILLERS more small tools for ``tools/list``.

KIND ``workers`` serves our stateless app under FILLERS uvicorn workers exactly as
``uvicorn --factory --workers N`` does; ``workers-nodelay`` is docs/mcp.md's recipe,
the same with ``TCP_NODELAY`` set on the listening socket.
"""

from __future__ import annotations

import os
import sys
import time
from typing import Annotated, Any

from annotated_types import Gt
from typing_extensions import NotRequired, TypedDict


class Item(TypedDict):
    sku: str
    qty: Annotated[int, Gt(0)]


class Address(TypedDict):
    street: str
    city: str
    zip: str


class Order(TypedDict):
    id: str
    items: list[Item]
    ship_to: Address
    note: NotRequired[str | None]


def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


def order(order: Order) -> str:
    """Place an order."""
    return f"{order['id']}: {sum(item['qty'] for item in order['items'])} units"


def nap() -> str:
    """Sleep 100 ms in the calling thread."""
    time.sleep(0.1)
    return "rested"


def _filler(index: int) -> Any:
    def filler(x: int) -> int:
        return x + index

    filler.__name__ = f"filler_{index}"
    filler.__doc__ = f"Filler tool number {index}."
    return filler


def app(kind: str, fillers: int) -> Any:
    functions = [add, order, nap, *(_filler(i) for i in range(fillers))]
    if kind == "ours":
        from standard_tool import Toolkit, tool
        from standard_tool.mcp import http_app

        return http_app(Toolkit([tool(f) for f in functions]))
    if kind == "sdk":
        from mcp.server.mcpserver import MCPServer

        sdk = MCPServer("bench")
        for f in functions:
            sdk.tool()(f)
        return sdk.streamable_http_app()
    if kind in ("floor", "floor-thread"):
        return _floor_app(threaded=kind == "floor-thread")
    if kind == "fastmcp":
        from fastmcp import FastMCP

        fast = FastMCP("bench")
        for f in functions:
            fast.tool(f)
        return fast.http_app()
    raise SystemExit(f"unknown server kind {kind!r}")


def _floor_app(threaded: bool) -> Any:
    """The least a server on the SDK's transport can do: every call answered with a constant.

    The SDK's low-level ``Server`` under its own ``streamable_http_app``, one handler
    that returns a prepared result without running anything: what is left is the
    transport, the same for the SDK's server and ours. ``threaded`` adds what any
    server that runs a sync tool off the event loop pays: one hop to anyio's worker
    thread and back.
    """
    import anyio.to_thread
    from mcp.server.lowlevel import Server

    # What ours answers for ``add``; the tools are listed without an outputSchema, so
    # the client does not check the answer against one.
    answer = {
        "content": [{"type": "text", "text": "3"}],
        "structuredContent": {"result": 3},
        "isError": False,
    }
    tools = {"tools": [{"name": n, "inputSchema": {"type": "object"}} for n in ("add", "order")]}

    def nothing() -> None:
        return None

    async def on_call_tool(ctx: Any, params: Any) -> dict[str, Any]:
        if threaded:
            await anyio.to_thread.run_sync(nothing)
        return answer

    async def on_list_tools(ctx: Any, params: Any) -> dict[str, Any]:
        return tools

    return Server(
        "floor", on_call_tool=on_call_tool, on_list_tools=on_list_tools
    ).streamable_http_app()


def make_app() -> Any:
    """Our stateless server, the app factory the multi-worker cases give uvicorn."""
    from standard_tool import Toolkit, tool
    from standard_tool.mcp import http_app

    return http_app(Toolkit([tool(add)]), stateless=True, json_response=True)


def workers(port: int, count: int, nodelay: bool) -> None:
    """Serve ``make_app`` under ``count`` uvicorn workers, as docs/mcp.md's recipe does."""
    import socket

    import uvicorn
    from uvicorn.supervisors import Multiprocess

    config = uvicorn.Config(
        "_serve_app:make_app",
        factory=True,
        host="127.0.0.1",
        port=port,
        workers=count,
        log_level="warning",
    )
    sock = config.bind_socket()
    if nodelay:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    Multiprocess(config, sockets=[sock]).run()


def main() -> None:
    kind, port, fillers = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    if hasattr(os, "sched_setaffinity") and (os.cpu_count() or 1) > 1:
        os.sched_setaffinity(0, {0})
    if kind in ("workers", "workers-nodelay"):
        workers(port, fillers, nodelay=kind == "workers-nodelay")
        return
    import uvicorn

    uvicorn.run(app(kind, fillers), host="127.0.0.1", port=port, log_level="warning")


if __name__ == "__main__":
    main()
