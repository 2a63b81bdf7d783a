"""Register tools on MCP servers users already have: the SDK's ``MCPServer`` and ``fastmcp``.

Layer: top (imports the toolkit, the providers and ``standard_tool.mcp._server``; ``mcp``
and ``fastmcp`` lazily).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping
from functools import cache
from typing import Any, cast

from standard_tool._context import Caller, LogLevel
from standard_tool._core import optional_member
from standard_tool._shared import checked_timeout
from standard_tool._toolkit import Toolkit
from standard_tool.mcp._server import (
    SendProgress,
    call_result,
    progress_sender,
    request_id_text,
    run_call,
    tools_list_entries,
)
from standard_tool.providers._mcp import mcp_output_wrapped
from standard_tool.providers._mcp_caller import session_caller
from standard_tool.providers._runner import Tools, toolkit

__all__ = ["register"]


def register(
    server: Any,
    tools: Tools,
    *,
    annotations: Mapping[str, Mapping[str, Any]] | None = None,
    meta: Any = None,
    timeout: float | None = None,
    keep_schemas: bool = False,
) -> None:
    """Add ``tools`` to an existing MCP server, beside the tools it already has.

    The server may be the MCP SDK's high-level ``mcp.server.MCPServer`` or
    ``fastmcp.FastMCP``. The tools keep everything ``serve`` gives them: our input
    validation (the schema listed is the schema enforced), the ``outputSchema`` and
    ``structuredContent``, ``isError`` results naming what went wrong, the title
    and the annotations. A tool's ``ToolContext.log``, ``elicit`` and
    ``sample`` reach the MCP client of the call.

    On an ``MCPServer`` the tools are answered by a server middleware placed
    innermost (last in ``server.middleware``), so every middleware the server
    has when ``register`` is called (the SDK's tracing and request state, and
    your own) sees their calls; add your own middleware before calling
    ``register``. A tool registered here hides a server tool of the same name.
    On ``fastmcp`` each tool is a ``fastmcp.tools.Tool`` added with ``add_tool``.

    Args:
        server: an ``MCPServer`` or a ``fastmcp.FastMCP``.
        tools: a ``Toolkit`` or any iterable of tools.
        annotations: MCP tool annotations by tool name (``readOnlyHint``...);
            a tool's own ``annotations`` attribute is used otherwise.
        meta: passed verbatim to every tool.
        timeout: seconds each call may take.
        keep_schemas: declare schemas as written, as ``server(keep_schemas=True)``
            does (see ``tools_list_entries``).

    Raises:
        TypeError: ``server`` is neither kind.
        ProviderSchemaError: a tool cannot be described for MCP.
    """
    timeout = checked_timeout(timeout, "register")
    kit = toolkit(tools)
    entries = tools_list_entries(kit, annotations=annotations, keep_schemas=keep_schemas)
    if type(server).__module__.split(".")[0] == "fastmcp":
        for entry in entries:
            server.add_tool(_fastmcp_tool(kit, entry, meta, timeout))
        return
    from mcp.server import MCPServer

    if not isinstance(server, MCPServer):
        kind = type(server).__qualname__[:80]
        raise TypeError(f"register() takes an MCPServer or a fastmcp.FastMCP, not {kind}")
    server.middleware.append(_ToolsMiddleware(kit, entries, meta, timeout))


def _wrap(kit: Toolkit, name: str) -> bool | None:
    tool = kit.get(name)
    return mcp_output_wrapped(tool) if optional_member(tool, "output_schema") is not None else None


def _bad_arguments() -> dict[str, Any]:
    text = "Error: input validation failed: arguments must be a JSON object"
    return {"content": [{"type": "text", "text": text}], "isError": True}


class _ToolsMiddleware:
    """Answers ``tools/call`` for our tools and adds them to ``tools/list``."""

    def __init__(
        self, kit: Toolkit, entries: list[dict[str, Any]], meta: Any, timeout: float | None
    ) -> None:
        self.kit = kit
        self.entries = entries
        self.wrap = {name: _wrap(kit, name) for name in kit.names}
        self.meta = meta
        self.timeout = timeout

    async def __call__(self, ctx: Any, call_next: Any) -> Any:
        from mcp import types

        raw: object = ctx.params
        params: Mapping[str, Any] = (
            cast("Mapping[str, Any]", raw) if isinstance(raw, Mapping) else {}
        )
        if ctx.method == "tools/call" and params.get("name") in self.wrap:
            name: str = params["name"]
            given: object = params.get("arguments")
            if given is None:
                given = {}
            if not isinstance(given, dict):
                return types.CallToolResult.model_validate(_bad_arguments())
            arguments = cast("dict[str, Any]", given)
            call_id, send = progress_sender(ctx)
            result = await run_call(
                self.kit,
                name,
                arguments,
                self.meta,
                self.timeout,
                call_id=call_id,
                send_progress=send,
                caller=session_caller(ctx, asyncio.get_running_loop()),
            )
            return types.CallToolResult.model_validate(call_result(result, self.wrap[name]))
        result = await call_next(ctx)
        if ctx.method != "tools/list" or params.get("cursor") is not None:
            return result
        listed: dict[str, Any] = (
            result.model_dump(mode="json", by_alias=True, exclude_none=True)
            if hasattr(result, "model_dump")
            else dict(result or {})
        )
        theirs = [t for t in listed.get("tools", []) if t.get("name") not in self.wrap]
        listed["tools"] = [*theirs, *self.entries]
        return types.ListToolsResult.model_validate(listed)


def _fastmcp_request() -> tuple[str | None, SendProgress | None, Caller | None]:
    """Read the running fastmcp request: its id, ``Context.report_progress`` and its caller."""
    from fastmcp.server.dependencies import get_context

    try:
        context = get_context()
    except RuntimeError:  # run outside a request
        return None, None, None
    request = context.request_context
    if request is None:
        return None, None, None
    call_id = request_id_text(request.request_id)
    send: SendProgress = context.report_progress
    return call_id, send, _fastmcp_caller(context, request)


def _fastmcp_caller(context: Any, request: Any) -> Caller:
    """Make the client of a fastmcp call a ``Caller``.

    Logs go through fastmcp's ``Context.log``, so they follow the level the
    client set on the fastmcp server (fastmcp sends the message as its
    ``{"msg": ...}`` log data; a message that is not a string is sent as its
    JSON text). Elicitation and sampling are sent on the request's session
    with the raw JSON Schema and prompt (``Context.elicit`` takes a Python
    type, not a schema).
    """
    session = session_caller(request)

    async def log(level: LogLevel, message: Any, logger: str | None) -> None:
        text = message if isinstance(message, str) else json.dumps(message, default=str)
        await context.log(text, level=level, logger_name=logger)

    return Caller(
        log=log,
        elicit=session.elicit,
        sample=session.sample,
        name="MCP client",
        loop=asyncio.get_running_loop(),
    )


@cache
def _fastmcp_tool_class() -> type[Any]:
    from fastmcp.tools import Tool, ToolResult
    from mcp.types import CallToolResult
    from pydantic import PrivateAttr

    class StandardFastMCPTool(Tool):
        """A Standard Tool registered on fastmcp; runs through ``Toolkit.aexecute``."""

        _runner: Any = PrivateAttr(default=None)

        async def run(self, arguments: dict[str, Any]) -> ToolResult:
            kit, meta, timeout, wrap = self._runner
            call_id, send, caller = _fastmcp_request()
            result = await run_call(
                kit,
                self.name,
                arguments,
                meta,
                timeout,
                call_id=call_id,
                send_progress=send,
                caller=caller,
            )
            answer = CallToolResult.model_validate(call_result(result, wrap))
            return ToolResult.from_mcp_result(answer)

    return StandardFastMCPTool


def _fastmcp_tool(kit: Toolkit, entry: dict[str, Any], meta: Any, timeout: float | None) -> Any:
    tool = _fastmcp_tool_class()(
        name=entry["name"],
        title=entry.get("title"),
        description=entry.get("description"),
        parameters=entry["inputSchema"],
        output_schema=entry.get("outputSchema"),
        annotations=entry.get("annotations"),
        meta=entry.get("_meta"),
    )
    tool._runner = (kit, meta, timeout, _wrap(kit, entry["name"]))
    return tool
