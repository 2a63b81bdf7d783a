"""A named collection of tools that runs them by name and never raises for a bad call.

Layer: toolkit (imports the core and the shared helpers; never the providers, never
the package root).

``Toolkit`` holds conforming tools (built ones or plain objects), looks them
up by name, runs them with an optional timeout and turns every failure a model can
cause (unknown name, invalid input, handler error, timeout) into a failed
``ToolResult``. Every provider converter accepts a toolkit in place of one tool.
"""

from __future__ import annotations

import builtins
import contextlib
import contextvars
import inspect
import math
import sys
import threading
import time
import types
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from typing_extensions import TypeVar, overload

if TYPE_CHECKING:
    import concurrent.futures

from standard_tool._context import (
    CURRENT,
    Caller,
    Event,
    Pending,
    ProgressCallback,
    ProgressEvent,
    ToolContext,
    cancel_pending,
    collected_metadata,
    enter,
    generated_call_id,
    leave,
    stream_events,
    stream_tool,
)
from standard_tool._core import StandardToolError, StandardToolV0Definition
from standard_tool._shared import (
    checked_timeout,
    is_async_callable,
    is_validation_error,
    timeout_problem,
    truncate_text,
)

__all__ = [
    "DuplicateToolNameError",
    "NotAToolError",
    "RenamedTool",
    "ToolResult",
    "Toolkit",
    "ToolkitLoopError",
    "UnknownToolError",
]

#: Longest error text a ``ToolResult`` carries; longer text is cut with a marker.
MAX_ERROR_CHARS = 2000
_MAX_NAME_SHOWN = 100
_MAX_NAMES_LISTED = 20

AnyTool = StandardToolV0Definition[Any, Any, Any, Any]
#: How the toolkit calls one tool: ``call(input, meta)`` (see ``_call_of``).
_Call = Callable[[Any, Any], Any]
_D = TypeVar("_D")


@dataclass(frozen=True, slots=True)
class ToolResult:
    """The outcome of one tool call; never an exception.

    Attributes:
        name: the tool name that was asked for (even when no such tool exists).
        call_id: the provider's id for this call (``tool_call_id``, ``call_id``,
            ``tool_use_id``), or ``None`` when the call had none.
        success: ``True`` when the tool returned; ``value`` is then its result.
        value: what the tool's ``execute`` returned, or ``None`` on failure.
        error: on failure, a short text for the model to correct itself from
            (at most about 2,000 characters); ``None`` on success.
        duration: seconds spent, measured with ``time.perf_counter``.
        exception: on failure, the exception behind ``error`` (``None`` for an
            unknown tool); kept out of ``repr`` and comparisons.
        metadata: what the handler put in ``ToolContext.metadata`` (usage, sources,
            ...); never sent to the model by the provider formatters.
    """

    name: str
    call_id: str | None
    success: bool
    value: Any = None
    error: str | None = None
    duration: float = 0.0
    exception: BaseException | None = field(default=None, repr=False, compare=False)
    metadata: Mapping[str, Any] = field(default_factory=lambda: _NO_METADATA)


class NotAToolError(StandardToolError, TypeError):
    """An item given to ``Toolkit`` lacks a tool's attributes (every item is listed)."""


class DuplicateToolNameError(StandardToolError, ValueError):
    """Two tools given to ``Toolkit`` (or a converter) have the same name."""


