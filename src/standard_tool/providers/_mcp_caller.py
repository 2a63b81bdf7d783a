"""The MCP client as a tool's caller: logs, elicitation and sampling over the session.

Layer: providers (imports the call context and the shared helpers; ``mcp`` lazily);
the MCP servers of the top layer and ``mcp_tool_handlers`` use it.

``session_caller(ctx)`` turns the SDK's request context of one ``tools/call`` into
a ``Caller``: ``ToolContext.log`` sends ``notifications/message`` (at the levels
the client asked for), ``elicit`` sends ``elicitation/create``, ``sample``
``sampling/createMessage`` and ``roots`` ``roots/list``, each tied to the request
so it rides the request's stream. ``set_level`` answers ``logging/setLevel``.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Any

from standard_tool._context import (
    LOG_LEVELS,
    Caller,
    CallerUnavailableError,
    Elicitation,
    LogLevel,
    Root,
)
from standard_tool._shared import truncate_text
from standard_tool.providers._text import jsonable, sendable

if TYPE_CHECKING:
    import asyncio

__all__ = [
    "elicit_request",
    "elicitation_of",
    "roots_of",
    "sample_request",
    "session_caller",
    "set_level",
    "text_of",
]

#: The level each connection asked for with ``logging/setLevel``, by the id of its
#: ``client_params`` (one object per connection; the entry goes with it).
_LEVELS: dict[int, LogLevel] = {}
_MAX_TEXT = 500


def _connection_key(ctx: Any) -> object | None:
    return getattr(getattr(ctx, "session", None), "client_params", None)


async def set_level(ctx: Any, params: Any) -> Any:
    """Answer ``logging/setLevel``: this connection's tools log at ``params.level`` and above."""
    from mcp import types

    key = _connection_key(ctx)
    level = params.level
    if key is not None and level in LOG_LEVELS:
        if id(key) not in _LEVELS:
            weakref.finalize(key, _LEVELS.pop, id(key), None)
        _LEVELS[id(key)] = level
    return types.EmptyResult()


def _wanted(ctx: Any, level: LogLevel) -> bool:
    from mcp.server.connection import allowed_log_levels

    session = ctx.session
    # 2026-07-28 and later: each request opts in (its _meta); before: logging/setLevel.
    if level not in allowed_log_levels(session.protocol_version, ctx.meta):
        return False
    key = _connection_key(ctx)
    floor = None if key is None else _LEVELS.get(id(key))
    return floor is None or LOG_LEVELS.index(level) >= LOG_LEVELS.index(floor)


def session_caller(ctx: Any, loop: asyncio.AbstractEventLoop | None = None) -> Caller:
    """Return the ``Caller`` of one ``tools/call``: the client behind the SDK's request context.

    ``loop`` is the event loop the request runs on (``Caller.loop``); passing it
    saves ``use_caller`` a copy of the caller. Building one costs little: the
    handlers are the methods of one small object, and whatever a request to the
    client needs is made only when a tool sends one.
    """
    client = _SessionClient(ctx)
    return Caller(
        log=client.log,
        elicit=client.elicit,
        sample=client.sample,
        roots=client.roots,
        name="MCP client",
        loop=loop,
    )


