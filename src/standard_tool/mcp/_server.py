"""Serve tools over MCP: a low-level SDK server, a Streamable HTTP app, one blocking call.

Layer: top (imports the core, the toolkit and the providers; ``mcp``, ``anyio`` and
``uvicorn`` lazily).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import json
import math
import re
import threading
import warnings
from collections.abc import AsyncGenerator, Awaitable, Callable, Collection, Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

from typing_extensions import Literal, Self

from standard_tool._context import (
    CURRENT,
    Caller,
    CallerUnavailableError,
    ProgressCallback,
    ProgressEvent,
    cancel_pending,
)
from standard_tool._core import input_json_schema, optional_member, output_json_schema
from standard_tool._shared import checked_timeout, truncate_text
from standard_tool._toolkit import Toolkit, ToolResult
from standard_tool.mcp._rounds import InputRequired, Rounds
from standard_tool.mcp._state import RequestStateKeys, UsedStates, current_principal
from standard_tool.mcp._task_server import (
    TaskOptions,
    TaskSupport,
    check_task_support,
    install_task_handlers,
    run_maybe_as_task,
)
from standard_tool.providers._mcp import (
    mcp_output_wrapped,
    to_mcp,
    unschematized,
)
from standard_tool.providers._mcp_caller import session_caller, set_level
from standard_tool.providers._runner import Tools, toolkit
from standard_tool.providers._text import sendable

if TYPE_CHECKING:
    from types import TracebackType

    from mcp.server.lowlevel import Server
    from starlette.applications import Starlette

__all__ = ["LiveTools", "http_app", "serve", "server", "tools_list_entries"]

Transport = Literal["stdio", "http"]


def _mapping(value: object) -> dict[str, Any] | None:
    if isinstance(value, Mapping):
        return {str(k): v for k, v in cast("Mapping[object, Any]", value).items()}
    return None


def tools_list_entries(
    tools: Tools,
    *,
    annotations: Mapping[str, Mapping[str, Any]] | None = None,
    keep_schemas: bool = False,
) -> list[dict[str, Any]]:
    """Describe every tool as the ``tools/list`` entry this package's servers send.

    The entry is ``to_mcp(tool)``: with, when the tool carries them (a tool
    imported from another MCP server does), its ``annotations`` and its
    ``_meta``, so a gateway passes them on unchanged.

    Args:
        tools: a ``Toolkit`` or any iterable of tools.
        annotations: MCP tool annotations by tool name (``readOnlyHint``,
            ``destructiveHint``...); they replace a tool's own.
        keep_schemas: declare each schema as written: its ``$schema`` kept and
            its ``$defs`` / ``$ref`` not inlined (by default ``$schema`` is
            dropped and local references are inlined, for clients that do not
            follow ``$ref``).

    Raises:
        ProviderSchemaError: a tool cannot be described for MCP.
    """
    entries: list[dict[str, Any]] = []
    for tool in toolkit(tools):
        given = (annotations or {}).get(tool.name)
        own = _mapping(getattr(tool, "annotations", None) if given is None else given)
        if not keep_schemas:
            entries.append(to_mcp(tool, annotations=own))
            continue
        entry = to_mcp(tool, annotations=own, inline_refs=False)
        for key, schema in (
            ("inputSchema", input_json_schema(tool)),
            ("outputSchema", output_json_schema(tool)),
        ):
            written = None if schema is None else schema.get("$schema")
            if key in entry and isinstance(written, str):
                entry[key] = {"$schema": written, **entry[key]}
        entries.append(entry)
    return entries


def call_result(result: ToolResult, wrap: bool | None) -> dict[str, Any]:
    """Answer one call; ``wrap`` is ``None`` for a tool without an ``outputSchema``."""
    if result.success:
        return unschematized(result.value, wrap)
    return {
        "content": [{"type": "text", "text": sendable(f"Error: {result.error}")}],
        "isError": True,
    }


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
    memory it calls the client's callback). ``None`` when the request asked for
    no progress, so a call that nobody watches pays for no relay.
    """
    call_id = request_id_text(getattr(ctx, "request_id", None))
    session = getattr(ctx, "session", None)
    send: SendProgress | None = getattr(session, "report_progress", None)
    if not callable(send) or not _progress_asked(session):
        return call_id, None
    return call_id, send


def _progress_asked(session: Any) -> bool:
    """Tell whether ``report_progress`` reaches anyone: the request's progress token or callback.

    The SDK's request channel holds them (``_progress_token`` over JSON-RPC,
    ``_on_progress`` in memory), possibly inside wrappers (``_inner``); a channel
    of another kind counts as asked.
    """
    channel = getattr(session, "_request_outbound", None)
    for _ in range(_MAX_WRAPPERS):
        for attribute in ("_progress_token", "_on_progress"):
            if hasattr(channel, attribute):
                return getattr(channel, attribute) is not None
        channel = getattr(channel, "_inner", None)
        if channel is None:
            break
    return True


#: How many wrappers of the SDK's request channel ``_progress_asked`` looks through.
_MAX_WRAPPERS = 4


def _message(event: ProgressEvent) -> str | None:
    if event.message is not None:
        return truncate_text(sendable(str(event.message)), _MAX_MESSAGE)
    if isinstance(event.data, str):
        return truncate_text(sendable(event.data), _MAX_MESSAGE)
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