class UnknownToolError(StandardToolError, KeyError):
    """``Toolkit.get`` was asked for a name the toolkit does not have."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class ToolkitLoopError(StandardToolError, RuntimeError):
    """``Toolkit.execute`` was asked to run an async tool inside a running event loop."""


_NO_METADATA: Mapping[str, Any] = types.MappingProxyType({})

_enter_pending = CURRENT.set
_leave = CURRENT.reset

_new_object = object.__new__
(
    _set_name,
    _set_call_id,
    _set_success,
    _set_value,
    _set_error,
    _set_duration,
    _set_exception,
    _set_metadata,
) = (
    ToolResult.__dict__[f].__set__
    for f in (
        "name",
        "call_id",
        "success",
        "value",
        "error",
        "duration",
        "exception",
        "metadata",
    )
)


def _succeeded(
    name: str, call_id: str | None, value: Any, start: float, metadata: Mapping[str, Any]
) -> ToolResult:
    """``ToolResult(name, call_id, True, value, ...)`` built in half the time.

    Every call makes one, and a frozen dataclass's ``__init__`` goes through
    ``object.__setattr__`` once per field; the slots' own setters are faster.
    """
    result: ToolResult = _new_object(ToolResult)
    _set_name(result, name)
    _set_call_id(result, call_id)
    _set_success(result, True)
    _set_value(result, value)
    _set_error(result, None)
    _set_duration(result, _clock() - start)
    _set_exception(result, None)
    _set_metadata(result, metadata)
    return result


_clock = time.perf_counter

#: Return types that are never awaitable: checked before ``inspect.isawaitable``.
_PLAIN: frozenset[type] = frozenset({str, int, float, bool, type(None), dict, list, tuple, bytes})

#: ``Toolkit.get``'s "no default given".
_NO_DEFAULT: Any = object()


class _ToolTimeout(Exception):
    """Internal: a call took longer than its timeout."""


def bound_text(text: str, limit: int = MAX_ERROR_CHARS) -> str:
    """Cut ``text`` to at most ``limit`` characters (``_shared.truncate_text``)."""
    return truncate_text(text, limit)


def error_text(exc: BaseException) -> str:
    """Describe ``exc`` for a model: the validation message, or ``Type: message``, bounded."""
    try:
        message = str(exc)
    except Exception:  # an exception whose __str__ fails still becomes a result
        message = "<message unavailable>"
    if is_validation_error(exc):
        return bound_text(message)
    kind = type(exc).__name__
    return bound_text(f"{kind}: {message}" if message else kind)


def _shown_name(name: object) -> str:
    return repr(bound_text(str(name), _MAX_NAME_SHOWN))


#: An outcome handed from a worker thread: ``(True, value)`` or ``(False, exception)``.
#: Never the exception itself: a ``StopIteration`` cannot be set on an asyncio future,
#: and a ``TimeoutError`` the tool raises must not look like the wait's own.
_Outcome = tuple[bool, Any]


#: Seconds an idle worker thread waits for another job before it ends.
WORKER_IDLE = 10.0

#: Most worker threads alive at once; past that, jobs wait in line for a thread
#: (a waiting call's deadline still counts, so it times out on time).
MAX_WORKERS = 40

#: Idle threads kept for the next calls (``WORKER_IDLE``); past that many, an idle
#: thread waits only ``SPARE_IDLE`` seconds for another job before it ends.
KEEP_IDLE = 2

#: Seconds a thread idle beyond ``KEEP_IDLE`` waits for a job: long enough for the next
#: batch of a model's calls to reuse it (``bench_paths.py``'s runners: a thread started
#: per call cost 10% to 20% at 10 to 1,000 calls a response), short enough that a burst
#: of timed-out calls leaves no crowd of threads behind.
SPARE_IDLE = 0.5

#: Most threads let go of at once for calls that ran past their deadline (issue 35).
#: Such a call keeps its thread until its handler returns (a thread cannot be stopped
#: from outside), but it no longer counts against ``MAX_WORKERS``: a new thread takes
#: the next call, so calls that ignore their deadline cannot turn every later call into
#: a timeout that never ran. Past this many, a late call keeps its place in the pool.
MAX_OVERDUE = 200

_BUSY_NAME = "standard-tool-call"
_IDLE_NAME = "standard-tool-idle"
_OVERDUE_NAME = "standard-tool-overdue"


def _drop(outcome: object) -> None:
    """Deliver nothing: the job handed its outcome on itself."""


class _Workers:
    """Daemon threads that run sync calls which have a deadline (at most ``MAX_WORKERS``).

    A job goes to an idle thread, else to a new one while there are fewer than
    ``MAX_WORKERS``, else it waits in line. A thread is counted idle *before* its
    caller is woken, so back-to-back calls reuse one thread. An idle thread ends
    after ``WORKER_IDLE`` seconds without a job, or after ``SPARE_IDLE`` seconds when
    ``KEEP_IDLE`` others are idle too, so a burst of timed-out calls leaves no crowd
    of threads behind while a model's next batch of calls still finds them. A thread
    is named ``standard-tool-call`` while it runs a job and ``standard-tool-idle``
    between jobs.

    Why not ``concurrent.futures.ThreadPoolExecutor``: it keeps every thread it
    started until it is shut down (for a module-level pool, until the process
    ends), so after fifty calls that timed out together it keeps fifty threads
    (counted with ``threading.active_count`` in issue 26; ``max_workers`` only
    lowers that to the bound), and its own idle count is raised after the
    caller's future is set. ``asyncio.to_thread`` and anyio need a running event
    loop, and ``Toolkit.execute`` has none.

    A thread whose call ran past its deadline is let go of (``write_off``): it
    leaves the count (up to ``MAX_OVERDUE`` such threads) and ends once its handler
    returns, and a new thread takes the jobs in line. A bounded pool that kept
    counting them (as ``ThreadPoolExecutor`` or anyio's limiter do) answered every
    later call "timed out" without running it once 40 calls ignored their deadline.
    """

    __slots__ = ("_backlog", "_idle", "_jobs", "_lock", "_off", "_threads")

    def __init__(self) -> None:
        import queue

        self._jobs: queue.SimpleQueue[tuple[Callable[[], Any], Callable[[Any], None]]] = (
            queue.SimpleQueue()
        )
        self._lock = threading.Lock()
        self._idle = 0  # threads waiting for a job, less the jobs already promised to them
        self._threads = 0
        self._backlog = 0  # jobs in line that no thread was promised yet
        self._off: set[int] = set()  # threads let go of, still running a late call

    def submit(self, work: Callable[[], Any], deliver: Callable[[Any], None] = _drop) -> None:
        """Run ``work()`` in a worker thread, then ``deliver(its result)``; neither may raise.

        The thread counts itself idle before ``deliver`` wakes the caller.
        """
        with self._lock:
            self._jobs.put((work, deliver))
            if self._idle:
                self._idle -= 1  # an idle thread will take it
                return
            if self._threads >= MAX_WORKERS:
                self._backlog += 1  # the next thread to finish takes it
                return
            self._threads += 1
        threading.Thread(target=self._work, name=_BUSY_NAME, daemon=True).start()

    def _work(self) -> None:
        import queue

        me = threading.current_thread()
        jobs = self._jobs
        while True:
            try:
                wait = WORKER_IDLE if self._idle <= KEEP_IDLE else SPARE_IDLE  # read unlocked
                work, deliver = jobs.get(timeout=wait)
            except queue.Empty:
                with self._lock:
                    if jobs.empty():  # else a job was put for this thread: take it
                        self._idle -= 1
                        self._threads -= 1
                        return
                continue
            me.name = _BUSY_NAME
            outcome = work()
            with self._lock:
                if self._off and me.ident in self._off:  # let go of: not counted any more
                    self._off.discard(me.ident)
                    deliver(outcome)
                    return
                if self._backlog:
                    self._backlog -= 1  # this thread takes the next job in line
                else:
                    self._idle += 1
                    me.name = _IDLE_NAME
            deliver(outcome)
            # An idle thread must not keep the last call's tool, input and result alive.
            del work, deliver, outcome

    def write_off(self, ident: int, future: object) -> None:
        """Let go of thread ``ident`` if it still runs ``future``'s call, past its deadline."""
        with self._lock:
            if _STARTED.get(future) != ident or len(self._off) >= MAX_OVERDUE:
                return
            self._off.add(ident)
            self._threads -= 1
            start = self._backlog > 0
            if start:  # a job waits in line: a new thread takes it
                self._backlog -= 1
                self._threads += 1
        for thread in threading.enumerate():
            if thread.ident == ident:
                thread.name = _OVERDUE_NAME
        if start:
            threading.Thread(target=self._work, name=_BUSY_NAME, daemon=True).start()

    def overdue(self) -> int:
        """How many threads still run calls past their deadline, let go of."""
        return len(self._off)


_WORKERS = _Workers()

#: The thread running each call of ``_in_thread`` (by its future), while it runs.
_STARTED: dict[object, int | None] = {}


def _in_thread(fn: Callable[[], Any]) -> concurrent.futures.Future[_Outcome]:
    """Run ``fn`` in a worker thread (with a copy of the context); return its future.

    A caller that gives up cancels the future: a job still waiting in line then
    never runs.
    """
    import concurrent.futures

    future: concurrent.futures.Future[_Outcome] = concurrent.futures.Future()
    context = contextvars.copy_context()

    def work() -> _Outcome | None:
        if not future.set_running_or_notify_cancel():
            return None
        _STARTED[future] = threading.get_ident()
        try:
            return (True, context.run(fn))
        except BaseException as exc:  # handed to the waiting caller, who decides
            return (False, exc)
        finally:
            del _STARTED[future]

    def deliver(outcome: _Outcome | None) -> None:
        if outcome is not None:
            future.set_result(outcome)

    _WORKERS.submit(work, deliver)
    return future


def _give_up(future: concurrent.futures.Future[Any]) -> str:
    """Give up on a call of ``_in_thread`` past its deadline; return what to add to the error.

    A call still in line never runs; one that runs lets its thread go (``write_off``).
    """
    if future.cancel():
        return (
            f"; it waited in line for a worker thread the whole time (all {MAX_WORKERS} "
            f"ran other calls, and {_WORKERS.overdue()} more run calls past their deadline)"
        )
    ident = _STARTED.get(future)
    if ident is not None:
        _WORKERS.write_off(ident, future)
    return ""


def _unpack(outcome: _Outcome) -> Any:
    ok, value = outcome
    if ok:
        return value
    raise value


#: How long a cancelled async call may take to finish its cleanup before its
#: timeout result is returned anyway. A handler still running then (it swallowed
#: its ``CancelledError``) is closed: see ``_abandon``.
CANCEL_GRACE = 0.1

#: Tasks that could not be closed either: kept referenced until they end.
_ORPHANS: set[Any] = set()

#: How many times ``_abandon`` throws ``GeneratorExit`` into a handler that awaits again.
_CLOSE_TRIES = 3


def _drop_orphan(task: Any) -> None:
    _ORPHANS.discard(task)
    if not task.cancelled():
        task.exception()  # retrieved, so it is not logged as never retrieved


def _abandon(task: Any) -> None:
    """End a late task whose handler ignored its cancellation for ``CANCEL_GRACE``.

    Left running, it would hold ``asyncio.run`` (which waits for every task at its
    end) and its thread for as long as it likes. Its coroutine is closed instead, as
    Python closes an abandoned generator: ``GeneratorExit`` is raised where it
    waits, so its ``finally`` blocks and context managers run, but it cannot wait
    any more. The task then ends (with an error nobody is told about) on the next
    turn of the loop. Only a handler that also swallows ``GeneratorExit`` ``_CLOSE_TRIES``
    times is left to run on; it is kept referenced until it ends.
    """
    get_coro = getattr(task, "get_coro", None)  # a bare future has no coroutine
    coro = None if get_coro is None else get_coro()
    close = getattr(coro, "close", None)
    if close is not None:
        for _ in range(_CLOSE_TRIES):
            try:
                close()
                break
            except RuntimeError:  # it awaited again on its way out: throw once more
                continue
            except Exception:  # what its cleanup raised: it is closed all the same
                break
    task.cancel()  # wakes the task, which finds its coroutine closed and ends
    if task.done():
        _drop_orphan(task)
    else:
        _ORPHANS.add(task)
        task.add_done_callback(_drop_orphan)


async def _await_within(awaitable: Awaitable[Any], timeout: float) -> Any:
    """Await ``awaitable`` for at most ``timeout`` seconds, cancelling it when late.

    Unlike ``asyncio.wait_for`` this tells our timeout apart from a ``TimeoutError``
    the tool raises itself, and it returns on time even when the awaitable
    swallows its cancellation (the task is then closed: ``_abandon``).
    """
    import asyncio  # here, not at the top: asyncio costs more than the package

    task = asyncio.ensure_future(awaitable)
    try:
        done, _ = await asyncio.wait({task}, timeout=None if math.isinf(timeout) else timeout)
    except BaseException:
        task.cancel()
        raise
    if task in done:
        return task.result()
    task.cancel()
    await asyncio.wait({task}, timeout=CANCEL_GRACE)
    if task.done():
        _drop_orphan(task)
    else:
        _abandon(task)
    raise _ToolTimeout


def _timeout_text(timeout: float) -> str:
    return f"timed out after {timeout:g} s"


class Toolkit:
    """A named collection of tools that runs any of them by name.

    Tools are any objects with the Standard Tool attributes (``name``,
    ``description``, ``execute``, ...): built with ``standard_tool.standard_tool``
    or plain objects, sync or async. Names must be unique. A toolkit is immutable
    and safe to share between tasks and threads.

    ``execute`` (and its async twin ``aexecute``) never raises for a bad call: an
    unknown name, invalid input, an exception in the handler and a timeout all give
    a failed ``ToolResult`` whose ``error`` is short enough to send back to a
    model. ``CancelledError``, ``KeyboardInterrupt`` and ``SystemExit`` propagate.

    Every call runs with a ``ToolContext`` (the tool name, the call id, the raw
    input, the deadline, a cancellation flag, progress reporting) that the
    handler reads with ``current_context()``.

    Examples:
        >>> from standard_tool import standard_tool
        >>> add = standard_tool(name="add", description="Add.", execute=lambda p: p[0] + p[1])
        >>> kit = Toolkit([add], name="math")
        >>> kit.execute("add", (2, 3)).value
        5
        >>> kit.execute("mul", (2, 3)).error
        "unknown tool 'mul'; available tools: add"

    Args:
        tools: the tools, in the order ``list`` and the provider conversions
            return them.
        name: a name for the collection (an MCP server name, a log label); ``None``
            when not given.
        timeout: the default seconds a call may take, for tools that set none of
            their own (``@tool(timeout=...)``). ``None`` (the default): no deadline,
            and a sync tool runs inline on the caller's thread, exactly like calling
            it. The runners use 60 s when neither sets one.
        sequential: the runners run a response's calls one after another, in
            order, instead of concurrently (for tools whose calls depend on each
            other, such as "create" then "search").
        on_progress: receives every ``ProgressEvent`` of every call that passes no
            listener of its own, the runners' calls included (each event names
            its tool and call id). Called from the thread the tool runs in.

    Raises:
        NotAToolError: an item is not a tool (every problem is listed at once);
            a ``TypeError``.
        DuplicateToolNameError: two tools have the same name; a ``ValueError``.
    """

    __slots__ = (
        "__weakref__",
        "_async",
        "_calls",
        "_inline",
        "_limits",
        "_tools",
        "name",
        "on_progress",
        "sequential",
        "timeout",
    )

    _tools: dict[str, AnyTool]
    _calls: dict[str, _Call]
    _async: frozenset[str]
    _inline: frozenset[str]
    _limits: dict[str, float | None]
    name: str | None
    timeout: float | None
    sequential: bool
    on_progress: ProgressCallback | None

    def __init__(
        self,
        tools: Iterable[AnyTool] = (),
        *,
        name: str | None = None,
        timeout: float | None = None,
        sequential: bool = False,
        on_progress: ProgressCallback | None = None,
    ) -> None:
        problems: builtins.list[str] = []
        if name is not None and not isinstance(cast("object", name), str):
            problems.append(f"name: must be a string or None, got {type(name).__name__}")
        timeout_wrong = timeout_problem(timeout)
        if timeout_wrong is not None:
            problems.append(timeout_wrong)
        by_name: dict[str, AnyTool] = {}
        duplicates: dict[str, int] = {}
        for index, tool in enumerate(tools):
            tool_name = getattr(tool, "name", None)
            missing = [
                attr
                for attr, ok in (
                    ("name", isinstance(tool_name, str) and tool_name != ""),
                    ("description", isinstance(getattr(tool, "description", None), str)),
                    ("execute", callable(getattr(tool, "execute", None))),
                )
                if not ok
            ]
            if missing:
                problems.append(
                    f"item {index} ({type(tool).__name__}) is not a tool: "
                    f"needs {', '.join(missing)} ({_describe_missing(missing)})"
                )
                continue
            assert isinstance(tool_name, str)
            if tool_name in by_name:
                duplicates[tool_name] = duplicates.get(tool_name, 1) + 1
            else:
                by_name[tool_name] = tool
        if problems:
            raise NotAToolError("Toolkit: " + "; ".join(problems))
        if duplicates:
            listed = ", ".join(
                f"{_shown_name(n)} ({count} times)" for n, count in duplicates.items()
            )
            raise DuplicateToolNameError(
                f"Toolkit: duplicate tool names: {listed}; each tool needs a unique name"
            )
        setattr_ = object.__setattr__
        setattr_(self, "_tools", by_name)
        calls: dict[str, _Call] = {}
        for n, t in by_name.items():
            calls[n] = _call_of(t, calls, n)
        setattr_(self, "_calls", calls)
        setattr_(
            self,
            "_async",
            frozenset(n for n, t in by_name.items() if is_async_callable(t.execute)),
        )
        default = None if timeout is None else float(timeout)
        limits = {n: _tool_timeout(t, default) for n, t in by_name.items()}
        setattr_(self, "_limits", limits)
        # Sync tools without a deadline: a call runs right here, on the fast path.
        setattr_(
            self,
            "_inline",
            frozenset(n for n in by_name if limits[n] is None and n not in self._async),
        )
        setattr_(self, "name", name)
        setattr_(self, "timeout", default)
        setattr_(self, "sequential", bool(sequential))
        setattr_(self, "on_progress", on_progress)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Toolkit is immutable; cannot set {name!r}")

    def __repr__(self) -> str:
        shown = f"[{', '.join(self._tools)}]"
        return f"Toolkit({shown})" if self.name is None else f"Toolkit({shown}, name={self.name!r})"

    def __len__(self) -> int:
        return len(self._tools)

    def __iter__(self) -> Iterator[AnyTool]:
        return iter(self._tools.values())

    def __contains__(self, name: object) -> bool:
        return name in self._tools

    @property
    def names(self) -> tuple[str, ...]:
        """The tool names, in order."""
        return tuple(self._tools)

    @overload
    def get(self, name: str) -> AnyTool: ...
    @overload
    def get(self, name: str, default: _D) -> AnyTool | _D: ...
    def get(self, name: str, default: Any = _NO_DEFAULT) -> Any:
        """Return the tool called ``name``, or ``default`` when given and there is none.

        Raises:
            UnknownToolError: no tool has that name and no default was given (a
                ``KeyError``); the message lists the names there are.
        """
        tool = self._tools.get(name)
        if tool is not None:
            return tool
        if default is not _NO_DEFAULT:
            return default
        raise UnknownToolError(self._unknown(name))

    @classmethod
    def merge(
        cls,
        *parts: Toolkit | Iterable[AnyTool],
        name: str | None = None,
        timeout: float | None = None,
        sequential: bool = False,
        on_progress: ProgressCallback | None = None,
    ) -> Toolkit:
        """Return one toolkit with the tools of every part, in order.

        Each part is a ``Toolkit`` or an iterable of tools. Names must stay
        unique: two tools with one name are refused (``with_prefix`` tells them
        apart). The settings of the parts are not merged; give them here.

        Raises:
            DuplicateToolNameError: two parts have a tool with the same name.
            NotAToolError: an item is not a tool.
        """
        tools: builtins.list[AnyTool] = []
        for part in parts:
            tools.extend(part)
        return cls(
            tools, name=name, timeout=timeout, sequential=sequential, on_progress=on_progress
        )

    def with_prefix(self, prefix: str) -> Toolkit:
        """Return a copy whose tools are named ``prefix + name`` (the same settings).

        Each tool is wrapped, not copied: it runs as before and keeps its schemas;
        only the name a model sees (and calls) changes.

        Examples:
            >>> from standard_tool import standard_tool
            >>> t = standard_tool(name="search", description="Search.", execute=lambda q: q)
            >>> Toolkit([t]).with_prefix("docs_").names
            ('docs_search',)
        """
        if not isinstance(cast("object", prefix), str):
            raise TypeError(f"with_prefix: prefix must be a string, got {type(prefix).__name__}")
        return Toolkit(
            [RenamedTool(prefix + t.name, t) for t in self._tools.values()],
            name=self.name,
            timeout=self.timeout,
            sequential=self.sequential,
            on_progress=self.on_progress,
        )

    def list(self) -> builtins.list[AnyTool]:
        """Return the tools, in order (a new list)."""
        return builtins.list(self._tools.values())

    def is_async(self, name: str) -> bool:
        """Tell whether the tool called ``name`` has a coroutine-function ``execute``.

        ``False`` for a name the toolkit does not have.
        """
        return name in self._async

    def timeout_of(self, name: str) -> float | None:
        """Return the seconds a call of ``name`` may take when the call gives none.

        The tool's own ``timeout`` attribute when it has one, else the toolkit's
        ``timeout``; ``None`` for no deadline (and for a name the toolkit does not have).
        """
        return self._limits.get(name)

    def _unknown(self, name: object) -> str:
        names = builtins.list(self._tools)
        shown = ", ".join(bound_text(n, _MAX_NAME_SHOWN) for n in names[:_MAX_NAMES_LISTED])
        if len(names) > _MAX_NAMES_LISTED:
            shown += f", and {len(names) - _MAX_NAMES_LISTED} more"
        return f"unknown tool {_shown_name(name)}; available tools: {shown or '(none)'}"

    # -- running ----------------------------------------------------------------------

    async def aexecute(
        self,
        name: str,
        input: Any = None,
        meta: Any = None,
        *,
        timeout: float | None = None,
        call_id: str | None = None,
        trace_id: str | None = None,
        on_progress: ProgressCallback | None = None,
        caller: Caller | None = None,
    ) -> ToolResult:
        """Run the tool called ``name`` from async code; the async twin of ``execute``.

        An async tool is awaited in this task. A sync tool runs inline (blocking the
        event loop while it runs) when the call has no deadline; with one it runs in
        a worker thread so the deadline can be honoured. On timeout an async tool
        is cancelled (the result comes back on time even if it ignores that), and a
        sync tool's ``ToolContext.cancelled`` becomes ``True`` (also when the task
        awaiting ``aexecute`` is cancelled): a thread cannot be stopped, so a sync
        tool that overruns should poll it (or sleep with ``ToolContext.wait``); its
        late result is discarded.

        Args:
            name: the tool to run.
            input: passed to the tool's ``execute`` (validated by the tool).
            meta: passed through verbatim.
            timeout: seconds before the call fails with "timed out after ... s";
                defaults to ``timeout_of(name)``; ``math.inf`` for no deadline.
            call_id: copied to the result and the context, to pair it with the
                provider's call (a generated one in the context when omitted).
            trace_id: copied to the context.
            on_progress: receives each ``ProgressEvent`` the tool reports.
            caller: who called: the tool's ``ToolContext`` talks back to it
                (``log``, ``elicit``, ``sample``, ``roots``); by default the caller
                ``use_caller`` set here, if any.

        Returns:
            A ``ToolResult``; failures are results, not exceptions.

        Raises:
            TypeError: ``timeout`` is not a number (a ``bool`` is not one here).
            ValueError: ``timeout`` is zero, negative, ``-inf`` or ``nan``.
        """
        import asyncio

        start = _clock()
        if timeout is not None:
            timeout = checked_timeout(timeout, "Toolkit.aexecute")
        call = self._calls.get(name)
        if call is None:
            return ToolResult(name, call_id, False, error=self._unknown(name))
        limit = self._limits.get(name) if timeout is None else timeout
        listener = self.on_progress if on_progress is None else on_progress
        if limit is None or math.isinf(limit):
            pending: Pending = [name, call_id, input, trace_id, listener, None, None, caller]
            token = _enter_pending(pending)
            try:
                value = call(input, meta)
                if value.__class__ not in _PLAIN and inspect.isawaitable(value):
                    value = await value
            except Exception as exc:
                metadata = collected_metadata(pending)
                seen = _seen_id(call_id, pending)
                return self._failed(name, seen, start, error_text(exc), exc, metadata)
            finally:
                _leave(token)
            made = pending[5]
            if made is None:
                return _succeeded(name, call_id, value, start, _NO_METADATA)
            seen = _seen_id(call_id, made)
            return _succeeded(name, seen, value, start, collected_metadata(made))
        context = ToolContext(
            name,
            call_id=call_id,
            arguments=input,
            trace_id=trace_id,
            timeout=limit,
            on_progress=listener,
            caller=caller,
        )
        waited = ""  # what a timeout adds to its error (_give_up)
        token = enter(context)
        try:
            if name in self._async:
                value = await _await_within(call(input, meta), limit)
            else:
                future = _in_thread(lambda: call(input, meta))
                try:
                    value = _unpack(await _await_within(asyncio.wrap_future(future), limit))
                except _ToolTimeout:
                    waited = _give_up(future)
                    raise
                if inspect.isawaitable(value):
                    left = limit - (time.perf_counter() - start)
                    value = await _await_within(value, max(left, 0.0))
        except _ToolTimeout as exc:
            context.cancel()
            seen = _seen_id(call_id, context)
            text = _timeout_text(_given(limit)) + waited
            return self._failed(name, seen, start, text, exc, context)
        except Exception as exc:
            seen = _seen_id(call_id, context)
            return self._failed(name, seen, start, error_text(exc), exc, context)
        except BaseException:
            context.cancel()  # the caller gave up (a cancelled task): a sync tool sees it
            raise
        finally:
            leave(token)
        return ToolResult(
            name,
            _seen_id(call_id, context),
            True,
            value,
            duration=time.perf_counter() - start,
            metadata=collected_metadata(context),
        )

    def astream(
        self,
        name: str,
        input: Any = None,
        meta: Any = None,
        *,
        timeout: float | None = None,
        call_id: str | None = None,
        trace_id: str | None = None,
    ) -> AsyncIterator[ProgressEvent | ToolResult]:
        """Run the tool called ``name``; yield its progress events, then its ``ToolResult``.

        The call runs as ``aexecute`` runs it. A sync tool with a deadline runs in a
        worker thread, so its events arrive while it runs; without one it runs
        inline and its events arrive when it is done. Stopping the iteration early
        cancels the call.

        Examples:
            >>> import asyncio
            >>> from collections.abc import Iterator
            >>> from standard_tool import tool
            >>> @tool(description="Count to n.")
            ... def count(n: int) -> Iterator[int]:
            ...     yield from range(1, n + 1)
            >>> async def main() -> list[object]:
            ...     return [e async for e in Toolkit([count]).astream("count", {"n": 2})]
            >>> [type(e).__name__ for e in asyncio.run(main())]
            ['ProgressEvent', 'ProgressEvent', 'ToolResult']

        Args:
            name: the tool to run.
            input: passed to the tool's ``execute``.
            meta: passed through verbatim.
            timeout: as for ``aexecute``.
            call_id: copied to the result, the context and every event.
            trace_id: copied to the context.

        Raises:
            TypeError: ``timeout`` is not a number (a ``bool`` is not one here).
            ValueError: ``timeout`` is zero, negative, ``-inf`` or ``nan``.
        """
        timeout = checked_timeout(timeout, "Toolkit.astream")

        async def start(listener: ProgressCallback) -> ToolResult:
            return await self.aexecute(
                name,
                input,
                meta,
                timeout=timeout,
                call_id=call_id,
                trace_id=trace_id,
                on_progress=listener,
            )

        def final(result: ToolResult | None, error: Exception | None) -> ToolResult:
            if error is not None:
                raise error
            assert result is not None
            return result

        return stream_events(start, final)

    def execute(
        self,
        name: str,
        input: Any = None,
        meta: Any = None,
        *,
        timeout: float | None = None,
        call_id: str | None = None,
        trace_id: str | None = None,
        on_progress: ProgressCallback | None = None,
        caller: Caller | None = None,
    ) -> ToolResult:
        """Run the tool called ``name`` and return its ``ToolResult``.

        A sync tool runs in this thread, or in a worker thread when the call has a
        deadline (see ``aexecute`` for what happens to a tool that overruns). An
        async tool runs in a new event loop; inside a running event loop that is
        impossible without blocking it, so this raises ``ToolkitLoopError``: use
        ``await toolkit.aexecute(...)`` there.

        Args:
            name: the tool to run.
            input: passed to the tool's ``execute`` (validated by the tool).
            meta: passed through verbatim.
            timeout: seconds before the call fails with "timed out after ... s";
                defaults to ``timeout_of(name)``; ``math.inf`` for no deadline.
            call_id: copied to the result and the context.
            trace_id: copied to the context.
            on_progress: receives each ``ProgressEvent`` the tool reports.
            caller: who called (see ``aexecute``).

        Returns:
            A ``ToolResult``; failures are results, not exceptions.

        Raises:
            ToolkitLoopError: the tool is async and an event loop is running in this
                thread (a ``RuntimeError``).
            TypeError: ``timeout`` is not a number (a ``bool`` is not one here).
            ValueError: ``timeout`` is zero, negative, ``-inf`` or ``nan``.
        """
        start = _clock()
        if timeout is None and name in self._inline:  # the common case, first
            found = self._calls[name]
            pending: Pending = [
                name,
                call_id,
                input,
                trace_id,
                self.on_progress if on_progress is None else on_progress,
                None,
                None,
                caller,
            ]
            token = _enter_pending(pending)
            try:
                value = found(input, meta)
            except Exception as exc:
                metadata = collected_metadata(pending)
                seen = _seen_id(call_id, pending)
                return self._failed(name, seen, start, error_text(exc), exc, metadata)
            finally:
                _leave(token)
            if value.__class__ in _PLAIN or not inspect.isawaitable(value):
                made = pending[5]
                if made is None:
                    return _succeeded(name, call_id, value, start, _NO_METADATA)
                seen = _seen_id(call_id, made)
                return _succeeded(name, seen, value, start, collected_metadata(made))
            return self._awaitable(name, value, None, call_id, start)
        if timeout is not None:
            timeout = checked_timeout(timeout, "Toolkit.execute")
        call = self._calls.get(name)
        if call is None:
            return ToolResult(name, call_id, False, error=self._unknown(name))
        limit = self._limits.get(name) if timeout is None else timeout
        if limit is not None and math.isinf(limit):
            limit = None
        if name in self._async:
            import asyncio
            import concurrent.futures

            self._refuse_in_loop(name)
            run = self.aexecute(
                name,
                input,
                meta,
                timeout=math.inf if limit is None else limit,
                call_id=call_id,
                trace_id=trace_id,
                on_progress=on_progress,
                caller=caller,
            )
            if limit is None:
                return asyncio.run(run)
            # In a thread of its own: a handler that ignores cancellation would hold
            # ``asyncio.run``'s shutdown, and the caller's deadline must still hold.
            late = _in_thread(lambda: asyncio.run(run))
            try:
                result: ToolResult = _unpack(late.result(limit + 2 * CANCEL_GRACE))
            except concurrent.futures.TimeoutError as exc:
                text = _timeout_text(limit) + _give_up(late)
                return self._failed(name, call_id, start, text, exc)
            return result
        listener = self.on_progress if on_progress is None else on_progress
        if limit is None:
            pending = [name, call_id, input, trace_id, listener, None, None, caller]
            token = _enter_pending(pending)
            try:
                value = call(input, meta)
            except Exception as exc:
                metadata = collected_metadata(pending)
                seen = _seen_id(call_id, pending)
                return self._failed(name, seen, start, error_text(exc), exc, metadata)
            finally:
                _leave(token)
            if value.__class__ in _PLAIN or not inspect.isawaitable(value):
                seen = _seen_id(call_id, pending)
                return _succeeded(name, seen, value, start, collected_metadata(pending))
            return self._awaitable(name, value, None, call_id, start)
        import concurrent.futures

        context = ToolContext(
            name,
            call_id=call_id,
            arguments=input,
            trace_id=trace_id,
            timeout=limit,
            on_progress=listener,
            caller=caller,
        )
        waited = ""  # what a timeout adds to its error (_give_up)
        token = enter(context)
        try:
            future = _in_thread(lambda: call(input, meta))
            try:
                outcome = future.result(limit)
            except concurrent.futures.TimeoutError as exc:
                waited = _give_up(future)  # still in line: never run it; running: let it go
                context.cancel()
                raise _ToolTimeout from exc
            value = _unpack(outcome)
        except _ToolTimeout as exc:
            seen = _seen_id(call_id, context)
            text = _timeout_text(_given(limit)) + waited
            return self._failed(name, seen, start, text, exc, context)
        except Exception as exc:
            seen = _seen_id(call_id, context)
            return self._failed(name, seen, start, error_text(exc), exc, context)
        finally:
            leave(token)
        if inspect.isawaitable(value):
            left = max(limit - (time.perf_counter() - start), 0.0)
            return self._awaitable(name, value, left, call_id, start)
        return ToolResult(
            name,
            _seen_id(call_id, context),
            True,
            value,
            duration=time.perf_counter() - start,
            metadata=collected_metadata(context),
        )

    def _awaitable(
        self,
        name: str,
        value: Awaitable[Any],
        timeout: float | None,
        call_id: str | None,
        start: float,
    ) -> ToolResult:
        """Finish a sync ``execute`` that returned an awaitable, in a new event loop."""
        import asyncio

        try:
            self._refuse_in_loop(name)
        except ToolkitLoopError:
            if inspect.iscoroutine(value):
                value.close()
            raise
        return asyncio.run(self._finish(name, value, timeout, call_id, start))

    async def _finish(
        self,
        name: str,
        value: Awaitable[Any],
        timeout: float | None,
        call_id: str | None,
        start: float,
    ) -> ToolResult:
        try:
            value = await (value if timeout is None else _await_within(value, timeout))
        except _ToolTimeout as exc:
            return self._failed(name, call_id, start, _timeout_text(_given(timeout)), exc)
        except Exception as exc:
            return self._failed(name, call_id, start, error_text(exc), exc)
        return ToolResult(name, call_id, True, value, duration=time.perf_counter() - start)

    @staticmethod
    def _refuse_in_loop(name: str) -> None:
        import asyncio

        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return
        raise ToolkitLoopError(
            f"Toolkit.execute: tool {_shown_name(name)} is async and an event loop is "
            "running in this thread; use `await toolkit.aexecute(...)` instead"
        )

    @staticmethod
    def _failed(
        name: str,
        call_id: str | None,
        start: float,
        error: str,
        exc: BaseException,
        context: ToolContext | Mapping[str, Any] | None = None,
    ) -> ToolResult:
        if context is None:
            metadata = _NO_METADATA
        elif isinstance(context, ToolContext):
            metadata = collected_metadata(context)
        else:
            metadata = context
        return _failed(name, call_id, start, error, exc, metadata)


class RenamedTool:
    """A tool under another name: every other attribute is the wrapped tool's.

    Args:
        name: the new name.
        tool: any conforming tool.
    """

    __slots__ = ("_tool", "name")

    name: str
    _tool: Any

    if TYPE_CHECKING:  # what the wrapped tool provides, through __getattr__
        title: str | None
        description: str
        input_schema: Any
        output_schema: Any
        execute: Callable[..., Any]

    def __init__(self, name: str, tool: AnyTool) -> None:
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "_tool", tool)

    def __getattr__(self, attribute: str) -> Any:
        return getattr(self._tool, attribute)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"RenamedTool is immutable; cannot set {name!r}")

    def __repr__(self) -> str:
        return f"RenamedTool({self.name!r}, {self._tool!r})"

    def stream(self, input: Any = None, meta: Any = None) -> AsyncIterator[Event]:
        """Run a call and yield its events, each labelled with this name (``stream_tool``)."""
        return stream_tool(self, input, meta)

    def formatted(self, format: Callable[[Any], Any] | None = None) -> RenamedTool:
        """Return the wrapped tool's ``formatted(format)`` under this name."""
        return RenamedTool(self.name, self._tool.formatted(format))


