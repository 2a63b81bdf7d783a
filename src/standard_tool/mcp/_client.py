"""Use an MCP server's tools as Standard Tools, through an open client session.

Layer: top (imports the core, the shared helpers and the JSON Schema adapter; ``mcp``
and ``anyio`` lazily).
"""

from __future__ import annotations

import json
import warnings
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from standard_tool._context import Event, ToolContext, current_context, stream_tool
from standard_tool._core import StandardToolError, StandardToolValidationError
from standard_tool._fast import build_tool
from standard_tool._shared import checked_timeout, truncate_text
from standard_tool.content import ToolOutput, structured_output
from standard_tool.mcp._relay import InputRequestRefused, answer_input_requests, bind
from standard_tool.mcp._task_client import TaskFailedError, claimed_task, follow_task
from standard_tool.providers._mcp import content_from_mcp

if TYPE_CHECKING:
    from mcp import ClientSession, types

    from standard_tool.mcp._relay import Relay, RelayCallbacks

__all__ = [
    "MCPConnectionError",
    "MCPTool",
    "MCPToolError",
    "MCPToolRefusedWarning",
    "import_tools",
]

#: Seconds a call or a listing may take unless told otherwise.
DEFAULT_TIMEOUT = 30.0
_MAX_TEXT = 2000
_MAX_PAGES = 100
_MAX_NAME = 100
_MAX_PROBLEM = 300
#: The most ``input_required`` rounds one call answers before it gives up (the SDK's own
#: client stops at 10 too).
MAX_ROUNDS = 10
#: Seconds before retrying a round that asked nothing (state only), doubling to the cap.
_STATE_ONLY_WAIT = (0.05, 0.25)
#: The message of the SDK's own "connection closed" error (code -32000).
_SDK_CLOSED = "Connection closed"


class MCPToolError(StandardToolError, RuntimeError):
    """An MCP server answered a call with an error result (``isError: true``).

    The message is the text the server sent (bounded). ``formatted()`` turns it into
    data like any tool exception, so a model reads what the server said.

    Attributes:
        content: the result's content blocks, as JSON-ready dicts.
    """

    def __init__(self, message: str, content: tuple[dict[str, Any], ...] = ()) -> None:
        super().__init__(message)
        self.content = content

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (str(self), self.content))


class MCPConnectionError(StandardToolError, ConnectionError):
    """A call to an MCP server got no usable answer.

    The server did not answer in time, the connection is closed, the server
    process ended, or it refused the request with a protocol error.
    """


class MCPToolRefusedWarning(StandardToolError, UserWarning):
    """``import_tools`` left out tools of a server, which it cannot use; the others are kept.

    Issued once per ``import_tools`` call that leaves any out, however many (a server
    with a thousand unusable tools makes one bounded warning, not a thousand), through
    ``warnings``: collect it with ``warnings.catch_warnings(record=True)``, or make it
    an error with ``warnings.simplefilter("error", MCPToolRefusedWarning)``.

    Attributes:
        refused: ``(tool_name, reason)`` of the first tools left out (at most
            ``SHOWN``), each bounded. A reason says why: an input or output schema
            that is not a valid JSON Schema of a supported dialect, nests too deeply,
            or has a ``$ref`` that points nowhere or outside it; or a name a tool
            cannot have.
        count: how many tools were left out in all.
        tool_name: the first one's name (``refused[0][0]``).
        reason: why the first one was left out (``refused[0][1]``).
    """

    #: How many refused tools the warning names; the rest are counted.
    SHOWN = 5

    def __init__(self, refused: Sequence[tuple[str, str]], count: int | None = None) -> None:
        self.refused = tuple(refused[: self.SHOWN])
        self.count = len(refused) if count is None else count
        self.tool_name, self.reason = self.refused[0]
        named = "; ".join(f"{name!r} ({reason})" for name, reason in self.refused)
        more = self.count - len(self.refused)
        tools = f"{self.count} MCP tool{'s' * (self.count != 1)}"
        super().__init__(f"{tools} left out: {named}" + (f"; and {more} more" * (more > 0)))

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.refused, self.count))


def _bounded(text: str) -> str:
    return truncate_text(text, _MAX_TEXT)