class _SyncCall:
    """One sync tool call running in a worker thread, which the server can cancel.

    The call runs in a context of its own, so the server can find the call's
    ``ToolContext`` there (the toolkit makes it current inside) and cancel it
    when the client cancels the request or goes away.
    """

    __slots__ = ("cancelled", "context", "lock")

    def __init__(self) -> None:
        self.context = contextvars.copy_context()
        self.lock = threading.Lock()
        self.cancelled = False

    def run(
        self,
        kit: Toolkit,
        name: str,
        arguments: dict[str, Any],
        meta: Any,
        timeout: float | None,
        call_id: str | None,
        listener: ProgressCallback | None,
        caller: Caller | None,
    ) -> ToolResult | None:
        with self.lock:
            if self.cancelled:  # abandoned before it started: never run it
                return None
        _RUNNING.add(self)
        try:
            return self.context.run(
                kit.execute,
                name,
                arguments,
                meta,
                timeout=timeout,
                call_id=call_id,
                on_progress=listener,
                caller=caller,
            )
        finally:
            _RUNNING.discard(self)

    def cancel(self) -> None:
        with self.lock:
            self.cancelled = True
        running = self.context.get(CURRENT)
        if running is not None:
            cancel_pending(running)


#: Sync calls running in worker threads (read when ``serve`` shuts down).
_RUNNING: set[_SyncCall] = set()


async def _run_in_thread(
    kit: Toolkit,
    name: str,
    arguments: dict[str, Any],
    meta: Any,
    timeout: float | None,
    call_id: str | None,
    listener: ProgressCallback | None,
    caller: Caller | None,
) -> ToolResult:
    """Run a sync tool in one of anyio's worker threads, off the event loop.

    The threads are anyio's default limiter's (40 at once unless the
    application changes ``current_default_thread_limiter().total_tokens``), as
    the MCP SDK's own servers run sync tools. A cancelled request returns at
    once; the tool's ``ToolContext`` is cancelled and its late result dropped.
    """
    import anyio
    import anyio.to_thread

    call = _SyncCall()
    try:
        result = await anyio.to_thread.run_sync(
            call.run,
            kit,
            name,
            arguments,
            meta,
            timeout,
            call_id,
            listener,
            caller,
            abandon_on_cancel=True,
        )
    except anyio.get_cancelled_exc_class():
        call.cancel()
        raise
    assert result is not None  # only a cancelled call never runs
    return result


async def run_call(
    kit: Toolkit,
    name: str,
    arguments: dict[str, Any],
    meta: Any,
    timeout: float | None,
    *,
    call_id: str | None = None,
    send_progress: SendProgress | None = None,
    caller: Caller | None = None,
) -> ToolResult:
    """Run one ``tools/call``: the one place every MCP server of this package runs a tool.

    An async tool runs in the request's task; a sync tool in a worker thread
    (``_run_in_thread``), so it never blocks the server. The call goes one way
    down: the toolkit gets what the call's ``ToolContext`` needs once, and the
    context is made of it: ``call_id`` (the request id; a generated one when
    ``None``) and ``caller``, the client it talks back to (``session_caller``,
    or a round's caller that answers from the client's input responses). With
    ``send_progress`` (the request's progress sender) every ``ProgressEvent`` the
    tool reports is sent while the tool runs (a yield without a number counts 1,
    2, 3...), and is still given to the toolkit's own
    ``on_progress``. Cancelling the request cancels the call: an async tool is
    cancelled, a sync tool's ``ToolContext.cancelled`` becomes true.
    """
    threaded = name in kit and not kit.is_async(name)
    if send_progress is None:  # nobody watches: the toolkit's own on_progress, if any
        if threaded:
            return await _run_in_thread(kit, name, arguments, meta, timeout, call_id, None, caller)
        return await kit.aexecute(
            name, arguments, meta, timeout=timeout, call_id=call_id, caller=caller
        )
    relay = _Relay(kit, send_progress)
    try:
        if threaded:
            result = await _run_in_thread(
                kit, name, arguments, meta, timeout, call_id, relay, caller
            )
        else:
            result = await kit.aexecute(
                name,
                arguments,
                meta,
                timeout=timeout,
                call_id=call_id,
                on_progress=relay,
                caller=caller,
            )
        await relay.drain()
    except BaseException:
        relay.cancel()
        raise
    return result


class _Relay:
    """Sends a call's progress events to the client, in order, while the call runs.

    Nothing starts until the tool reports an event, so a call that reports none
    costs one listener. Each event becomes a task that sends it once the
    previous one is sent; an event reported from a worker thread (a sync tool)
    is handed to the event loop first, without waiting.
    """

    __slots__ = ("closed", "count", "kit", "last", "loop", "send", "tasks", "thread")

    def __init__(self, kit: Toolkit, send: SendProgress) -> None:
        import asyncio

        self.kit = kit
        self.send = send
        self.loop = asyncio.get_running_loop()
        self.thread = threading.get_ident()
        self.count = 0
        self.closed = False
        self.last: asyncio.Task[None] | None = None
        self.tasks: list[asyncio.Task[None]] = []

    def __call__(self, event: ProgressEvent) -> None:
        listener = self.kit.on_progress
        if listener is not None:
            with contextlib.suppress(Exception):
                listener(event)
        if threading.get_ident() == self.thread:
            self._schedule(event)
        else:
            self.loop.call_soon_threadsafe(self._schedule, event)

    def _schedule(self, event: ProgressEvent) -> None:
        if self.closed:  # reported after the call was cancelled: nobody listens
            return
        self.count += 1
        self.last = self.loop.create_task(self._send(self.last, event, self.count))
        self.tasks.append(self.last)

    async def _send(self, previous: Awaitable[None] | None, event: ProgressEvent, n: int) -> None:
        if previous is not None:
            await previous
        await _notify(self.send, event, n)

    async def drain(self) -> None:
        """Wait until every event reported so far is sent (before the result is)."""
        if self.last is not None:
            await self.last

    def cancel(self) -> None:
        self.closed = True
        for task in self.tasks:
            task.cancel()


