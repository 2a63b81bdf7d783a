"""MCP both ways: serve tools to MCP clients, and use an MCP server's tools.

Serve: ``serve(tools)`` over stdio or Streamable HTTP; ``http_app(tools)`` for any ASGI
server (several workers when stateless); ``server(tools)`` for the SDK's low-level
``Server``; ``register(existing, tools)`` for an ``MCPServer`` or ``fastmcp.FastMCP``.
Over protocol 2026-07-28 (no requests to the client) a tool that asks its client
is answered through input-required rounds (``InputRequired``), its state signed with
``RequestStateKeys`` (and bound to the authenticated principal), accepted once when
the server records used states (``UsedStates``).
Use: ``await import_tools(session)`` turns the tools of any MCP server into Standard
Tools; with ``relay_callbacks()`` given to the session and to ``import_tools``, what
the server asks during a call (logs, sampling, elicitation) reaches that call's caller.

Layer: top (imports the core, the schema adapters, the toolkit and the providers; the
``mcp`` package only inside functions).
"""

from standard_tool.mcp._client import (
    MCPConnectionError,
    MCPTool,
    MCPToolError,
    MCPToolRefusedWarning,
    import_tools,
)
from standard_tool.mcp._register import register
from standard_tool.mcp._relay import RelayCallbacks, relay_callbacks
from standard_tool.mcp._rounds import InputRequired
from standard_tool.mcp._server import LiveTools, http_app, serve, server, tools_list_entries
from standard_tool.mcp._state import OpenedState, RequestStateError, RequestStateKeys, UsedStates
from standard_tool.mcp._task_client import task_extension
from standard_tool.mcp._task_server import TaskOptions
from standard_tool.mcp._tasks import MemoryTaskStore, RedisTaskStore, TaskStore, TaskStoreError

__all__ = [
    "InputRequired",
    "LiveTools",
    "MCPConnectionError",
    "MCPTool",
    "MCPToolError",
    "MCPToolRefusedWarning",
    "MemoryTaskStore",
    "OpenedState",
    "RedisTaskStore",
    "RelayCallbacks",
    "RequestStateError",
    "RequestStateKeys",
    "TaskOptions",
    "TaskStore",
    "TaskStoreError",
    "UsedStates",
    "http_app",
    "import_tools",
    "register",
    "relay_callbacks",
    "serve",
    "server",
    "task_extension",
    "tools_list_entries",
]
