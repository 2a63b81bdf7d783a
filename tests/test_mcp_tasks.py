"""Tasks (the MCP extension ``io.modelcontextprotocol/tasks``), on the wire of protocol 2026-07-28.

A real server process (``tests/task_tools.py``) on 127.0.0.1, sent raw JSON-RPC as any
client may write it; the official conformance suite runs the extension's scenarios in
``tests_integration/mcp_conformance``.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import anyio
import pytest
from mcp import Client

from standard_tool import Elicitation, Toolkit, use_caller
from standard_tool.mcp import (
    MemoryTaskStore,
    RedisTaskStore,
    TaskOptions,
    TaskStoreError,
    import_tools,
    relay_callbacks,
    server,
    task_extension,
)
from tests.task_tools import SUPPORT, TOOLS
from tests.test_mcp_serve import ENV, _free_port, _process

PROTOCOL = "2026-07-28"
TASKS = "io.modelcontextprotocol/tasks"
WITH_TASKS = {"elicitation": {}, "extensions": {TASKS: {}}}


def _rpc(
    port: int,
    method: str,
    params: dict[str, Any],
    capabilities: dict[str, Any] | None = None,
    name: str | None = None,
) -> dict[str, Any]:
    """Send one request of protocol 2026-07-28; return the JSON-RPC answer."""
    import httpx

    meta = {
        "io.modelcontextprotocol/protocolVersion": PROTOCOL,
        "io.modelcontextprotocol/clientCapabilities": WITH_TASKS
        if capabilities is None
        else capabilities,
    }
    headers = {
        "Accept": "application/json, text/event-stream",
        "MCP-Protocol-Version": PROTOCOL,
        "Mcp-Method": method,
    }
    named = name or params.get("name") or params.get("taskId")
    if named is not None:
        headers["Mcp-Name"] = str(named)
    body = {"jsonrpc": "2.0", "id": 1, "method": method, "params": {**params, "_meta": meta}}
    answer = httpx.post(f"http://127.0.0.1:{port}/mcp", json=body, headers=headers, timeout=30)
    reply: dict[str, Any] = answer.json()
    return reply


def _call(port: int, tool: str, arguments: dict[str, Any], **options: Any) -> dict[str, Any]:
    return _rpc(port, "tools/call", {"name": tool, "arguments": arguments}, **options)


def _until(port: int, task_id: str, *statuses: str) -> dict[str, Any]:
    """Poll ``tasks/get`` until the task reaches one of ``statuses`` (at most 30 s)."""
    deadline = time.monotonic() + 30
    while True:
        task = _rpc(port, "tasks/get", {"taskId": task_id})["result"]
        if task["status"] in statuses or time.monotonic() > deadline:
            return task
        time.sleep(0.05)


def _acknowledged(result: dict[str, Any]) -> bool:
    """An empty acknowledgement: ``resultType`` and the server's ``_meta``, nothing of a task."""
    return {key for key in result if key != "_meta"} == {"resultType"} and result[
        "resultType"
    ] == "complete"


@contextmanager
def _task_server(store: str = "memory", events: bool = False) -> Iterator[int]:
    port = _free_port()
    args = [sys.executable, "-m", "uvicorn", "--factory", "task_tools:make_app"]
    env = {**ENV, "TASK_STORE_URL": store, **({"TASK_EVENTS": "1"} if events else {})}
    with _process([*args, "--port", str(port)], port, env=env):
        yield port


@pytest.fixture(scope="module")
def port() -> Iterator[int]:
    with _task_server() as served:
        yield served


def test_a_quick_call_is_answered_at_once(port: int) -> None:
    answer = _call(port, "sleepy", {"seconds": 0})["result"]
    assert answer["resultType"] == "complete"
    assert answer["content"][0]["text"] == "slept 0 s"


@pytest.mark.parametrize("tool", ["sleepy", "sleepy_sync"])
def test_a_slow_call_becomes_a_task_and_its_result_waits_on_tasks_get(port: int, tool: str) -> None:
    created = _call(port, tool, {"seconds": 0.6})["result"]
    assert created["resultType"] == "task"
    assert created["status"] == "working"
    assert len(created["taskId"]) == 32
    assert isinstance(created["ttlMs"], int)
    assert created["ttlMs"] == 60_000
    assert isinstance(created["pollIntervalMs"], int)
    assert created["createdAt"].endswith("Z")
    assert "requestState" not in created
    assert "task" not in created
    working = _rpc(port, "tasks/get", {"taskId": created["taskId"]})["result"]
    assert working["status"] == "working"
    assert "result" not in working
    done = _until(port, created["taskId"], "completed")
    assert done["status"] == "completed"
    assert done["result"]["content"][0]["text"].startswith("slept 0.6 s")
    assert done["resultType"] == "complete"


