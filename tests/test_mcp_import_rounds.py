"""Imported tools answer their server's ``input_required`` rounds through the call's caller.

The server side is this package's (``tests/round_tools.py``) or the SDK's low-level
``Server``; the sessions are the official SDK client's, in memory. A gateway (imported
tools served again) bridges the protocol generations both ways.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
import pytest
from mcp import Client, types
from mcp.server.lowlevel import Server

from standard_tool import Elicitation, Root, Toolkit, use_caller
from standard_tool.mcp import MCPTool, import_tools, relay_callbacks, server
from tests.round_tools import TOOLS
from tests.test_mcp_rounds import _client

ASKED: list[tuple[str, str | None]] = []


async def _ask_user(message: str, schema: dict[str, Any]) -> Elicitation:
    ASKED.append(("elicit", message))
    if message == "Colour?":
        return Elicitation("accept", {"c": "teal"})
    return Elicitation("accept", {"name": "Ada"})


async def _ask_model(
    prompt: str, *, system: str | None, max_tokens: int, temperature: float | None
) -> str:
    ASKED.append(("sample", prompt))
    return "hello"


async def _list_roots() -> list[Root]:
    ASKED.append(("roots", None))
    return [Root("file:///work", "work")]


@asynccontextmanager
async def _imported(upstream: Any, **options: Any) -> AsyncIterator[list[MCPTool]]:
    """The tools of ``upstream``, imported over a session that declares what a caller answers."""
    relay = relay_callbacks()
    async with Client(upstream, **relay, **options) as client:
        yield await import_tools(client.session, relay=relay)


async def test_an_imported_tool_answers_each_round_through_use_caller() -> None:
    ASKED.clear()
    with anyio.fail_after(60):
        async with _imported(server(TOOLS)) as tools:
            kit = Toolkit(tools)
            with use_caller(elicit=_ask_user, sample=_ask_model, roots=_list_roots):
                greeted = await kit.aexecute("greet", {})
                together = await kit.aexecute("together", {})
                synced = await kit.aexecute("greet_sync", {})
            alone = await kit.aexecute("greet", {})
    assert greeted.value == {"result": "Ada likes teal"}
    assert together.value == {"result": "accept hello ['file:///work']"}
    assert synced.value == {"result": "Ada in ['work']"}
    assert ASKED[:2] == [("elicit", "Name?"), ("elicit", "Colour?")]
    assert alone.success is False
    assert alone.error is not None
    assert "cannot elicit input from the user: nobody offers it" in alone.error


async def test_a_gateway_bridges_every_pair_of_protocol_generations() -> None:
    """New or old client, through a gateway, to a new or an old server: one answer."""
    for upstream_mode in ("auto", "legacy"):
        async with _imported(server(TOOLS), mode=upstream_mode) as imported:
            gateway = server(imported)
            for downstream_mode in ("auto", "legacy"):
                with anyio.fail_after(60):
                    async with _client(gateway, mode=downstream_mode) as client:
                        greeted = await client.call_tool("greet", {})
                        synced = await client.call_tool("greet_sync", {})
                where = f"{downstream_mode} client -> gateway -> {upstream_mode} server"
                assert greeted.structured_content == {"result": "Ada likes teal"}, where
                assert synced.structured_content == {"result": "Ada in ['work']"}, where


async def test_a_gateway_passes_the_servers_question_keys_on() -> None:
    async with _imported(server(TOOLS)) as imported, _client(server(imported)) as client:
        asked = await client.session.call_tool("greet_sync", {}, allow_input_required=True)
    assert isinstance(asked, types.InputRequiredResult)
    assert list(asked.input_requests or {}) == ["who"]


def _asking_server(rounds: list[types.InputRequiredResult]) -> Server[Any]:
    """A low-level SDK server whose tool answers ``rounds`` in turn, then a result."""
    seen: list[Any] = []

    async def on_list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        tool = types.Tool(name="ask", input_schema={"type": "object"})
        return types.ListToolsResult(tools=[tool])

    async def on_call_tool(ctx: Any, params: types.CallToolRequestParams) -> Any:
        seen.append(params.request_state)
        if len(seen) <= len(rounds):
            return rounds[len(seen) - 1]
        text = types.TextContent(type="text", text=f"done after {len(seen)} calls: {seen}")
        return types.CallToolResult(content=[text])

    return Server("asking", on_list_tools=on_list_tools, on_call_tool=on_call_tool)


def _form(message: str) -> types.ElicitRequest:
    schema = {"type": "object", "properties": {"name": {"type": "string"}}}
    params = types.ElicitRequestFormParams(message=message, requested_schema=schema)
    return types.ElicitRequest(params=params)


async def test_state_only_rounds_are_retried_with_the_state_as_it_came() -> None:
    rounds = [
        types.InputRequiredResult(request_state="one"),
        types.InputRequiredResult(input_requests={"q": _form("Name?")}, request_state="two"),
    ]
    with anyio.fail_after(60):
        async with _imported(_asking_server(rounds)) as tools:
            with use_caller(elicit=_ask_user):
                result = await Toolkit(tools).aexecute("ask", {})
    assert result.value == "done after 3 calls: [None, 'one', 'two']"


async def test_a_server_that_keeps_asking_is_given_up_after_ten_rounds() -> None:
    rounds = [
        types.InputRequiredResult(input_requests={f"q{n}": _form("Name?")}) for n in range(11)
    ]
    with anyio.fail_after(60):
        async with _imported(_asking_server(rounds)) as tools:
            with use_caller(elicit=_ask_user):
                result = await Toolkit(tools).aexecute("ask", {})
    assert result.success is False
    assert result.error is not None
    assert "still asked for input after 10 rounds; gave up" in result.error


@pytest.mark.parametrize(
    ("request_", "reason"),
    [
        (
            types.ElicitRequest(
                params=types.ElicitRequestURLParams(
                    message="Log in", url="https://example.invalid/login", elicitation_id="e"
                )
            ),
            "a URL-mode elicitation cannot be relayed",
        ),
        (
            types.CreateMessageRequest(
                params=types.CreateMessageRequestParams(
                    messages=[
                        types.SamplingMessage(
                            role="user", content=types.TextContent(type="text", text=t)
                        )
                        for t in ("a", "b")
                    ],
                    max_tokens=5,
                )
            ),
            "only a sampling request of one user text message",
        ),
    ],
)
async def test_a_question_a_tool_context_cannot_ask_fails_the_call_saying_why(
    request_: Any, reason: str
) -> None:
    rounds = [types.InputRequiredResult(input_requests={"q": request_})]
    with anyio.fail_after(60):
        async with _imported(_asking_server(rounds)) as tools:
            with use_caller(elicit=_ask_user, sample=_ask_model):
                result = await Toolkit(tools).aexecute("ask", {})
    assert result.success is False
    assert result.error is not None
    assert "the server asked for input: " + reason in result.error
