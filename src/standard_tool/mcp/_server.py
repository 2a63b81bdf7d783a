"""Serve tools over MCP: a low-level SDK server, a Streamable HTTP app, one blocking call.

Layer: top (imports the core, the toolkit and the providers; ``mcp``, ``anyio`` and
``uvicorn`` lazily).
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any, cast

from typing_extensions import Literal

from standard_tool._context import ProgressEvent
from standard_tool._core import optional_member
from standard_tool._shared import truncate_text
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


#: Sends one ``notifications/progress`` for the running request: (progress, total, message).
SendProgress = Callable[[float, "float | None", "str | None"], Awaitable[Any]]

_MAX_CALL_ID = 200
_MAX_MESSAGE = 500
#: Seconds one progress notification may take to send before it is dropped.
_SEND_LIMIT = 5.0


def request_id_text(request_id: object) -> str | None:
    """Turn a JSON-RPC request id into a call id; ``None`` (generate one) when absent or huge."""
    if request_id is None or isinstance(request_id, bool):
        return None
    text = str(request_id)
    return text if 0 < len(text) <= _MAX_CALL_ID else None


def progress_sender(ctx: Any) -> tuple[str | None, SendProgress | None]:
    """Read an SDK ``ServerRequestContext``: the call id and the request's progress sender.

    The sender is the request-scoped ``session.report_progress``: it sends
    ``notifications/progress`` when the client gave a ``progressToken`` (in
    memory it calls the client's callback) and does nothing otherwise.
    """
    call_id = request_id_text(getattr(ctx, "request_id", None))
    send: SendProgress | None = getattr(getattr(ctx, "session", None), "report_progress", None)
    return call_id, send if callable(send) else None


def _message(event: ProgressEvent) -> str | None:
    if event.message is not None:
        return truncate_text(str(event.message), _MAX_MESSAGE)
    if isinstance(event.data, str):
        return truncate_text(event.data, _MAX_MESSAGE)
    return None


def _number(value: object) -> float | None:
    if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
        return float(value)
    return None


async def _notify(send: SendProgress, event: ProgressEvent, count: int) -> None:
    import anyio

    progress = _number(event.progress)
    # A failing or stuck client must not fail, nor hold, the call it watches.
    with contextlib.suppress(Exception), anyio.move_on_after(_SEND_LIMIT):
        await send(count if progress is None else progress, _number(event.total), _message(event))


async def run_call(
    kit: Toolkit,
    name: str,
    arguments: dict[str, Any],
    meta: Any,
    timeout: float | None,
    *,
    call_id: str | None = None,
    send_progress: SendProgress | None = None,
) -> ToolResult:
    """Run one ``tools/call``: the one place every MCP server of this package runs a tool.

    The call's ``ToolContext`` gets ``call_id`` (the request id; a generated one
    when ``None``). With ``send_progress`` (the request's progress sender) every
    ``ProgressEvent`` the tool reports is sent while the tool runs (a yield
    without a number counts 1, 2, 3...), and is still given to the toolkit's own
    ``on_progress``.
    """
    if send_progress is None:
        return await kit.aexecute(name, arguments, meta, timeout=timeout, call_id=call_id)
    count = 0
    result: ToolResult | None = None
    stream = kit.astream(name, arguments, meta, timeout=timeout, call_id=call_id)
    async for event in stream:
        if isinstance(event, ToolResult):
            result = event
            continue
        count += 1
        if kit.on_progress is not None:
            with contextlib.suppress(Exception):
                kit.on_progress(event)
        await _notify(send_progress, event, count)
    assert result is not None  # astream always ends with the result
    return result


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
    wrap = {
        t.name: mcp_output_wrapped(t) if optional_member(t, "output_schema") is not None else None
        for t in kit
    }

    async def on_list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return listed.model_copy(deep=True)

    async def on_call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        arguments = {} if params.arguments is None else params.arguments
        call_id, send = progress_sender(ctx)
        result = await run_call(
            kit, params.name, arguments, meta, timeout, call_id=call_id, send_progress=send
        )
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
