"""One served toolkit as three processes behind HAProxy, with no session affinity.

The processes serve the conformance suite's tools (``conformance_servers:ours``,
stateless, protocol 2026-07-28) and share one ``STANDARD_TOOL_STATE_KEYS``; HAProxy
sends each request to the next process (round robin) and names it in ``X-Served-By``.
"""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path
from typing import Any

import httpx
from scale import deployment, redis_server  # type: ignore[import-not-found]

HERE = Path(__file__).parent
SRC = HERE.parent.parent / "src"
CONFORMANCE = HERE.parent / "mcp_conformance"
OURS = "conformance_servers:ours"
#: Stateless, one JSON body per answer.
STATELESS = {"CONFORMANCE_STATELESS": "1", "CONFORMANCE_JSON": "1"}
PROTOCOL = "2026-07-28"
DECLARED = {"elicitation": {}, "sampling": {}, "roots": {}}


def _call(name: str, call_id: int = 1, **params: Any) -> tuple[dict[str, Any], dict[str, str]]:
    """A raw ``tools/call`` of protocol 2026-07-28: its body and headers."""
    meta = {
        "io.modelcontextprotocol/protocolVersion": PROTOCOL,
        "io.modelcontextprotocol/clientCapabilities": DECLARED,
    }
    body = {
        "jsonrpc": "2.0",
        "id": call_id,
        "method": "tools/call",
        "params": {"name": name, "arguments": {}, "_meta": meta, **params},
    }
    headers = {
        "Accept": "application/json, text/event-stream",
        "MCP-Protocol-Version": PROTOCOL,
        "Mcp-Method": "tools/call",
        "Mcp-Name": name,
    }
    return body, headers


def test_a_multi_round_call_completes_with_each_round_on_another_process() -> None:
    rounds: list[str] = []
    with (
        deployment(OURS, 3, pythonpath=[SRC, CONFORMANCE], env=STATELESS) as served,
        httpx.Client(timeout=30) as client,
    ):
        params: dict[str, Any] = {}
        answers = [
            {"action": "accept", "content": {"name": "Ada"}},
            {"action": "accept", "content": {"color": "teal"}},
        ]
        for answer in [*answers, None]:
            body, headers = _call("test_input_required_result_multi_round", **params)
            reply = client.post(served.url, json=body, headers=headers)
            assert reply.status_code == 200, reply.text[:500]
            rounds.append(reply.headers["X-Served-By"])
            result = reply.json()["result"]
            if answer is None:
                break
            assert result["resultType"] == "input_required", result
            (key,) = result["inputRequests"]
            params = {"inputResponses": {key: answer}, "requestState": result["requestState"]}
    assert result["resultType"] == "complete"
    assert result["content"][0]["text"] == "Ada likes teal."
    assert sorted(rounds) == ["p0", "p1", "p2"], rounds


def test_calls_after_one_process_stops_are_answered_by_the_others() -> None:
    """SIGTERM one of three processes while eight clients keep calling.

    HAProxy's health check takes the stopped process out; calls started after it
    is out of the rotation all succeed, on the two others. Calls in flight when the
    signal arrives are counted, not judged: uvicorn finishes most of them, HAProxy
    sends a refused connection again to another process, but a request already on a
    connection the stopping process closes can end without an answer.
    """
    during: list[tuple[int, str]] = []
    after: list[tuple[int, str]] = []

    async def run(url: str, stop: Any) -> None:
        async with httpx.AsyncClient(timeout=30) as client:
            done = asyncio.Event()

            async def caller(into: list[tuple[int, str]], count: int | None) -> None:
                made = 0
                while (count is None and not done.is_set()) or (count is not None and made < count):
                    body, headers = _call("test_simple_text", made)
                    made += 1
                    try:
                        reply = await client.post(url, json=body, headers=headers)
                    except httpx.TransportError as err:
                        if count is not None:  # after the stop, every call must be answered
                            raise
                        into.append((0, type(err).__name__))  # during it, counted
                        continue
                    into.append((reply.status_code, reply.headers.get("X-Served-By", "")))

            callers = [asyncio.create_task(caller(during, None)) for _ in range(8)]
            await asyncio.sleep(0.3)
            await asyncio.to_thread(stop)
            done.set()
            await asyncio.gather(*callers)
            await asyncio.gather(*(caller(after, 10) for _ in range(8)))

    with deployment(OURS, 3, pythonpath=[SRC, CONFORMANCE], env=STATELESS) as served:
        stopped = served.backends[1]

        def stop() -> None:
            # uvicorn finishes its requests, then exits by the signal it caught
            code = stopped.stop()
            assert code in (0, -signal.SIGTERM), f"uvicorn exited with {code} on SIGTERM"
            served.balancer.wait_until(stopped.name, "DOWN")

        asyncio.run(run(served.url, stop))
        states = served.balancer.states()
        processes = [b.process for b in served.backends] + [served.balancer.process]
    print(f"\nduring the stop: {len(during)} calls, {sum(s == 200 for s, _ in during)} answered")
    assert states == {"p0": "UP", "p1": "DOWN", "p2": "UP"}
    assert len(after) == 80
    assert all(status == 200 for status, _ in after), after
    assert {by for _, by in after} == {"p0", "p2"}
    assert all(process.poll() is not None for process in processes), "a process outlived its block"


def test_a_redis_server_answers_on_its_own_port_and_stops_with_its_block() -> None:
    with redis_server() as redis:
        assert redis.ping()
        assert redis.url == f"redis://127.0.0.1:{redis.port}/0"
    assert redis.process.poll() is not None
    assert not redis.ping()
