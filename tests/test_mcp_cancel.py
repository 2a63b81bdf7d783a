"""MCP serving: cancellation reaches the tool, the stdio server stops with its client,
and every request the SDK's stdio parser refuses is answered.

Driven by the official MCP Python client over stdio, and by raw JSON-RPC lines where a
client that goes away or sends what the SDK cannot parse is the point.
"""

from __future__ import annotations

import json
import select
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import anyio
import pytest
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from tests.test_mcp_serve import ENV, TESTS

TARGETS = str(TESTS / "mcp_sync_targets.py")


async def _until_seen(session: ClientSession, what: str) -> None:
    """Ask the server what its tools saw until ``what`` is among it (at most 3,000 times)."""
    for _ in range(3000):
        result = await session.call_tool("seen", {})
        assert result.structured_content is not None
        if what in result.structured_content["result"]:
            return
    raise AssertionError(f"the server never saw {what!r}")


@pytest.mark.parametrize("deadline", [[], ["30"]], ids=["no deadline", "deadline"])
async def test_a_cancelled_request_cancels_the_tool(deadline: list[str]) -> None:
    params = StdioServerParameters(command=sys.executable, args=[TARGETS, *deadline], env=ENV)
    with anyio.fail_after(90):
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            for name in ("hold", "hold_async"):
                async with anyio.create_task_group() as calls:
                    # Cancelling the caller sends notifications/cancelled.
                    calls.start_soon(session.call_tool, name, {})
                    await _until_seen(session, f"{name} started")
                    calls.cancel_scope.cancel()
                await _until_seen(session, f"{name} cancelled")


class _Wire:
    """A stdio server driven with raw JSON-RPC lines."""

    def __init__(self, proc: subprocess.Popen[bytes]) -> None:
        self.proc = proc
        self.others: list[dict[str, Any]] = []

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line.encode() + b"\n")
        self.proc.stdin.flush()

    def request(self, request_id: int | str, method: str, params: dict[str, Any]) -> None:
        self.send(
            json.dumps({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params})
        )

    def answer(self, request_id: int | str) -> dict[str, Any]:
        """The server's answer to ``request_id`` (waiting at most 30 s for it)."""
        assert self.proc.stdout is not None
        deadline = time.monotonic() + 30
        while True:
            ready, _, _ = select.select([self.proc.stdout], [], [], deadline - time.monotonic())
            assert ready, f"no answer to request {request_id!r}"
            line = self.proc.stdout.readline()
            assert line, "the server closed its output"
            message: dict[str, Any] = json.loads(line)
            if message.get("id") == request_id:
                return message
            self.others.append(message)

    def initialize(self) -> None:
        self.request(
            0,
            "initialize",
            {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "raw", "version": "0"},
            },
        )
        assert "result" in self.answer(0)
        self.send('{"jsonrpc": "2.0", "method": "notifications/initialized"}')


@contextmanager
def _raw_server() -> Iterator[_Wire]:
    proc = subprocess.Popen(
        [sys.executable, TARGETS],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=ENV,
    )
    try:
        wire = _Wire(proc)
        wire.initialize()
        yield wire
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(30)
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()


def test_the_stdio_server_stops_when_its_client_goes_during_a_stuck_sync_call() -> None:
    with _raw_server() as wire:
        wire.request(1, "tools/call", {"name": "stubborn", "arguments": {}})
        for request_id in range(2, 3000):
            wire.request(request_id, "tools/call", {"name": "seen", "arguments": {}})
            if "stubborn started" in json.dumps(wire.answer(request_id)):
                break
            time.sleep(0.01)
        assert wire.proc.stdin is not None
        wire.proc.stdin.close()  # the client is gone; the call sleeps for ten minutes
        assert wire.proc.wait(30) == 0
        assert wire.proc.stderr is not None
        assert b"1 cancelled call(s) still running; exiting" in wire.proc.stderr.read()