#: The client capabilities a tool may require (``server(required_capabilities=...)``).
CAPABILITIES = ("elicitation", "roots", "sampling")


def _checked_needs(
    kit: Toolkit, required: Mapping[str, Collection[str]] | None
) -> dict[str, tuple[str, ...]]:
    needs: dict[str, tuple[str, ...]] = {}
    problems: list[str] = []
    for name, capabilities in (required or {}).items():
        if name not in kit:
            problems.append(f"no tool {truncate_text(str(name), 60)!r}")
            continue
        if isinstance(capabilities, str):
            capabilities = [capabilities]
        unknown = [c for c in capabilities if c not in CAPABILITIES]
        if unknown:
            shown = ", ".join(repr(truncate_text(str(c), 40)) for c in unknown[:5])
            problems.append(f"tool {name!r}: unknown capability {shown} (known: {CAPABILITIES})")
        needs[name] = tuple(dict.fromkeys(capabilities))
    if problems:
        raise ValueError("server: required_capabilities: " + "; ".join(problems))
    return needs


class LiveTools:
    """Tools served while they change: add and remove them; listening clients are told.

    Serve it like a ``Toolkit`` (``server(live)``, ``http_app(live)``, ``serve(live)``).
    ``add`` and ``remove`` change what ``tools/list`` answers from the next request on
    (calls already running finish with the tools they started with), and every
    client of protocol 2026-07-28 listening (``subscriptions/listen``) gets
    ``notifications/tools/list_changed``.

    Examples:
        >>> from standard_tool import tool
        >>> @tool
        ... def ping() -> str:
        ...     '''Answer pong.'''
        ...     return "pong"
        >>> live = LiveTools([ping])
        >>> live.remove("ping")
        >>> live.toolkit.names
        ()

    Args:
        tools: the tools to start with (a ``Toolkit`` or any iterable of tools).
    """

    __slots__ = ("_listeners", "_lock", "toolkit")

    def __init__(self, tools: Tools = ()) -> None:
        self.toolkit: Toolkit = toolkit(tools)
        self._listeners: list[Callable[[Toolkit], None]] = []
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"LiveTools({list(self.toolkit.names)!r})"

    def add(self, *tools: Any) -> None:
        """Serve more tools.

        Raises:
            DuplicateToolNameError: a tool's name is served already.
            NotAToolError: an item is not a tool.
        """
        with self._lock:
            self._set(Toolkit.merge(self.toolkit, tools))

    def remove(self, *names: str) -> None:
        """Stop serving the tools called ``names`` (names not served are ignored)."""
        with self._lock:
            gone = set(names)
            self._set(Toolkit([t for t in self.toolkit if t.name not in gone]))

    def _set(self, kit: Toolkit) -> None:
        self.toolkit = kit
        for listener in list(self._listeners):
            listener(kit)

    def on_change(self, listener: Callable[[Toolkit], None]) -> None:
        """Call ``listener(toolkit)`` after every change (the servers built on it do)."""
        self._listeners.append(listener)


class _Served:
    """What a server answers from, remade whole when its ``LiveTools`` change."""

    __slots__ = (
        "annotations",
        "keep_schemas",
        "kit",
        "listed",
        "loop",
        "schemas",
        "wrap",
    )

    def __init__(
        self,
        kit: Toolkit,
        annotations: Mapping[str, Mapping[str, Any]] | None,
        keep_schemas: bool,
    ) -> None:
        self.annotations = annotations
        self.keep_schemas = keep_schemas
        self.loop: asyncio.AbstractEventLoop | None = None
        self._make(kit)

    def _make(self, kit: Toolkit) -> None:
        from mcp import types

        entries = tools_list_entries(
            kit, annotations=self.annotations, keep_schemas=self.keep_schemas
        )
        # Checked once here; answered as the wire dicts: the SDK validates and copies
        # every result it sends, so the cached answer is never handed out to be changed.
        listed = types.ListToolsResult.model_validate({"tools": entries})
        self.listed: dict[str, Any] = listed.model_dump(
            mode="json", by_alias=True, exclude_none=True
        )
        self.schemas = {entry["name"]: entry.get("inputSchema") for entry in self.listed["tools"]}
        self.wrap = {
            t.name: None if optional_member(t, "output_schema") is None else mcp_output_wrapped(t)
            for t in kit
        }
        self.kit = kit

    def input_schema(self, name: str) -> Any:
        return self.schemas.get(name)

    def update(self, kit: Toolkit, bus: Any) -> None:
        """Answer from ``kit`` now, and tell the listening clients (from any thread)."""
        from mcp.shared.subscriptions import ToolsListChanged

        self._make(kit)
        loop = self.loop
        if loop is None:
            with contextlib.suppress(RuntimeError):
                loop = asyncio.get_running_loop()
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(_publish, bus, ToolsListChanged())


def _publish(bus: Any, event: Any) -> None:
    task = asyncio.ensure_future(bus.publish(event))
    _PUBLISHING.add(task)
    task.add_done_callback(_PUBLISHING.discard)


_PUBLISHING: set[asyncio.Future[Any]] = set()


def _takes_input_schemas(server_class: type) -> bool:
    import inspect

    return "get_tool_input_schema" in inspect.signature(server_class).parameters


def _checked_tasks(
    kit: Toolkit, tasks: TaskOptions | Mapping[str, TaskSupport] | None
) -> TaskOptions | None:
    if tasks is None:
        return None
    options = tasks if isinstance(tasks, TaskOptions) else TaskOptions(dict(tasks))
    unknown = [name for name in options.tools if name not in kit]
    if unknown:
        shown = ", ".join(repr(truncate_text(str(n), 60)) for n in unknown[:5])
        raise ValueError(f"server: tasks: no tool {shown}")
    return options