def _blocks(result: types.CallToolResult) -> tuple[dict[str, Any], ...]:
    return tuple(
        block.model_dump(mode="json", by_alias=True, exclude_none=True) for block in result.content
    )


def _text(blocks: tuple[dict[str, Any], ...]) -> str | None:
    if blocks and all(b.get("type") == "text" for b in blocks):
        return "\n".join(str(b.get("text", "")) for b in blocks)
    return None


def _value(result: types.CallToolResult, has_output_schema: bool) -> Any:
    structured = result.structured_content
    blocks = _blocks(result)
    text = _text(blocks)
    if text is not None or not blocks:
        # With an outputSchema the text is the structured value's JSON form.
        return structured if has_output_schema or structured is not None else text
    # Images, audio and resources pass through as content blocks, unchanged (with the
    # structured value beside them); a block of a kind this package has no type for
    # keeps its dict form.
    read = [content_from_mcp(block) for block in blocks]
    if all(item is not None for item in read):
        return ToolOutput([item for item in read if item is not None], structured)
    return list(blocks) if structured is None else structured


class _Forward:
    """Hands a server's progress notifications to the running call's context."""

    __slots__ = ("context",)

    def __init__(self, context: ToolContext) -> None:
        self.context = context

    async def __call__(self, progress: float, total: float | None, message: str | None) -> None:
        self.context.report_progress(progress, total, message)


async def _call(
    session: ClientSession,
    remote: str,
    arguments: dict[str, Any],
    timeout: float,
    relay: Relay | None,
    name: str,
) -> types.CallToolResult:
    import anyio
    from mcp.shared.exceptions import MCPError
    from mcp.types import CONNECTION_CLOSED

    where = f"MCP tool {truncate_text(remote, _MAX_NAME)!r}"
    context = current_context()
    forward: _Forward | None = None
    if context is not None:
        # Inside a call: the server's progress is the call's, and its deadline bounds this one.
        left = context.time_left()
        if left is not None:
            timeout = max(min(timeout, left), 0.0)
        forward = _Forward(context)
    # With a relay, the server's requests during the call go to the call's context (one
    # made here for a direct call: it finds the handlers of use_caller).
    call = None
    if relay is not None:
        call = relay.start(ToolContext(name, timeout=timeout) if context is None else context)
    try:
        with anyio.fail_after(timeout):
            result: types.CallToolResult | None = None
            with anyio.CancelScope() as waiting:
                if call is not None:
                    call.waiting = waiting
                if not _asks_in_rounds(session):  # an SDK before protocol 2026-07-28
                    result = await session.call_tool(
                        remote, arguments, read_timeout_seconds=timeout, progress_callback=forward
                    )
                else:
                    result = await _rounds(session, remote, arguments, timeout, forward, name)
            if call is not None and call.stopped is not None:
                # The server asked during the call, and the caller will answer in a round of
                # its own (it serves protocol 2026-07-28): the call stops here, to be run again.
                raise call.stopped
            assert result is not None  # only a stopped call's scope is cancelled
            if call is not None:
                await call.settle()
            return result
    except TimeoutError as err:
        raise MCPConnectionError(f"{where}: no answer within {timeout:.3g} s") from err
    except MCPError as err:
        # The SDK reports its own closed connection with code -32000, which a server
        # may also send (JSON-RPC leaves -32000 to -32099 to servers): only the SDK's
        # own message means closed.
        if err.code == CONNECTION_CLOSED and err.message == _SDK_CLOSED:
            raise MCPConnectionError(f"{where}: the connection is closed") from err
        message = (
            f"{where}: the server answered with error {err.code}: "
            f"{truncate_text(str(err.message), _MAX_PROBLEM)}"
        )
        raise MCPConnectionError(message) from err
    except RuntimeError as err:
        # The SDK checks structuredContent against the listed outputSchema itself.
        raise MCPToolError(
            f"{where}: the server's result was refused: {_bounded(str(err))}"
        ) from err
    except Exception as err:  # the remote boundary: a closed stream, a dead process
        detail = _bounded(str(err)) or "connection closed"
        raise MCPConnectionError(f"{where}: {type(err).__name__}: {detail}") from err
    finally:
        if call is not None:
            call.end()


