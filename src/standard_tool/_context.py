"""The call context: what a running tool can know about its call, from anywhere in it.

Layer: shared helpers (beside the core; imports only ``standard_tool._core`` and
``standard_tool._shared``).

A ``ToolContext`` describes one call: the tool's name, the call id, the raw
arguments, an optional trace id, a deadline, a cancellation flag and a way to
report progress. Whoever runs a call (``Toolkit``, the runners, MCP serving, a
direct call of a function tool) makes it the *current* context for the duration
of the call, in a ``contextvars.ContextVar``, so any handler of any conforming
tool can read it with ``current_context()``. A ``@tool`` function can also ask
for it by annotating a parameter with ``ToolContext`` (hidden from every schema).
"""

from __future__ import annotations

import contextlib
import contextvars
import dataclasses
import inspect
import os
import threading
import time
import types
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable, Generator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from typing_extensions import Literal, Protocol, TypeAlias, TypeVar

from standard_tool._core import (
    StandardToolError,
    StandardToolV0Definition,
    call_execute,
    is_async_callable,
)
from standard_tool._shared import checked_timeout

if TYPE_CHECKING:
    import asyncio

_T = TypeVar("_T")

__all__ = [
    "LOG_LEVELS",
    "Caller",
    "CallerUnavailableError",
    "Elicitation",
    "LogLevel",
    "ProgressEvent",
    "ResultEvent",
    "Root",
    "ToolCancelledError",
    "ToolContext",
    "current_context",
    "stream_tool",
    "use_caller",
]


@dataclass(frozen=True, slots=True)
class ProgressEvent:
    """One progress report of a running call.

    Attributes:
        progress: how far the call is (a count or a fraction; the tool decides).
        total: what ``progress`` counts up to, when known.
        message: a short human-readable note.
        data: what a streaming handler yielded (``None`` for ``report_progress``).
        tool_name: the tool that reported it.
        call_id: the id of the call it belongs to.
    """

    progress: float | None = None
    total: float | None = None
    message: str | None = None
    data: Any = None
    tool_name: str | None = None
    call_id: str | None = None


@dataclass(frozen=True, slots=True)
class ResultEvent:
    """The last event of a streamed call: its result, or the exception it failed with.

    Attributes:
        value: what ``execute`` returned (``None`` on failure).
        error: the ``Exception`` the call raised, or ``None`` on success.
        tool_name: the tool that was called.
        call_id: the call's id.
    """

    value: Any = None
    error: Exception | None = None
    tool_name: str | None = None
    call_id: str | None = None

    @property
    def ok(self) -> bool:
        """``True`` when the call returned (``value`` is its result)."""
        return self.error is None


class ToolCancelledError(StandardToolError):
    """Raised by ``ToolContext.raise_if_cancelled`` once the call was cancelled or timed out."""


_EVENT_LOCK = threading.Lock()

# --------------------------------------------------------------------------------------
# The caller: who a running tool can talk back to (an MCP client, or handlers plugged in)
# --------------------------------------------------------------------------------------

#: A log message's severity, as MCP (RFC 5424) names them, lowest first.
LogLevel: TypeAlias = Literal[
    "debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"
]
LOG_LEVELS: tuple[LogLevel, ...] = (
    "debug",
    "info",
    "notice",
    "warning",
    "error",
    "critical",
    "alert",
    "emergency",
)
#: The standard library's level for each: where a log goes when nobody called.
_STDLIB_LEVELS = {"debug": 10, "info": 20, "notice": 25, "warning": 30, "error": 40}