def missing_capabilities(tool: str, capabilities: Collection[str]) -> Exception:
    """Return the JSON-RPC error ``-32021``: the client did not declare what ``tool`` needs."""
    from mcp.shared.exceptions import MCPError
    from mcp_types import MISSING_REQUIRED_CLIENT_CAPABILITY

    names = ", ".join(capabilities)
    return MCPError(
        code=MISSING_REQUIRED_CLIENT_CAPABILITY,
        message=(
            f"tool {truncate_text(tool, 60)!r} needs the client capabilities: {names}; "
            "declare them in the request"
        ),
        data={"requiredCapabilities": {c: {} for c in capabilities}},
    )


#: What ``server()`` answers itself: these ``Server`` options cannot be given.
_OWN_HANDLERS = ("on_list_tools", "on_call_tool")


def server(
    tools: Tools,
    *,
    name: str = "standard-tool",
    annotations: Mapping[str, Mapping[str, Any]] | None = None,
    meta: Any = None,
    timeout: float | None = None,
    keep_schemas: bool = False,
    state_keys: RequestStateKeys | None = None,
    required_capabilities: Mapping[str, Collection[str]] | None = None,
    tasks: TaskOptions | Mapping[str, TaskSupport] | None = None,
    used_states: UsedStates | None = None,
    **server_options: Any,
) -> Server[Any]:
    """Build the MCP SDK's low-level ``Server`` answering ``tools/list`` and ``tools/call``.

    Every tool is declared once, here (so a tool MCP cannot describe fails now,
    not at the first request), as ``tools_list_entries`` describes it. A call runs
    through the toolkit: the input is validated by the tool, the answer is the
    output's text and ``structuredContent`` (matching the declared
    ``outputSchema``), or ``isError: true`` with ``"Error: <reason>"`` for an
    unknown tool, invalid arguments, an exception or a timeout. A sync tool runs
    in a worker thread, never on the event loop (see ``run_call``).

    Everything else is the SDK's: ``server_options`` go to ``Server(...)``
    unchanged, so resources, prompts and completions are served by the SDK's own
    handlers (``on_list_resources``, ``on_read_resource``, ``on_list_prompts``,
    ``on_get_prompt``, ``on_completion``...), beside ``version``,
    ``instructions``, ``lifespan`` and the rest.

    Args:
        tools: a ``Toolkit`` or any iterable of tools.
        name: the server name announced to clients.
        annotations: MCP tool annotations by tool name (see ``tools_list_entries``).
        meta: passed verbatim to every tool.
        timeout: seconds each call may take.
        keep_schemas: declare schemas as written (see ``tools_list_entries``).
        state_keys: the keys that sign a multi-round call's ``requestState``
            (protocol 2026-07-28; see ``RequestStateKeys``). Default: the keys in
            ``STANDARD_TOOL_STATE_KEYS``, else keys of this process alone.
        required_capabilities: client capabilities a tool needs, by tool name
            (``{"summarize": ["sampling"]}``; ``"elicitation"``, ``"sampling"``,
            ``"roots"``). A client that did not declare them gets the JSON-RPC
            error ``-32021`` (missing required client capability) before the tool runs.
        tasks: the tools that may run as tasks (the MCP extension
            ``io.modelcontextprotocol/tasks``): a ``TaskOptions``, or its ``tools``
            mapping (``{"report": "optional"}``) with the default options.
        used_states: a store recording each ``requestState`` accepted
            (``MemoryTaskStore``, or ``RedisTaskStore`` for several processes), so
            that a state is accepted once: a second call with it is refused, and the
            client must start the call again. Without it a state is accepted until
            it expires (a client's retry works; a replay runs the round again).
        **server_options: other ``mcp.server.lowlevel.Server`` options.

    Raises:
        ProviderSchemaError: a tool cannot be described for MCP.
        DuplicateToolNameError: two tools share a name.
        TypeError: ``on_list_tools`` or ``on_call_tool`` is given (this server
            answers those).
        ValueError: ``required_capabilities`` names an unknown tool or capability.
    """
    from mcp import types
    from mcp.server.lowlevel import Server
    from mcp.shared.exceptions import MCPDeprecationWarning

    taken = [option for option in _OWN_HANDLERS if option in server_options]
    if taken:
        raise TypeError(
            f"server() answers tools/list and tools/call itself; do not pass {', '.join(taken)}"
        )
    from mcp_types.version import MODERN_PROTOCOL_VERSIONS

    timeout = checked_timeout(timeout, "server")
    live = tools if isinstance(tools, LiveTools) else None
    first = live.toolkit if live is not None else toolkit(tools)
    served = _Served(first, annotations, keep_schemas)
    needs = _checked_needs(served.kit, required_capabilities)
    task_options = _checked_tasks(served.kit, tasks)
    keys = state_keys or RequestStateKeys.from_env() or RequestStateKeys.ephemeral()

    async def on_list_tools(ctx: Any, params: Any) -> dict[str, Any]:
        served.loop = asyncio.get_running_loop()
        return served.listed

    def answer_of(result: ToolResult, asked_in_rounds: bool = True) -> dict[str, Any]:
        failure = result.exception
        if (
            asked_in_rounds
            and isinstance(failure, CallerUnavailableError)
            and failure.capability is not None
        ):
            raise missing_capabilities(result.name, [failure.capability]) from failure
        answer = call_result(result, served.wrap.get(result.name))
        answer["resultType"] = "complete"  # required from 2026-07-28; older versions drop it
        return answer

    async def on_call_tool(ctx: Any, params: types.CallToolRequestParams) -> dict[str, Any]:
        arguments = {} if params.arguments is None else params.arguments
        declared = ctx.session.client_capabilities
        missing = [c for c in needs.get(params.name, ()) if getattr(declared, c, None) is None]
        if missing:
            raise missing_capabilities(params.name, missing)
        may_task = check_task_support(task_options, params.name, ctx)
        call_id, send = progress_sender(ctx)
        loop = asyncio.get_running_loop()
        caller = session_caller(ctx, loop)
        rounds = None
        principal = current_principal()
        if ctx.protocol_version in MODERN_PROTOCOL_VERSIONS:  # no requests to the client
            rounds = Rounds.start(
                keys, "tools/call", params.name, arguments, params, declared, principal
            )
            if used_states is not None:
                await rounds.claim(used_states)
            caller = rounds.caller(caller, loop)
        elif may_task:  # requests to the client until the call becomes a task
            rounds = Rounds.for_legacy(caller)
            caller = rounds.caller(caller, loop)

        served.loop = loop
        kit = served.kit  # the tools as they are when the call starts

        def start() -> Awaitable[ToolResult]:
            return run_call(
                kit,
                params.name,
                arguments,
                meta,
                timeout,
                call_id=call_id,
                send_progress=send,
                caller=caller,
            )

        try:
            if not may_task:
                result = await start()
            else:
                assert task_options is not None
                assert rounds is not None
                outcome = await run_maybe_as_task(
                    task_options, rounds, declared, start, answer_of, principal
                )
                if isinstance(outcome, dict):  # the call became a task
                    return outcome
                result = outcome
        except InputRequired:
            assert rounds is not None  # only a round's caller stops a call
            return rounds.input_required()
        return answer_of(result, rounds is not None and rounds.legacy is None)

    # The handlers answer the wire dicts the SDK accepts (``HandlerResult``).
    handlers: dict[str, Any] = {"on_list_tools": on_list_tools, "on_call_tool": on_call_tool}
    server_options.setdefault("on_set_logging_level", set_level)
    # Mcp-Param-* headers (2026-07-28) are checked against the listed schemas, without
    # running tools/list for every call.
    if _takes_input_schemas(Server):  # mcp 2.3 and later
        server_options.setdefault("get_tool_input_schema", served.input_schema)
    # subscriptions/listen (2026-07-28): list changes of live tools, and the status
    # notifications of tasks.
    bus = None
    if live is not None:
        from mcp.server.subscriptions import InMemorySubscriptionBus

        bus = InMemorySubscriptionBus()
        live.on_change(lambda kit: served.update(kit, bus))
    if live is not None or task_options is not None:
        from standard_tool.mcp._listen import Listen

        server_options.setdefault("on_subscriptions_listen", Listen(bus, task_options))
    with warnings.catch_warnings():
        # The SDK marks logging deprecated from protocol 2026-07-28; clients of the
        # versions before it still set their level with it.
        warnings.simplefilter("ignore", MCPDeprecationWarning)
        made = Server(name, **handlers, **server_options)
    if task_options is not None:
        install_task_handlers(made, task_options)
    return made


_LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")
_ANY_HOST = ("0.0.0.0", "::", "")  # "every interface": never a Host header


def _host_entry(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def transport_security(
    host: str,
    allowed_hosts: Sequence[str] | None = None,
    allowed_origins: Sequence[str] | None = None,
) -> Any:
    """Build the SDK's ``TransportSecuritySettings`` for a server on ``host``: always on.

    The ``Host`` header must name a local address or ``host`` (any port), or one
    of ``allowed_hosts``; an ``Origin``, when sent, must be ``http(s)://`` one of
    those. ``["*"]`` as ``allowed_hosts`` turns the check off.
    """
    from mcp.server.transport_security import TransportSecuritySettings

    if allowed_hosts is not None and list(allowed_hosts) == ["*"]:
        return TransportSecuritySettings(enable_dns_rebinding_protection=False)
    names = [_host_entry(h) for h in _LOCAL_HOSTS]
    if host not in _ANY_HOST and host not in _LOCAL_HOSTS:
        names.append(_host_entry(host))
    hosts = [f"{n}:*" for n in names] + names + list(allowed_hosts or ())
    origins = [f"{scheme}://{n}" for n in names for scheme in ("http", "https")]
    origins += [f"{o}:*" for o in origins] + list(allowed_origins or ())
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True, allowed_hosts=hosts, allowed_origins=origins
    )