def _is_timeout(timeout: object) -> bool:
    return timeout_problem(timeout) is None


def _arguments_taken(execute: Callable[..., Any]) -> int:
    """How many of ``(input, meta)`` ``execute`` takes by position: 0, 1 or 2."""
    function = getattr(execute, "__func__", execute)
    code = getattr(function, "__code__", None)
    if code is not None and not hasattr(function, "__wrapped__"):  # the quick, common case
        if code.co_flags & inspect.CO_VARARGS:
            return 2
        return min(int(code.co_argcount) - (function is not execute), 2)
    try:
        parameters = inspect.signature(execute).parameters.values()
    except (TypeError, ValueError):  # no signature to read: pass both, as the contract says
        return 2
    count = 0
    for parameter in parameters:
        if parameter.kind is parameter.VAR_POSITIONAL:
            return 2
        if parameter.kind in (parameter.POSITIONAL_ONLY, parameter.POSITIONAL_OR_KEYWORD):
            count += 1
    return min(count, 2)


def _call_of(tool: AnyTool, calls: dict[str, _Call], name: str) -> _Call:
    """Return how the toolkit calls ``tool``, ``call(input, meta)``, decided once.

    ``tool.execute`` itself when it takes ``(input, meta)``, as every tool this
    package builds does. Such a tool may bind a faster ``execute`` in place on its
    first call (the package's tools do): the first call then goes through the tool
    and puts the ``execute`` it leaves in ``calls[name]``, so later calls reach that
    directly rather than through the first-call wrapper.

    A tool of the proposal's shape may take less: ``execute(input)``
    is called without ``meta``, and ``execute()`` (a tool that takes no input) with
    neither, as a JavaScript function ignores the arguments it does not declare.
    That is ``call_execute``'s rule with the signature read once, when the tool joins
    the toolkit, instead of on every call; and what such a tool cannot take is left
    out rather than refused, since at this boundary it comes from a model (the ``{}``
    it sends a tool without parameters) or a framework (its ``meta``), not from a
    mistake in the caller's code.
    """
    execute: Callable[..., Any] = tool.execute
    taken = _arguments_taken(execute)
    if taken == 2:

        def first(input: Any, meta: Any) -> Any:
            try:
                return execute(input, meta)
            finally:
                calls[name] = tool.execute  # what the tool bound on this call, if anything

        return first
    if taken == 1:
        return lambda input, meta: execute(input)
    return lambda input, meta: execute()