def test_a_question_on_a_task_waits_for_tasks_update(port: int) -> None:
    task_id = _call(port, "ask_later", {})["result"]["taskId"]
    waiting = _until(port, task_id, "input_required")
    assert waiting["status"] == "input_required"
    [(key, request)] = waiting["inputRequests"].items()
    assert request["method"] == "elicitation/create"
    assert request["params"]["message"] == "Name?"
    wrong_kind = _rpc(
        port, "tasks/update", {"taskId": task_id, "inputResponses": {key: {"roots": []}}}
    )
    assert wrong_kind["error"]["code"] == -32602
    ignored = {"unasked": {"action": "accept", "content": {}}}
    ack = _rpc(port, "tasks/update", {"taskId": task_id, "inputResponses": ignored})["result"]
    assert _acknowledged(ack)
    assert _rpc(port, "tasks/get", {"taskId": task_id})["result"]["status"] == "input_required"
    answer = {key: {"action": "accept", "content": {"name": "Ada"}}}
    ack = _rpc(port, "tasks/update", {"taskId": task_id, "inputResponses": answer})["result"]
    assert _acknowledged(ack)
    done = _until(port, task_id, "completed")
    assert done["result"]["content"][0]["text"] == "Hello, Ada!"


def test_a_tool_error_completes_the_task_with_is_error(port: int) -> None:
    task_id = _call(port, "broken", {})["result"]["taskId"]
    done = _until(port, task_id, "completed", "failed")
    assert done["status"] == "completed"
    assert done["result"]["isError"] is True
    assert "no luck" in done["result"]["content"][0]["text"]
    assert "error" not in done


def test_a_required_task_needs_the_extension(port: int) -> None:
    refused = _call(port, "broken", {}, capabilities={})
    assert refused["error"]["code"] == -32021
    assert refused["error"]["data"] == {"requiredCapabilities": {"extensions": {TASKS: {}}}}
    # An optional one runs as any call for such a client, however long it takes.
    plain = _call(port, "sleepy", {"seconds": 0.4}, capabilities={})["result"]
    assert plain["resultType"] == "complete"


def test_a_task_is_cancelled_and_cancelling_again_is_acknowledged(port: int) -> None:
    for tool in ("sleepy", "sleepy_sync"):
        task_id = _call(port, tool, {"seconds": 30})["result"]["taskId"]
        ack = _rpc(port, "tasks/cancel", {"taskId": task_id})["result"]
        assert _acknowledged(ack)
        ended = _until(port, task_id, "cancelled", "completed", "failed")
        assert ended["status"] == "cancelled", tool
        again = _rpc(port, "tasks/cancel", {"taskId": task_id})
        assert _acknowledged(again["result"])


def test_task_requests_are_refused_clearly(port: int) -> None:
    task_id = _call(port, "sleepy", {"seconds": 0.5})["result"]["taskId"]
    undeclared = _rpc(port, "tasks/get", {"taskId": task_id}, capabilities={})
    assert undeclared["error"]["code"] == -32021
    unknown = _rpc(port, "tasks/get", {"taskId": "f" * 32})
    assert unknown["error"]["code"] == -32602
    assert "unknown task" in unknown["error"]["message"]
    for method in ("tasks/cancel", "tasks/update"):
        params: dict[str, Any] = {"taskId": "nope" * 100, "inputResponses": {}}
        refused = _rpc(port, method, params)
        assert refused["error"]["code"] == -32602
        assert len(refused["error"]["message"]) < 400
    mismatch = _rpc(port, "tasks/get", {"taskId": task_id}, name="another-task")
    assert mismatch["error"]["code"] == -32020
    for removed in ("tasks/result", "tasks/list"):
        assert _rpc(port, removed, {"taskId": task_id})["error"]["code"] == -32601


def test_a_store_that_is_down_refuses_the_task_without_hanging() -> None:
    closed = _free_port()  # nothing listens there
    with _task_server(f"redis://127.0.0.1:{closed}/0") as port:
        quick = _call(port, "sleepy", {"seconds": 0})["result"]
        refused = _call(port, "sleepy", {"seconds": 5})
    assert quick["content"][0]["text"] == "slept 0 s"  # no task, no store needed
    assert refused["error"]["code"] == -32603
    assert refused["error"]["message"].startswith("the Redis task store failed")