class _SessionClient:
    """The client of one request, reached through the request's session."""

    __slots__ = ("ctx", "session")

    def __init__(self, ctx: Any) -> None:
        self.ctx = ctx
        self.session = ctx.session

    def _declared(self, capability: Any, what: str) -> None:
        # First the channel: a stateless connection knows no capabilities the client declared.
        if not self.session.can_send_request:
            raise CallerUnavailableError(
                f"this MCP connection cannot carry the {what} request to the client: it has no "
                "channel for server-to-client requests (stateless HTTP before protocol "
                "2026-07-28); serve it statefully, or use a client of protocol 2026-07-28, "
                "which is asked through input-required results"
            )
        if not self.session.check_client_capability(capability):
            raise CallerUnavailableError(
                f"the MCP client did not declare the {what} capability, so it cannot be asked",
                capability=what,
            )

    def _related(self) -> Any:
        from mcp.shared.message import ServerMessageMetadata

        return ServerMessageMetadata(related_request_id=self.ctx.request_id)

    async def log(self, level: LogLevel, message: Any, logger: str | None) -> None:
        from mcp import types

        ctx = self.ctx
        if not _wanted(ctx, level):
            return
        params = types.LoggingMessageNotificationParams(
            level=level, data=log_data(message), logger=None if logger is None else sendable(logger)
        )
        await self.session.send_notification(
            types.LoggingMessageNotification(params=params), related_request_id=ctx.request_id
        )

    async def elicit(self, message: str, schema: dict[str, Any]) -> Elicitation:
        from mcp import types

        self._declared(
            types.ClientCapabilities(elicitation=types.ElicitationCapability()), "elicitation"
        )
        result = await self.session.send_request(
            elicit_request(message, schema), types.ElicitResult, metadata=self._related()
        )
        return elicitation_of(result)

    async def sample(
        self, prompt: str, *, system: str | None, max_tokens: int, temperature: float | None
    ) -> str:
        from mcp import types

        self._declared(types.ClientCapabilities(sampling=types.SamplingCapability()), "sampling")
        result = await self.session.send_request(
            sample_request(prompt, system=system, max_tokens=max_tokens, temperature=temperature),
            types.CreateMessageResult,
            metadata=self._related(),
        )
        return text_of(result)

    async def roots(self) -> list[Root]:
        from mcp import types

        self._declared(types.ClientCapabilities(roots=types.RootsCapability()), "roots")
        result = await self.session.send_request(
            types.ListRootsRequest(), types.ListRootsResult, metadata=self._related()
        )
        return roots_of(result)


#: Most values of a log message or an elicitation schema sent (``jsonable``'s budget).
_MAX_VALUES = 10_000


def log_data(message: Any) -> Any:
    """Return a log message as JSON data a client can read: ``ToolContext.log``'s ``data``.

    JSON data goes as it is; what is not JSON (bytes, an object, a structure
    too deep, a cycle) goes as a bounded text in its place (``jsonable``). Every
    string has its lone surrogates escaped.
    """
    return jsonable(message, _MAX_VALUES, escape=True)


def elicit_request(message: str, schema: dict[str, Any]) -> Any:
    """Build the SDK's ``ElicitRequest`` (a form) for ``ToolContext.elicit``."""
    from mcp import types

    params = types.ElicitRequestFormParams(
        message=sendable(message), requested_schema=jsonable(schema, _MAX_VALUES, escape=True)
    )
    return types.ElicitRequest(params=params)


def sample_request(
    prompt: str, *, system: str | None, max_tokens: int, temperature: float | None
) -> Any:
    """Build the SDK's ``CreateMessageRequest`` for ``ToolContext.sample``."""
    from mcp import types

    text = types.TextContent(type="text", text=sendable(prompt))
    message = types.SamplingMessage(role="user", content=text)
    params = types.CreateMessageRequestParams(
        messages=[message],
        max_tokens=max_tokens,
        system_prompt=None if system is None else sendable(system),
        temperature=temperature,
    )
    return types.CreateMessageRequest(params=params)


def elicitation_of(result: Any) -> Elicitation:
    """Turn the SDK's ``ElicitResult`` into an ``Elicitation``."""
    content = None if result.content is None else dict(result.content)
    return Elicitation(result.action, content)


def roots_of(result: Any) -> list[Root]:
    """Turn the SDK's ``ListRootsResult`` into ``Root`` values."""
    return [Root(str(root.uri), root.name) for root in result.roots]


def text_of(result: Any) -> str:
    """Return the text of the SDK's ``CreateMessageResult``; raise when the model gave none."""
    from mcp import types

    content: Any = result.content
    blocks: list[Any] = list(content) if isinstance(content, (list, tuple)) else [content]  # pyright: ignore[reportUnknownArgumentType]
    texts = [block.text for block in blocks if isinstance(block, types.TextContent)]
    if not texts:
        kinds = ", ".join(truncate_text(str(getattr(b, "type", b)), 40) for b in blocks)
        raise CallerUnavailableError(
            f"the MCP client's model answered with no text ({truncate_text(kinds, _MAX_TEXT)})"
        )
    return "\n".join(texts)
