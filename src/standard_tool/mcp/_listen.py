"""``subscriptions/listen`` (protocol 2026-07-28): list changes and task status notifications.

One listen request is one stream. It carries what the client asked for and the
server can tell: ``tools/list_changed`` when the tools are a ``LiveTools``, and,
when the server runs tasks, ``notifications/tasks`` for the task ids the client
names in ``notifications.taskIds`` (the tasks extension's optional status
notifications). The stream watches those tasks in the task store, so a task run
by another process is reported too: each change of its status (or of its
questions) is sent once, as the task ``tasks/get`` would answer, until the task
ends.

Layer: top (imports the task server; ``mcp`` lazily).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, cast

import anyio
import anyio.abc

from standard_tool._shared import truncate_text
from standard_tool.mcp._state import current_principal
from standard_tool.mcp._task_server import TaskOptions, declares_tasks, find_task
from standard_tool.mcp._tasks import detailed, is_terminal

__all__ = ["Listen"]

#: Task ids one stream may watch, and the longest id it takes.
MAX_TASK_IDS = 100
_MAX_ID = 200
#: Events one stream buffers for a client that stopped reading; past it the stream ends.
_MAX_BUFFERED = 1024


class Listen:
    """The ``subscriptions/listen`` handler of one server: see the module's docstring.

    ``bus`` is the SDK's subscription bus the live tools publish on (``None``
    without ``LiveTools``); ``tasks`` the server's task options (``None`` without
    tasks). ``max_streams`` bounds the streams open at once.
    """

    __slots__ = ("_bus", "_max_streams", "_streams", "_tasks")

    def __init__(
        self, bus: Any | None, tasks: TaskOptions | None, *, max_streams: int = 1024
    ) -> None:
        self._bus = bus
        self._tasks = tasks
        self._max_streams = max_streams
        self._streams = 0

    def _task_ids(self, ctx: Any, requested: Any) -> list[str]:
        """Return the task ids asked for, checked, when this server and client have tasks."""
        from mcp.shared.exceptions import MCPError
        from mcp_types import INVALID_PARAMS

        extra = cast("Mapping[str, Any]", getattr(requested, "model_extra", None) or {})
        asked: object = extra.get("taskIds")
        if asked is None or self._tasks is None or not declares_tasks(ctx):
            return []
        if not isinstance(asked, list):
            raise MCPError(INVALID_PARAMS, "notifications.taskIds must be a list of task ids")
        ids = cast("list[object]", asked)
        if len(ids) > MAX_TASK_IDS:
            raise MCPError(
                INVALID_PARAMS,
                f"notifications.taskIds names {len(ids)} tasks; one stream watches "
                f"at most {MAX_TASK_IDS}",
            )
        for index, task_id in enumerate(ids):
            if not isinstance(task_id, str) or not 0 < len(task_id) <= _MAX_ID:
                shown = truncate_text(repr(task_id), 60)
                raise MCPError(
                    INVALID_PARAMS,
                    f"notifications.taskIds[{index}]: expected a task id (a string of 1 to "
                    f"{_MAX_ID} characters), got {shown}",
                )
        return list(dict.fromkeys(cast("list[str]", ids)))

    async def __call__(self, ctx: Any, params: Any) -> Any:
        """Serve one listen stream until the client leaves."""
        from mcp.shared.exceptions import MCPError
        from mcp.shared.subscriptions import (
            SUBSCRIPTION_ID_META_KEY,
            event_matches,
            event_to_notification,
        )
        from mcp_types import (
            INTERNAL_ERROR,
            INVALID_REQUEST,
            SubscriptionFilter,
            SubscriptionsAcknowledgedNotification,
            SubscriptionsAcknowledgedNotificationParams,
            SubscriptionsListenResult,
        )

        subscription_id = ctx.request_id
        if subscription_id is None:
            raise MCPError(INVALID_REQUEST, "subscriptions/listen needs a request id")
        if self._streams >= self._max_streams:
            raise MCPError(INTERNAL_ERROR, f"{self._max_streams} listen streams are open already")
        requested = params.notifications
        task_ids = self._task_ids(ctx, requested)
        # What this server can tell: its list of tools changes only when it is live.
        tools = bool(requested.tools_list_changed) and self._bus is not None
        honored = SubscriptionFilter.model_validate(
            {
                "toolsListChanged": True if tools else None,
                **({"taskIds": task_ids} if task_ids else {}),
            }
        )
        meta: dict[str, Any] = {SUBSCRIPTION_ID_META_KEY: subscription_id}
        send, receive = anyio.create_memory_object_stream[Any](_MAX_BUFFERED)

        def deliver(event: Any) -> None:  # called by the bus, on this loop
            if event_matches(honored, frozenset(), event):
                try:
                    send.send_nowait(event_to_notification(event, meta))
                except (anyio.WouldBlock, anyio.ClosedResourceError):
                    send.close()  # a client that stopped reading: its stream ends

        unsubscribe = self._bus.subscribe(deliver) if tools and self._bus is not None else None
        self._streams += 1
        try:
            await ctx.session.send_notification(
                SubscriptionsAcknowledgedNotification(
                    params=SubscriptionsAcknowledgedNotificationParams(
                        notifications=honored, _meta=meta
                    )
                ),
                related_request_id=subscription_id,
            )
            async with anyio.create_task_group() as group:
                if task_ids:
                    assert self._tasks is not None
                    principal = current_principal()
                    watched = (self._tasks, task_ids, principal, meta, send.clone())
                    group.start_soon(_watch, *watched)
                async with receive:
                    async for notification in receive:
                        await ctx.session.send_notification(
                            notification, related_request_id=subscription_id
                        )
                group.cancel_scope.cancel()
        finally:
            if unsubscribe is not None:
                unsubscribe()
            self._streams -= 1
            send.close()
        return SubscriptionsListenResult(_meta=meta)


async def _watch(
    options: TaskOptions,
    task_ids: list[str],
    principal: str | None,
    meta: dict[str, Any],
    send: anyio.abc.ObjectSendStream[Any],
) -> None:
    """Send ``notifications/tasks`` for each change of the watched tasks, until they end.

    The store is read every ``options.poll`` seconds (the interval the tasks tell
    clients to poll at). An unknown task id (or another principal's task) is
    dropped; a store that fails is read again at the next interval.
    """
    from mcp.shared.exceptions import MCPError
    from mcp_types import INVALID_PARAMS

    seen: dict[str, str] = {}
    watched = list(task_ids)
    async with send:
        while watched:
            for task_id in list(watched):
                try:
                    fields = await find_task(options, task_id, principal)
                except MCPError as err:
                    if err.error.code == INVALID_PARAMS:  # unknown, or expired
                        watched.remove(task_id)
                    continue
                task = detailed(fields)
                shown = json.dumps(task, sort_keys=True)
                if seen.get(task_id) != shown:
                    seen[task_id] = shown
                    await send.send(_TasksNotification(params={**task, "_meta": meta}))
                if is_terminal(fields):
                    watched.remove(task_id)
            if watched:
                await anyio.sleep(options.poll)


class _TasksNotification:
    """``notifications/tasks``, in the shape the SDK session sends (``model_dump``)."""

    __slots__ = ("params",)

    def __init__(self, params: dict[str, Any]) -> None:
        self.params = params

    def model_dump(self, **_: Any) -> dict[str, Any]:
        return {"method": "notifications/tasks", "params": self.params}