def _tool_timeout(tool: object, default: float | None) -> float | None:
    """Return the tool's own ``timeout`` when it is a usable number, else ``default``."""
    own = getattr(tool, "timeout", None)
    if own is not None and _is_timeout(own):
        return float(cast("float", own))
    return default


def _seen_id(call_id: str | None, context: ToolContext | Pending) -> str | None:
    """Return the call's id: the one given, else the one its context made (when read)."""
    return call_id if call_id is not None else generated_call_id(context)


def _given(timeout: float | None) -> float:
    assert timeout is not None
    return timeout


def _describe_missing(missing: builtins.list[str]) -> str:
    wants = {
        "name": "a non-empty str",
        "description": "a str",
        "execute": "a callable",
    }
    return ", ".join(f"{m}: {wants[m]}" for m in missing)


# --------------------------------------------------------------------------------------
# Running a response's calls at once (the provider runners)
# --------------------------------------------------------------------------------------

#: Seconds a worker thread may spend on one call before the calls queued behind it
#: move to another thread. Quick calls share one thread (a response's thousand quick
#: calls cost one hand-over, not a thousand threads); a slow one soon stops holding
#: the rest back. Also how long the runner waits on its own thread for a batch of
#: quick sync calls before it hands the wait to the event loop.
QUICK = 0.005

