"""The client side of tasks: follow a server's task to its result.

Layer: top (imports the call context and the relay's answers; ``mcp``, ``anyio`` and
``pydantic`` lazily).

``task_extension()`` is the ``mcp.Client(extensions=[...])`` entry that declares
``io.modelcontextprotocol/tasks`` and finishes a call the server turned into a task:
it polls ``tasks/get`` at the server's interval, answers the task's questions through
the call's ``ToolContext`` with ``tasks/update``, passes the task's status messages on
as progress, and cancels the task when the call gives up. Imported tools
(``import_tools``) follow tasks the same way.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, cast

from standard_tool._context import ToolContext, current_context
from standard_tool._shared import safe_str, truncate_text
from standard_tool.mcp._relay import InputRequestRefused, answer_input_requests
from standard_tool.mcp._tasks import TASKS_EXTENSION

if TYPE_CHECKING:
    from mcp import ClientSession, types
    from mcp.client.extension import ClientExtension

__all__ = ["TaskFailedError", "follow_task", "task_extension"]

_MAX_PROBLEM = 300
#: The interval between two ``tasks/get`` is the server's, held between these bounds (s).
_POLL_BOUNDS = (0.05, 5.0)
#: Seconds a ``tasks/cancel`` sent on the way out may take.
_CANCEL_LIMIT = 2.0


class TaskFailedError(RuntimeError):
    """A server's task ended ``failed`` or ``cancelled``: the call has no result."""


def _requests() -> Any:
    from mcp_types import Request, RequestParams, Result
    from pydantic import ConfigDict, Field
    from typing_extensions import Literal

    class TaskIdParams(RequestParams):
        model_config = ConfigDict(populate_by_name=True)
        task_id: str = Field(alias="taskId")

    class UpdateParams(TaskIdParams):
        input_responses: dict[str, Any] = Field(alias="inputResponses")

    class GetTask(Request[TaskIdParams, Literal["tasks/get"]]):
        method: Literal["tasks/get"] = "tasks/get"
        name_param = "taskId"

    class UpdateTask(Request[UpdateParams, Literal["tasks/update"]]):
        method: Literal["tasks/update"] = "tasks/update"
        name_param = "taskId"

    class CancelTask(Request[TaskIdParams, Literal["tasks/cancel"]]):
        method: Literal["tasks/cancel"] = "tasks/cancel"
        name_param = "taskId"

    class Answer(Result):
        model_config = ConfigDict(extra="allow")

    return GetTask, UpdateTask, CancelTask, TaskIdParams, UpdateParams, Answer


_MODELS: list[Any] = []


def _models() -> Any:
    if not _MODELS:
        _MODELS.append(_requests())
    return _MODELS[0]