@dataclass(frozen=True, slots=True)
class Elicitation:
    """The user's answer to ``ToolContext.elicit``.

    Attributes:
        action: ``"accept"`` (``content`` holds the answer), ``"decline"`` or ``"cancel"``.
        content: the answer, an object matching the requested schema, when accepted.
    """

    action: Literal["accept", "decline", "cancel"]
    content: dict[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class Root:
    """A root the caller exposes to its tools (MCP ``roots/list``): a directory or a place.

    Attributes:
        uri: where the root is (``file:///home/ada/project``).
        name: a readable name for it, when the caller gave one.
    """

    uri: str
    name: str | None = None


class LogHandler(Protocol):
    """Receives ``ToolContext.log``: ``(level, message, logger)``."""

    def __call__(self, level: LogLevel, message: Any, logger: str | None, /) -> Awaitable[None]: ...


class ElicitHandler(Protocol):
    """Answers ``ToolContext.elicit``: ``(message, schema) -> Elicitation``."""

    def __call__(self, message: str, schema: dict[str, Any], /) -> Awaitable[Elicitation]: ...


class SampleHandler(Protocol):
    """Answers ``ToolContext.sample``: the prompt and options in, the model's text out."""

    def __call__(
        self,
        prompt: str,
        /,
        *,
        system: str | None,
        max_tokens: int,
        temperature: float | None,
    ) -> Awaitable[str]: ...


class RootsHandler(Protocol):
    """Answers ``ToolContext.roots``: the caller's roots."""

    def __call__(self) -> Awaitable[list[Root]]: ...


class CallerUnavailableError(StandardToolError):
    """A tool asked its caller for something the caller cannot give.

    Raised by ``ToolContext.elicit``, ``sample`` and ``roots`` when the call does
    not come from an MCP client that declared the capability, and no handler was
    plugged in with ``use_caller``.

    Attributes:
        capability: the MCP client capability that was missing (``"elicitation"``,
            ``"sampling"``, ``"roots"``), when that is the reason; ``None`` otherwise.
    """

    capability: str | None = None

    def __init__(self, message: str, *, capability: str | None = None) -> None:
        super().__init__(message)
        self.capability = capability

    def __reduce__(self) -> tuple[Any, ...]:
        return (_unpickle_unavailable, (str(self), self.capability))


def _unpickle_unavailable(message: str, capability: str | None) -> CallerUnavailableError:
    return CallerUnavailableError(message, capability=capability)


@dataclass(frozen=True, slots=True)
class Caller:
    """Who a running tool can talk back to: four optional async handlers.

    MCP serving makes one per ``tools/call`` from the client's session and hands
    it down with the call (``Toolkit.aexecute(..., caller=...)``); anywhere else,
    plug your own in with ``use_caller`` or ``caller=`` (an agent loop that can ask
    its user, a model to sample from). A handler left ``None`` is not available:
    ``log`` then goes to the standard library's ``logging``, ``elicit`` and
    ``sample`` raise ``CallerUnavailableError``.

    Attributes:
        log: sends a log message to the caller.
        elicit: asks the user for input matching a JSON Schema.
        sample: asks the caller's model to complete a prompt.
        roots: lists the caller's roots (directories, places it exposes).
        name: who the caller is, for error messages (``"MCP client"``...).
        loop: the event loop the handlers run on, where ``log_sync``,
            ``elicit_sync`` and ``sample_sync`` send them from a worker thread
            (``use_caller`` and MCP serving set the running loop); ``None``:
            a sync call runs them in an event loop of its own.
    """

    log: LogHandler | None = None
    elicit: ElicitHandler | None = None
    sample: SampleHandler | None = None
    roots: RootsHandler | None = None
    name: str = "caller"
    loop: asyncio.AbstractEventLoop | None = None


#: The caller of the tool calls started here (``use_caller``); a call's own ``caller=`` wins.
CALLER: contextvars.ContextVar[Caller | None] = contextvars.ContextVar(
    "standard_tool_caller", default=None
)


class use_caller:  # lower case: a context manager called like a function (contextlib.suppress)
    """Make ``caller`` (or one built of the handlers given) the caller of the tool calls inside.

    Every tool call started in the ``with`` block (in this task, in tasks it
    starts, in worker threads that copy the context) reaches these handlers
    through ``ToolContext.log``, ``elicit``, ``sample`` and ``roots``.

    Examples:
        >>> import asyncio
        >>> from standard_tool import Elicitation, Toolkit, ToolContext, tool, use_caller
        >>> @tool
        ... async def greet(ctx: ToolContext) -> str:
        ...     '''Greet the user by name.'''
        ...     answer = await ctx.elicit("Your name?", {"type": "object",
        ...         "properties": {"name": {"type": "string"}}})
        ...     return f"Hello, {(answer.content or {}).get('name')}!"
        >>> async def ask(message: str, schema: dict[str, object]) -> Elicitation:
        ...     return Elicitation("accept", {"name": "Ada"})
        >>> with use_caller(elicit=ask):
        ...     asyncio.run(Toolkit([greet]).aexecute("greet", {})).value
        'Hello, Ada!'
    """

    __slots__ = ("_caller", "_token")

    def __init__(
        self,
        caller: Caller | None = None,
        *,
        log: LogHandler | None = None,
        elicit: ElicitHandler | None = None,
        sample: SampleHandler | None = None,
        roots: RootsHandler | None = None,
    ) -> None:
        self._caller = (
            caller
            if caller is not None
            else Caller(log=log, elicit=elicit, sample=sample, roots=roots)
        )
        self._token: contextvars.Token[Caller | None] | None = None

    def __enter__(self) -> Caller:
        made = self._caller
        if made.loop is None:
            import asyncio

            with contextlib.suppress(RuntimeError):  # no loop running: sync calls run their own
                made = dataclasses.replace(made, loop=asyncio.get_running_loop())
        self._token = CALLER.set(made)
        return made

    def __exit__(self, *exc_info: object) -> None:
        if self._token is not None:
            CALLER.reset(self._token)
            self._token = None


#: Receives every ``ProgressEvent`` a call reports (a ``Toolkit`` callback, an MCP session...).
ProgressCallback = Callable[[ProgressEvent], Any]


#: Seconds between two looks at a sync call's cancellation while it waits for its caller.
_POLL = 0.05


#: The name the running question was given (``ToolContext.elicit(..., key=...)``):
#: read by a caller that answers from earlier rounds (MCP 2026-07-28 serving).
QUESTION_KEY: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "standard_tool_question_key", default=None
)
_MAX_KEY = 64