def http_app(
    tools: Tools,
    *,
    path: str = "/mcp",
    stateless: bool = False,
    json_response: bool = False,
    host: str = "127.0.0.1",
    allowed_hosts: Sequence[str] | None = None,
    allowed_origins: Sequence[str] | None = None,
    name: str = "standard-tool",
    annotations: Mapping[str, Mapping[str, Any]] | None = None,
    meta: Any = None,
    timeout: float | None = None,
    keep_schemas: bool = False,
    http_options: Mapping[str, Any] | None = None,
    **server_options: Any,
) -> Starlette:
    """Build an ASGI app serving ``tools`` over MCP Streamable HTTP at ``path``.

    Run it with any ASGI server. With ``stateless=True`` no session lives
    between requests, so several worker processes can share the load:
    ``uvicorn --factory --workers 4 myserver:make_app``. A stateless server
    cannot send the client requests of its own (elicitation, sampling, roots):
    there is no session to answer them on.

    Host/Origin checks (DNS rebinding protection) are always on: a request
    whose ``Host`` header is not a local address, ``host`` or one of
    ``allowed_hosts`` is refused, and so is an ``Origin`` that is not one of
    those (or one of ``allowed_origins``). List the names clients use when the
    server is reached by another name (``allowed_hosts=["api.example.com"]``,
    any port with ``"api.example.com:*"``); ``["*"]`` turns the check off.

    Args:
        tools: a ``Toolkit`` or any iterable of tools.
        path: the endpoint's path.
        stateless: serve each request on its own, without ``Mcp-Session-Id``.
        json_response: answer with plain JSON instead of an event stream.
        host: the host the app is served on.
        allowed_hosts: more ``Host`` header values to accept.
        allowed_origins: more ``Origin`` header values to accept.
        name: the server name announced to clients.
        annotations: MCP tool annotations by tool name.
        meta: passed verbatim to every tool.
        timeout: seconds each call may take.
        keep_schemas: declare schemas as written (see ``tools_list_entries``).
        http_options: other options of the SDK's ``Server.streamable_http_app``
            (``event_store``, ``auth``, ``token_verifier``,
            ``max_request_body_size``, ``custom_starlette_routes``...).
        **server_options: ``mcp.server.lowlevel.Server`` options: resources,
            prompts, completions, ``instructions``, ``version``, ``lifespan``...
            (see ``server``).
    """
    app_server = server(
        tools,
        name=name,
        annotations=annotations,
        meta=meta,
        timeout=timeout,
        keep_schemas=keep_schemas,
        **server_options,
    )
    options: dict[str, Any] = {
        "transport_security": transport_security(host, allowed_hosts, allowed_origins),
        **(http_options or {}),
    }
    return app_server.streamable_http_app(
        streamable_http_path=path,
        stateless_http=stateless,
        json_response=json_response,
        host=host,
        **options,
    )


def serve(
    tools: Tools,
    *,
    transport: Transport = "stdio",
    host: str = "127.0.0.1",
    port: int = 8000,
    path: str = "/mcp",
    stateless: bool = False,
    json_response: bool = False,
    allowed_hosts: Sequence[str] | None = None,
    allowed_origins: Sequence[str] | None = None,
    name: str = "standard-tool",
    annotations: Mapping[str, Mapping[str, Any]] | None = None,
    meta: Any = None,
    timeout: float | None = None,
    keep_schemas: bool = False,
    http_options: Mapping[str, Any] | None = None,
    **server_options: Any,
) -> None:
    """Serve ``tools`` over MCP until the client disconnects or the process is stopped.

    ``transport="stdio"`` reads requests from standard input and answers on
    standard output, as MCP clients (Claude Desktop, IDEs) start a local server;
    nothing else may print to standard output meanwhile. ``transport="http"``
    serves Streamable HTTP with uvicorn on ``host:port`` at ``path`` (see
    ``http_app``).

    When standard input ends, the requests already read have up to 2 s
    (``SHUTDOWN_GRACE``) to be answered, as a client that writes its requests
    and closes the pipe expects; then the calls still running are cancelled. A
    sync call that ignores its cancelled ``ToolContext`` for 2 s more ends the process,
    since Python would otherwise wait for its thread. Ctrl-C (``KeyboardInterrupt``)
    ends ``serve`` the same way, with a client connected or not, and is raised
    on (a process ended for a stuck sync call exits with 130). Over stdio a pipe
    is read by the event loop, not by a thread that would wait for the client's
    next line.

    Args:
        tools: a ``Toolkit`` or any iterable of tools.
        transport: ``"stdio"`` or ``"http"``.
        host: HTTP only: the address to listen on.
        port: HTTP only: the port.
        path: HTTP only: the endpoint's path.
        stateless: HTTP only: no session between requests (see ``http_app``).
        json_response: HTTP only: answer with plain JSON.
        allowed_hosts: HTTP only: more ``Host`` values to accept (see ``http_app``).
        allowed_origins: HTTP only: more ``Origin`` values to accept.
        name: the server name announced to clients.
        annotations: MCP tool annotations by tool name.
        meta: passed verbatim to every tool.
        timeout: seconds each call may take.
        keep_schemas: declare schemas as written (see ``tools_list_entries``).
        http_options: HTTP only: other ``streamable_http_app`` options.
        **server_options: ``mcp.server.lowlevel.Server`` options: resources,
            prompts, completions... (see ``server``).

    Raises:
        ValueError: ``transport`` is neither ``"stdio"`` nor ``"http"``.
    """
    common: dict[str, Any] = {
        "name": name,
        "annotations": annotations,
        "meta": meta,
        "timeout": timeout,
        "keep_schemas": keep_schemas,
        **server_options,
    }
    if transport == "http":
        import uvicorn

        app = http_app(
            tools,
            path=path,
            stateless=stateless,
            json_response=json_response,
            host=host,
            allowed_hosts=allowed_hosts,
            allowed_origins=allowed_origins,
            http_options=http_options,
            **common,
        )
        uvicorn.run(app, host=host, port=port, log_level="warning")
        _end_abandoned_calls()
        return
    if transport != "stdio":
        raise ValueError(f"transport must be 'stdio' or 'http', not {str(transport)[:40]!r}")
    import anyio
    from mcp.server.stdio import stdio_server

    stdio = server(tools, **common)

    async def serve_stdio() -> None:
        async with _stdin_lines() as lines:
            stdin: Any = lines  # the SDK only iterates the lines of the stdin it is given
            async with stdio_server(stdin=stdin) as (read_stream, write):
                answering = _AnswerRefused(read_stream, write)
                answers = _Answers(write, answering)
                await stdio.run(answering, answers, stdio.create_initialization_options())

    import asyncio

    try:
        anyio.run(_until_interrupted, serve_stdio)
    except KeyboardInterrupt:
        _end_abandoned_calls(exit_code=130)
        raise
    except asyncio.CancelledError:  # Python 3.10: Ctrl-C ends the run as a cancellation
        _end_abandoned_calls(exit_code=130)
        raise KeyboardInterrupt from None
    _end_abandoned_calls()