def test_task_options_refuse_what_cannot_work() -> None:
    with pytest.raises(ValueError, match="'maybe' is not 'optional' or 'required'"):
        TaskOptions({"sleepy": "maybe"})  # type: ignore[dict-item]
    with pytest.raises(ValueError, match="poll must be a positive number of seconds"):
        TaskOptions({"sleepy": "optional"}, poll=0)
    with pytest.raises(ValueError, match="ttl must be a number of seconds"):
        TaskOptions({"sleepy": "optional"}, ttl="long")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="tasks: no tool 'nope'"):
        server(TOOLS, tasks={"nope": "optional"})


async def test_the_memory_store_forgets_expired_tasks_and_keeps_to_its_bound() -> None:
    store = MemoryTaskStore(max_tasks=2)
    await store.set("a", {"task": "{}"}, time.time() + 60)
    await store.set("b", {"task": "{}"}, time.time() - 1)  # expired at once
    assert await store.get("b") == {}
    await store.set("c", {"task": "{}"}, time.time() + 60)  # b made room
    with pytest.raises(TaskStoreError, match="holds 2 tasks already"):
        await store.set("d", {"task": "{}"}, time.time() + 60)
    await store.delete("a", ["task"])
    assert await store.get("a") == {}


async def test_the_redis_store_reports_a_refused_connection_in_its_own_words() -> None:
    store = RedisTaskStore(f"redis://127.0.0.1:{_free_port()}/0", timeout=1.0)
    with pytest.raises(TaskStoreError, match=r"the Redis task store failed \(get\)"):
        await store.get("x")
    await store.aclose()


# -- the client side: imported tools and mcp.Client follow a task to its end --------------


async def _ask_user(message: str, schema: dict[str, Any]) -> Elicitation:
    return Elicitation("accept", {"name": "Ada"})


async def test_an_imported_tool_follows_its_task_and_answers_its_questions() -> None:
    store = MemoryTaskStore()
    options = TaskOptions(SUPPORT, store=store, after=0.2, poll=0.05)  # type: ignore[arg-type]
    relay = relay_callbacks()
    upstream = server(TOOLS, tasks=options)
    with anyio.fail_after(60):
        async with Client(upstream, extensions=[task_extension()], **relay) as client:
            kit = Toolkit(await import_tools(client.session, relay=relay))
            with use_caller(elicit=_ask_user):
                slept = await kit.aexecute("sleepy", {"seconds": 0.5})
                greeted = await kit.aexecute("ask_later", {})
                broke = await kit.aexecute("broken", {})
                late = await kit.aexecute("sleepy", {"seconds": 30}, timeout=0.6)
            direct = await client.call_tool("sleepy", {"seconds": 0.4})
            # The call that gave up cancelled its task on the server.
            for _ in range(200):
                ended = [
                    json.loads(fields["task"])["status"]
                    for fields in [await store.get(task_id) for task_id in store]
                    if "cancel" in fields
                ]
                if ended == ["cancelled"]:
                    break
                await anyio.sleep(0.05)
    assert slept.value == {"result": "slept 0.5 s"}
    assert greeted.value == {"result": "Hello, Ada!"}
    assert broke.success is False
    assert broke.error is not None
    assert "no luck" in broke.error
    assert late.success is False
    assert late.error is not None
    assert "timed out" in late.error
    assert ended == ["cancelled"]
    assert direct.content[0].text == "slept 0.4 s"  # type: ignore[union-attr]


async def test_a_store_that_never_answers_fails_within_its_timeout() -> None:
    """A Redis that accepts the connection and says nothing: a clear error, not a hang."""
    import socket

    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)  # connections wait in the backlog; nothing ever answers
        url = f"redis://127.0.0.1:{silent.getsockname()[1]}/0"
        store = RedisTaskStore(url, timeout=0.5)
        with anyio.fail_after(10), pytest.raises(TaskStoreError, match="did not answer within"):
            await store.set("x", {"task": "{}"}, time.time() + 60)
        await store.aclose()


