"""Hand what an MCP server asks of its client during a call to the call that made it.

Layer: top (imports the call context and the shared helpers; ``mcp`` and ``anyio``
lazily).

``relay_callbacks()`` returns the ``ClientSession`` callbacks for log messages,
sampling and elicitation; ``import_tools(session, relay=...)`` makes the session's
tools note each call while it is in flight. A request or log message from the
server goes to the one call in flight on the session: its ``ToolContext``'s
``log``, ``sample`` or ``elicit``, so a gateway passes it on to its own client.
"""

from __future__ import annotations

from collections.abc import Awaitable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from standard_tool._context import CallerUnavailableError, ToolContext, to_logging
from standard_tool._shared import safe_str, truncate_text

if TYPE_CHECKING:
    import anyio
    from mcp import ClientSession, types
    from mcp.client.session import ClientRequestContext

__all__ = ["RelayCallbacks", "answer_input_requests", "relay_callbacks"]

_T = TypeVar("_T")

_MAX_PROBLEM = 300
_MAX_LOG = 2000
_MAX_NAME = 100
#: Seconds one relayed log message may take to send before it is dropped.
_SEND_LIMIT = 5.0
#: Where a log message goes that no single call can take.
_LOGGER = "standard_tool.mcp.upstream"
#: ``ToolContext.sample`` answers with text only, not the name of the model that wrote it.
_UNKNOWN_MODEL = "unknown"
_INVALID_REQUEST = -32600
_INVALID_PARAMS = -32602
_INTERNAL_ERROR = -32603


def _error(code: int, message: str) -> types.ErrorData:
    from mcp import types

    return types.ErrorData(code=code, message=f"relay_callbacks: {message}")


class _Call:
    """One call of an imported tool in flight: its context and the requests it is answering."""

    __slots__ = ("context", "last_log", "relay", "scopes", "stopped", "waiting")

    def __init__(self, relay: Relay, context: ToolContext) -> None:
        self.relay = relay
        self.context = context
        self.last_log: anyio.Event | None = None
        self.scopes: set[anyio.CancelScope] = set()
        #: The ``InputRequired`` that stopped the call: its caller answers in a later round.
        self.stopped: BaseException | None = None
        #: Where the call waits for the server's answer (cancelled when it is stopped).
        self.waiting: anyio.CancelScope | None = None

    def stop(self, stop: BaseException) -> None:
        """Give up the server's call: the caller (MCP 2026-07-28) answers in a later round."""
        if self.stopped is None:
            self.stopped = stop
        if self.waiting is not None:
            self.waiting.cancel()

    async def settle(self) -> None:
        """Wait (bounded) until the log messages that came before the result are passed on."""
        import anyio
        import anyio.lowlevel

        await anyio.lowlevel.checkpoint()  # a message received just before the result
        last = self.last_log
        if last is not None:
            with anyio.move_on_after(_SEND_LIMIT):
                await last.wait()

    def end(self) -> None:
        """Stop routing to this call, and cancel the requests it is still answering."""
        self.relay.calls.remove(self)
        for scope in self.scopes:
            scope.cancel()


