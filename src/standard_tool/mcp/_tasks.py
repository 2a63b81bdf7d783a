"""Tasks (the MCP extension ``io.modelcontextprotocol/tasks``): calls that outlive their request.

Layer: top (standard library; ``redis`` lazily, for ``RedisTaskStore``).

A tool served with ``server(tasks={"report": "optional"})`` runs as usual; when a
client that declared the extension calls it and the call is still running after
``task_after`` seconds, the server answers with a task (``resultType: "task"``) and
the call goes on in the background. The client polls ``tasks/get`` (any process of
the server answers it), answers questions with ``tasks/update`` and may
``tasks/cancel``.

A task's state lives behind ``TaskStore``, a small interface of field maps with an
expiry: ``MemoryTaskStore`` (the default, one process) or ``RedisTaskStore`` (several
processes sharing one Redis). The process running a task writes a heartbeat every
poll; a task whose process stopped writing it is reported ``failed``, with the reason,
by whichever process is asked next.

Both stores also record the request states a server has accepted (``claim``, the
``UsedStates`` interface), for ``server(used_states=...)``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import time
from collections.abc import Awaitable, Callable, Collection, Iterator, Mapping
from datetime import datetime, timezone
from typing import Any, Protocol

from standard_tool._core import StandardToolError
from standard_tool._shared import truncate_text

__all__ = [
    "TASKS_EXTENSION",
    "MemoryTaskStore",
    "RedisTaskStore",
    "TaskStore",
    "TaskStoreError",
]

#: The extension's identifier, in capabilities and ``requiredCapabilities``.
TASKS_EXTENSION = "io.modelcontextprotocol/tasks"
_TERMINAL = frozenset({"completed", "failed", "cancelled"})
_ASK = "ask:"
_ANSWER = "answer:"
#: When the task's questions last changed (epoch seconds): asked, or answered.
CHANGED = "changed"
_MAX_MESSAGE = 300


class TaskStoreError(StandardToolError, RuntimeError):
    """The task store did not answer (down, slow or refusing): nothing was acknowledged."""


class TaskStore(Protocol):
    """Where tasks live: a map of text fields per task id, gone after its expiry.

    Every operation is one round trip (a Redis hash maps onto it one to one). Writers
    of different fields never overwrite each other's, so a ``tasks/update`` answered
    by one process and the heartbeat of the process running the task both land.
    """

    async def set(self, task_id: str, fields: Mapping[str, str], expires_at: float) -> None:
        """Write ``fields`` of the task (creating it), kept until ``expires_at`` (epoch s)."""
        ...

    async def get(self, task_id: str) -> dict[str, str]:
        """Return every field of the task; empty when there is no such task (or it expired)."""
        ...

    async def delete(self, task_id: str, names: Collection[str]) -> None:
        """Remove fields of the task."""
        ...


class MemoryTaskStore:
    """Tasks in this process's memory: the default, for a server of one process.

    Args:
        max_tasks: the most tasks kept at once; creating one more raises
            ``TaskStoreError`` (expired tasks are dropped first).
    """

    __slots__ = ("_tasks", "_used", "max_tasks")

    def __init__(self, *, max_tasks: int = 10_000) -> None:
        self._tasks: dict[str, tuple[float, dict[str, str]]] = {}
        self._used: dict[str, float] = {}
        self.max_tasks = max_tasks

    def __repr__(self) -> str:
        return f"MemoryTaskStore(tasks={len(self._tasks)}, max_tasks={self.max_tasks})"

    def __iter__(self) -> Iterator[str]:
        """Iterate over the ids of the tasks kept (expired ones left out)."""
        now = time.time()
        return iter([task_id for task_id, (expiry, _) in self._tasks.items() if expiry > now])

    def _purge(self) -> None:
        now = time.time()
        for task_id in [t for t, (expiry, _) in self._tasks.items() if expiry <= now]:
            del self._tasks[task_id]

    async def set(self, task_id: str, fields: Mapping[str, str], expires_at: float) -> None:
        """Write fields of a task (see ``TaskStore.set``)."""
        found = self._tasks.get(task_id)
        if found is None:
            self._purge()
            if len(self._tasks) >= self.max_tasks:
                raise TaskStoreError(
                    f"the memory task store holds {self.max_tasks} tasks already; "
                    "try again once some expire"
                )
            found = self._tasks[task_id] = (expires_at, {})
        found[1].update(fields)
        self._tasks[task_id] = (expires_at, found[1])

    async def get(self, task_id: str) -> dict[str, str]:
        """Return a task's fields (see ``TaskStore.get``)."""
        found = self._tasks.get(task_id)
        if found is None or found[0] <= time.time():
            return {}
        return dict(found[1])

    async def delete(self, task_id: str, names: Collection[str]) -> None:
        """Remove fields of a task (see ``TaskStore.delete``)."""
        found = self._tasks.get(task_id)
        if found is not None:
            for name in names:
                found[1].pop(name, None)

    async def claim(self, state_id: str, expires_at: float) -> bool:
        """Record a used request state until it expires; ``False`` if it was recorded already.

        At most ``max_tasks * 10`` states are kept at once (expired ones dropped
        first); past that, ``TaskStoreError``, and the state is refused.
        """
        now = time.time()
        used = self._used.get(state_id)
        if used is not None and used > now:
            return False
        if len(self._used) >= self.max_tasks * 10:
            for old in [s for s, until in self._used.items() if until <= now]:
                del self._used[old]
            if len(self._used) >= self.max_tasks * 10:
                raise TaskStoreError(
                    f"the memory store holds {len(self._used)} used request states already; "
                    "try again once some expire"
                )
        self._used[state_id] = expires_at
        return True