@contextlib.contextmanager
def _question(key: object) -> Generator[None, None, None]:
    if key is not None and (not isinstance(key, str) or not 0 < len(key) <= _MAX_KEY):
        shown = repr(key)[:40] if isinstance(key, str) else type(key).__name__
        raise ValueError(f"key must be a string of 1 to {_MAX_KEY} characters, not {shown}")
    token = QUESTION_KEY.set(key)
    try:
        yield
    finally:
        QUESTION_KEY.reset(token)


def _check_level(level: object) -> None:
    if level not in LOG_LEVELS:
        shown = repr(level[:40]) if isinstance(level, str) else type(level).__name__
        raise ValueError(f"log level must be one of {', '.join(LOG_LEVELS)}, not {shown}")


def _need(
    method: str, name: str, value: object, kind: type | tuple[type, ...], optional: bool = False
) -> None:
    """Refuse an argument of the wrong type where it is given, naming it."""
    if (optional and value is None) or (isinstance(value, kind) and not isinstance(value, bool)):
        return
    expected = (
        "a number"
        if isinstance(kind, tuple)
        else {str: "a string", int: "an integer"}.get(kind, "a mapping (a JSON Schema object)")
    )
    raise TypeError(
        f"ToolContext.{method}: {name} must be {expected}"
        f"{' or None' if optional else ''}, not {type(value).__name__}"
    )


def to_logging(tool_name: str, level: str, message: Any, logger: str | None) -> None:
    """Write a log message to the standard library's ``logging`` (the tool's logger by default)."""
    import logging

    name = f"standard_tool.tools.{tool_name}" if logger is None else logger
    logging.getLogger(name).log(_STDLIB_LEVELS.get(level, 50), "%s", message)


