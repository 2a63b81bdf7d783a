"""Request states and tasks behind bearer authentication, and request states accepted once.

MCP 2026-07-28 says a server SHOULD bind a ``requestState`` to the authenticated
principal, MUST check on every task request that the caller may access the task,
and MUST enforce single use itself where a state must be consumed at most once.
The server here (``guarded_tools.make_app``) runs the SDK's own bearer
authentication in a uvicorn process; the requests are raw protocol 2026-07-28
``tools/call`` and ``tasks/*`` posts, as any client may send them.
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from mcp import Client, types
from mcp.shared.exceptions import MCPError

from standard_tool.mcp import MemoryTaskStore, RequestStateKeys, TaskStoreError, server
from standard_tool.mcp import _rounds as rounds_module
from tests.round_tools import TOOLS
from tests.test_mcp_serve import ENV, _free_port, _process

ROOT = Path(__file__).resolve().parents[1]
PROTOCOL = "2026-07-28"
DECLARED = {"elicitation": {}, "extensions": {"io.modelcontextprotocol/tasks": {}}}
KEYS = "g" * 32
YES = {"action": "accept", "content": {"ok": True}}


def _post(
    port: int, token: str | None, method: str, params: dict[str, Any], name: str | None = None
) -> httpx.Response:
    meta = {
        "io.modelcontextprotocol/protocolVersion": PROTOCOL,
        "io.modelcontextprotocol/clientCapabilities": DECLARED,
    }
    headers = {
        "Accept": "application/json, text/event-stream",
        "MCP-Protocol-Version": PROTOCOL,
        "Mcp-Method": method,
        "Mcp-Name": str(name or params.get("name") or params.get("taskId")),
    }
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    body = {"jsonrpc": "2.0", "id": 1, "method": method, "params": {**params, "_meta": meta}}
    return httpx.post(f"http://127.0.0.1:{port}/mcp", json=body, headers=headers, timeout=30)


def _rpc(port: int, token: str | None, method: str, params: dict[str, Any]) -> dict[str, Any]:
    answer: dict[str, Any] = _post(port, token, method, params).json()
    return answer


def _call(port: int, token: str, name: str, **params: Any) -> dict[str, Any]:
    arguments = params.pop("arguments", {})
    return _rpc(port, token, "tools/call", {"name": name, "arguments": arguments, **params})


@contextmanager
def _guarded(store: str = "memory", count: int = 1, events: bool = False) -> Iterator[list[int]]:
    """``count`` processes of ``guarded_tools:make_app`` sharing the keys and ``store``."""
    env = {
        **ENV,
        "PYTHONPATH": os.pathsep.join([ENV["PYTHONPATH"], str(ROOT)]),
        "STANDARD_TOOL_STATE_KEYS": KEYS,
        "GUARDED_STORE": store,
        **({"GUARDED_EVENTS": "1"} if events else {}),
    }
    ports = [_free_port() for _ in range(count)]
    args = [sys.executable, "-m", "uvicorn", "--factory", "guarded_tools:make_app"]
    with ExitStack() as stack:
        for each in ports:
            stack.enter_context(_process([*args, "--port", str(each)], each, env=env))
        yield ports


@pytest.fixture(scope="module")
def port() -> Iterator[int]:
    with _guarded() as (only,):
        yield only


def test_the_server_refuses_requests_without_a_token(port: int) -> None:
    assert (
        _post(port, None, "tools/call", {"name": "plain", "arguments": {"n": 1}}).status_code == 401
    )
    assert _post(port, "mallory", "tools/call", {"name": "plain"}).status_code == 401
    done = _call(port, "alice", "plain", arguments={"n": 2})
    assert done["result"]["structuredContent"] == {"result": 4}


def test_a_state_is_bound_to_the_principal_it_was_issued_to(port: int) -> None:
    first = _call(port, "alice", "greet")["result"]
    state = first["requestState"]
    ada = {"elicit-1": {"action": "accept", "content": {"name": "Ada"}}}
    for other in ("bob", "service"):  # another user of the same client; another client
        refused = _call(port, other, "greet", inputResponses=ada, requestState=state)
        assert refused["error"]["code"] == -32602
        assert "issued to another principal" in refused["error"]["message"]
    second = _call(port, "alice", "greet", inputResponses=ada, requestState=state)["result"]
    assert second["resultType"] == "input_required"
    assert list(second["inputRequests"]) == ["elicit-2"]


def test_a_task_is_unknown_to_every_other_principal(port: int) -> None:
    task = _call(port, "alice", "sleepy", arguments={"seconds": 30})["result"]
    assert task["resultType"] == "task"
    task_id = task["taskId"]
    for other in ("bob", "service"):
        for method, params in (
            ("tasks/get", {"taskId": task_id}),
            ("tasks/cancel", {"taskId": task_id}),
            ("tasks/update", {"taskId": task_id, "inputResponses": {"elicit-1": YES}}),
        ):
            refused = _rpc(port, other, method, params)
            assert refused["error"]["code"] == -32602, (other, method)
            assert refused["error"]["message"] == f"unknown task {task_id!r}"
    assert _rpc(port, "alice", "tasks/get", {"taskId": task_id})["result"]["status"] == "working"
    _rpc(port, "alice", "tasks/cancel", {"taskId": task_id})
    deadline = time.monotonic() + 30
    while (got := _rpc(port, "alice", "tasks/get", {"taskId": task_id})["result"])[
        "status"
    ] == "working" and time.monotonic() < deadline:
        time.sleep(0.05)
    assert got["status"] == "cancelled"


async def test_a_listener_is_told_only_of_its_own_tasks() -> None:
    """``subscriptions/listen`` drops another principal's task id as it drops an unknown one."""
    import json

    with _guarded(events=True) as (only,):

        def start(token: str) -> str:
            answer = _call(only, token, "sleepy", arguments={"seconds": 0.6})
            task_id: str = answer["result"]["taskId"]
            return task_id

        theirs, mine = start("alice"), start("bob")
        meta = {
            "io.modelcontextprotocol/protocolVersion": PROTOCOL,
            "io.modelcontextprotocol/clientCapabilities": DECLARED,
        }
        params = {"notifications": {"taskIds": [theirs, mine]}, "_meta": meta}
        body = {"jsonrpc": "2.0", "id": "w", "method": "subscriptions/listen", "params": params}
        headers = {
            "Accept": "application/json, text/event-stream",
            "MCP-Protocol-Version": PROTOCOL,
            "Mcp-Method": "subscriptions/listen",
            "Authorization": "Bearer bob",
        }
        told: list[tuple[str, str]] = []
        url = f"http://127.0.0.1:{only}/mcp"
        with anyio.fail_after(20):
            async with (
                httpx.AsyncClient(timeout=30) as client,
                client.stream("POST", url, json=body, headers=headers) as answer,
            ):
                async for line in answer.aiter_lines():
                    if not line.startswith("data:") or not line[5:].strip():
                        continue
                    frame = json.loads(line[5:])
                    if frame["method"] == "notifications/tasks":
                        told.append((frame["params"]["taskId"], frame["params"]["status"]))
                        if frame["params"]["status"] == "completed":
                            break
    assert told[-1] == (mine, "completed")
    assert {task_id for task_id, _ in told} == {mine}