class RedisTaskStore:
    """Tasks in Redis, shared by every process of a server: one hash per task.

    Args:
        url: the Redis server (``redis://127.0.0.1:6379/0``).
        prefix: put before each task id to make its key.
        timeout: seconds one operation may take before ``TaskStoreError``.
        client: a ``redis.asyncio.Redis`` to use instead of one made from ``url``.
        used_prefix: put before each used request state's id to make its key
            (``claim``).
    """

    __slots__ = ("_client", "prefix", "timeout", "url", "used_prefix")

    def __init__(
        self,
        url: str = "redis://127.0.0.1:6379/0",
        *,
        prefix: str = "standard-tool:task:",
        timeout: float = 2.0,
        client: Any = None,
        used_prefix: str = "standard-tool:used-state:",
    ) -> None:
        self.url = url
        self.prefix = prefix
        self.timeout = timeout
        self._client = client
        self.used_prefix = used_prefix

    def __repr__(self) -> str:
        return f"RedisTaskStore(prefix={self.prefix!r}, timeout={self.timeout:g})"

    def _redis(self) -> Any:
        if self._client is None:
            import redis.asyncio

            self._client = redis.asyncio.Redis.from_url(  # pyright: ignore[reportUnknownMemberType]
                self.url,
                socket_timeout=self.timeout,
                socket_connect_timeout=self.timeout,
                decode_responses=True,
            )
        return self._client

    async def _run(self, what: str, operation: Callable[[Any], Awaitable[Any]]) -> Any:
        import redis.exceptions

        # Whichever fires first, our deadline or the client's socket timeout, is a timeout.
        timeouts = (asyncio.TimeoutError, TimeoutError, redis.exceptions.TimeoutError)
        try:
            return await asyncio.wait_for(operation(self._redis()), self.timeout)
        except timeouts as err:
            raise TaskStoreError(
                f"the Redis task store did not answer within {self.timeout:g} s ({what})"
            ) from err
        except Exception as err:  # the store's boundary: any client error is the store's
            detail = truncate_text(str(err), _MAX_MESSAGE)
            raise TaskStoreError(
                f"the Redis task store failed ({what}): {type(err).__name__}: {detail}"
            ) from err

    async def set(self, task_id: str, fields: Mapping[str, str], expires_at: float) -> None:
        """Write fields of a task (``HSET``, then ``PEXPIREAT``) in one transaction."""
        key = self.prefix + task_id

        async def operation(redis: Any) -> Any:
            pipe = redis.pipeline(transaction=True)
            pipe.hset(key, mapping=dict(fields))
            pipe.pexpireat(key, int(expires_at * 1000))
            return await pipe.execute()

        await self._run("set", operation)

    async def get(self, task_id: str) -> dict[str, str]:
        """Return a task's fields (``HGETALL``)."""
        found: dict[str, str] = await self._run(
            "get", lambda redis: redis.hgetall(self.prefix + task_id)
        )
        return found

    async def delete(self, task_id: str, names: Collection[str]) -> None:
        """Remove fields of a task (``HDEL``)."""
        if names:
            await self._run("delete", lambda redis: redis.hdel(self.prefix + task_id, *names))

    async def claim(self, state_id: str, expires_at: float) -> bool:
        """Record a used request state until it expires (``SET NX`` with an expiry, atomic)."""
        key = self.used_prefix + state_id
        milliseconds = max(int((expires_at - time.time()) * 1000), 1)
        done = await self._run("claim", lambda redis: redis.set(key, "1", nx=True, px=milliseconds))
        return bool(done)

    async def aclose(self) -> None:
        """Close the connections to Redis."""
        if self._client is not None:
            await self._client.aclose()


