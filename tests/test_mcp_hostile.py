"""Whatever a tool puts in what a client receives, the server answers and stays up.

Issue 35: a lone surrogate anywhere but a result's text killed a stdio server (the
writer failed) and lost the call over HTTP. The MCP server runs as a real process,
over stdio (with the handshake, and on protocol 2026-07-28's input-required rounds)
and over Streamable HTTP on 127.0.0.1, driven by the official SDK client; hypothesis
draws the text (lone surrogates included) and the field it goes in.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

import anyio
import anyio.from_thread
import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from mcp import Client, StdioServerParameters, types

from tests.mcp_hostile_targets import FIELDS
from tests.test_mcp_serve import ENV, TESTS, _free_port, _process

Session = tuple[anyio.from_thread.BlockingPortal, Any, list[Any]]


async def _elicit(context: Any, params: Any) -> types.ElicitResult:
    return types.ElicitResult(action="accept", content={"name": "Ada"})


async def _sample(context: Any, params: types.CreateMessageRequestParams) -> Any:
    return types.CreateMessageResult(
        role="assistant", content=types.TextContent(type="text", text="ok"), model="test"
    )


@pytest.fixture(scope="module", params=["stdio", "stdio-2026", "http"])
def served(request: pytest.FixtureRequest) -> Iterator[Session]:
    """A client of the hostile server, kept open for every example of a test."""
    logs: list[Any] = []

    async def on_log(params: types.LoggingMessageNotificationParams) -> None:
        logs.append(params)

    options: dict[str, Any] = {
        "elicitation_callback": _elicit,
        "sampling_callback": _sample,
        "logging_callback": on_log,
    }
    script = str(TESTS / "mcp_hostile_targets.py")
    with anyio.from_thread.start_blocking_portal() as portal:
        if request.param == "http":
            port = _free_port()
            with _process([sys.executable, script, "http", str(port), "2"], port):
                client = Client(f"http://127.0.0.1:{port}/mcp", mode="legacy", **options)
                with portal.wrap_async_context_manager(client) as opened:
                    yield portal, opened, logs
            return
        params = StdioServerParameters(command=sys.executable, args=[script, "2"], env=ENV)
        if request.param == "stdio":
            client = Client(params, mode="legacy", **options)
        else:
            client = Client(params, log_level="debug", **options)
        with portal.wrap_async_context_manager(client) as opened:
            yield portal, opened, logs


def _call(session: Session, name: str, arguments: dict[str, Any]) -> Any:
    portal, client, _ = session

    async def call() -> Any:
        with anyio.fail_after(30):  # a lost answer fails the test instead of hanging it
            return await client.call_tool(name, arguments)

    return portal.call(call)


_CODES = st.lists(
    st.one_of(st.integers(0xD800, 0xDFFF), st.integers(0, 0x10FFFF)), min_size=1, max_size=12
)


@given(tool=st.sampled_from(["emit", "emit_sync"]), field=st.sampled_from(FIELDS), codes=_CODES)
@example(tool="emit", field="log_message", codes=[0xD800])
@example(tool="emit_sync", field="error", codes=[0xDFFF, 0x61])
@example(tool="emit", field="structured_key", codes=[0xD83D, 0xDE00])
def test_every_field_a_client_receives_is_sendable(
    served: Session, tool: str, field: str, codes: list[int]
) -> None:
    """Every call is answered, and the server answers the next one."""
    result = _call(served, tool, {"field": field, "codes": codes})
    assert result.is_error is (field == "error")
    if field in ("plain", "text", "error"):
        sent = result.content[0].text
        escaped = "".join(map(chr, codes)).encode("utf-8", "backslashreplace").decode()
        assert escaped in sent
    assert _call(served, "add", {"a": 2, "b": 3}).structured_content == {"result": 5}


@pytest.mark.parametrize("kind", ["bytes", "object", "deep"])
def test_a_log_of_data_that_is_not_json_arrives_as_a_bounded_text(
    served: Session, kind: str
) -> None:
    logs = served[2]
    before = len(logs)
    assert _call(served, "log_odd", {"kind": kind}).is_error is False
    _call(served, "add", {"a": 1, "b": 1})  # the log notification arrives before this answer
    [sent] = logs[before:]
    shown = str(sent.data)
    assert len(shown) < 3_000
    if kind == "bytes":
        assert sent.data == "b'\\xff\\x00raw'"
    elif kind == "object":
        assert sent.data.startswith("<object object at")


@pytest.mark.parametrize("transport", ["stdio", "http"])
async def test_the_server_answers_quick_calls_while_100_hung_calls_sit_in_it(
    transport: str,
) -> None:
    """Issue 35: hung sync calls (ignoring their deadline) never turn later calls into timeouts."""
    script = str(TESTS / "mcp_hostile_targets.py")
    hung: list[Any] = []

    async def run(client: Any) -> None:
        async def one() -> None:
            hung.append(await client.call_tool("hang", {}))

        async with anyio.create_task_group() as group:
            for _ in range(100):
                group.start_soon(one)
            for n in range(20):
                added = await client.call_tool("add", {"a": n, "b": 1})
                assert (added.is_error, added.structured_content) == (False, {"result": n + 1})

    with anyio.fail_after(120):
        if transport == "http":
            port = _free_port()
            with _process([sys.executable, script, "http", str(port), "0.5"], port):
                async with Client(f"http://127.0.0.1:{port}/mcp", mode="legacy") as client:
                    await run(client)
        else:
            params = StdioServerParameters(command=sys.executable, args=[script, "0.5"], env=ENV)
            async with Client(params, mode="legacy") as client:
                await run(client)
    assert len(hung) == 100
    assert all(r.is_error for r in hung)
    assert all("timed out after 0.5 s" in r.content[0].text for r in hung)