def _redeem_rounds(port: int, token: str, voucher: str) -> str:
    """Ask to redeem; return the state that confirms it (the last round's)."""
    first = _call(port, token, "redeem", arguments={"voucher": voucher})["result"]
    assert first["resultType"] == "input_required"
    state: str = first["requestState"]
    return state


def test_a_state_is_accepted_once(port: int) -> None:
    state = _redeem_rounds(port, "alice", "V-1")
    confirm = {"inputResponses": {"elicit-1": YES}, "requestState": state}
    done = _call(port, "alice", "redeem", arguments={"voucher": "V-1"}, **confirm)
    assert done["result"]["content"][0]["text"].startswith("redeemed V-1")
    again = _call(port, "alice", "redeem", arguments={"voucher": "V-1"}, **confirm)
    assert again["error"]["code"] == -32602
    assert "it was used already" in again["error"]["message"]
    # A round that asks again is a new state: still usable once.
    first = _call(port, "alice", "greet")["result"]
    second = _call(port, "alice", "greet", requestState=first["requestState"])["result"]
    assert second["resultType"] == "input_required"
    replayed = _call(port, "alice", "greet", requestState=first["requestState"])
    assert "it was used already" in replayed["error"]["message"]
    third = _call(port, "alice", "greet", requestState=second["requestState"])["result"]
    assert third["resultType"] == "input_required"