def _iso(epoch: float) -> str:
    return datetime.fromtimestamp(epoch, timezone.utc).isoformat().replace("+00:00", "Z")


def epoch_of(text: str) -> float:
    """Return the epoch seconds of a task's ISO 8601 time (``createdAt``, ``lastUpdatedAt``)."""
    return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


def new_task_id() -> str:
    """Return an unguessable task id (128 random bits)."""
    return os.urandom(16).hex()


def task_envelope(fields: Mapping[str, str]) -> dict[str, Any]:
    """Return the task's wire fields (``Task``): id, status and times, as stored."""
    task: dict[str, Any] = json.loads(fields["task"])
    asked = [name for name in fields if name.startswith(_ASK)]
    if task["status"] == "working" and asked:
        task["status"] = "input_required"
    changed = fields.get(CHANGED)
    if task["status"] in ("working", "input_required") and changed is not None:
        try:  # a question asked or answered since the status was stored
            if float(changed) > epoch_of(str(task["lastUpdatedAt"])):
                task["lastUpdatedAt"] = _iso(float(changed))
        except (ValueError, OverflowError, OSError):
            pass
    return task


def detailed(fields: Mapping[str, str]) -> dict[str, Any]:
    """Return ``tasks/get``'s answer: the task, with its questions, result or error."""
    task = task_envelope(fields)
    if task["status"] == "input_required":
        task["inputRequests"] = {
            name[len(_ASK) :]: json.loads(value)
            for name, value in fields.items()
            if name.startswith(_ASK)
        }
    elif task["status"] == "completed" and "result" in fields:
        task["result"] = json.loads(fields["result"])
    elif task["status"] == "failed" and "error" in fields:
        task["error"] = json.loads(fields["error"])
    return task


def is_terminal(fields: Mapping[str, str]) -> bool:
    """Whether the stored task has ended (completed, failed or cancelled)."""
    return bool(fields) and json.loads(fields["task"])["status"] in _TERMINAL


def task_fields(
    task_id: str,
    status: str,
    created: float,
    ttl: float,
    poll: float,
    message: str | None = None,
) -> dict[str, str]:
    """Return the stored ``task`` field of a task in ``status`` now."""
    task: dict[str, Any] = {
        "taskId": task_id,
        "status": status,
        "createdAt": _iso(created),
        "lastUpdatedAt": _iso(time.time()),
        "ttlMs": int(ttl * 1000),
        "pollIntervalMs": max(int(poll * 1000), 1),
    }
    if message is not None:
        task["statusMessage"] = truncate_text(message, _MAX_MESSAGE)
    return {"task": json.dumps(task, separators=(",", ":"))}


