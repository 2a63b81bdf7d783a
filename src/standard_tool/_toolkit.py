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
import contextvars
import inspect
import threading
import time
from collections.abc import Awaitable, Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import concurrent.futures

from standard_tool._core import (
    StandardToolError,
    StandardToolV0Definition,
    StandardToolValidationError,
)
from standard_tool._shared import is_async_callable, truncate_text

__all__ = [
    "DuplicateToolNameError",
    "NotAToolError",
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
    """

    name: str
    call_id: str | None
    success: bool
    value: Any = None
    error: str | None = None
    duration: float = 0.0
    exception: BaseException | None = field(default=None, repr=False, compare=False)


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
    if isinstance(exc, StandardToolValidationError):
        return bound_text(message)
    kind = type(exc).__name__
    return bound_text(f"{kind}: {message}" if message else kind)


def _shown_name(name: object) -> str:
    return repr(bound_text(str(name), _MAX_NAME_SHOWN))


def _in_thread(fn: Callable[[], Any]) -> concurrent.futures.Future[Any]:
    """Run ``fn`` in a new daemon thread (with a copy of the context); return its future.

    A dedicated thread per call, not a shared pool: a call that never returns must
    not starve the others of workers.
    """
    import concurrent.futures

    future: concurrent.futures.Future[Any] = concurrent.futures.Future()
    context = contextvars.copy_context()

    def work() -> None:
        if not future.set_running_or_notify_cancel():
            return
        try:
            result = context.run(fn)
        except BaseException as exc:  # handed to the waiting caller, who decides
            future.set_exception(exc)
        else:
            future.set_result(result)

    threading.Thread(target=work, name="standard-tool-call", daemon=True).start()
    return future


async def _await_within(awaitable: Awaitable[Any], timeout: float) -> Any:
    """Await ``awaitable`` for at most ``timeout`` seconds, cancelling it when late.

    Unlike ``asyncio.wait_for`` this tells our timeout apart from a ``TimeoutError``
    the tool raises itself.
    """
    import asyncio  # here, not at the top: asyncio costs more than the package

    task = asyncio.ensure_future(awaitable)
    try:
        done, _ = await asyncio.wait({task}, timeout=timeout)
    except BaseException:
        task.cancel()
        raise
    if task in done:
        return task.result()
    task.cancel()
    await asyncio.wait({task})
    if not task.cancelled():
        task.exception()  # retrieved, so an error raised while cancelling is not logged
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

    Examples:
        >>> from standard_tool import standard_tool
        >>> add = standard_tool(name="add", description="Add.", execute=lambda p: p[0] + p[1])
        >>> kit = Toolkit([add])
        >>> kit.execute("add", (2, 3)).value
        5
        >>> kit.execute("mul", (2, 3)).error
        "unknown tool 'mul'; available tools: add"

    Args:
        tools: the tools, in the order ``list`` and the provider conversions
            return them.

    Raises:
        NotAToolError: an item is not a tool (every problem is listed at once);
            a ``TypeError``.
        DuplicateToolNameError: two tools have the same name; a ``ValueError``.
    """

    __slots__ = ("__weakref__", "_async", "_tools")

    _tools: dict[str, AnyTool]
    _async: frozenset[str]

    def __init__(self, tools: Iterable[AnyTool] = ()) -> None:
        problems: builtins.list[str] = []
        by_name: dict[str, AnyTool] = {}
        duplicates: dict[str, int] = {}
        for index, tool in enumerate(tools):
            name = getattr(tool, "name", None)
            missing = [
                attr
                for attr, ok in (
                    ("name", isinstance(name, str) and name != ""),
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
            assert isinstance(name, str)
            if name in by_name:
                duplicates[name] = duplicates.get(name, 1) + 1
            else:
                by_name[name] = tool
        if problems:
            raise NotAToolError("Toolkit: " + "; ".join(problems))
        if duplicates:
            listed = ", ".join(
                f"{_shown_name(n)} ({count} times)" for n, count in duplicates.items()
            )
            raise DuplicateToolNameError(
                f"Toolkit: duplicate tool names: {listed}; each tool needs a unique name"
            )
        object.__setattr__(self, "_tools", by_name)
        object.__setattr__(
            self,
            "_async",
            frozenset(n for n, t in by_name.items() if is_async_callable(t.execute)),
        )

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Toolkit is immutable; cannot set {name!r}")

    def __repr__(self) -> str:
        return f"Toolkit([{', '.join(self._tools)}])"

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

    def get(self, name: str) -> AnyTool:
        """Return the tool called ``name``.

        Raises:
            UnknownToolError: no tool has that name (a ``KeyError``); the message
                lists the names there are.
        """
        try:
            return self._tools[name]
        except KeyError:
            raise UnknownToolError(self._unknown(name)) from None

    def list(self) -> builtins.list[AnyTool]:
        """Return the tools, in order (a new list)."""
        return builtins.list(self._tools.values())

    def is_async(self, name: str) -> bool:
        """Tell whether the tool called ``name`` has a coroutine-function ``execute``.

        ``False`` for a name the toolkit does not have.
        """
        return name in self._async

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
    ) -> ToolResult:
        """Run the tool called ``name`` from async code; the async twin of ``execute``.

        An async tool is awaited in this task. A sync tool runs inline (blocking the
        event loop while it runs) when ``timeout`` is ``None``; with a timeout it
        runs in a new worker thread so the timeout can be honoured. A thread cannot
        be stopped: a sync tool that overruns keeps running in the background and
        its result is discarded. An async tool that overruns is cancelled.

        Args:
            name: the tool to run.
            input: passed to the tool's ``execute`` (validated by the tool).
            meta: passed through verbatim.
            timeout: seconds before the call fails with "timed out after ... s".
            call_id: copied to the result, to pair it with the provider's call.

        Returns:
            A ``ToolResult``; failures are results, not exceptions.
        """
        import asyncio

        start = time.perf_counter()
        tool = self._tools.get(name)
        if tool is None:
            return ToolResult(name, call_id, False, error=self._unknown(name))
        try:
            if timeout is None:
                value = tool.execute(input, meta)
                if inspect.isawaitable(value):
                    value = await value
            elif name in self._async:
                value = await _await_within(tool.execute(input, meta), timeout)
            else:
                future = _in_thread(lambda: tool.execute(input, meta))
                value = await _await_within(asyncio.wrap_future(future), timeout)
                if inspect.isawaitable(value):
                    left = timeout - (time.perf_counter() - start)
                    value = await _await_within(value, max(left, 0.0))
        except _ToolTimeout as exc:
            return self._failed(name, call_id, start, _timeout_text(_given(timeout)), exc)
        except Exception as exc:
            return self._failed(name, call_id, start, error_text(exc), exc)
        return ToolResult(name, call_id, True, value, duration=time.perf_counter() - start)

    def execute(
        self,
        name: str,
        input: Any = None,
        meta: Any = None,
        *,
        timeout: float | None = None,
        call_id: str | None = None,
    ) -> ToolResult:
        """Run the tool called ``name`` and return its ``ToolResult``.

        A sync tool runs in this thread, or in a worker thread when ``timeout`` is
        given (a thread cannot be stopped: a sync tool that overruns keeps running in
        the background and its result is discarded). An async tool runs in a new
        event loop; inside a running event loop that is impossible without blocking
        it, so this raises ``ToolkitLoopError``: use ``await toolkit.aexecute(...)``
        there.

        Args:
            name: the tool to run.
            input: passed to the tool's ``execute`` (validated by the tool).
            meta: passed through verbatim.
            timeout: seconds before the call fails with "timed out after ... s".
            call_id: copied to the result, to pair it with the provider's call.

        Returns:
            A ``ToolResult``; failures are results, not exceptions.

        Raises:
            ToolkitLoopError: the tool is async and an event loop is running in this
                thread (a ``RuntimeError``).
        """
        import asyncio
        import concurrent.futures

        start = time.perf_counter()
        tool = self._tools.get(name)
        if tool is None:
            return ToolResult(name, call_id, False, error=self._unknown(name))
        if name in self._async:
            self._refuse_in_loop(name)
            return asyncio.run(self.aexecute(name, input, meta, timeout=timeout, call_id=call_id))
        try:
            if timeout is None:
                value = tool.execute(input, meta)
            else:
                try:
                    value = _in_thread(lambda: tool.execute(input, meta)).result(timeout)
                except concurrent.futures.TimeoutError as exc:
                    raise _ToolTimeout from exc
        except _ToolTimeout as exc:
            return self._failed(name, call_id, start, _timeout_text(_given(timeout)), exc)
        except Exception as exc:
            return self._failed(name, call_id, start, error_text(exc), exc)
        if inspect.isawaitable(value):
            # A sync ``execute`` that returned an awaitable: finish it in a new loop.
            try:
                self._refuse_in_loop(name)
            except ToolkitLoopError:
                if inspect.iscoroutine(value):
                    value.close()
                raise
            left = None if timeout is None else max(timeout - (time.perf_counter() - start), 0.0)
            return asyncio.run(self._finish(name, value, left, call_id, start))
        return ToolResult(name, call_id, True, value, duration=time.perf_counter() - start)

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
        name: str, call_id: str | None, start: float, error: str, exc: BaseException
    ) -> ToolResult:
        return ToolResult(
            name,
            call_id,
            False,
            error=error,
            duration=time.perf_counter() - start,
            exception=exc,
        )


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