class ToolContext:
    """What a running tool can know about its call.

    Built by whoever runs the call; a handler reads it with ``current_context()``
    or by annotating a ``@tool`` parameter with ``ToolContext``.

    Examples:
        >>> from standard_tool import ToolContext, tool
        >>> @tool
        ... def whoami(ctx: ToolContext) -> str:
        ...     '''Say which tool this is.'''
        ...     return ctx.tool_name
        >>> whoami.execute({})
        'whoami'

    Args:
        tool_name: the name of the tool being called.
        call_id: the provider's id for the call; a fresh ``"call_..."`` id when omitted.
        arguments: the arguments as the caller sent them (before validation).
        trace_id: an id that ties the call to a trace, when the caller has one.
        timeout: seconds the call may take from now (a positive number, or
            ``math.inf``); sets ``deadline``. Anything else raises ``ValueError`` or
            ``TypeError``.
        deadline: the ``time.monotonic()`` value at which the call is late (wins
            over ``timeout``).
        on_progress: receives each ``ProgressEvent`` reported during the call.
        caller: who called (``log``, ``elicit``, ``sample`` and ``roots`` reach
            its handlers); ``None``: the caller ``use_caller`` set where the
            context is made, if any.
    """

    __slots__ = (
        "_call_id",
        "_caller",
        "_cancelled",
        "_ended",
        "_metadata",
        "_on_progress",
        "arguments",
        "deadline",
        "tool_name",
        "trace_id",
    )

    tool_name: str
    arguments: Any
    trace_id: str | None
    deadline: float | None

    def __init__(
        self,
        tool_name: str,
        *,
        call_id: str | None = None,
        arguments: Any = None,
        trace_id: str | None = None,
        timeout: float | None = None,
        deadline: float | None = None,
        on_progress: ProgressCallback | None = None,
        caller: Caller | None = None,
    ) -> None:
        self.tool_name = tool_name
        self._call_id = call_id
        self.arguments = arguments
        self.trace_id = trace_id
        if timeout is not None:
            timeout = checked_timeout(timeout, "ToolContext")
        if deadline is None and timeout is not None:
            deadline = time.monotonic() + timeout
        self.deadline = deadline
        self._cancelled: threading.Event | None = None
        self._on_progress = on_progress
        self._metadata: dict[str, Any] | None = None
        self._caller = CALLER.get() if caller is None else caller
        self._ended = False

    def __repr__(self) -> str:
        return (
            f"ToolContext(tool_name={self.tool_name!r}, call_id={self.call_id!r}, "
            f"time_left={self.time_left()!r}, cancelled={self.cancelled})"
        )

    @property
    def call_id(self) -> str:
        """The provider's id for this call, or a generated ``"call_<hex>"`` id."""
        if self._call_id is None:
            self._call_id = "call_" + os.urandom(12).hex()
        return self._call_id

    @property
    def metadata(self) -> dict[str, Any]:
        """Facts about the call's result the handler wants to pass on (usage, source, ...).

        A dict the handler writes to; the ``Toolkit`` copies it into
        ``ToolResult.metadata``. It is not sent to the model.
        """
        if self._metadata is None:
            self._metadata = {}
        return self._metadata

    def time_left(self) -> float | None:
        """Seconds until the deadline (never negative), or ``None`` without a deadline."""
        if self.deadline is None:
            return None
        return max(self.deadline - time.monotonic(), 0.0)

    # -- cancellation ----------------------------------------------------------------

    def _event(self) -> threading.Event:
        # Built on first use (most calls never ask), under a lock so that a waiting
        # handler and a cancelling runner always share one Event.
        with _EVENT_LOCK:
            event = self._cancelled
            if event is None:
                event = self._cancelled = threading.Event()
        return event

    @property
    def cancelled(self) -> bool:
        """``True`` once the caller gave up on the call (a timeout or a cancellation).

        A synchronous handler polls this (or calls ``wait``) to stop early: a thread
        cannot be stopped from outside.
        """
        event = self._cancelled
        return event is not None and event.is_set()

    def cancel(self) -> None:
        """Mark the call cancelled (the runner does this when the deadline passes)."""
        self._event().set()

    def wait(self, seconds: float) -> bool:
        """Sleep up to ``seconds``, waking early when the call is cancelled.

        Use it in place of ``time.sleep`` in a synchronous handler:
        ``while not ctx.wait(1.0): ...``. Whoever runs the call cancels it when
        its deadline passes.

        Returns:
            ``True`` when the call was cancelled, ``False`` when the time ran out.
        """
        return self._event().wait(max(seconds, 0.0))

    def _late(self) -> bool:
        return self.deadline is not None and time.monotonic() >= self.deadline

    def raise_if_cancelled(self) -> None:
        """Raise ``ToolCancelledError`` when the call was cancelled or its deadline passed."""
        if self.cancelled or self._late():
            raise ToolCancelledError(f"tool {self.tool_name!r}: the call was cancelled")

    # -- progress --------------------------------------------------------------------

    def report_progress(
        self,
        progress: float | None = None,
        total: float | None = None,
        message: str | None = None,
        *,
        data: Any = None,
    ) -> None:
        """Tell whoever runs the call how far it is; a no-op when nobody listens.

        An exception raised by the listener is not the tool's problem: it is dropped.
        """
        listener = self._on_progress
        if listener is None:
            return
        event = ProgressEvent(progress, total, message, data, self.tool_name, self.call_id)
        # A failing observer must not fail the call it observes.
        with contextlib.suppress(Exception):
            listener(event)

    # -- talking back to the caller -------------------------------------------------

    @property
    def caller(self) -> Caller | None:
        """Who called the tool (an MCP client, handlers from ``use_caller``), or ``None``."""
        return self._caller

    def _check_open(self, method: str) -> None:
        if self._ended:
            raise CallerUnavailableError(
                f"tool {self.tool_name!r}: ToolContext.{method} was called after the call "
                "ended; a context talks to its caller only while its call runs (keep what "
                "you need from it, not the context)"
            )

    def _unavailable(self, what: str, handler: str) -> CallerUnavailableError:
        who = "nobody" if self._caller is None else f"the {self._caller.name}"
        return CallerUnavailableError(
            f"tool {self.tool_name!r}: cannot {what}: {who} offers it; serve the tool over "
            f"MCP to a client that supports it, or plug a handler in with use_caller({handler}=...)"
        )

    async def log(self, level: LogLevel, message: Any, *, logger: str | None = None) -> None:
        """Send a log message to the caller: an MCP client gets ``notifications/message``.

        An MCP client receives only the levels it asked for (``logging/setLevel``).
        Without a caller that takes logs, the message goes to the standard library's
        ``logging`` (logger ``standard_tool.tools.<tool name>``). A failing caller
        does not fail the call.

        Args:
            level: ``"debug"``, ``"info"``, ``"notice"``, ``"warning"``, ``"error"``,
                ``"critical"``, ``"alert"`` or ``"emergency"``.
            message: the message: a string or any JSON data.
            logger: a name for the source, shown by the client.

        Raises:
            ValueError: ``level`` is not one of those.
            TypeError: ``logger`` is not a string.
            CallerUnavailableError: the call already ended.
        """
        _check_level(level)
        _need("log", "logger", logger, str, optional=True)
        self._check_open("log")
        handler = None if self._caller is None else self._caller.log
        if handler is None:
            to_logging(self.tool_name, level, message, logger)
            return
        # A failing observer must not fail the call it observes.
        with contextlib.suppress(Exception):
            await handler(level, message, logger)

    async def elicit(
        self, message: str, schema: Mapping[str, Any], *, key: str | None = None
    ) -> Elicitation:
        """Ask the user for input: an MCP client shows a form for ``schema``.

        Args:
            message: what to ask.
            schema: a JSON Schema object of the answer (MCP takes a flat object of
                strings, numbers, booleans and enums).
            key: a name for the question in a multi-round call (MCP 2026-07-28's
                ``inputRequests`` key): its answer is found by this name when the
                handler runs again. Default: its place among the call's questions.

        Returns:
            The user's ``Elicitation``: accepted with ``content``, declined or cancelled.

        Raises:
            CallerUnavailableError: the caller cannot ask its user, or the call ended.
            TypeError: ``message`` is not a string or ``schema`` not a mapping.
        """
        _need("elicit", "message", message, str)
        _need("elicit", "schema", schema, Mapping)
        self._check_open("elicit")
        with _question(key):
            handler = None if self._caller is None else self._caller.elicit
            if handler is None:
                raise self._unavailable("elicit input from the user", "elicit")
            return await handler(message, dict(schema))

    async def sample(
        self,
        prompt: str,
        *,
        system: str | None = None,
        max_tokens: int = 1000,
        temperature: float | None = None,
        key: str | None = None,
    ) -> str:
        """Ask the caller's model to complete ``prompt`` (MCP ``sampling/createMessage``).

        Args:
            prompt: the user message the model answers.
            system: a system prompt.
            max_tokens: the most tokens the answer may take.
            temperature: the sampling temperature, when it matters.
            key: a name for the question in a multi-round call (see ``elicit``).

        Returns:
            The model's text.

        Raises:
            CallerUnavailableError: the caller has no model to offer, or the call ended.
            TypeError: an argument is not of its type.
            ValueError: ``max_tokens`` is not positive.
        """
        _need("sample", "prompt", prompt, str)
        _need("sample", "system", system, str, optional=True)
        _need("sample", "max_tokens", max_tokens, int)
        if max_tokens < 1:
            raise ValueError(f"ToolContext.sample: max_tokens must be 1 or more, not {max_tokens}")
        if temperature is not None:
            _need("sample", "temperature", temperature, (int, float))
        self._check_open("sample")
        with _question(key):
            handler = None if self._caller is None else self._caller.sample
            if handler is None:
                raise self._unavailable("sample the caller's model", "sample")
            return await handler(
                prompt, system=system, max_tokens=max_tokens, temperature=temperature
            )

    async def roots(self, *, key: str | None = None) -> list[Root]:
        """List the caller's roots (MCP ``roots/list``): the directories or places it exposes.

        Args:
            key: a name for the question in a multi-round call (see ``elicit``).

        Returns:
            The roots, in the caller's order (possibly none).

        Raises:
            CallerUnavailableError: the caller has no roots to offer, or the call ended.
        """
        self._check_open("roots")
        with _question(key):
            handler = None if self._caller is None else self._caller.roots
            if handler is None:
                raise self._unavailable("list the caller's roots", "roots")
            return await handler()

    # -- the same from a sync tool ---------------------------------------------------

    def _wait(self, method: str, call: Callable[[], Awaitable[_T]]) -> _T:
        """Run one of the caller's async handlers from sync code and wait for its answer.

        From a worker thread the handler is sent to the caller's event loop (the
        loop the call came from); where no loop is known it runs in a loop of
        its own. Cancelling the call (or its deadline) stops the wait.
        """
        import asyncio
        import concurrent.futures

        try:
            asyncio.get_running_loop()
        except RuntimeError:
            pass
        else:
            raise RuntimeError(
                f"tool {self.tool_name!r}: {method}_sync() would block the event loop this "
                f"thread runs; make the tool async and use `await ctx.{method}(...)`"
            )

        self._check_open(method)

        async def run() -> _T:
            return await call()

        loop = None if self._caller is None else self._caller.loop
        if loop is None or loop.is_closed():
            return asyncio.run(run())
        if not loop.is_running():
            raise self._stopped(method)
        future = asyncio.run_coroutine_threadsafe(run(), loop)
        while True:
            try:
                return future.result(timeout=_POLL)
            except concurrent.futures.TimeoutError:
                if not loop.is_running():  # nobody will run the handler any more
                    future.cancel()
                    raise self._stopped(method) from None
                if self.cancelled or self._late():
                    future.cancel()
                    raise ToolCancelledError(
                        f"tool {self.tool_name!r}: the call was cancelled"
                    ) from None

    def _stopped(self, method: str) -> CallerUnavailableError:
        return CallerUnavailableError(
            f"tool {self.tool_name!r}: ToolContext.{method}_sync cannot reach the "
            f"{'caller' if self._caller is None else self._caller.name}: the event loop it "
            "answers on is not running (its call ended, or the loop was stopped)"
        )

    def log_sync(self, level: LogLevel, message: Any, *, logger: str | None = None) -> None:
        """``log`` for a sync tool: sends the message and waits until it is sent.

        Raises:
            ValueError: ``level`` is not a log level.
            RuntimeError: called on a thread that runs an event loop (use ``await ctx.log``).
        """
        if self._caller is None or self._caller.log is None:
            _check_level(level)
            _need("log", "logger", logger, str, optional=True)
            self._check_open("log")
            to_logging(self.tool_name, level, message, logger)
            return
        self._wait("log", lambda: self.log(level, message, logger=logger))

    def elicit_sync(
        self, message: str, schema: Mapping[str, Any], *, key: str | None = None
    ) -> Elicitation:
        """``elicit`` for a sync tool: asks the user and waits for the answer.

        Raises:
            CallerUnavailableError: the caller cannot ask its user.
            ToolCancelledError: the call was cancelled while waiting.
            RuntimeError: called on a thread that runs an event loop (use ``await ctx.elicit``).
        """
        return self._wait("elicit", lambda: self.elicit(message, schema, key=key))

    def roots_sync(self, *, key: str | None = None) -> list[Root]:
        """``roots`` for a sync tool: asks the caller and waits for its roots.

        Raises:
            CallerUnavailableError: the caller has no roots to offer.
            ToolCancelledError: the call was cancelled while waiting.
            RuntimeError: called on a thread that runs an event loop (use ``await ctx.roots()``).
        """
        return self._wait("roots", lambda: self.roots(key=key))

    def sample_sync(
        self,
        prompt: str,
        *,
        system: str | None = None,
        max_tokens: int = 1000,
        temperature: float | None = None,
        key: str | None = None,
    ) -> str:
        """``sample`` for a sync tool: asks the caller's model and waits for its text.

        Raises:
            CallerUnavailableError: the caller has no model to offer.
            ToolCancelledError: the call was cancelled while waiting.
            RuntimeError: called on a thread that runs an event loop (use ``await ctx.sample``).
        """
        return self._wait(
            "sample",
            lambda: self.sample(
                prompt, system=system, max_tokens=max_tokens, temperature=temperature, key=key
            ),
        )