def test_requests_read_before_the_input_ends_are_answered() -> None:
    # A client that writes its requests and closes the pipe at once (a shell pipeline).
    with _raw_server() as wire:
        wire.request(1, "tools/list", {})
        wire.request(2, "tools/call", {"name": "sleepy", "arguments": {"seconds": 0.3}})
        wire.request("three", "tools/call", {"name": "seen", "arguments": {}})
        # Cancelled by the client: never answered, and the end does not wait for it.
        wire.request(4, "tools/call", {"name": "hold_async", "arguments": {}})
        wire.send(
            '{"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 4}}'
        )
        assert wire.proc.stdin is not None
        wire.proc.stdin.close()
        assert wire.proc.wait(30) == 0
        assert wire.proc.stdout is not None
        answers = {m.get("id"): m for m in map(json.loads, wire.proc.stdout.read().splitlines())}
        assert len(answers[1]["result"]["tools"]) > 3
        assert answers[2]["result"]["structuredContent"] == {"result": "slept"}
        assert "result" in answers["three"]
        assert 4 not in answers


def test_requests_the_sdk_cannot_parse_are_answered_with_a_json_rpc_error() -> None:
    def call(request_id: int, params: str) -> str:
        return (
            f'{{"jsonrpc": "2.0", "id": {request_id}, "method": "tools/call", "params": {params}}}'
        )

    nested = '{"a": ' * 5000 + "1" + "}" * 5000
    with _raw_server() as wire:
        wire.send(call(1, '{"name": "seen", "arguments": {"x": "\\ud800"}}'))
        assert wire.answer(1)["error"]["code"] == -32700
        wire.send(call(2, f'{{"name": "seen", "arguments": {nested}}}'))
        assert wire.answer(2)["error"]["code"] == -32700
        # The id after the parameters, a method named "id", an id that is a string.
        late = f'{{"jsonrpc": "2.0", "method": "id", "params": {nested}, "id": "late"}}'
        wire.send(late)
        assert wire.answer("late")["error"]["code"] == -32700
        wire.send(call(3, '{"name": "seen", "arguments": {'))  # cut short
        assert wire.answer(3)["error"]["code"] == -32700
        wire.send('{"jsonrpc": "2.0", "id": 4, "method": 7}')  # JSON, not a request
        assert wire.answer(4)["error"]["code"] == -32600
        # Nothing to answer: a notification, a response, no id at all.
        wire.send('{"jsonrpc": "2.0", "method": "notifications/x", "params": {"x": "\\ud800"}}')
        wire.send('{"jsonrpc": "2.0", "id": 5, "result": {"x": "\\ud800"}}')
        wire.send("not json")
        # The session goes on.
        wire.request(6, "tools/call", {"name": "seen", "arguments": {}})
        answer = wire.answer(6)
        assert answer["result"]["structuredContent"] == {"result": []}
        assert wire.others == []


async def test_the_end_of_input_waits_for_the_answers_it_is_owed_and_no_longer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from mcp.shared.message import SessionMessage
    from mcp.types import JSONRPCNotification, JSONRPCRequest, JSONRPCResponse

    from standard_tool.mcp import _server

    monkeypatch.setattr(_server, "SHUTDOWN_GRACE", 3600.0)  # only the answers can end the wait
    into, read = anyio.create_memory_object_stream[Any](10)
    write, out = anyio.create_memory_object_stream[Any](10)
    reads = _server._AnswerRefused(read, write)  # pyright: ignore[reportPrivateUsage]
    answers = _server._Answers(write, reads)  # pyright: ignore[reportPrivateUsage]
    for request_id in (7, "7", 8):
        await into.send(SessionMessage(JSONRPCRequest(jsonrpc="2.0", id=request_id, method="x")))
    cancelled = {"requestId": 8}
    await into.send(
        SessionMessage(
            JSONRPCNotification(jsonrpc="2.0", method="notifications/cancelled", params=cancelled)
        )
    )
    await into.aclose()
    for _ in range(4):
        await reads.receive()

    async def answer() -> None:
        for request_id in (7, "7"):
            await anyio.sleep(0.05)
            await answers.send(
                SessionMessage(JSONRPCResponse(jsonrpc="2.0", id=request_id, result={}))
            )

    async with read, write, out:
        with anyio.fail_after(30):
            async with anyio.create_task_group() as group:
                group.start_soon(answer)
                with pytest.raises(anyio.EndOfStream):
                    await reads.receive()
        assert [m.message.id for m in (out.receive_nowait(), out.receive_nowait())] == [7, "7"]