class Relay:
    """The calls of imported tools in flight on one session, and the callbacks reaching them."""

    __slots__ = ("calls", "session")

    def __init__(self) -> None:
        self.calls: list[_Call] = []
        self.session: ClientSession | None = None

    def start(self, context: ToolContext) -> _Call:
        """Note a call as in flight until ``end``."""
        call = _Call(self, context)
        self.calls.append(call)
        return call

    def _single(self, what: str) -> _Call | str:
        """Return the one call in flight, or why there is not one."""
        calls = self.calls
        if len(calls) == 1:
            return calls[0]
        if not calls:
            return f"no call of an imported tool is in flight on this session to take the {what}"
        return (
            f"{len(calls)} calls of imported tools are in flight on this session and MCP does "
            f"not tell a client which one the {what} belongs to, so it is refused rather than "
            "guessed; make one call at a time on a session, or open a session per concurrent call"
        )

    def _reach(self, context: ClientRequestContext, what: str) -> _Call | types.ErrorData:
        if self.session is None or context.session is not self.session:
            return _error(
                _INVALID_REQUEST,
                f"no tools of this session were imported with these callbacks to take the {what}; "
                "pass them to import_tools(session, relay=...)",
            )
        call = self._single(what)
        return _error(_INVALID_REQUEST, call) if isinstance(call, str) else call

    async def log(self, params: types.LoggingMessageNotificationParams) -> None:
        """Pass a log message to the one call's ``ToolContext.log``, else to ``logging``."""
        import anyio

        call = self._single("log message")
        if isinstance(call, str):
            to_logging("", params.level, _log_text(params), _LOGGER)
            return
        context = call.context
        previous, done = call.last_log, anyio.Event()
        call.last_log = done
        try:
            # In order, and a stuck client holds neither the call nor the session.
            with anyio.move_on_after(_SEND_LIMIT):
                if previous is not None:
                    await previous.wait()
                caller = context.caller
                if caller is None or caller.log is None:
                    # To the tool's logger: the server's logger name is text, not a logger to make.
                    await context.log(params.level, _log_text(params))
                else:
                    await context.log(params.level, params.data, logger=params.logger)
        finally:
            done.set()

    async def sample(
        self, context: ClientRequestContext, params: types.CreateMessageRequestParams
    ) -> types.CreateMessageResult | types.ErrorData:
        """Answer a sampling request with the one call's ``ToolContext.sample``, or an error."""
        from mcp import types

        call = self._reach(context, "sampling request")
        if isinstance(call, types.ErrorData):
            return call
        prompt = _prompt(params)
        if prompt is None:
            return _error(
                _INVALID_PARAMS,
                "only a sampling request of one user text message and no tools can be relayed: "
                "a tool's context samples one prompt (ToolContext.sample)",
            )
        answer = await _ask(
            call,
            "sampling request",
            call.context.sample(
                prompt,
                system=params.system_prompt,
                max_tokens=params.max_tokens,
                temperature=params.temperature,
            ),
        )
        if isinstance(answer, types.ErrorData):
            return answer
        try:
            content = types.TextContent(type="text", text=answer)
            return types.CreateMessageResult(
                role="assistant", content=content, model=_UNKNOWN_MODEL
            )
        except Exception as err:  # a handler's answer that is no MCP result: an error answer
            return _not_a_result(err, "sampling")

    async def elicit(
        self, context: ClientRequestContext, params: types.ElicitRequestParams
    ) -> types.ElicitResult | types.ErrorData:
        """Answer an elicitation request with the one call's ``ToolContext.elicit``, or an error."""
        from mcp import types

        call = self._reach(context, "elicitation request")
        if isinstance(call, types.ErrorData):
            return call
        if not isinstance(params, types.ElicitRequestFormParams):
            return _error(
                _INVALID_PARAMS,
                "a URL-mode elicitation cannot be relayed: a tool's context asks with a form "
                "(ToolContext.elicit)",
            )
        answer = await _ask(
            call,
            "elicitation request",
            call.context.elicit(params.message, params.requested_schema),
        )
        if isinstance(answer, types.ErrorData):
            return answer
        try:
            return types.ElicitResult.model_validate(
                {"action": answer.action, "content": answer.content}
            )
        except Exception as err:  # a handler's answer that is no MCP result: an error answer
            return _not_a_result(err, "elicitation")

    async def roots(self, context: ClientRequestContext) -> types.ListRootsResult | types.ErrorData:
        """Answer a roots request with the one call's ``ToolContext.roots``, or an error."""
        from mcp import types

        call = self._reach(context, "roots request")
        if isinstance(call, types.ErrorData):
            return call
        answer = await _ask(call, "roots request", call.context.roots())
        if isinstance(answer, types.ErrorData):
            return answer
        try:
            listed = [{"uri": root.uri, "name": root.name} for root in answer]
            return types.ListRootsResult.model_validate({"roots": listed})
        except Exception as err:  # a handler's answer that is no MCP result: an error answer
            return _not_a_result(err, "roots")


def _prompt(params: types.CreateMessageRequestParams) -> str | None:
    """Return the text of a request ``ToolContext.sample`` can make, else ``None``."""
    from mcp import types

    if params.tools or params.tool_choice is not None or len(params.messages) != 1:
        return None
    [message] = params.messages
    blocks = message.content_as_list
    if message.role != "user" or len(blocks) != 1:
        return None
    [block] = blocks
    return block.text if isinstance(block, types.TextContent) else None


