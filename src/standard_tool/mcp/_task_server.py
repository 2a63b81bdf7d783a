"""Serving tasks: which calls become tasks, and ``tasks/get``, ``tasks/update``, ``tasks/cancel``.

Layer: top (imports the tasks store and the rounds; ``mcp`` lazily).
"""

from __future__ import annotations

import asyncio
import json
import math
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from typing_extensions import Literal

from standard_tool._shared import truncate_text
from standard_tool.mcp._rounds import KINDS, Rounds, checked_answer
from standard_tool.mcp._state import current_principal, principal_tag
from standard_tool.mcp._tasks import (
    CHANGED,
    TASKS_EXTENSION,
    MemoryTaskStore,
    TaskLink,
    TaskStore,
    TaskStoreError,
    answer_field,
    ask_field,
    detailed,
    epoch_of,
    is_terminal,
    stale,
    task_envelope,
    task_fields,
)

if TYPE_CHECKING:
    from standard_tool._toolkit import ToolResult

__all__ = [
    "TaskOptions",
    "declares_tasks",
    "find_task",
    "install_task_handlers",
    "run_maybe_as_task",
]

TaskSupport = Literal["optional", "required"]
_MAX_ID = 200
#: The field naming whom a task belongs to: a digest of the principal, empty for nobody.
_OWNER = "owner"