#: A call whose context nobody asked for yet: ``[tool_name, call_id, arguments,
#: trace_id, on_progress, ToolContext | None, deadline, Caller | None]``. The
#: ``Toolkit`` sets one of these (a list costs a fraction of a ``ToolContext``) and
#: ``current_context()`` turns it into a ``ToolContext`` on first use, so a call whose
#: handler never asks pays almost nothing for it.
Pending = list[Any]

#: The running call: its ``ToolContext``, a ``Pending`` one, or ``None``.
CURRENT: contextvars.ContextVar[ToolContext | Pending | None] = contextvars.ContextVar(
    "standard_tool_context", default=None
)
_CURRENT = CURRENT


def current_context() -> ToolContext | None:
    """Return the context of the tool call running here, or ``None`` outside a call.

    The ``Toolkit``, the runners, MCP serving and direct calls of ``@tool``
    functions set it; any conforming tool's handler (sync or async, in a worker
    thread or not) can read it.
    """
    value = _CURRENT.get()
    if value is None or type(value) is not list:
        return cast("ToolContext | None", value)
    return _materialize(value)


def _materialize(pending: Pending) -> ToolContext:
    with _EVENT_LOCK:  # two threads of one handler must get the same context
        context: ToolContext | None = pending[5]
        if context is None:
            context = ToolContext(
                pending[0],
                call_id=pending[1],
                arguments=pending[2],
                trace_id=pending[3],
                deadline=pending[6],
                on_progress=pending[4],
                caller=pending[7],
            )
            pending[5] = context
        return context


