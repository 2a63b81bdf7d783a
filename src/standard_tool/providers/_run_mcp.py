"""Serve tools over MCP with the official SDK's low-level ``Server`` (mcp 2.x).

``mcp_tool_handlers`` returns the ``on_list_tools`` and ``on_call_tool`` handlers
for ``mcp.server.lowlevel.Server``; ``mcp_server`` builds a server with them.
Calls run through a ``Toolkit``, so an unknown tool,
invalid arguments, an exception and a timeout all become a ``CallToolResult`` with
``isError: true`` that the model can correct itself from.

Layer: providers (imports the core, the shared helpers and the toolkit; never the
package root).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from typing_extensions import TypedDict

from standard_tool._toolkit import Toolkit, ToolResult
from standard_tool.providers._mcp import mcp_output_wrapped, to_mcp
from standard_tool.providers._results import mcp_call_tool_result
from standard_tool.providers._run import Tools

if TYPE_CHECKING:
    import mcp_types
    from mcp.server.context import ServerRequestContext
    from mcp.server.lowlevel import Server

__all__ = ["MCPToolHandlers", "mcp_server", "mcp_tool_handlers"]


class MCPToolHandlers(TypedDict):
    """The keyword arguments ``mcp_tool_handlers`` returns for ``Server(...)``."""

    on_list_tools: Callable[
        [ServerRequestContext[Any, Any], mcp_types.PaginatedRequestParams | None],
        Awaitable[mcp_types.ListToolsResult],
    ]
    on_call_tool: Callable[
        [ServerRequestContext[Any, Any], mcp_types.CallToolRequestParams],
        Awaitable[mcp_types.CallToolResult],
    ]


def _toolkit(tools: Tools) -> Toolkit:
    return tools if isinstance(tools, Toolkit) else Toolkit(tools)


def mcp_tool_handlers(
    tools: Tools, *, meta: Any = None, timeout: float | None = None
) -> MCPToolHandlers:
    """Return ``on_list_tools`` and ``on_call_tool`` handlers serving ``tools``.

    Pass them to the MCP SDK's low-level server next to your other handlers:
    ``Server("name", **mcp_tool_handlers(kit), on_list_prompts=...)``.

    ``tools/list`` answers with every tool as ``to_mcp`` declares it (built
    once, here, so a tool MCP cannot describe fails now rather than at the first
    request). ``tools/call`` runs the tool with ``Toolkit.aexecute`` and answers with
    ``mcp_call_tool_result``: the text and ``structuredContent`` of the output
    (wrapped as ``{"result": ...}`` exactly when the declared ``outputSchema`` is),
    or ``isError: true`` with ``"Error: <reason>"`` for an unknown tool, invalid
    arguments, an exception or a timeout.

    Args:
        tools: a ``Toolkit`` or any iterable of tools.
        meta: passed verbatim to every tool.
        timeout: seconds each call may take.

    Raises:
        ProviderSchemaError: a tool cannot be described for MCP.
        ImportError: the ``mcp`` package is not installed.
    """
    import mcp_types

    kit = _toolkit(tools)
    listed = mcp_types.ListToolsResult.model_validate({"tools": to_mcp(kit)})
    wrap = {t.name: mcp_output_wrapped(t) if t.output_schema is not None else None for t in kit}

    async def on_list_tools(
        ctx: ServerRequestContext[Any, Any], params: mcp_types.PaginatedRequestParams | None
    ) -> mcp_types.ListToolsResult:
        return listed.model_copy(deep=True)

    async def on_call_tool(
        ctx: ServerRequestContext[Any, Any], params: mcp_types.CallToolRequestParams
    ) -> mcp_types.CallToolResult:
        arguments = {} if params.arguments is None else params.arguments
        result = await kit.aexecute(params.name, arguments, meta, timeout=timeout)
        return mcp_types.CallToolResult.model_validate(_call_result(result, wrap.get(result.name)))

    return {"on_list_tools": on_list_tools, "on_call_tool": on_call_tool}


def _call_result(result: ToolResult, wrap: bool | None) -> dict[str, Any]:
    if result.success:
        return mcp_call_tool_result(result.value, wrap=wrap)
    return {"content": [{"type": "text", "text": f"Error: {result.error}"}], "isError": True}


def mcp_server(
    tools: Tools,
    *,
    name: str = "standard-tool",
    meta: Any = None,
    timeout: float | None = None,
    **server_options: Any,
) -> Server[Any]:
    """Build an MCP SDK low-level ``Server`` that serves ``tools``.

    A shortcut for ``Server(name, **mcp_tool_handlers(tools, ...), **server_options)``;
    run it with any MCP transport (stdio, Streamable HTTP, or in process with
    ``mcp.Client(server)``).

    Args:
        tools: a ``Toolkit`` or any iterable of tools.
        name: the server name announced to clients.
        meta: passed verbatim to every tool.
        timeout: seconds each call may take.
        **server_options: other ``Server`` options (``version``, ``instructions``...).
    """
    from mcp.server.lowlevel import Server

    handlers = mcp_tool_handlers(tools, meta=meta, timeout=timeout)
    return Server(name, **handlers, **server_options)