@dataclass(frozen=True)
class TaskOptions:
    """Which tools may run as tasks (MCP extension ``io.modelcontextprotocol/tasks``), and how.

    Give it to ``server(tasks=...)`` (or ``http_app``/``serve``). A call of one of
    ``tools`` from a client that declared the extension becomes a task when it is
    still running after ``after`` seconds: the client gets the task at once and
    polls it; a quicker call answers as usual. ``"required"``: a client that did
    not declare the extension gets the error ``-32021``; ``"optional"``: it gets
    the call's result when the call ends, as any call.

    Attributes:
        tools: ``"optional"`` or ``"required"`` by tool name.
        store: where tasks live (``MemoryTaskStore()``, or ``RedisTaskStore`` shared
            by several processes).
        after: seconds a call runs before it becomes a task.
        ttl: seconds a task is kept after it is created (``ttlMs``).
        poll: seconds between two looks at the store by the process running a
            task (answers, cancellation, heartbeat); ``pollIntervalMs`` tells
            clients the same.
        lease: seconds without a heartbeat after which a task whose process
            stopped is reported ``failed``.
    """

    tools: Mapping[str, TaskSupport]
    store: TaskStore = field(default_factory=MemoryTaskStore)
    after: float = 0.5
    ttl: float = 3600.0
    poll: float = 0.25
    lease: float = 10.0

    def __post_init__(self) -> None:
        problems = [
            f"tool {truncate_text(str(name), 60)!r}: {support!r} is not 'optional' or 'required'"
            for name, support in self.tools.items()
            if support not in ("optional", "required")
        ]
        for name in ("after", "ttl", "poll", "lease"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                problems.append(f"{name} must be a number of seconds, not {type(value).__name__}")
            elif not (value > 0 and math.isfinite(value)) and not (name == "after" and value == 0):
                problems.append(f"{name} must be a positive number of seconds, not {value!r}")
        if problems:
            raise ValueError("TaskOptions: " + "; ".join(problems))


def declares_tasks(ctx: Any) -> bool:
    """Whether this request's client declared the tasks extension (for its session, or itself)."""
    declared: object = getattr(ctx.session.client_capabilities, "extensions", None)
    if isinstance(declared, Mapping) and TASKS_EXTENSION in declared:
        return True
    meta: object = ctx.meta
    own: object = (
        cast("Mapping[str, Any]", meta).get("io.modelcontextprotocol/clientCapabilities")
        if isinstance(meta, Mapping)
        else None
    )
    extensions: object = (
        cast("Mapping[str, Any]", own).get("extensions") if isinstance(own, Mapping) else None
    )
    return isinstance(extensions, Mapping) and TASKS_EXTENSION in extensions


def _missing_extension(what: str) -> Exception:
    from mcp.shared.exceptions import MCPError
    from mcp_types import MISSING_REQUIRED_CLIENT_CAPABILITY

    return MCPError(
        code=MISSING_REQUIRED_CLIENT_CAPABILITY,
        message=f"{what} needs the client extension {TASKS_EXTENSION}; declare it in the request",
        data={"requiredCapabilities": {"extensions": {TASKS_EXTENSION: {}}}},
    )


def _invalid(message: str) -> Exception:
    from mcp.shared.exceptions import MCPError
    from mcp_types import INVALID_PARAMS

    return MCPError(code=INVALID_PARAMS, message=message)


def _store_failed(err: TaskStoreError) -> Exception:
    from mcp.shared.exceptions import MCPError
    from mcp_types import INTERNAL_ERROR

    return MCPError(code=INTERNAL_ERROR, message=str(err))


def check_task_support(options: TaskOptions | None, name: str, ctx: Any) -> bool:
    """Whether this call may become a task; raise ``-32021`` for a required one not allowed."""
    support = None if options is None else options.tools.get(name)
    if support is None:
        return False
    if declares_tasks(ctx):
        return True
    if support == "required":
        raise _missing_extension(f"tool {truncate_text(name, 60)!r} runs as a task: it")
    return False


async def run_maybe_as_task(
    options: TaskOptions,
    rounds: Rounds,
    capabilities: Any,
    start: Callable[[], Awaitable[ToolResult]],
    answer: Callable[[ToolResult], dict[str, Any]],
    principal: str | None = None,
) -> ToolResult | dict[str, Any]:
    """Run a call; past ``options.after`` seconds, make it a task and answer with the task.

    The task belongs to ``principal`` (whom the call was authenticated as): only
    requests authenticated as them see it (``find_task``).

    Returns the call's ``ToolResult`` when it ended in time (or raises what it
    raised: ``InputRequired`` for a question asked in time), else the
    ``CreateTaskResult`` answer, the call going on in the background.
    """
    run = asyncio.ensure_future(start())
    try:
        done, _ = await asyncio.wait({run}, timeout=options.after)
    except BaseException:
        run.cancel()
        raise
    if run in done:
        return run.result()
    link = TaskLink(options.store, ttl=options.ttl, poll=options.poll, lease=options.lease)
    rounds.detach(link, capabilities)  # before any await: the next question is the task's
    try:
        created_fields = {**link.fields("working"), _OWNER: principal_tag(principal) or ""}
        await options.store.set(link.task_id, created_fields, link.expires)
    except TaskStoreError as err:
        run.cancel()
        raise _store_failed(err) from err

    def finish() -> dict[str, str]:
        return _ending(link, run, answer)

    follower = asyncio.ensure_future(link.follow(run, finish))
    _FOLLOWERS.add(follower)
    follower.add_done_callback(_FOLLOWERS.discard)
    created = json.loads(link.fields("working")["task"])
    return {"resultType": "task", **created}


#: The tasks this process runs, kept referenced until they are recorded.
_FOLLOWERS: set[asyncio.Future[None]] = set()


def _ending(
    link: TaskLink, run: asyncio.Future[Any], answer: Callable[[ToolResult], dict[str, Any]]
) -> dict[str, str]:
    """Return the fields recording how a task's call ended."""
    from mcp.shared.exceptions import MCPError

    if run.cancelled():
        return link.fields("cancelled", "cancelled by the client")
    error = run.exception()
    if error is None:
        ended: ToolResult = run.result()
        try:
            if isinstance(ended.exception, MCPError):  # the tool raised a protocol error
                raise ended.exception
            result = answer(ended)
        except MCPError as err:  # a protocol error of the call: the task failed
            error = err
        else:
            fields = link.fields("completed")
            fields["result"] = json.dumps(result, separators=(",", ":"), ensure_ascii=True)
            return fields
    if isinstance(error, MCPError):
        data: dict[str, Any] = {"code": error.error.code, "message": error.error.message}
        if error.error.data is not None:
            data["data"] = error.error.data
    else:
        message = truncate_text(f"{type(error).__name__}: {error}", 300)
        data = {"code": -32603, "message": f"the task's call failed: {message}"}
    fields = link.fields("failed", str(data["message"]))
    fields["error"] = json.dumps(data, separators=(",", ":"), ensure_ascii=True)
    return fields


def _task_id(ctx: Any, params: Any) -> str:
    """Return the request's task id, after its ``Mcp-Name`` header (HTTP) is checked."""
    task_id = params.taskId
    request = getattr(ctx, "request", None)
    headers = getattr(request, "headers", None)
    if headers is not None and ctx.protocol_version >= "2026-07-28":
        from mcp.shared.exceptions import MCPError
        from mcp_types import HEADER_MISMATCH

        named = headers.get("mcp-name")
        if named != task_id:
            shown = "missing" if named is None else repr(truncate_text(named, 60))
            raise MCPError(
                code=HEADER_MISMATCH,
                message=f"the Mcp-Name header must be the task id; it is {shown}",
            )
    return str(task_id)


async def find_task(options: TaskOptions, task_id: str, principal: str | None) -> dict[str, str]:
    """Return a stored task's fields (a stopped process's task marked failed), or -32602.

    A task made for another principal than ``principal`` (whom the request asking
    is authenticated as) is unknown to this request, as a task that does not exist.
    """
    try:
        fields = await options.store.get(task_id)
    except TaskStoreError as err:
        raise _store_failed(err) from err
    owner = fields.get(_OWNER, "")
    if not fields or "task" not in fields or owner != (principal_tag(principal) or ""):
        raise _invalid(f"unknown task {truncate_text(task_id, _MAX_ID)!r}")
    if stale(fields, options.lease):
        task = json.loads(fields["task"])
        reason = f"the process running the task stopped: no heartbeat for {options.lease:g} s"
        ended = task_fields(
            task_id,
            "failed",
            epoch_of(task["createdAt"]),
            task["ttlMs"] / 1000,
            task["pollIntervalMs"] / 1000,
            reason,
        )
        ended["error"] = json.dumps({"code": -32603, "message": reason})
        try:
            await options.store.set(task_id, ended, _expiry(task))
        except TaskStoreError as err:
            raise _store_failed(err) from err
        fields = {**fields, **ended}
    return fields


def _expiry(task: Mapping[str, Any]) -> float:
    """Return when a stored task expires (epoch seconds): its creation plus its ``ttlMs``."""
    return epoch_of(str(task["createdAt"])) + float(task["ttlMs"]) / 1000


def install_task_handlers(srv: Any, options: TaskOptions) -> None:
    """Answer ``tasks/get``, ``tasks/update`` and ``tasks/cancel`` on ``srv``; advertise tasks."""
    from mcp_types import RequestParams
    from pydantic import ConfigDict

    class TaskParams(RequestParams):
        model_config = ConfigDict(extra="allow")
        taskId: str  # the wire name

    class UpdateParams(TaskParams):
        inputResponses: dict[str, Any]  # the wire name

    def gate(ctx: Any, what: str) -> None:
        if not declares_tasks(ctx):
            raise _missing_extension(what)

    async def get(ctx: Any, params: TaskParams) -> dict[str, Any]:
        gate(ctx, "tasks/get")
        fields = await find_task(options, _task_id(ctx, params), current_principal())
        return {"resultType": "complete", **detailed(fields)}

    async def update(ctx: Any, params: UpdateParams) -> dict[str, Any]:
        gate(ctx, "tasks/update")
        task_id = _task_id(ctx, params)
        fields = await find_task(options, task_id, current_principal())
        answers: dict[str, str] = {}
        for key, given in params.inputResponses.items():
            asked = fields.get(ask_field(key))
            if asked is None:
                continue  # not asked, or answered already: ignored
            method = json.loads(asked).get("method")
            if method in KINDS:
                checked = checked_answer(key, method, given)
                answers[answer_field(key)] = json.dumps(checked, ensure_ascii=True)
        if answers:
            expires = _expiry(task_envelope(fields))
            try:
                await options.store.set(task_id, {**answers, CHANGED: repr(time.time())}, expires)
                done = [ask_field(name[len("answer:") :]) for name in answers]
                await options.store.delete(task_id, done)
            except TaskStoreError as err:
                raise _store_failed(err) from err
        return {"resultType": "complete"}

    async def cancel(ctx: Any, params: TaskParams) -> dict[str, Any]:
        gate(ctx, "tasks/cancel")
        task_id = _task_id(ctx, params)
        fields = await find_task(options, task_id, current_principal())
        if not is_terminal(fields):
            expires = _expiry(task_envelope(fields))
            try:
                await options.store.set(task_id, {"cancel": "1"}, expires)
            except TaskStoreError as err:
                raise _store_failed(err) from err
        return {"resultType": "complete"}

    if not isinstance(getattr(srv, "extensions", None), dict):
        raise RuntimeError(
            "server: tasks need an mcp SDK that advertises extensions (mcp 2.3 or later); "
            "upgrade mcp"
        )
    srv.add_request_handler("tasks/get", TaskParams, get)
    srv.add_request_handler("tasks/update", UpdateParams, update)
    srv.add_request_handler("tasks/cancel", TaskParams, cancel)
    srv.extensions[TASKS_EXTENSION] = {}