def test_a_refused_state_is_not_used_up(port: int) -> None:
    """A state sent back by the wrong principal, or with a malformed answer, stays usable."""
    state = _redeem_rounds(port, "alice", "V-2")
    confirm = {"inputResponses": {"elicit-1": YES}, "requestState": state}
    assert "error" in _call(port, "bob", "redeem", arguments={"voucher": "V-2"}, **confirm)
    bad = {"inputResponses": {"elicit-1": {"action": "maybe"}}, "requestState": state}
    assert "error" in _call(port, "alice", "redeem", arguments={"voucher": "V-2"}, **bad)
    done = _call(port, "alice", "redeem", arguments={"voucher": "V-2"}, **confirm)
    assert done["result"]["content"][0]["text"].startswith("redeemed V-2")


async def test_of_many_concurrent_replays_one_is_accepted(port: int) -> None:
    state = _redeem_rounds(port, "alice", "V-3")
    confirm = {"inputResponses": {"elicit-1": YES}, "requestState": state}
    params = {"name": "redeem", "arguments": {"voucher": "V-3"}, **confirm}

    def send() -> dict[str, Any]:
        return _rpc(port, "alice", "tools/call", params)

    answers = await asyncio.gather(*[asyncio.to_thread(send) for _ in range(16)])
    accepted = [a for a in answers if "result" in a]
    assert len(accepted) == 1
    assert accepted[0]["result"]["content"][0]["text"].startswith("redeemed V-3")
    assert all("it was used already" in a["error"]["message"] for a in answers if "error" in a)


def test_without_a_used_states_store_a_replay_runs_the_round_again() -> None:
    """What single use prevents: the same confirmation redeems twice."""
    with _guarded("none") as (only,):
        state = _redeem_rounds(only, "alice", "V-4")
        confirm = {"inputResponses": {"elicit-1": YES}, "requestState": state}
        texts = [
            _call(only, "alice", "redeem", arguments={"voucher": "V-4"}, **confirm)["result"][
                "content"
            ][0]["text"]
            for _ in range(2)
        ]
    assert texts == [
        "redeemed V-4: redemption 1 of this process",
        "redeemed V-4: redemption 2 of this process",
    ]


def test_a_store_that_is_down_refuses_the_state_without_running_the_tool() -> None:
    closed = _free_port()
    with _guarded(f"redis://127.0.0.1:{closed}/0") as (only,):
        state = _redeem_rounds(only, "alice", "V-5")
        confirm = {"inputResponses": {"elicit-1": YES}, "requestState": state}
        started = time.monotonic()
        refused = _call(only, "alice", "redeem", arguments={"voucher": "V-5"}, **confirm)
        took = time.monotonic() - started
    assert refused["error"]["code"] == -32603
    message = refused["error"]["message"]
    assert message.startswith("requestState could not be checked: the Redis task store failed")
    assert len(message) < 600
    assert took < 20  # bounded by the store's own timeout, far below any hang


# -- in one process: the SDK's client, and stores that misbehave ------------------------