def _asks_in_rounds(session: ClientSession) -> bool:
    """Whether the session's SDK can show ``input_required`` rounds (mcp 2.3 and later)."""
    import inspect

    found = _ROUNDS_BY_CLASS.get(type(session))
    if found is None:
        parameters = inspect.signature(type(session).call_tool).parameters
        found = _ROUNDS_BY_CLASS[type(session)] = "allow_input_required" in parameters
    return found


_ROUNDS_BY_CLASS: dict[type, bool] = {}


async def _rounds(
    session: ClientSession,
    remote: str,
    arguments: dict[str, Any],
    timeout: float,
    forward: _Forward | None,
    name: str,
) -> types.CallToolResult:
    """Call until the server answers with a result, answering its ``input_required`` rounds.

    Each round's questions go to the call's ``ToolContext`` (``answer_input_requests``);
    its ``requestState`` is sent back as it came, with a new request id each time.
    """
    import anyio
    from mcp import types

    where = f"MCP tool {truncate_text(remote, _MAX_NAME)!r}"
    context = current_context() or ToolContext(name, timeout=timeout)
    responses: dict[str, Any] | None = None
    state: str | None = None
    quiet = 0
    for _ in range(MAX_ROUNDS + 1):
        result = await session.call_tool(
            remote,
            arguments,
            read_timeout_seconds=timeout,
            progress_callback=forward,
            input_responses=responses,
            request_state=state,
            allow_input_required=True,
            allow_claimed=True,
        )
        task = claimed_task(result)
        if task is not None:  # the server made the call a task: followed to its end
            try:
                return await follow_task(session, task[0], task[1], context, where)
            except (TaskFailedError, InputRequestRefused) as err:
                raise MCPToolError(str(err)) from err
        if isinstance(result, types.CallToolResult):
            return result
        if not isinstance(result, types.InputRequiredResult):
            kind = truncate_text(str(getattr(result, "result_type", type(result).__name__)), 40)
            raise MCPToolError(f"{where}: the server answered with a {kind!r} result")
        requests = result.input_requests or {}
        state = result.request_state
        if not requests:  # state only: the server asks for nothing but a retry
            await anyio.sleep(min(_STATE_ONLY_WAIT[0] * 2**quiet, _STATE_ONLY_WAIT[1]))
            quiet += 1
            responses = None
            continue
        try:
            responses = await answer_input_requests(context, requests)
        except InputRequestRefused as err:
            raise MCPToolError(f"{where}: the server asked for input: {err}") from err
    raise MCPToolError(
        f"{where}: the server still asked for input after {MAX_ROUNDS} rounds; gave up"
    )


def _handler(
    session: ClientSession,
    remote: str,
    has_output_schema: bool,
    timeout: float,
    check: Any = None,
    relay: Relay | None = None,
    name: str = "",
) -> Callable[[Any], Awaitable[Any]]:
    """Return the call to the server; ``check``: a schema to validate with in a worker thread."""

    async def call(input: Any) -> Any:
        if check is not None:
            input = await _checked_in_thread(check, input)
        arguments = {} if input is None else dict(input)
        result = await _call(session, remote, arguments, timeout, relay, name)
        if result.is_error:
            blocks = _blocks(result)
            text = _text(blocks) or "the server reported an error without text"
            raise MCPToolError(_bounded(text), blocks)
        return _value(result, has_output_schema)

    return call


async def _checked_in_thread(schema: Any, value: Any) -> Any:
    """Validate ``value`` in a worker thread, so the event loop runs on meanwhile.

    For a server's schema with patterns: matching them is bounded (see the JSON
    Schema adapter), but can still take up to a second, which must not stop every
    other task of the loop.
    """
    import anyio

    result = await anyio.to_thread.run_sync(schema.__standard__.validate, value)
    if result.issues is not None:
        raise StandardToolValidationError("input", result.issues)
    return result.value


def _has_patterns(schema: Mapping[str, Any]) -> bool:
    text = json.dumps(schema)
    return '"pattern"' in text or '"patternProperties"' in text