async def _until_interrupted(serving: Callable[[], Awaitable[None]]) -> None:
    """Run ``serving()``; on Ctrl-C, cancel it and raise ``KeyboardInterrupt`` once it ended.

    Python's own Ctrl-C handling (``asyncio.run``) cancels the main task natively,
    and a cancel scope of the server that is ending at that very moment can absorb
    that cancellation, leaving the server running. A cancel scope of our own, which
    the server's scopes cannot absorb, ends it every time; a second Ctrl-C raises at
    once. Where signals cannot be handled by the loop (Windows, a thread that is not
    the main one), Python's own handling stays.
    """
    import signal

    import anyio

    loop = asyncio.get_running_loop()
    interrupted = False
    with anyio.CancelScope() as scope:

        def on_interrupt() -> None:
            nonlocal interrupted
            if interrupted:  # a second Ctrl-C: out now, whatever is still ending
                raise KeyboardInterrupt
            interrupted = True
            scope.cancel()

        try:
            loop.add_signal_handler(signal.SIGINT, on_interrupt)
        except (NotImplementedError, RuntimeError, ValueError):
            await serving()
            return
        try:
            await serving()
        finally:
            loop.remove_signal_handler(signal.SIGINT)
    if interrupted:
        raise KeyboardInterrupt


class _PipeLines:
    """Standard input's lines, read on the event loop: a cancelled read ends at once.

    The SDK reads standard input in a worker thread, which no cancellation ends:
    after Ctrl-C, ``serve`` would wait for the client to send a line or close
    the pipe. A pipe read by the event loop (``connect_read_pipe``) has no thread.
    """

    def __init__(self, reader: Any) -> None:
        self._reader = reader

    def __aiter__(self) -> _PipeLines:
        return self

    async def __anext__(self) -> str:
        try:
            line: bytes = await self._reader.readline()
        except ValueError:  # longer than _LINE_LIMIT: dropped, read as a message that fails
            return ""
        if not line:
            raise StopAsyncIteration
        return line.decode("utf-8", errors="replace")


@contextlib.asynccontextmanager
async def _stdin_lines() -> AsyncGenerator[_PipeLines | None, None]:
    """Yield standard input for ``stdio_server``: ``_PipeLines`` when it is a pipe.

    While serving, descriptor 0 points at the null device (as the SDK's own
    reader does), so a tool that reads standard input gets end of file instead
    of the client's messages. ``None`` (the SDK's reader) where the event loop
    cannot read it: Windows, a regular file.
    """
    import asyncio
    import os
    import sys

    if sys.platform == "win32":
        yield None
        return
    import fcntl
    import stat

    try:
        if not stat.S_ISFIFO(os.fstat(0).st_mode) and not stat.S_ISSOCK(os.fstat(0).st_mode):
            yield None
            return
        private = fcntl.fcntl(0, fcntl.F_DUPFD_CLOEXEC, 3)
    except OSError:
        yield None
        return
    pipe = os.fdopen(private, "rb", buffering=0)
    reader = asyncio.StreamReader(limit=_LINE_LIMIT)
    loop = asyncio.get_running_loop()
    transport, _ = await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), pipe)
    null = os.open(os.devnull, os.O_RDONLY)
    saved = os.dup(0)
    os.dup2(null, 0)
    os.close(null)
    try:
        yield _PipeLines(reader)
    finally:
        transport.close()
        os.dup2(saved, 0)
        os.close(saved)


#: The longest line (one JSON-RPC message) read from standard input.
_LINE_LIMIT = 64 * 1024 * 1024


#: Seconds ``serve`` waits, once its client has gone, for cancelled sync calls to end.
SHUTDOWN_GRACE = 2.0


def _end_abandoned_calls(exit_code: int = 0) -> None:
    """Stop the process when a cancelled sync call is still running after the grace.

    A thread cannot be stopped from outside, and Python waits for every worker
    thread before it exits: without this, a sync tool that ignores its
    ``ToolContext`` would keep a server whose client has gone running until the
    tool returns.
    """
    import os
    import sys
    import time

    deadline = time.monotonic() + SHUTDOWN_GRACE
    while _RUNNING and time.monotonic() < deadline:
        time.sleep(0.02)
    if _RUNNING:
        with contextlib.suppress(Exception):
            sys.stderr.write(
                f"standard-tool: {len(_RUNNING)} cancelled call(s) still running; exiting\n"
            )
            sys.stderr.flush()
            sys.stdout.flush()
        os._exit(exit_code)


# --------------------------------------------------------------------------------------
# Requests the SDK's stdio parser refuses
# --------------------------------------------------------------------------------------

_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[{}\[\]]')
_VALUE = re.compile(r'\s*:\s*("(?:[^"\\]|\\.)*"|-?\d{1,40}(?![\d.eE]))')
_PARSE_ERROR = -32700
_INVALID_REQUEST = -32600


