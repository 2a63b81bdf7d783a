"""Serve tools over MCP: a low-level SDK server, a Streamable HTTP app, one blocking call.

Layer: top (imports the core, the toolkit and the providers; ``mcp``, ``anyio`` and
``uvicorn`` lazily).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, cast

from typing_extensions import Literal

from standard_tool._toolkit import Toolkit, ToolResult
from standard_tool.providers._mcp import mcp_call_tool_result, mcp_output_wrapped, to_mcp
from standard_tool.providers._runner import Tools, toolkit

if TYPE_CHECKING:
    from mcp.server.lowlevel import Server
    from starlette.applications import Starlette

__all__ = ["http_app", "serve", "server", "tools_list_entries"]

Transport = Literal["stdio", "http"]


def _mapping(value: object) -> dict[str, Any] | None:
    if isinstance(value, Mapping):
        return {str(k): v for k, v in cast("Mapping[object, Any]", value).items()}
    return None


def tools_list_entries(
    tools: Tools, *, annotations: Mapping[str, Mapping[str, Any]] | None = None
) -> list[dict[str, Any]]:
    """Describe every tool as the ``tools/list`` entry this package's servers send.

    The entry is ``to_mcp(tool)`` plus, when the tool carries them (a tool
    imported from another MCP server does), its ``annotations`` and its ``_meta``
    (the ``mcp_meta`` attribute), so a gateway passes them on unchanged.

    Args:
        tools: a ``Toolkit`` or any iterable of tools.
        annotations: MCP tool annotations by tool name (``readOnlyHint``,
            ``destructiveHint``...); they replace a tool's own.

    Raises:
        ProviderSchemaError: a tool cannot be described for MCP.
    """
    entries: list[dict[str, Any]] = []
    for tool in toolkit(tools):
        given = (annotations or {}).get(tool.name)
        own = _mapping(getattr(tool, "annotations", None) if given is None else given)
        entry = to_mcp(tool, annotations=own)
        meta = _mapping(getattr(tool, "mcp_meta", None))
        if meta is not None:
            entry["_meta"] = meta
        entries.append(entry)
    return entries


def call_result(result: ToolResult, wrap: bool | None) -> dict[str, Any]:
    if result.success:
        return dict(mcp_call_tool_result(result.value, wrap=wrap))
    return {"content": [{"type": "text", "text": f"Error: {result.error}"}], "isError": True}


async def run_call(
    kit: Toolkit, name: str, arguments: dict[str, Any], meta: Any, timeout: float | None
) -> ToolResult:
    # The one place a tools/call runs a tool. The call context and progress
    # notifications (issue 10) attach here: set the ToolContext from the request's
    # progress token before running, and forward the tool's progress events.
    return await kit.aexecute(name, arguments, meta, timeout=timeout)


def server(
    tools: Tools,
    *,
    name: str = "standard-tool",
    annotations: Mapping[str, Mapping[str, Any]] | None = None,
    meta: Any = None,
    timeout: float | None = None,
    **server_options: Any,
) -> Server[Any]:
    """Build the MCP SDK's low-level ``Server`` answering ``tools/list`` and ``tools/call``.

    Every tool is declared once, here (so a tool MCP cannot describe fails now,
    not at the first request), as ``tools_list_entries`` describes it. A call runs
    through ``Toolkit.aexecute``: the input is validated by the tool, the answer is
    the output's text and ``structuredContent`` (matching the declared
    ``outputSchema``), or ``isError: true`` with ``"Error: <reason>"`` for an
    unknown tool, invalid arguments, an exception or a timeout.

    Args:
        tools: a ``Toolkit`` or any iterable of tools.
        name: the server name announced to clients.
        annotations: MCP tool annotations by tool name (see ``tools_list_entries``).
        meta: passed verbatim to every tool.
        timeout: seconds each call may take.
        **server_options: other ``Server`` options (``version``, ``instructions``...).

    Raises:
        ProviderSchemaError: a tool cannot be described for MCP.
        DuplicateToolNameError: two tools share a name.
    """
    from mcp import types
    from mcp.server.lowlevel import Server

    kit = toolkit(tools)
    listed = types.ListToolsResult.model_validate(
        {"tools": tools_list_entries(kit, annotations=annotations)}
    )
    wrap = {t.name: mcp_output_wrapped(t) if t.output_schema is not None else None for t in kit}

    async def on_list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return listed.model_copy(deep=True)

    async def on_call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        arguments = {} if params.arguments is None else params.arguments
        result = await run_call(kit, params.name, arguments, meta, timeout)
        return types.CallToolResult.model_validate(call_result(result, wrap.get(result.name)))

    return Server(name, on_list_tools=on_list_tools, on_call_tool=on_call_tool, **server_options)


def http_app(
    tools: Tools,
    *,
    path: str = "/mcp",
    stateless: bool = False,
    json_response: bool = False,
    host: str = "127.0.0.1",
    name: str = "standard-tool",
    meta: Any = None,
    timeout: float | None = None,
) -> Starlette:
    """Build an ASGI app serving ``tools`` over MCP Streamable HTTP at ``path``.

    Run it with any ASGI server. With ``stateless=True`` no session lives
    between requests, so several worker processes can share the load:
    ``uvicorn --factory --workers 4 myserver:make_app``.

    Args:
        tools: a ``Toolkit`` or any iterable of tools.
        path: the endpoint's path.
        stateless: serve each request on its own, without ``Mcp-Session-Id``.
        json_response: answer with plain JSON instead of an event stream.
        host: the host the app is served on; for ``127.0.0.1``, ``localhost``
            and ``::1`` the SDK refuses other ``Host`` and ``Origin`` headers
            (DNS rebinding protection).
        name: the server name announced to clients.
        meta: passed verbatim to every tool.
        timeout: seconds each call may take.
    """
    app_server = server(tools, name=name, meta=meta, timeout=timeout)
    return app_server.streamable_http_app(
        streamable_http_path=path,
        stateless_http=stateless,
        json_response=json_response,
        host=host,
    )


def serve(
    tools: Tools,
    *,
    transport: Transport = "stdio",
    host: str = "127.0.0.1",
    port: int = 8000,
    path: str = "/mcp",
    stateless: bool = False,
    name: str = "standard-tool",
    meta: Any = None,
    timeout: float | None = None,
) -> None:
    """Serve ``tools`` over MCP until the client disconnects or the process is stopped.

    ``transport="stdio"`` reads requests from standard input and answers on
    standard output, as MCP clients (Claude Desktop, IDEs) start a local server;
    nothing else may print to standard output meanwhile. ``transport="http"``
    serves Streamable HTTP with uvicorn on ``host:port`` at ``path``.

    Args:
        tools: a ``Toolkit`` or any iterable of tools.
        transport: ``"stdio"`` or ``"http"``.
        host: HTTP only: the address to listen on.
        port: HTTP only: the port.
        path: HTTP only: the endpoint's path.
        stateless: HTTP only: no session between requests (see ``http_app``).
        name: the server name announced to clients.
        meta: passed verbatim to every tool.
        timeout: seconds each call may take.

    Raises:
        ValueError: ``transport`` is neither ``"stdio"`` nor ``"http"``.
    """
    if transport == "http":
        import uvicorn

        app = http_app(
            tools, path=path, stateless=stateless, host=host, name=name, meta=meta, timeout=timeout
        )
        uvicorn.run(app, host=host, port=port, log_level="warning")
        return
    if transport != "stdio":
        raise ValueError(f"transport must be 'stdio' or 'http', not {str(transport)[:40]!r}")
    import anyio
    from mcp.server.stdio import stdio_server

    stdio = server(tools, name=name, meta=meta, timeout=timeout)

    async def run() -> None:
        async with stdio_server() as (read_stream, write_stream):
            await stdio.run(read_stream, write_stream, stdio.create_initialization_options())

    anyio.run(run)