_NO_METADATA: Mapping[str, Any] = types.MappingProxyType({})


def collected_metadata(context: ToolContext | Pending) -> Mapping[str, Any]:
    """Return what the handler put in ``context.metadata`` (empty when nothing).

    Whoever runs a call reads this once the call ended (returned, failed or was
    given up): the context is marked ended here, so a handler that kept it
    cannot talk to the caller any more (``ToolContext.log``, ``elicit``...).
    """
    made: ToolContext | None = context[5] if isinstance(context, list) else context
    if made is None:
        return _NO_METADATA
    made._ended = True  # pyright: ignore[reportPrivateUsage]  # same module
    # Same module: the Toolkit reads what the handler wrote without creating a dict.
    found = made._metadata  # pyright: ignore[reportPrivateUsage]
    return _NO_METADATA if found is None else found


def generated_call_id(context: ToolContext | Pending) -> str | None:
    """Return the id a call's context generated, or ``None`` when nothing read one.

    A call given no id gets one the first time its handler (or a progress report)
    reads ``call_id``; the ``Toolkit`` copies it to the call's ``ToolResult``.
    """
    made: ToolContext | None = context[5] if isinstance(context, list) else context
    return None if made is None else made._call_id  # pyright: ignore[reportPrivateUsage]


def cancel_pending(context: ToolContext | Pending) -> None:
    """Cancel a call's context, making it first if its handler never asked for it."""
    made = _materialize(context) if isinstance(context, list) else context
    made.cancel()