async def _ask(call: _Call, what: str, asking: Awaitable[_T]) -> _T | types.ErrorData:
    """Ask the call's caller; its failure, or the end of the call, is an error answer."""
    import anyio
    from mcp.shared.exceptions import MCPError

    from standard_tool.mcp._rounds import InputRequired

    name = truncate_text(call.context.tool_name, _MAX_NAME)
    with anyio.CancelScope() as scope:
        call.scopes.add(scope)
        try:
            return await asking
        except InputRequired as stop:  # the caller asks its client in a round of its own
            call.stop(stop)
            return _error(
                _INTERNAL_ERROR,
                f"the caller of tool {name!r} answers in a later round; this call is given up",
            )
        except MCPError as err:
            message = safe_str(err.message, _MAX_PROBLEM)
            return _error(
                err.code, f"the caller of tool {name!r} answered with error {err.code}: {message}"
            )
        except CallerUnavailableError as err:
            return _error(_INVALID_REQUEST, safe_str(err, _MAX_PROBLEM))
        except Exception as err:  # the boundary: a failing handler is an error answer, not a crash
            detail = safe_str(err, _MAX_PROBLEM)
            return _error(
                _INTERNAL_ERROR,
                f"the caller of tool {name!r} failed on the {what}: {type(err).__name__}: {detail}",
            )
        finally:
            call.scopes.discard(scope)
    return _error(
        _INTERNAL_ERROR, f"the call of tool {name!r} ended before its caller answered the {what}"
    )


def _not_a_result(err: Exception, what: str) -> types.ErrorData:
    detail = safe_str(err, _MAX_PROBLEM)
    return _error(
        _INTERNAL_ERROR,
        f"the caller's answer is not an MCP {what} result: {type(err).__name__}: {detail}",
    )


class InputRequestRefused(Exception):
    """An input request of a server's ``input_required`` answer that cannot be answered."""


async def answer_input_requests(
    context: ToolContext, requests: Mapping[str, Any]
) -> dict[str, Any]:
    """Answer the ``inputRequests`` of an ``input_required`` result through ``context``.

    Each goes to the call's ``ToolContext`` under its own key (so a gateway passes the
    server's keys on): ``elicit`` for a form elicitation, ``sample`` for a sampling
    request of one user text message without tools, ``roots`` for ``roots/list``.
    The questions are asked together (a gateway serving protocol 2026-07-28 asks its
    own client all of them in one round).

    Raises:
        InputRequestRefused: a request that a tool's context cannot ask (a URL
            elicitation, sampling of several messages, images or tools, an unknown
            method).
        CallerUnavailableError: the call's caller cannot answer.
    """
    import asyncio

    from mcp import types

    async def answer(key: str, request: Any) -> Any:
        named = key if 0 < len(key) <= 64 else None
        if isinstance(request, types.ElicitRequest):
            form = request.params
            if not isinstance(form, types.ElicitRequestFormParams):
                raise InputRequestRefused(
                    "a URL-mode elicitation cannot be relayed: a tool's context asks with a "
                    "form (ToolContext.elicit)"
                )
            got = await context.elicit(form.message, form.requested_schema, key=named)
            return types.ElicitResult(action=got.action, content=got.content)
        if isinstance(request, types.CreateMessageRequest):
            sampling = request.params
            prompt = _prompt(sampling)
            if prompt is None:
                raise InputRequestRefused(
                    "only a sampling request of one user text message and no tools can be "
                    "relayed: a tool's context samples one prompt (ToolContext.sample)"
                )
            text = await context.sample(
                prompt,
                system=sampling.system_prompt,
                max_tokens=sampling.max_tokens,
                temperature=sampling.temperature,
                key=named,
            )
            content = types.TextContent(type="text", text=text)
            return types.CreateMessageResult(
                role="assistant", content=content, model=_UNKNOWN_MODEL
            )
        if isinstance(request, types.ListRootsRequest):
            roots = await context.roots(key=named)
            listed = [{"uri": root.uri, "name": root.name} for root in roots]
            return types.ListRootsResult.model_validate({"roots": listed})
        method = truncate_text(str(getattr(request, "method", type(request).__name__)), 60)
        raise InputRequestRefused(f"the input request {method!r} is not one a client answers")

    keys = list(requests)
    answers = await asyncio.gather(*(answer(key, requests[key]) for key in keys))
    return dict(zip(keys, answers, strict=True))


def _log_text(params: types.LoggingMessageNotificationParams) -> str:
    data = params.data
    text = truncate_text(data if isinstance(data, str) else safe_str(data, _MAX_LOG), _MAX_LOG)
    if params.logger is None:
        return text
    return f"[{truncate_text(params.logger, _MAX_NAME)}] {text}"