@contextmanager
def _listen(
    port: int, notifications: dict[str, Any], capabilities: dict[str, Any] | None = None
) -> Iterator[Iterator[dict[str, Any]]]:
    """Open ``subscriptions/listen`` (id ``"watch"``); yield its frames as they arrive."""
    import httpx

    meta = {
        "io.modelcontextprotocol/protocolVersion": PROTOCOL,
        "io.modelcontextprotocol/clientCapabilities": WITH_TASKS
        if capabilities is None
        else capabilities,
    }
    body = {
        "jsonrpc": "2.0",
        "id": "watch",
        "method": "subscriptions/listen",
        "params": {"notifications": notifications, "_meta": meta},
    }
    headers = {
        "Accept": "application/json, text/event-stream",
        "MCP-Protocol-Version": PROTOCOL,
        "Mcp-Method": "subscriptions/listen",
    }
    url = f"http://127.0.0.1:{port}/mcp"
    with (
        httpx.Client(timeout=30) as client,
        client.stream("POST", url, json=body, headers=headers) as answer,
    ):

        def frames() -> Iterator[dict[str, Any]]:
            if answer.headers["content-type"].startswith("application/json"):
                yield json.loads(answer.read())
                return
            for line in answer.iter_lines():
                if line.startswith("data:") and line[5:].strip():
                    yield json.loads(line[5:])

        yield frames()


@pytest.fixture(scope="module")
def events_port() -> Iterator[int]:
    with _task_server(events=True) as served:
        yield served


def test_a_listening_client_is_told_each_change_of_its_tasks(events_port: int) -> None:
    """``notifications/tasks`` on ``subscriptions/listen``: each status once, as tasks/get says."""
    asked = _call(events_port, "ask_later", {})["result"]
    assert asked["resultType"] == "task"
    task_id = asked["taskId"]
    with _listen(events_port, {"taskIds": [task_id, "no-such-task"]}) as frames:
        ack = next(frames)
        assert ack["method"] == "notifications/subscriptions/acknowledged"
        assert ack["params"]["notifications"] == {"taskIds": [task_id, "no-such-task"]}
        assert ack["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"] == "watch"
        statuses: list[str] = []
        told_all: list[dict[str, Any]] = []
        for frame in frames:
            assert frame["method"] == "notifications/tasks", frame
            told = frame["params"]
            told_all.append(told)
            assert told["taskId"] == task_id  # the unknown id never fires
            assert told["_meta"]["io.modelcontextprotocol/subscriptionId"] == "watch"
            statuses.append(told["status"])
            if told["status"] == "input_required":
                (key,) = told["inputRequests"]
                assert told["inputRequests"][key]["method"] == "elicitation/create"
                answer = {key: {"action": "accept", "content": {"name": "Ada"}}}
                update = {"taskId": task_id, "inputResponses": answer}
                assert _acknowledged(_rpc(events_port, "tasks/update", update)["result"])
            if told["status"] == "completed":
                assert told["result"]["content"][0]["text"] == "Hello, Ada!"
                break
    # Each change once, in order: the answered question brings the task back to
    # working, unless it completed before the store was read again.
    assert statuses[:2] == ["working", "input_required"], statuses
    assert statuses[2:] in (["working", "completed"], ["completed"]), statuses
    times = [told["lastUpdatedAt"] for told in told_all]
    assert times == sorted(times)
    assert len(set(times)) == len(times), "each change has its own lastUpdatedAt"


@pytest.mark.parametrize(
    ("task_ids", "expected"),
    [
        ("one", "notifications.taskIds must be a list of task ids"),
        (["fine", 5], "notifications.taskIds[1]: expected a task id"),
        (["x" * 201], "notifications.taskIds[0]: expected a task id"),
        ([""], "notifications.taskIds[0]: expected a task id"),
        ([f"t{n}" for n in range(101)], "names 101 tasks; one stream watches at most 100"),
    ],
)
def test_a_bad_list_of_task_ids_is_refused_naming_it(
    events_port: int, task_ids: object, expected: str
) -> None:
    with _listen(events_port, {"taskIds": task_ids}) as frames:
        refused = next(frames)
    assert refused["error"]["code"] == -32602, refused
    assert expected in refused["error"]["message"]
    assert len(refused["error"]["message"]) < 300


def test_task_ids_from_a_client_without_the_extension_are_not_honored(events_port: int) -> None:
    task_id = _call(events_port, "sleepy", {"seconds": 0.5})["result"]["taskId"]
    plain = {"elicitation": {}}
    with _listen(events_port, {"taskIds": [task_id]}, capabilities=plain) as frames:
        ack = next(frames)
    assert ack["method"] == "notifications/subscriptions/acknowledged"
    assert ack["params"]["notifications"] == {}