def refused_request_id(text: str) -> str | int | None:
    """Find the top-level ``id`` of a request in text the SDK could not parse.

    Scans the text's structure without parsing it (it may nest past any
    parser's limit, or hold a lone surrogate escape), and answers only for a
    request: a top-level ``method`` beside the ``id`` (an id of a malformed
    response is the client's own and must not be answered).
    """
    depth = 0
    found: dict[str, object] = {}
    for token in _TOKEN.finditer(text):
        lexeme = token.group()
        if lexeme in ("{", "["):
            depth += 1
        elif lexeme in ("}", "]"):
            depth -= 1
        elif depth == 1 and lexeme in ('"id"', '"method"') and lexeme[1:-1] not in found:
            value = _VALUE.match(text, token.end())
            if value is not None:
                with contextlib.suppress(ValueError):
                    found[lexeme[1:-1]] = json.loads(value.group(1))
    request_id = found.get("id")
    if "method" not in found or isinstance(request_id, bool):
        return None
    if isinstance(request_id, int) or (
        isinstance(request_id, str) and _encodable(request_id) and len(request_id) <= _MAX_CALL_ID
    ):
        return request_id
    return None


def _encodable(text: str) -> bool:
    try:
        text.encode()
    except UnicodeEncodeError:
        return False
    return True


def _refused_answer(error: Exception) -> Any:
    """Build the JSON-RPC error answering a request the transport could not read, if any."""
    from mcp import types
    from mcp.shared.message import SessionMessage
    from pydantic import ValidationError

    if not isinstance(error, ValidationError):
        return None
    for problem in error.errors():
        given: object = problem.get("input")
        if problem["type"] == "json_invalid" and isinstance(given, str):
            request_id = refused_request_id(given)
            code, message = (
                _PARSE_ERROR,
                (
                    "Parse error: the server cannot read this message as JSON (invalid JSON, "
                    "a lone surrogate escape, or nesting deeper than the parser allows)"
                ),
            )
            break
        if isinstance(given, Mapping):
            raw = cast("Mapping[str, object]", given)
            if "method" not in raw:
                return None
            found = raw.get("id")
            request_id = found if isinstance(found, (str, int)) else None
            if isinstance(found, bool) or (isinstance(found, str) and not _encodable(found)):
                request_id = None
            code, message = _INVALID_REQUEST, "Invalid Request: not a JSON-RPC request MCP accepts"
            break
    else:
        return None
    if request_id is None:
        return None
    answer = types.JSONRPCError(
        jsonrpc="2.0", id=request_id, error=types.ErrorData(code=code, message=message)
    )
    return SessionMessage(answer)


class _StreamProxy:
    """A stream of the SDK's stdio transport, wrapped: closing reaches the stream."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner

    async def aclose(self) -> None:
        await self._inner.aclose()

    def close(self) -> None:
        self._inner.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc_val: BaseException | None,
        exc_tb: TracebackType | None,
    ) -> bool | None:
        await self.aclose()
        return None


def _id_key(request_id: object) -> object:
    """Return ``request_id`` as a set member (``1`` and ``"1"`` are different ids)."""
    return (type(request_id), request_id) if isinstance(request_id, (str, int)) else None


class _AnswerRefused(_StreamProxy):
    """The stdio read stream, answering each request the SDK's parser refuses.

    The SDK's stdio transport hands such a line to the server as an exception,
    which the server logs and drops: the client would wait for ever. This sends
    the JSON-RPC error for it (when the request's id can be found) and passes
    the exception on.

    It also keeps the ids of the requests read and not yet answered (``_Answers``
    reports the answers): at the end of the input, they have ``SHUTDOWN_GRACE``
    seconds to be answered before the end is passed on, on which the SDK cancels
    every request still running.
    """

    def __init__(self, inner: Any, write: Any) -> None:
        super().__init__(inner)
        self._write = write
        self._unanswered: set[object] = set()
        self._all_answered: Any = None  # an anyio.Event while the end of input waits

    @property
    def last_context(self) -> Any:
        return getattr(self._inner, "last_context", None)

    async def receive(self) -> Any:
        import anyio

        try:
            item = await self._inner.receive()
        except anyio.EndOfStream:
            await self._wait_for_answers()
            raise
        if isinstance(item, Exception):
            answer = _refused_answer(item)
            if answer is not None:
                with contextlib.suppress(anyio.BrokenResourceError, anyio.ClosedResourceError):
                    await self._write.send(answer)
            return item
        message: Any = getattr(item, "message", None)
        method = getattr(message, "method", None)
        if isinstance(method, str):
            if hasattr(message, "id"):
                self._unanswered.add(_id_key(message.id))
            elif method == "notifications/cancelled":  # the SDK answers a cancelled request never
                params = getattr(message, "params", None)
                if isinstance(params, dict):
                    self.answered(cast("dict[str, Any]", params).get("requestId"))
        return item

    def answered(self, request_id: object) -> None:
        """Note that ``request_id`` was answered (or needs no answer any more)."""
        self._unanswered.discard(_id_key(request_id))
        if not self._unanswered and self._all_answered is not None:
            self._all_answered.set()

    async def _wait_for_answers(self) -> None:
        import anyio

        if not self._unanswered:
            return
        self._all_answered = anyio.Event()
        with anyio.move_on_after(SHUTDOWN_GRACE):
            await self._all_answered.wait()

    def __aiter__(self) -> _AnswerRefused:
        return self

    async def __anext__(self) -> Any:
        import anyio

        try:
            return await self.receive()
        except anyio.EndOfStream:
            raise StopAsyncIteration from None


class _Answers(_StreamProxy):
    """The stdio write stream, telling ``_AnswerRefused`` which requests are answered."""

    def __init__(self, inner: Any, reads: _AnswerRefused) -> None:
        super().__init__(inner)
        self._reads = reads

    async def send(self, item: Any) -> None:
        await self._inner.send(item)
        message = getattr(item, "message", None)
        if message is not None and getattr(message, "method", None) is None:  # an answer
            self._reads.answered(getattr(message, "id", None))