async def follow_task(
    session: ClientSession,
    task_id: str,
    poll_ms: object,
    context: ToolContext,
    where: str,
) -> types.CallToolResult:
    """Poll a task to its end; answer its questions through ``context``; return its result.

    Raises:
        TaskFailedError: the task ended ``failed`` or ``cancelled``.
        InputRequestRefused: a question a tool's context cannot ask.
    """
    import anyio
    from mcp import types
    from pydantic import TypeAdapter

    get_task, update_task, cancel_task, id_params, update_params, raw = _models()
    asks: TypeAdapter[Any] = TypeAdapter(types.InputRequest)
    low, high = _POLL_BOUNDS
    interval = poll_ms / 1000 if isinstance(poll_ms, (int, float)) else 0.5
    interval = min(max(interval, low), high)
    answered: set[str] = set()
    try:
        while True:
            params = id_params(taskId=task_id)
            got = await session.send_request(get_task(params=params), raw)
            task: dict[str, Any] = got.model_dump(mode="json", by_alias=True)
            status = task.get("status")
            if status == "completed":
                return types.CallToolResult.model_validate(task.get("result") or {})
            if status in ("failed", "cancelled"):
                error: object = task.get("error")
                said: object = (
                    cast("Mapping[str, Any]", error).get("message")
                    if isinstance(error, Mapping)
                    else None
                )
                reason: object = said or task.get("statusMessage") or status
                shown = truncate_text(safe_str(reason, _MAX_PROBLEM), _MAX_PROBLEM)
                raise TaskFailedError(f"{where}: its task ended {status}: {shown}")
            message = task.get("statusMessage")
            if isinstance(message, str):
                context.report_progress(message=truncate_text(message, _MAX_PROBLEM))
            pending: object = task.get("inputRequests") if status == "input_required" else None
            found: Mapping[str, Any] = {}
            if isinstance(pending, Mapping):
                found = cast("Mapping[str, Any]", pending)
            fresh: dict[str, Any] = {
                key: asks.validate_python(request)
                for key, request in found.items()
                if key not in answered
            }
            if fresh:
                answers = await answer_input_requests(context, fresh)
                dumped = {
                    key: answer.model_dump(mode="json", by_alias=True, exclude_none=True)
                    for key, answer in answers.items()
                }
                update = update_params(taskId=task_id, inputResponses=dumped)
                await session.send_request(update_task(params=update), raw)
                answered.update(fresh)
                continue
            await anyio.sleep(interval)
    except (TaskFailedError, InputRequestRefused):
        raise
    except BaseException:
        # The call gave up (its deadline, a cancellation, a question its caller asks in
        # a round of its own): the task would run on for nobody.
        # Best effort on the way out: the first error is the one that counts.
        with (
            anyio.CancelScope(shield=True),
            anyio.move_on_after(_CANCEL_LIMIT),
            contextlib.suppress(Exception),
        ):
            await session.send_request(cancel_task(params=id_params(taskId=task_id)), raw)
        raise


def claimed_task(result: object) -> tuple[str, object] | None:
    """Return ``(taskId, pollIntervalMs)`` when ``result`` is a task the server created."""
    if getattr(result, "result_type", None) != "task":
        return None
    extra: dict[str, Any] = getattr(result, "model_extra", None) or {}
    task_id = getattr(result, "task_id", None) or extra.get("taskId")
    if not isinstance(task_id, str):
        return None
    return task_id, getattr(result, "poll_interval_ms", None) or extra.get("pollIntervalMs")


def task_extension() -> ClientExtension:
    """Return the client side of MCP tasks, for ``mcp.Client(extensions=[...])``.

    The client then declares ``io.modelcontextprotocol/tasks``, and a call the
    server turns into a task comes back as the task's result: polled at the
    server's interval, its questions answered through the running call's
    ``ToolContext`` (``use_caller`` handlers, or a gateway's own client), its
    status messages passed on as progress. A call that gives up cancels its task.

    Examples:
        ```python
        async with Client(url, extensions=[task_extension()], **relay) as client:
            tools = await import_tools(client.session, relay=relay)
        ```
    """
    from mcp.client.extension import ClaimContext, ClientExtension, ResultClaim
    from mcp_types import Result
    from pydantic import ConfigDict, Field
    from typing_extensions import Literal

    class TaskCreated(Result):
        model_config = ConfigDict(extra="allow", populate_by_name=True)
        result_type: Literal["task"] = Field(alias="resultType")
        task_id: str = Field(alias="taskId")
        poll_interval_ms: int | None = Field(default=None, alias="pollIntervalMs")

    async def resolve(created: TaskCreated, claim: ClaimContext) -> Any:
        context = current_context() or ToolContext(claim.tool_name)
        where = f"MCP tool {truncate_text(claim.tool_name, 100)!r}"
        return await follow_task(
            claim.session, created.task_id, created.poll_interval_ms, context, where
        )

    class TasksExtension(ClientExtension):
        identifier = TASKS_EXTENSION

        def claims(self) -> list[ResultClaim[Any]]:
            return [ResultClaim(result_type="task", model=TaskCreated, resolve=resolve)]

    return TasksExtension()