class MCPTool:
    """A tool of an MCP server, called through an open ``ClientSession``.

    It conforms to ``StandardToolV0``: ``execute`` validates the input locally
    against the server's ``inputSchema`` (JSON Schema, ECMA-262 patterns), sends
    ``tools/call``, and returns ``structuredContent`` (validated against the
    ``outputSchema`` when the server declared one), else the text content, else
    the content blocks as dicts. An ``isError`` result raises ``MCPToolError``;
    no answer within the timeout, a closed connection or a crashed server raises
    ``MCPConnectionError``. ``formatted()`` turns both into data.

    The tool is usable while its session is open. Build it with ``import_tools``.

    Attributes:
        name: the name shown to models (the server's name with the prefix).
        remote_name: the server's own name for the tool.
        title: the server's ``title``, else ``annotations.title``, else ``None``.
        description: the server's description (empty when it gave none).
        input_schema: the server's ``inputSchema`` as a Standard Schema.
        output_schema: the server's ``outputSchema`` as a Standard Schema, or ``None``.
        annotations: the server's tool annotations, read-only, or ``None``.
        mcp_meta: the server's ``_meta`` of the tool, read-only, or ``None``.
    """

    __slots__ = ("_input_schema", "_tool", "annotations", "mcp_meta", "remote_name")

    def __init__(
        self,
        tool: Any,
        remote_name: str,
        annotations: Mapping[str, Any] | None,
        mcp_meta: Mapping[str, Any] | None,
        input_schema: Any = None,
    ) -> None:
        self._tool = tool
        self.remote_name = remote_name
        self.annotations = annotations
        self.mcp_meta = mcp_meta
        # Set when the input is validated in a worker thread (by the handler), not by
        # ``tool``: still the schema shown, and the one enforced.
        self._input_schema = input_schema

    @property
    def name(self) -> str:
        """The name shown to models."""
        return str(self._tool.name)

    @property
    def title(self) -> str | None:
        """The human-readable title, or ``None``."""
        title: str | None = self._tool.title
        return title

    @property
    def description(self) -> str:
        """The server's description of the tool."""
        return str(self._tool.description)

    @property
    def input_schema(self) -> Any:
        """The server's ``inputSchema`` as a Standard Schema."""
        if self._input_schema is not None:
            return self._input_schema
        return self._tool.input_schema

    @property
    def output_schema(self) -> Any:
        """The server's ``outputSchema`` as a Standard Schema, or ``None``."""
        return self._tool.output_schema

    async def execute(self, input: Any = None, meta: Any = None) -> Any:
        """Validate ``input``, call the server and return the (formatted) result.

        Args:
            input: the arguments object (``None`` sends ``{}``).
            meta: accepted for the protocol, not sent to the server.
        """
        return await self._tool.execute({} if input is None else input, meta)

    def stream(self, input: Any = None, meta: Any = None) -> AsyncIterator[Event]:
        """Run a call and yield its events: the server's progress, then one ``ResultEvent``.

        Each progress notification the server sends is a ``ProgressEvent``; every
        event is labelled with this tool's ``name`` (the prefixed one); see
        ``stream_tool``.
        """
        return stream_tool(self, input, meta)

    def formatted(self, format: Callable[[Any], Any] | None = None) -> MCPTool:
        """Return this tool with its result (or exception) passed to ``format``.

        Args:
            format: called with the output or the exception; the default keeps
                the output and turns an exception into ``{"error": str(exc)}``.
        """
        return MCPTool(
            self._tool.formatted(format),
            self.remote_name,
            self.annotations,
            self.mcp_meta,
            self._input_schema,
        )

    def __repr__(self) -> str:
        return f"MCPTool(name={self.name!r}, remote_name={self.remote_name!r})"


def _frozen(value: Mapping[str, Any] | None) -> Mapping[str, Any] | None:
    return None if value is None else MappingProxyType(dict(value))


def _build(
    session: ClientSession,
    entry: types.Tool,
    prefix: str,
    timeout: float,
    relay: Relay | None = None,
) -> MCPTool:
    from standard_tool.schemas.jsonschema import from_json_schema

    annotations = (
        None
        if entry.annotations is None
        else entry.annotations.model_dump(mode="json", by_alias=True, exclude_none=True)
    )
    title = entry.title or (annotations or {}).get("title")
    output = entry.output_schema
    given = from_json_schema(entry.input_schema)
    threaded = given if _has_patterns(given.schema) else None
    name = prefix + entry.name
    inner = build_tool(
        name=name,
        title=title if isinstance(title, str) else None,
        description=entry.description or "",
        input_schema=given if threaded is None else None,
        # A ToolOutput (content blocks beside the structured value) has its structured part checked.
        output_schema=None if output is None else structured_output(from_json_schema(output)),
        execute=_handler(session, entry.name, output is not None, timeout, threaded, relay, name),
    )
    return MCPTool(inner, entry.name, _frozen(annotations), _frozen(entry.meta), threaded)