class RelayCallbacks(Mapping[str, Any]):
    """The callbacks that relay what an MCP server asks during a call: pass to a session.

    A read-only mapping of ``logging_callback``, ``sampling_callback``,
    ``elicitation_callback`` and ``list_roots_callback``, the keyword arguments of
    ``mcp.ClientSession`` (and of ``mcp.Client``); build it with ``relay_callbacks()``,
    give it to the session and to ``import_tools(session, relay=...)``. One per session.

    Attributes:
        calls_in_flight: how many calls of the imported tools are running now.
    """

    __slots__ = ("_callbacks", "_relay")

    def __init__(self) -> None:
        relay = self._relay = Relay()
        self._callbacks: dict[str, Any] = {
            "logging_callback": relay.log,
            "sampling_callback": relay.sample,
            "elicitation_callback": relay.elicit,
            "list_roots_callback": relay.roots,
        }

    @property
    def calls_in_flight(self) -> int:
        """How many calls of the tools imported with these callbacks are running now."""
        return len(self._relay.calls)

    def __getitem__(self, key: str) -> Any:
        return self._callbacks[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._callbacks)

    def __len__(self) -> int:
        return len(self._callbacks)

    def __repr__(self) -> str:
        return f"RelayCallbacks(calls_in_flight={self.calls_in_flight})"


def bind(callbacks: object, session: ClientSession) -> Relay:
    """Tie ``callbacks`` to the session ``import_tools`` imports from; one session each."""
    if not isinstance(callbacks, RelayCallbacks):
        raise TypeError(
            f"import_tools: relay must be what relay_callbacks() returns, "
            f"not {type(callbacks).__name__}"
        )
    relay = callbacks._relay  # pyright: ignore[reportPrivateUsage]  # same module
    if relay.session is None:
        relay.session = session
    elif relay.session is not session:
        raise ValueError(
            "import_tools: these relay_callbacks() already serve another session; "
            "make one with relay_callbacks() for each ClientSession"
        )
    return relay


def relay_callbacks() -> RelayCallbacks:
    """Return ``ClientSession`` callbacks that hand a server's requests to the running call.

    While a tool imported with ``import_tools(session, relay=...)`` runs, its server
    may log (``notifications/message``), ask the client's model
    (``sampling/createMessage``), ask the user (``elicitation/create``) or list the
    client's roots (``roots/list``). Through these callbacks each goes to the call's
    ``ToolContext``: ``log``, ``sample``, ``elicit`` and ``roots``. They also make the
    session declare those capabilities, so a server of protocol 2026-07-28 asks its
    questions in ``input_required`` rounds, which ``import_tools`` answers through the
    same ``ToolContext`` (no matter how many calls are in flight: a round names its
    call). Served again (a gateway), the tool passes them on to its own
    MCP client; in a ``Toolkit`` or a runner they reach the handlers of
    ``use_caller``; with no handler, ``log`` goes to the standard library's
    ``logging`` and the server gets an error answer for the others.

    MCP does not tell a client which of its requests a server's request belongs
    to, so the rule is: exactly one call of the session's imported tools in flight
    gets it. With none, or several at once, nothing is guessed: a log message goes
    to the standard library's ``logging`` (logger ``standard_tool.mcp.upstream``),
    and a sampling or elicitation request gets an error answer saying why. Calls
    made on the session other than through the imported tools are not counted.

    What is relayed: a form elicitation (its message and schema; the answer's
    action and content come back); a sampling request of one user text message
    without tools (its system prompt, ``maxTokens`` and temperature; model
    preferences, stop sequences, ``includeContext`` and metadata are dropped, and
    the answer's model is ``"unknown"``). A URL elicitation, or sampling of several
    messages, images or tools, gets an error answer. A request the caller has not
    answered when the call ends (its ``timeout``, the call's deadline, a
    cancellation) gets an error answer then; a handler's exception becomes an error
    answer too. A log message waits at most 5 s to be passed on.

    Why one object for both: the SDK gives the log callback no session, so the
    callbacks cannot find the calls of their session by themselves; they share
    the calls ``import_tools`` notes. Hence one per session: a second session given
    to ``import_tools`` with the same callbacks raises ``ValueError``.

    Returns:
        A ``RelayCallbacks``: ``ClientSession(read, write, **relay)``.

    Examples:
        ```python
        relay = relay_callbacks()
        async with ClientSession(read, write, **relay) as session:
            await session.initialize()
            tools = await import_tools(session, relay=relay)
        ```
    """
    return RelayCallbacks()