async def _elicit(context: Any, params: Any) -> types.ElicitResult:
    if params.message == "Colour?":
        return types.ElicitResult(action="accept", content={"c": "teal"})
    return types.ElicitResult(action="accept", content={"name": "Ada"})


async def test_the_sdk_client_completes_its_rounds_with_single_use_states() -> None:
    srv = server(TOOLS, used_states=MemoryTaskStore())
    with anyio.fail_after(60):
        async with Client(srv, elicitation_callback=_elicit) as client:
            done = await client.call_tool("greet", {})
            again = await client.call_tool("greet", {})
    assert done.content[0].text == "Ada likes teal"  # type: ignore[union-attr]
    assert again.content[0].text == "Ada likes teal"  # type: ignore[union-attr]


class _Hostile(Exception):
    def __str__(self) -> str:
        raise RuntimeError("no text")


class _Raising:
    async def claim(self, state_id: str, expires_at: float) -> bool:
        raise _Hostile


class _Silent:
    async def claim(self, state_id: str, expires_at: float) -> bool:
        await asyncio.sleep(3600)
        return True


class _Vague:
    async def claim(self, state_id: str, expires_at: float) -> Any:
        return "yes"  # not True: the state is refused, never taken as claimed


async def _second_round(store: Any) -> MCPError:
    with anyio.fail_after(30):
        async with Client(server(TOOLS, used_states=store), elicitation_callback=_elicit) as client:
            first = await client.session.call_tool("greet", {}, allow_input_required=True)
            assert isinstance(first, types.InputRequiredResult)
            with pytest.raises(MCPError) as caught:
                await client.session.call_tool(
                    "greet", {}, allow_input_required=True, request_state=first.request_state
                )
    return caught.value


async def test_a_store_that_raises_or_hangs_refuses_the_state_saying_why(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    raised = await _second_round(_Raising())
    assert raised.error.code == types.INTERNAL_ERROR
    assert raised.error.message == (
        "requestState could not be checked: _Hostile: <_Hostile object: str() failed>"
    )
    monkeypatch.setattr(rounds_module, "CLAIM_TIMEOUT", 0.2)
    silent = await _second_round(_Silent())
    assert (
        silent.error.message
        == "requestState could not be checked: the store did not answer within 0.2 s"
    )
    vague = await _second_round(_Vague())
    assert vague.error.code == types.INVALID_PARAMS
    assert "it was used already" in vague.error.message


async def test_the_memory_store_keeps_used_states_to_their_expiry_and_its_bound() -> None:
    store = MemoryTaskStore(max_tasks=1)
    now = time.time()
    assert await store.claim("a", now + 60)
    assert not await store.claim("a", now + 60)
    assert await store.claim("gone", now - 1)  # already expired: dropped when room is needed
    assert await store.claim("gone", now + 60)  # an expired record is no record
    for n in range(8):
        assert await store.claim(f"s{n}", now + 60)
    with pytest.raises(TaskStoreError, match="holds 10 used request states"):
        await store.claim("one-too-many", now + 60)


def test_keys_bind_a_state_to_its_principal() -> None:
    keys = RequestStateKeys([KEYS])
    alice = '["app",null,"alice"]'
    state = keys.seal({"answers": {}}, bound_to="r", principal=alice)
    assert keys.open(state, bound_to="r", principal=alice) == {"answers": {}}
    for other in (None, '["app",null,"bob"]'):
        with pytest.raises(ValueError, match="issued to another principal"):
            keys.open(state, bound_to="r", principal=other)
    anonymous = keys.seal({}, bound_to="r")
    with pytest.raises(ValueError, match="issued to another principal"):
        keys.open(anonymous, bound_to="r", principal=alice)
    opened = keys.verify(anonymous, bound_to="r")
    assert opened.state_id == anonymous.rsplit(".", 1)[1]
    assert opened.expires_at > time.time()
    assert keys.seal({}, bound_to="r") != keys.seal({}, bound_to="r")