def enter(context: ToolContext) -> contextvars.Token[ToolContext | Pending | None]:
    """Make ``context`` current; pass the token to ``leave``."""
    return _CURRENT.set(context)


def leave(token: contextvars.Token[ToolContext | Pending | None]) -> None:
    """Restore the context current before ``enter``."""
    _CURRENT.reset(token)


# --------------------------------------------------------------------------------------
# Streaming: a call's events as an async iterator
# --------------------------------------------------------------------------------------

#: What a stream yields: progress, then one final event.
Event = ProgressEvent | ResultEvent


async def stream_events(
    start: Callable[[ProgressCallback], Awaitable[_T]],
    final: Callable[[_T | None, Exception | None], Any],
) -> AsyncIterator[Any]:
    """Run ``start(listener)`` and yield each event it reports, then ``final(result, error)``.

    The listener may be called from any thread. When the consumer stops early
    (``aclose``, ``break``), the call is cancelled.
    """
    import asyncio

    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[ProgressEvent] = asyncio.Queue()

    def listener(event: ProgressEvent) -> None:
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            queue.put_nowait(event)
        else:
            loop.call_soon_threadsafe(queue.put_nowait, event)

    task = asyncio.ensure_future(start(listener))
    try:
        while not task.done():
            getter = asyncio.ensure_future(queue.get())
            await asyncio.wait({getter, task}, return_when=asyncio.FIRST_COMPLETED)
            if getter.done():
                yield getter.result()
            else:
                getter.cancel()
        # Events scheduled from a worker thread just before it finished.
        await asyncio.sleep(0)
        while not queue.empty():
            yield queue.get_nowait()
        try:
            result = task.result()
        except Exception as exc:
            yield final(None, exc)
        else:
            yield final(result, None)
    finally:
        if not task.done():
            task.cancel()