#: Tasks can start eagerly: run at once, until they first wait (``Task(eager_start=)``).
_EAGER = sys.version_info >= (3, 12)

#: One call of a batch: ``(name, input, call_id, seconds it may take)`` (``math.inf``: none).
Request = tuple[str, Any, "str | None", float]


class _Job:
    """A sync call with a deadline, queued for a worker thread."""

    __slots__ = ("call", "index", "input", "limit", "pending")

    def __init__(self, index: int, call: _Call, input: Any, pending: Pending, limit: float) -> None:
        self.index = index
        self.call = call
        self.input = input
        self.pending = pending
        self.limit = limit


class _Threaded:
    """The sync calls of one batch, run by as few worker threads as keeps them moving.

    One thread takes the queued calls one after another; when the call it runs
    has taken ``QUICK`` seconds and calls are still queued, another thread takes
    over the queue (and so on, so slow calls still overlap). The event loop side
    (``tick``) times out calls past their deadline and starts those threads.
    """

    __slots__ = (
        "_context",
        "_future",
        "_lock",
        "_loop",
        "_meta",
        "_queue",
        "_running",
        "done",
        "jobs",
        "left",
        "outcomes",
    )

    def __init__(self, jobs: builtins.list[_Job], meta: Any, outcomes: builtins.list[Any]) -> None:
        import collections

        self.jobs = jobs
        self.outcomes = outcomes  # shared with the batch: index -> ToolResult or a marker
        self.left = len(jobs)
        self.done = threading.Event()
        self._meta = meta
        self._queue = collections.deque(jobs)
        self._lock = threading.Lock()
        self._running: dict[int, builtins.list[Any]] = {}  # thread id -> [job, start, moved]
        self._future: Any = None
        self._loop: Any = None
        self._context = contextvars.copy_context()

    def start(self) -> None:
        _WORKERS.submit(self._drain)

    def _drain(self) -> None:
        me = threading.get_ident()
        lock, queue, outcomes, meta = self._lock, self._queue, self.outcomes, self._meta
        while True:
            with lock:
                job = None
                while queue:
                    job = queue.popleft()
                    if outcomes[job.index] is None:
                        break
                    job = None  # timed out while queued
                if job is None:
                    return
                self._running[me] = [job, time.monotonic(), False]
            outcome = self._context.copy().run(_run_job, job, meta)
            with lock:
                del self._running[me]
                if outcomes[job.index] is None:
                    outcomes[job.index] = outcome
                    self.left -= 1
                    if not self.left:
                        self._finished()

    def _finished(self) -> None:
        """Under the lock: the last call is done; wake whoever waits."""
        self.done.set()
        future = self._future
        if future is not None:
            # A closed loop (RuntimeError) has nobody left to wake.
            with contextlib.suppress(RuntimeError):
                self._loop.call_soon_threadsafe(_resolve, future)

    def wait_on(self, loop: Any) -> Any:
        """Return a future of the loop that is done once every call is (``None``: now)."""
        with self._lock:
            if not self.left:
                return None
            self._loop = loop
            self._future = loop.create_future()
            return self._future

    def tick(self, now: float, start: float) -> float | None:
        """Time out late calls, move a stuck thread's queue; return when to look again."""
        wake: float | None = None
        with self._lock:
            for job in self.jobs:
                if self.outcomes[job.index] is not None:
                    continue
                deadline = job.pending[6]
                if deadline <= now:
                    cancel_pending(job.pending)
                    self.outcomes[job.index] = _timed_out(job.pending, job.limit, start)
                    self.left -= 1
                    if not self.left:
                        self._finished()
                elif wake is None or deadline < wake:
                    wake = deadline
            if self._queue and self.left:
                for running in self._running.values():
                    if not running[2] and now - running[1] >= QUICK:
                        running[2] = True
                        _WORKERS.submit(self._drain)
                wake = now + QUICK if wake is None else min(wake, now + QUICK)
        return wake

    def abandon(self) -> None:
        """Give up (the caller was cancelled): drop the queue, cancel the calls running.

        A call still running ends later, in its thread, perhaps after the caller's
        event loop is closed: it must not try to wake that loop.
        """
        with self._lock:
            self._queue.clear()
            self._future = None
            for job in self.jobs:
                if self.outcomes[job.index] is None:
                    cancel_pending(job.pending)