def ask_field(key: str) -> str:
    """Return the field holding the question asked under ``key``."""
    return _ASK + key


def answer_field(key: str) -> str:
    """Return the field holding the answer to the question asked under ``key``."""
    return _ANSWER + key


def asked_keys(fields: Mapping[str, str]) -> list[str]:
    """Return the keys of the questions the task waits for."""
    return [name[len(_ASK) :] for name in fields if name.startswith(_ASK)]


class TaskLink:
    """A task running in this process: its questions, heartbeat and cancellation.

    The call's questions (``ToolContext.elicit``...) wait here for ``tasks/update``
    to bring their answers, through the store, whichever process took the update.
    """

    __slots__ = ("created", "expires", "lease", "poll", "store", "task_id", "ttl", "waiting")

    def __init__(self, store: TaskStore, *, ttl: float, poll: float, lease: float) -> None:
        self.store = store
        self.task_id = new_task_id()
        self.created = time.time()
        self.ttl = ttl
        self.expires = self.created + ttl
        self.poll = poll
        self.lease = lease
        self.waiting: dict[str, asyncio.Future[Any]] = {}

    def fields(self, status: str, message: str | None = None) -> dict[str, str]:
        """Return the stored ``task`` field for ``status`` now, and a heartbeat."""
        made = task_fields(self.task_id, status, self.created, self.ttl, self.poll, message)
        made["beat"] = repr(time.time())
        return made

    async def ask(self, key: str, request: Mapping[str, Any]) -> Any:
        """Post a question (the task turns ``input_required``) and wait for its answer."""
        answer: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.waiting[key] = answer
        text = json.dumps(request, separators=(",", ":"), ensure_ascii=True)
        try:
            asked = {ask_field(key): text, CHANGED: repr(time.time())}
            await self.store.set(self.task_id, asked, self.expires)
            return await answer
        finally:
            self.waiting.pop(key, None)

    async def follow(self, run: asyncio.Future[Any], finish: Callable[[], Any]) -> None:
        """Beat, deliver answers and obey ``tasks/cancel`` until ``run`` ends; then record it.

        ``finish()`` returns the fields recording how the call ended (``finished``).
        """
        while not run.done():
            await asyncio.wait({run}, timeout=self.poll)
            if run.done():
                break
            try:
                await self.store.set(self.task_id, {"beat": repr(time.time())}, self.expires)
                found = await self.store.get(self.task_id)
            except TaskStoreError:
                continue  # the store is down for now: the call goes on, the next beat retries
            if "cancel" in found:
                run.cancel()
                continue
            answered: list[str] = []
            for key, waiting in list(self.waiting.items()):
                raw = found.get(answer_field(key))
                if raw is not None and not waiting.done():
                    waiting.set_result(json.loads(raw))
                    answered.append(answer_field(key))
            if answered:
                # Answers left behind are ignored: no question waits for them.
                with contextlib.suppress(TaskStoreError):
                    await self.store.delete(self.task_id, answered)
        ending = finish()
        for attempt in range(5):  # a store that is down now may be back in a moment
            try:
                await self.store.set(self.task_id, ending, self.expires)
                return
            except TaskStoreError:
                await asyncio.sleep(self.poll * 2**attempt)


def stale(fields: Mapping[str, str], lease: float) -> bool:
    """Whether a running task's process stopped beating for longer than ``lease`` seconds."""
    beat = fields.get("beat")
    try:
        last = float(beat) if beat is not None else 0.0
    except ValueError:
        last = 0.0
    return not is_terminal(fields) and time.time() - last > lease