def stream_tool(
    tool: StandardToolV0Definition[Any, Any, Any, Any],
    input: Any = None,
    meta: Any = None,
    *,
    call_id: str | None = None,
) -> AsyncIterator[Event]:
    """Run any conforming tool and yield its events: progress, then one ``ResultEvent``.

    A sync tool runs in a worker thread so its progress arrives while it runs;
    an async tool runs in a task of its own. The tool's handler reports progress
    through ``current_context().report_progress(...)`` (a generator ``@tool``
    reports each value it yields). The stream never raises for the tool's
    ``Exception``: the final event holds it.

    Examples:
        >>> import asyncio
        >>> from standard_tool import standard_tool, stream_tool
        >>> double = standard_tool(name="double", description="Double.", execute=lambda n: 2 * n)
        >>> async def main() -> list[object]:
        ...     return [event.value async for event in stream_tool(double, 21)]
        >>> asyncio.run(main())
        [42]
    """
    context = ToolContext(tool.name, call_id=call_id, arguments=input)

    async def start(listener: ProgressCallback) -> Any:
        import asyncio

        context._on_progress = listener  # pyright: ignore[reportPrivateUsage]  # same module
        token = _CURRENT.set(context)
        try:
            if is_async_callable(tool.execute):
                return await call_execute(tool, input, meta)
            copied = contextvars.copy_context()

            def call() -> Any:
                return copied.run(call_execute, tool, input, meta)

            result = await asyncio.get_running_loop().run_in_executor(None, call)
            if inspect.isawaitable(result):
                result = await result
            return result
        finally:
            _CURRENT.reset(token)

    def final(value: Any, error: Exception | None) -> ResultEvent:
        return ResultEvent(value, error, context.tool_name, context.call_id)

    return stream_events(start, final)


def drain(generator: Generator[Any, Any, Any]) -> Any:
    """Run a streaming handler: report each yielded value, return the result.

    The result is the generator's ``return`` value when it is not ``None``, else
    the last value yielded (``None`` when nothing was). Once the call is cancelled
    (its caller gave up at the deadline) the generator is closed at its next ``yield``.
    """
    context = current_context()
    last: Any = None
    count = 0
    try:
        while True:
            try:
                item = next(generator)
            except StopIteration as stop:
                return last if stop.value is None else stop.value
            count += 1
            last = item
            if context is not None:
                context.report_progress(count, data=item)
                if context.cancelled:  # the caller gave up and drops the result
                    return last
    finally:
        generator.close()


async def adrain(generator: AsyncGenerator[Any, Any]) -> Any:
    """Run an async streaming handler: report each yielded value, return the last one."""
    context = current_context()
    last: Any = None
    count = 0
    try:
        async for item in generator:
            count += 1
            last = item
            if context is not None:
                context.report_progress(count, data=item)
        return last
    finally:
        await generator.aclose()