def _failed(
    name: str,
    call_id: str | None,
    start: float,
    error: str,
    exc: BaseException,
    metadata: Mapping[str, Any],
) -> ToolResult:
    return ToolResult(
        name,
        call_id,
        False,
        error=error,
        duration=_clock() - start,
        exception=exc,
        metadata=metadata,
    )


async def _finish_late(
    name: str, value: Awaitable[Any], limit: float, call_id: str | None, start: float
) -> ToolResult:
    """Await what a sync tool returned in a worker thread, within the time it has left."""
    try:
        value = await _await_within(value, max(limit - (_clock() - start), 0.0))
    except _ToolTimeout as exc:
        return _failed(name, call_id, start, _timeout_text(limit), exc, _NO_METADATA)
    except Exception as exc:
        return _failed(name, call_id, start, error_text(exc), exc, _NO_METADATA)
    return _succeeded(name, call_id, value, start, _NO_METADATA)


def _resolve(future: Any) -> None:
    if not future.done():
        future.set_result(None)


class _Late:
    """A worker's outcome that the loop must finish: an awaitable, or a BaseException."""

    __slots__ = ("raised", "value")

    def __init__(self, value: Any = None, raised: BaseException | None = None) -> None:
        self.value = value
        self.raised = raised


def _run_job(job: _Job, meta: Any) -> ToolResult | _Late:
    """Run one sync call in a worker thread (inside a copy of the caller's context)."""
    pending = job.pending
    name, call_id = pending[0], pending[1]
    start = _clock()
    token = _enter_pending(pending)
    try:
        value = job.call(job.input, meta)
    except Exception as exc:
        return _failed(name, call_id, start, error_text(exc), exc, collected_metadata(pending))
    except BaseException as exc:  # KeyboardInterrupt, SystemExit: raised by the runner
        return _Late(raised=exc)
    finally:
        _leave(token)
    if value.__class__ not in _PLAIN and inspect.isawaitable(value):
        return _Late(value)
    return _succeeded(name, call_id, value, start, collected_metadata(pending))