async def _list(session: ClientSession, timeout: float) -> list[types.Tool]:
    import anyio
    from mcp import types

    listed: list[types.Tool] = []
    cursor: str | None = None
    try:
        with anyio.fail_after(timeout):
            for _ in range(_MAX_PAGES):
                params = None if cursor is None else types.PaginatedRequestParams(cursor=cursor)
                page = await session.list_tools(params=params)
                listed.extend(page.tools)
                cursor = page.next_cursor
                if cursor is None:
                    return listed
    except TimeoutError as err:
        raise MCPConnectionError(f"MCP tools/list: no answer within {timeout:g} s") from err
    except Exception as err:  # the remote boundary: a closed stream, a dead process
        detail = _bounded(str(err)) or "connection closed"
        raise MCPConnectionError(f"MCP tools/list: {type(err).__name__}: {detail}") from err
    raise MCPConnectionError(f"MCP tools/list: more than {_MAX_PAGES} pages")


async def import_tools(
    session: ClientSession,
    *,
    prefix: str = "",
    timeout: float = DEFAULT_TIMEOUT,
    relay: RelayCallbacks | None = None,
) -> list[MCPTool]:
    """List an MCP server's tools and return them as Standard Tools.

    Put them in a ``Toolkit`` with local tools, convert them for any provider,
    run a model's calls on them or serve them again. Tools of several servers go
    in one ``Toolkit`` with a ``prefix`` each; the ``Toolkit`` refuses two tools
    with one name.

    Args:
        session: an initialized ``mcp.ClientSession`` (stdio, Streamable HTTP or
            in memory); it must stay open while the tools are used.
        prefix: put before every tool name (``"fs_"`` turns ``read_file`` into
            ``fs_read_file``).
        timeout: seconds the listing, and then each call, may take.
        relay: the ``relay_callbacks()`` the session was built with: then what the
            server asks during a call (log messages, sampling, elicitation) goes to
            the call's ``ToolContext`` (see ``relay_callbacks``). Without it, the
            session's own callbacks get them.

    A tool that cannot be used (its schema is not a valid JSON Schema of a supported
    dialect, nests too deeply, or has a ``$ref`` that points nowhere or outside it;
    its name is not a tool name) is left out, and one ``MCPToolRefusedWarning`` names
    the first few left out with their reasons and counts the rest; the server's other
    tools are returned.

    Returns:
        One ``MCPTool`` per usable tool, in the server's order.

    Raises:
        MCPConnectionError: the server did not list its tools.
        TypeError: ``timeout`` is not a number, or ``relay`` is not from
            ``relay_callbacks()``; ``ValueError``: ``timeout`` is not positive, or
            ``relay`` already serves another session.

    Examples:
        ```python
        async with ClientSession(read, write) as session:
            await session.initialize()
            kit = Toolkit(await import_tools(session, prefix="fs_"))
        ```
    """
    seconds = checked_timeout(timeout, "import_tools")
    timeout = DEFAULT_TIMEOUT if seconds is None else seconds
    relayed = None if relay is None else bind(relay, session)
    entries = await _list(session, timeout)
    tools: list[MCPTool] = []
    refused: list[tuple[str, str]] = []
    count = 0
    for entry in entries:
        try:
            tools.append(_build(session, entry, prefix, timeout, relayed))
        except Exception as err:  # one bad tool of a server must not cost the others
            count += 1
            if len(refused) < MCPToolRefusedWarning.SHOWN:
                reason = (
                    str(err)
                    if isinstance(err, StandardToolError)
                    else (f"{type(err).__name__}: {err}")
                )
                name, reason = (
                    truncate_text(entry.name, _MAX_NAME),
                    truncate_text(reason, _MAX_PROBLEM),
                )
                refused.append((name, reason))
    if refused:
        warnings.warn(MCPToolRefusedWarning(refused, count), stacklevel=2)
    return tools
