"""Multi-round calls (MCP 2026-07-28): a tool that asks its client answers ``input_required``.

Driven by the official SDK client: its default mode (2026-07-28) resolves the rounds
with its callbacks; ``session.call_tool(..., allow_input_required=True)`` shows each
round as it is, for the tests of the state and the answers a client may send back.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

import anyio
import pytest
from mcp import Client, types
from mcp.shared.exceptions import MCPError

from standard_tool import ToolContext, tool
from standard_tool.mcp import InputRequired, RequestStateError, RequestStateKeys, server
from tests.round_tools import NAME, RUNS, TOOLS
from tests.test_mcp_serve import ENV, _free_port, _process

KEY = b"k" * 32
OTHER_KEY = b"o" * 32


async def _elicit(context: Any, params: Any) -> types.ElicitResult:
    if params.message == "Colour?":
        return types.ElicitResult(action="accept", content={"c": "teal"})
    return types.ElicitResult(action="accept", content={"name": "Ada"})


async def _sample(context: Any, params: types.CreateMessageRequestParams) -> Any:
    text = types.TextContent(type="text", text="hello")
    return types.CreateMessageResult(role="assistant", content=text, model="m")


async def _roots(context: Any) -> types.ListRootsResult:
    return types.ListRootsResult(roots=[types.Root(uri="file:///work", name="work")])


def _client(srv: Any, **options: Any) -> Client:
    callbacks: dict[str, Any] = {
        "elicitation_callback": _elicit,
        "sampling_callback": _sample,
        "list_roots_callback": _roots,
    }
    return Client(srv, **{**callbacks, **options})


async def test_the_default_client_gets_every_answer_through_rounds() -> None:
    RUNS.clear()
    with anyio.fail_after(60):
        async with _client(server(TOOLS)) as client:
            assert client.session.protocol_version == "2026-07-28"
            first = await client.call_tool("greet", {})
            second = await client.call_tool("together", {})
            third = await client.call_tool("greet_sync", {})
    assert first.content[0].text == "Ada likes teal"  # type: ignore[union-attr]
    assert RUNS == ["greet"] * 3  # two questions: the handler ran once per round
    assert second.content[0].text == "accept hello ['file:///work']"  # type: ignore[union-attr]
    assert third.content[0].text == "Ada in ['work']"  # type: ignore[union-attr]


async def test_the_same_handlers_use_requests_to_the_client_before_2026() -> None:
    with anyio.fail_after(60):
        async with _client(server(TOOLS), mode="legacy") as client:
            first = await client.call_tool("greet", {})
            third = await client.call_tool("greet_sync", {})
    assert first.content[0].text == "Ada likes teal"  # type: ignore[union-attr]
    assert third.content[0].text == "Ada in ['work']"  # type: ignore[union-attr]


async def _round(client: Client, name: str, **given: Any) -> Any:
    return await client.session.call_tool(name, {}, allow_input_required=True, **given)


async def test_each_round_asks_what_is_missing_and_carries_the_answers_in_its_state() -> None:
    with anyio.fail_after(60):
        async with _client(server(TOOLS, state_keys=RequestStateKeys([KEY]))) as client:
            one = await _round(client, "greet")
            assert isinstance(one, types.InputRequiredResult)
            assert list(one.input_requests or {}) == ["elicit-1"]
            assert one.request_state is not None
            ada = types.ElicitResult(action="accept", content={"name": "Ada"})
            two = await _round(
                client,
                "greet",
                input_responses={"elicit-1": ada, "unasked": ada},  # extra keys are ignored
                request_state=one.request_state,
            )
            assert isinstance(two, types.InputRequiredResult)
            assert list(two.input_requests or {}) == ["elicit-2"]
            assert two.request_state != one.request_state
            # Nothing answered: the same question again, not an error.
            again = await _round(client, "greet", request_state=two.request_state)
            assert isinstance(again, types.InputRequiredResult)
            assert list(again.input_requests or {}) == ["elicit-2"]
            teal = types.ElicitResult(action="accept", content={"c": "teal"})
            done = await _round(
                client,
                "greet",
                input_responses={"elicit-2": teal},
                request_state=again.request_state,
            )
    assert isinstance(done, types.CallToolResult)
    assert done.content[0].text == "Ada likes teal"  # type: ignore[union-attr]


async def test_questions_asked_together_come_in_one_round() -> None:
    with anyio.fail_after(60):
        async with _client(server(TOOLS)) as client:
            one = await _round(client, "together")
    assert isinstance(one, types.InputRequiredResult)
    methods = {key: request.method for key, request in (one.input_requests or {}).items()}
    assert methods == {
        "elicit-1": "elicitation/create",
        "sample-2": "sampling/createMessage",
        "roots-3": "roots/list",
    }


async def test_a_question_stops_the_handler_through_its_own_except_exception() -> None:
    with anyio.fail_after(60):
        async with _client(server(TOOLS)) as client:
            one = await _round(client, "careless")
            done = await client.call_tool("careless", {})
    assert isinstance(one, types.InputRequiredResult)
    assert done.content[0].text == "got accept"  # type: ignore[union-attr]
    assert issubclass(InputRequired, BaseException)
    assert not issubclass(InputRequired, Exception)


async def _refused(client: Client, name: str, **given: Any) -> MCPError:
    with pytest.raises(MCPError) as caught:
        await _round(client, name, **given)
    return caught.value


async def test_a_changed_forged_or_foreign_state_is_refused() -> None:
    keys = RequestStateKeys([KEY])
    ada = {"elicit-1": types.ElicitResult(action="accept", content={"name": "Ada"})}
    with anyio.fail_after(60):
        async with _client(server(TOOLS, state_keys=keys)) as client:
            one = await _round(client, "greet")
            state = one.request_state
            body, _, signature = state.rpartition(".")
            forged = RequestStateKeys([OTHER_KEY]).seal({"answers": {}}, bound_to="x")
            for bad in (
                state + "x",
                body + "." + signature[::-1],
                body[:-2] + "AA." + signature,
                forged,
                "st1.\u00e9." + signature,
                "not a state",
            ):
                error = await _refused(client, "greet", input_responses=ada, request_state=bad)
                assert error.error.code == types.INVALID_PARAMS
                assert error.error.message.startswith("Invalid or expired requestState")
            # A state made for greet is refused by another tool, and for other arguments.
            moved = await _refused(client, "careless", input_responses=ada, request_state=state)
            assert "made for another request" in moved.error.message
            with pytest.raises(MCPError, match="another request"):
                await client.session.call_tool(
                    "greet", {"x": 1}, allow_input_required=True, request_state=state
                )


async def test_an_expired_state_is_refused_and_a_rotated_key_still_verifies() -> None:
    old = RequestStateKeys([KEY], ttl=0.05)
    with anyio.fail_after(60):
        async with _client(server(TOOLS, state_keys=old)) as client:
            one = await _round(client, "greet")
            await anyio.sleep(0.1)
            error = await _refused(client, "greet", request_state=one.request_state)
    assert "expired" in error.error.message
    with anyio.fail_after(60):
        async with _client(server(TOOLS, state_keys=RequestStateKeys([KEY]))) as client:
            issued = (await _round(client, "greet")).request_state
        rotated = RequestStateKeys([OTHER_KEY, KEY])  # new key first, the old one kept
        async with _client(server(TOOLS, state_keys=rotated)) as client:
            two = await _round(client, "greet", request_state=issued)
        assert isinstance(two, types.InputRequiredResult)
        async with _client(server(TOOLS, state_keys=RequestStateKeys([OTHER_KEY]))) as client:
            error = await _refused(client, "greet", request_state=issued)
    assert "does not verify" in error.error.message


# -- over stateless HTTP, as several processes behind a load balancer see it -------------

PROTOCOL = "2026-07-28"
DECLARED = {"elicitation": {}, "sampling": {}, "roots": {}}


def _post(port: int, name: str, **params: Any) -> dict[str, Any]:
    """Send one raw ``tools/call`` of protocol 2026-07-28, as any client may write it."""
    import httpx

    meta = {
        "io.modelcontextprotocol/protocolVersion": PROTOCOL,
        "io.modelcontextprotocol/clientCapabilities": DECLARED,
    }
    body = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": name, "arguments": {}, "_meta": meta, **params},
    }
    headers = {
        "Accept": "application/json, text/event-stream",
        "MCP-Protocol-Version": PROTOCOL,
        "Mcp-Method": "tools/call",
        "Mcp-Name": name,
    }
    answer = httpx.post(f"http://127.0.0.1:{port}/mcp", json=body, headers=headers, timeout=30)
    reply: dict[str, Any] = answer.json()
    return reply


@contextmanager
def _round_servers(*keys: str) -> Iterator[list[int]]:
    """One stateless HTTP server process per key list given."""
    ports: list[int] = []
    with ExitStack() as stack:
        for key_list in keys:
            port = _free_port()
            args = ["-m", "uvicorn", "--factory", "round_tools:make_app", "--port", str(port)]
            env = {**ENV, "STANDARD_TOOL_STATE_KEYS": key_list}
            stack.enter_context(_process([sys.executable, *args], port, env=env))
            ports.append(port)
        yield ports


def test_any_process_holding_the_keys_runs_the_next_round() -> None:
    shared = "s" * 32
    with _round_servers(shared, shared, "x" * 32) as (first, second, stranger):
        one = _post(first, "greet")["result"]
        assert one["resultType"] == "input_required"
        assert list(one["inputRequests"]) == ["elicit-1"]
        ada = {"elicit-1": {"action": "accept", "content": {"name": "Ada"}}}
        two = _post(second, "greet", inputResponses=ada, requestState=one["requestState"])
        assert two["result"]["resultType"] == "input_required"
        teal = {"elicit-2": {"action": "accept", "content": {"c": "teal"}}}
        state = two["result"]["requestState"]
        done = _post(first, "greet", inputResponses=teal, requestState=state)
        assert done["result"]["content"][0]["text"] == "Ada likes teal"
        assert done["result"]["resultType"] == "complete"
        refused = _post(stranger, "greet", inputResponses=teal, requestState=state)
        assert refused["error"]["code"] == -32602
        assert "does not verify" in refused["error"]["message"]


@pytest.mark.parametrize(
    "answer",
    [
        {"action": "maybe"},
        {"content": {"name": "Ada"}},
        {"action": "accept", "content": "Ada"},
        "accept",
        None,
        [{"action": "accept"}] * 1000,
    ],
)
def test_an_answer_that_is_no_answer_at_all_is_refused(answer: Any) -> None:
    """The SDK refuses what no client could have meant: invalid params, before any tool runs."""
    with _round_servers("s" * 32) as (port,):
        one = _post(port, "greet")["result"]
        refused = _post(
            port, "greet", inputResponses={"elicit-1": answer}, requestState=one["requestState"]
        )
    assert refused["error"]["code"] == -32602


def test_an_answer_of_another_kind_is_refused_naming_its_key() -> None:
    with _round_servers("s" * 32) as (port,):
        one = _post(port, "greet")["result"]
        roots_for_a_form = {"elicit-1": {"roots": []}}
        refused = _post(
            port, "greet", inputResponses=roots_for_a_form, requestState=one["requestState"]
        )
    assert refused["error"]["code"] == -32602
    message = refused["error"]["message"]
    assert message.startswith("inputResponses['elicit-1'] is not a elicitation/create result")
    assert len(message) < 500


def test_input_responses_that_are_not_an_object_are_refused() -> None:
    with _round_servers("s" * 32) as (port,):
        one = _post(port, "greet")["result"]
        refused = _post(port, "greet", inputResponses=[1, 2], requestState=one["requestState"])
        huge = _post(port, "greet", requestState="st1." + "A" * 2_000_000)
    assert refused["error"]["code"] == -32602
    assert huge["error"]["code"] == -32602
    assert "longer than" in huge["error"]["message"]


async def test_the_default_client_is_answered_over_stateless_http() -> None:
    with _round_servers("s" * 32) as (port,), anyio.fail_after(60):
        async with _client(f"http://127.0.0.1:{port}/mcp") as client:
            done = await client.call_tool("greet_sync", {})
    assert done.content[0].text == "Ada in ['work']"  # type: ignore[union-attr]


def test_request_state_keys_refuse_what_they_cannot_sign_with() -> None:
    with pytest.raises(ValueError, match="at least 32 bytes"):
        RequestStateKeys([b"short"])
    with pytest.raises(ValueError, match="at least one key"):
        RequestStateKeys([])
    with pytest.raises(TypeError, match="a list of keys"):
        RequestStateKeys(KEY)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="ttl must be positive"):
        RequestStateKeys([KEY], ttl=0)
    keys = RequestStateKeys([KEY])
    assert "kkkk" not in repr(keys)  # the keys are never shown
    with pytest.raises(RequestStateError, match="must be a string"):
        keys.open(5, bound_to="x")
    with pytest.raises(RequestStateError, match="longer than"):
        keys.open("st1." + "a" * 1_000_001, bound_to="x")
    with pytest.raises(RequestStateError, match="would take"):
        keys.seal({"answers": "x" * 1_000_000}, bound_to="x")


def test_keys_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("STANDARD_TOOL_STATE_KEYS", raising=False)
    assert RequestStateKeys.from_env() is None
    monkeypatch.setenv("STANDARD_TOOL_STATE_KEYS", f"{'n' * 32}, {'p' * 32}")
    keys = RequestStateKeys.from_env(ttl=5)
    assert keys is not None
    sealed = RequestStateKeys([b"p" * 32]).seal({"a": 1}, bound_to="b")
    assert keys.open(sealed, bound_to="b") == {"a": 1}  # the second key verifies
    monkeypatch.setenv("STANDARD_TOOL_STATE_KEYS", "too short")
    with pytest.raises(ValueError, match="at least 32 bytes"):
        RequestStateKeys.from_env()


async def test_a_client_without_the_capability_is_never_asked() -> None:
    with anyio.fail_after(60):
        async with Client(server(TOOLS)) as client:  # no callbacks: nothing declared
            handled = await client.call_tool("sample_or_not", {})
            with pytest.raises(MCPError) as caught:
                await client.call_tool("must_sample", {})
    assert handled.content[0].text == "no sampling: sampling"  # type: ignore[union-attr]
    assert caught.value.error.code == types.MISSING_REQUIRED_CLIENT_CAPABILITY
    assert caught.value.error.data == {"requiredCapabilities": {"sampling": {}}}


async def test_required_capabilities_are_checked_before_the_tool_runs() -> None:
    srv = server(TOOLS, required_capabilities={"plain": ["sampling", "roots"]})
    with anyio.fail_after(60):
        async with Client(srv, sampling_callback=_sample) as client:
            with pytest.raises(MCPError) as caught:
                await client.call_tool("plain", {"n": 2})
        async with _client(srv) as client:
            done = await client.call_tool("plain", {"n": 2})
        async with Client(srv, mode="legacy") as client:
            with pytest.raises(MCPError) as legacy:
                await client.call_tool("plain", {"n": 2})
    assert caught.value.error.code == types.MISSING_REQUIRED_CLIENT_CAPABILITY
    assert caught.value.error.data == {"requiredCapabilities": {"roots": {}}}
    assert "tool 'plain' needs the client capabilities: roots" in caught.value.error.message
    assert done.structured_content == {"result": 4}
    assert legacy.value.error.code == types.MISSING_REQUIRED_CLIENT_CAPABILITY


def test_required_capabilities_name_known_tools_and_capabilities() -> None:
    with pytest.raises(ValueError, match="no tool 'nope'") as caught:
        server(TOOLS, required_capabilities={"nope": ["sampling"], "plain": ["telepathy"]})
    assert "tool 'plain': unknown capability 'telepathy'" in str(caught.value)


def test_a_question_key_is_a_short_string() -> None:
    @tool
    async def bad(ctx: ToolContext) -> str:
        """Ask with a key that is no key."""
        await ctx.elicit("Name?", NAME, key="x" * 65)
        return "never"

    from standard_tool import Toolkit

    result = asyncio.run(Toolkit([bad]).aexecute("bad", {}))
    assert result.error is not None
    assert "key must be a string of 1 to 64 characters" in result.error