def _timed_out(pending: Pending, limit: float, start: float) -> ToolResult:
    return _failed(
        pending[0],
        pending[1],
        start,
        _timeout_text(limit),
        _ToolTimeout(),
        collected_metadata(pending),
    )


async def run_batch(
    kit: Toolkit,
    requests: builtins.list[Request],
    *,
    meta: Any,
    on_progress: ProgressCallback | None,
) -> builtins.list[ToolResult]:
    """Run a response's calls concurrently; return their results in order.

    What each call needs and no more: a sync call without a deadline runs
    inline, as ``aexecute`` runs it; an async call gets a task; the sync calls
    with a deadline share worker threads (``_Threaded``), one hand-over for the
    batch. Every deadline holds: a late async call is cancelled (after
    ``CANCEL_GRACE`` it is left to finish alone), a late sync call's context is
    cancelled and its late result dropped, and the batch returns on time.
    """
    import asyncio

    runs_async = kit._async  # pyright: ignore[reportPrivateUsage]
    if len(requests) == 1 and math.isinf(requests[0][3]) and requests[0][0] in runs_async:
        name, input, call_id, limit = requests[0]  # one async call, no deadline: no task
        return [
            await kit.aexecute(
                name, input, meta, timeout=limit, call_id=call_id, on_progress=on_progress
            )
        ]
    start = _clock()
    loop = asyncio.get_running_loop()
    eager_task: Any = asyncio.Task  # ``eager_start`` is not in every Python's stubs
    listener = kit.on_progress if on_progress is None else on_progress
    outcomes: builtins.list[Any] = [None] * len(requests)
    jobs: builtins.list[_Job] = []
    tasks: dict[Any, tuple[int, Pending, float]] = {}
    ended: dict[Any, float] = {}
    now = time.monotonic()
    calls = kit._calls  # pyright: ignore[reportPrivateUsage]
    for index, (name, input, call_id, limit) in enumerate(requests):
        call = calls.get(name)
        if call is None:
            outcomes[index] = kit.execute(name, call_id=call_id)  # the unknown-tool result
            continue
        inline = math.isinf(limit)
        if inline:  # no deadline: run here, as ``execute`` would, timed on its own
            deadline = None
            begun = _clock()
        else:
            deadline = now + limit
            begun = start
        pending: Pending = [name, call_id, input, None, listener, None, deadline, None]
        if not inline and name not in runs_async:
            jobs.append(_Job(index, call, input, pending, limit))
            continue
        token = _enter_pending(pending)
        try:
            value = call(input, meta)
            if value.__class__ in _PLAIN or not inspect.isawaitable(value):
                made = pending[5]
                metadata = _NO_METADATA if made is None else collected_metadata(made)
                outcomes[index] = _succeeded(name, call_id, value, begun, metadata)
                continue
            # The task copies the context, in which this call's is current. Eager (3.12+):
            # a handler that finishes without waiting is done here, never scheduled.
            task: asyncio.Future[Any]
            if _EAGER and value.__class__ is types.CoroutineType:
                task = eager_task(value, loop=loop, eager_start=True)
            else:
                task = asyncio.ensure_future(value, loop=loop)
        except Exception as exc:
            metadata = collected_metadata(pending)
            outcomes[index] = _failed(name, call_id, begun, error_text(exc), exc, metadata)
            continue
        finally:
            _leave(token)
        tasks[task] = (index, pending, limit)
        if task.done():
            ended[task] = _clock()
    if not tasks and not jobs:  # every call ran inline: nothing to wait for
        return outcomes  # every one a ToolResult by now
    if len(tasks) > 1:  # one task alone is seen done when it is: no callback needed

        def record_end(task: Any) -> None:
            ended[task] = _clock()

        for task in tasks:
            if not task.done():
                task.add_done_callback(record_end)
    threaded = _Threaded(jobs, meta, outcomes) if jobs else None
    late: set[Any] = set()
    try:
        if threaded is not None:
            threaded.start()
            if not tasks:  # quick calls: done before the loop need wake
                first = min(job.pending[6] for job in jobs)
                threaded.done.wait(min(QUICK, max(first - time.monotonic(), 0.0)))
        await _wait_all(tasks, threaded, late, start)
    except BaseException:
        for task in tasks:
            task.cancel()
        if threaded is not None:
            threaded.abandon()
        raise
    for task, (index, pending, limit) in tasks.items():
        finished = ended.get(task, _clock())
        if task in late:
            outcomes[index] = _timed_out(pending, limit, start)
        elif task.cancelled():
            raise asyncio.CancelledError  # cancelled by someone else: as ``await`` would
        else:
            error = task.exception()
            metadata = collected_metadata(pending)
            if error is None:
                outcomes[index] = _succeeded(pending[0], pending[1], task.result(), start, metadata)
            elif isinstance(error, Exception):
                outcomes[index] = _failed(
                    pending[0], pending[1], start, error_text(error), error, metadata
                )
            else:
                raise error
        _set_duration(outcomes[index], finished - start)
    for index, outcome in enumerate(outcomes):
        if isinstance(outcome, _Late):
            if outcome.raised is not None:
                raise outcome.raised
            name, _, call_id, limit = requests[index]
            pending = next(job.pending for job in jobs if job.index == index)
            token = _enter_pending(pending)
            try:
                outcomes[index] = await _finish_late(name, outcome.value, limit, call_id, start)
            finally:
                _leave(token)
    return outcomes  # every one a ToolResult by now


