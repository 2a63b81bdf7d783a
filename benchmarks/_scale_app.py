"""The servers ``bench_mcp_scale.py`` runs under uvicorn: ours and the SDK's, same three tools.

``uvicorn --factory _scale_app:ours`` (or ``:sdk``) serves, stateless with one JSON
body per answer:

- ``quick``: a sync tool that adds two integers;
- ``wait``: an async tool that waits 100 ms (``await asyncio.sleep(0.1)``), I/O-bound;
- ``ask``: an async tool that asks the client a name (protocol 2026-07-28: two rounds,
  an ``input_required`` result, then the answer sent back with the request state).

Ours asks with ``ctx.elicit``; the SDK's ``MCPServer`` with its own way of asking in
rounds, a parameter filled by a resolver that returns ``Elicit``.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from mcp.server.mcpserver import Elicit, Resolve
from pydantic import BaseModel

NAME_SCHEMA = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}


def quick(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


async def wait() -> str:
    """Wait 100 ms, as a call to another service would."""
    await asyncio.sleep(0.1)
    return "waited"


class Name(BaseModel):
    """What the SDK's ``ask`` asks for."""

    name: str


def ask_name() -> Elicit[Name]:
    """The SDK's resolver: ask the client."""
    return Elicit("Name?", Name)


def ours() -> Any:
    """Our one-call server, stateless (keys from ``STANDARD_TOOL_STATE_KEYS``)."""
    from standard_tool import ToolContext, Toolkit, tool
    from standard_tool.mcp import http_app

    @tool
    async def ask(ctx: ToolContext) -> str:
        """Ask the client a name and greet it."""
        answer = await ctx.elicit("Name?", NAME_SCHEMA)
        return f"Hello, {(answer.content or {}).get('name')}!"

    tools = Toolkit([tool(quick), tool(wait), ask])
    return http_app(tools, stateless=True, json_response=True)


def sdk() -> Any:
    """The official SDK's ``MCPServer`` with the same tools, stateless."""
    from mcp.server import MCPServer

    server = MCPServer("bench-scale")
    server.tool()(quick)
    server.tool()(wait)

    @server.tool()
    async def ask(name: Annotated[Name, Resolve(ask_name)]) -> str:
        """Ask the client a name and greet it."""
        return f"Hello, {name.name}!"

    return server.streamable_http_app(stateless_http=True, json_response=True)