async def _wait_all(
    tasks: dict[Any, tuple[int, Pending, float]],
    threaded: _Threaded | None,
    late: set[Any],
    start: float,
) -> None:
    """Wait for every task and threaded call, timing out the late ones (into ``late``)."""
    import asyncio

    loop = asyncio.get_running_loop()
    future = None if threaded is None else threaded.wait_on(loop)
    while True:
        waiting = {t for t in tasks if not t.done()}
        if future is not None and not future.done():
            waiting.add(future)
        now = time.monotonic()
        wake = threaded.tick(now, start) if threaded is not None and future is not None else None
        for task in waiting & tasks.keys():
            deadline = tasks[task][1][6]
            if deadline is None:
                continue
            if deadline <= now:
                cancel_pending(tasks[task][1])
                task.cancel()
                late.add(task)
            elif wake is None or deadline < wake:
                wake = deadline
        waiting -= late
        if future is not None and future.done():
            waiting.discard(future)
        if not waiting:
            break
        await asyncio.wait(waiting, timeout=None if wake is None else max(wake - now, 0.0))
    if late:
        stuck = {t for t in late if not t.done()}
        if stuck:
            await asyncio.wait(stuck, timeout=CANCEL_GRACE)
        for task in late:
            if task.done():
                _drop_orphan(task)
            else:
                _abandon(task)
