"""``relay_callbacks``: what an MCP server asks during a call reaches that call's caller.

Real SDK parts end to end, in memory: an upstream server of Standard Tools that log,
elicit and sample (``tests/context_caller_tools.py``), or a low-level one that asks
what a tool's context cannot; the official client session with the relay's
callbacks; the imported tools in a ``Toolkit`` or served again (a gateway) to a
downstream official client with callbacks of its own.
"""

from __future__ import annotations

import logging
from typing import Any

import anyio
import pytest
from mcp import Client, types
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError
from mcp.shared.message import ServerMessageMetadata

from standard_tool import Elicitation, ToolContext, Toolkit, tool, use_caller
from standard_tool.mcp import (
    MCPConnectionError,
    MCPToolError,
    RelayCallbacks,
    import_tools,
    relay_callbacks,
    server,
)
from tests.context_caller_tools import TOOLS
from tests.test_context_caller import _elicit, _sample

Logs = list[tuple[str, Any, str | None]]
#: What ``chatty`` logs.
CHATTY: Logs = [
    ("debug", "looking", None),
    ("info", "found it", "search"),
    ("error", {"code": 7}, None),
]


@tool
async def hold(ctx: ToolContext) -> str:
    """Say it started, then stay in flight until the test releases it."""
    started, release = HOLD
    started.set()
    await release.wait()
    return "released"


#: ``hold``'s events: started, release (made in the test's event loop).
HOLD: list[anyio.Event] = []
UPSTREAM = [*TOOLS, hold]


async def test_a_gateway_relays_logs_sampling_and_elicitation_to_its_own_client() -> None:
    seen: Logs = []

    async def on_log(params: types.LoggingMessageNotificationParams) -> None:
        seen.append((params.level, params.data, params.logger))

    relay = relay_callbacks()
    with anyio.fail_after(60):
        async with Client(server(UPSTREAM), mode="legacy", **relay) as upstream:
            gateway = server(await import_tools(upstream.session, relay=relay))
            async with Client(
                gateway,
                mode="legacy",
                logging_callback=on_log,
                elicitation_callback=_elicit,  # as test_context_caller's client answers
                sampling_callback=_sample,
            ) as client:
                logged = await client.call_tool("chatty", {})
                assert seen == CHATTY  # every log message, before the result
                asked = await client.call_tool("sign_up", {})
                sampled = await client.call_tool("haiku", {"topic": "tea"})
    assert logged.structured_content == {"result": "done"}
    assert seen == CHATTY
    assert asked.structured_content == {"result": "accept: {'name': 'Ada'}"}
    assert sampled.structured_content == {"result": "echo: A haiku about tea"}
    assert relay.calls_in_flight == 0


async def test_in_a_toolkit_the_server_reaches_the_handlers_of_use_caller() -> None:
    logged: Logs = []
    prompts: list[tuple[str, Any, int, Any]] = []

    async def log(level: Any, message: Any, logger: str | None) -> None:
        logged.append((level, message, logger))

    async def ask(message: str, schema: dict[str, Any]) -> Elicitation:
        assert message == "Who are you?"
        return Elicitation("accept", {"name": "Grace"})

    async def model(prompt: str, *, system: Any, max_tokens: int, temperature: Any) -> str:
        prompts.append((prompt, system, max_tokens, temperature))
        return "a haiku"

    relay = relay_callbacks()
    with anyio.fail_after(60):
        async with Client(server(UPSTREAM), mode="legacy", **relay) as upstream:
            kit = Toolkit(await import_tools(upstream.session, prefix="up_", relay=relay))
            with use_caller(log=log, elicit=ask, sample=model):
                assert (await kit.aexecute("up_chatty", {})).value == {"result": "done"}
                assert (await kit.aexecute("up_sign_up", {})).value == {
                    "result": "accept: {'name': 'Grace'}"
                }
                assert (await kit.aexecute("up_haiku", {"topic": "rain"})).value == {
                    "result": "a haiku"
                }
                # A direct call, outside any runner, finds the same handlers.
                [direct] = [t for t in kit if t.name == "up_sign_up"]
                assert await direct.execute({}) == {"result": "accept: {'name': 'Grace'}"}
    assert logged == CHATTY
    assert prompts == [("A haiku about rain", "Be brief.", 50, None)]


async def test_without_handlers_logs_go_to_logging_and_questions_get_an_error_answer(
    caplog: pytest.LogCaptureFixture,
) -> None:
    relay = relay_callbacks()
    with anyio.fail_after(60):
        async with Client(server(UPSTREAM), mode="legacy", **relay) as upstream:
            kit = Toolkit(await import_tools(upstream.session, relay=relay))
            with caplog.at_level(logging.DEBUG, logger="standard_tool.tools.chatty"):
                assert (await kit.aexecute("chatty", {})).value == {"result": "done"}
            asked = await kit.aexecute("sign_up", {})
            sampled = await kit.aexecute("haiku", {"topic": "x"})
    chatty = [r for r in caplog.records if r.name == "standard_tool.tools.chatty"]
    assert [(r.levelno, r.getMessage()) for r in chatty] == [
        (logging.DEBUG, "looking"),
        (logging.INFO, "[search] found it"),
        (logging.ERROR, "{'code': 7}"),
    ]
    # The server's tool got an error answer, and failed with it: no hang.
    assert isinstance(asked.exception, MCPToolError)
    assert "relay_callbacks: tool 'sign_up': cannot elicit input from the user" in str(asked.error)
    assert isinstance(sampled.exception, MCPToolError)
    assert "relay_callbacks: tool 'haiku': cannot sample the caller's model" in str(sampled.error)


async def test_with_two_calls_in_flight_nothing_is_guessed(
    caplog: pytest.LogCaptureFixture,
) -> None:
    asked: list[str] = []

    async def ask(message: str, schema: dict[str, Any]) -> Elicitation:
        asked.append(message)
        return Elicitation("decline")

    HOLD[:] = [anyio.Event(), anyio.Event()]
    relay = relay_callbacks()
    with anyio.fail_after(60):
        async with Client(server(UPSTREAM), mode="legacy", **relay) as upstream:
            kit = Toolkit(await import_tools(upstream.session, relay=relay))
            results: dict[str, Any] = {}

            async def run(name: str) -> None:
                results[name] = await kit.aexecute(name, {})

            with use_caller(elicit=ask), caplog.at_level(logging.DEBUG, "standard_tool.mcp"):
                async with anyio.create_task_group() as group:
                    group.start_soon(run, "hold")
                    await HOLD[0].wait()
                    assert relay.calls_in_flight == 1
                    await run("sign_up")
                    await run("chatty")
                    assert relay.calls_in_flight == 1
                    HOLD[1].set()
                assert relay.calls_in_flight == 0
                # One call at a time again: it gets its question.
                alone = await kit.aexecute("sign_up", {})
    assert results["hold"].value == {"result": "released"}
    assert isinstance(results["sign_up"].exception, MCPToolError)
    assert (
        "relay_callbacks: 2 calls of imported tools are in flight on this session and MCP does "
        "not tell a client which one the elicitation request belongs to"
    ) in str(results["sign_up"].error)
    assert results["chatty"].value == {"result": "done"}
    upstream_logs = [r for r in caplog.records if r.name == "standard_tool.mcp.upstream"]
    assert [r.getMessage() for r in upstream_logs] == [
        "looking",
        "[search] found it",
        "{'code': 7}",
    ]
    assert alone.value == {"result": "decline: None"}
    assert asked == ["Who are you?"]


def _asking_server(
    asks: list[Any], answers: list[str], *, during_listing: bool = False, patient: bool = False
) -> Server:
    """A low-level server that sends ``asks`` (requests, or log params) and notes the answers.

    ``patient``: it waits for each answer (up to 5 s) even once its call is cancelled.
    """

    async def send(ctx: Any) -> None:
        related = ServerMessageMetadata(related_request_id=ctx.request_id)
        for item in asks:
            if isinstance(item, types.LoggingMessageNotificationParams):
                notification = types.LoggingMessageNotification(params=item)
                await ctx.session.send_notification(notification, related_request_id=ctx.request_id)
                continue
            request, result_type = item
            try:
                with anyio.CancelScope(shield=patient), anyio.fail_after(5):
                    answer = await ctx.session.send_request(request, result_type, metadata=related)
            except MCPError as err:
                answers.append(f"error {err.code}: {err.message}")
            except TimeoutError:
                answers.append("no answer within 5 s")
            else:
                answers.append(f"answer: {answer.model_dump(exclude_none=True)}")

    async def on_list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        if during_listing:
            await send(ctx)
        return types.ListToolsResult(
            tools=[types.Tool(name="ask", input_schema={"type": "object"})]
        )

    async def on_call_tool(ctx: Any, params: Any) -> types.CallToolResult:
        await send(ctx)
        return types.CallToolResult(content=[types.TextContent(type="text", text="asked")])

    return Server("asking", on_list_tools=on_list_tools, on_call_tool=on_call_tool)


def _sampling(*messages: types.SamplingMessage, **params: Any) -> Any:
    request = types.CreateMessageRequest(
        params=types.CreateMessageRequestParams(messages=list(messages), max_tokens=10, **params)
    )
    return request, types.CreateMessageResult


def _text(role: Any, text: str) -> types.SamplingMessage:
    return types.SamplingMessage(role=role, content=types.TextContent(type="text", text=text))


def _form(schema: dict[str, Any]) -> Any:
    params = types.ElicitRequestFormParams(message="Fill in", requested_schema=schema)
    return types.ElicitRequest(params=params), types.ElicitResult


async def test_what_a_tools_context_cannot_ask_gets_an_error_answer() -> None:
    url = types.ElicitRequestURLParams(
        message="Log in", url="https://example.com", elicitation_id="1"
    )
    image = types.SamplingMessage(
        role="user", content=types.ImageContent(type="image", data="AA==", mime_type="image/png")
    )
    asks = [
        _sampling(_text("user", "one"), _text("assistant", "two")),
        _sampling(image),
        _sampling(_text("user", "hi"), stop_sequences=["."], temperature=0.5),
        (types.ElicitRequest(params=url), types.ElicitResult),
        _form({"type": "object", "properties": {"n": {"type": "object"}}}),
    ]
    answers: list[str] = []
    prompts: list[tuple[str, Any, int, Any]] = []

    async def model(prompt: str, *, system: Any, max_tokens: int, temperature: Any) -> str:
        prompts.append((prompt, system, max_tokens, temperature))
        return "hello"

    async def ask(message: str, schema: dict[str, Any]) -> Elicitation:
        return Elicitation("accept", {"n": {"nested": True}})  # not a flat MCP answer

    relay = relay_callbacks()
    with anyio.fail_after(60):
        async with Client(_asking_server(asks, answers), mode="legacy", **relay) as upstream:
            [ask_tool] = await import_tools(upstream.session, relay=relay)
            with use_caller(sample=model, elicit=ask):
                assert await Toolkit([ask_tool]).aexecute("ask", {}) is not None
    cannot_sample = (
        "error -32602: relay_callbacks: only a sampling request of one user text message and no "
        "tools can be relayed"
    )
    assert answers[0].startswith(cannot_sample)
    assert answers[1].startswith(cannot_sample)
    assert answers[2] == (
        "answer: {'role': 'assistant', 'content': {'type': 'text', 'text': 'hello'}, "
        "'model': 'unknown'}"
    )
    assert answers[3].startswith("error -32602: relay_callbacks: a URL-mode elicitation cannot")
    assert answers[4].startswith(
        "error -32603: relay_callbacks: the caller's answer is not an MCP elicitation result"
    )
    assert len(answers[4]) < 600
    assert prompts == [("hi", None, 10, 0.5)]


async def test_outside_any_call_a_request_gets_an_error_answer_and_a_log_goes_to_logging(
    caplog: pytest.LogCaptureFixture,
) -> None:
    huge = "x" * 100_000
    note = types.LoggingMessageNotificationParams(level="warning", data=huge, logger="upstream")
    answers: list[str] = []
    relay = relay_callbacks()
    asking = _asking_server([note, _sampling(_text("user", "hi"))], answers, during_listing=True)
    with anyio.fail_after(60), caplog.at_level(logging.DEBUG, "standard_tool.mcp.upstream"):
        async with Client(asking, mode="legacy", **relay) as upstream:
            await import_tools(upstream.session, relay=relay)
    assert answers == [
        "error -32600: relay_callbacks: no call of an imported tool is in flight on this session "
        "to take the sampling request"
    ]
    [record] = [r for r in caplog.records if r.name == "standard_tool.mcp.upstream"]
    assert record.levelno == logging.WARNING
    assert record.getMessage().startswith("[upstream] xxx")
    assert len(record.getMessage()) <= 2200


async def test_a_handler_that_fails_or_hangs_is_an_error_answer_bounded_by_the_call() -> None:
    async def broken(prompt: str, *, system: Any, max_tokens: int, temperature: Any) -> str:
        raise RuntimeError("model down")

    async def stuck(message: str, schema: dict[str, Any]) -> Elicitation:
        await anyio.sleep_forever()
        raise AssertionError("unreachable")

    relay = relay_callbacks()
    with anyio.fail_after(60):
        async with Client(server(UPSTREAM), mode="legacy", **relay) as upstream:
            kit = Toolkit(await import_tools(upstream.session, relay=relay, timeout=0.5))
            with use_caller(sample=broken, elicit=stuck):
                sampled = await kit.aexecute("haiku", {"topic": "x"})
                with anyio.fail_after(10):
                    asked = await kit.aexecute("sign_up", {})
            assert relay.calls_in_flight == 0
            # The session still works, one call at a time.
            assert (await kit.aexecute("chatty", {})).value == {"result": "done"}
    assert isinstance(sampled.exception, MCPToolError)
    assert (
        "relay_callbacks: the caller of tool 'haiku' failed on the sampling request: "
        "RuntimeError: model down"
    ) in str(sampled.error)
    assert isinstance(asked.exception, MCPConnectionError)
    assert "no answer within 0.5 s" in str(asked.error)


async def test_a_question_unanswered_when_the_call_ends_gets_an_error_answer_then() -> None:
    async def stuck(message: str, schema: dict[str, Any]) -> Elicitation:
        await anyio.sleep_forever()
        raise AssertionError("unreachable")

    answers: list[str] = []
    relay = relay_callbacks()
    form = _form({"type": "object", "properties": {"name": {"type": "string"}}})
    asking = _asking_server([form], answers, patient=True)
    with anyio.fail_after(60):
        async with Client(asking, mode="legacy", **relay) as upstream:
            [ask_tool] = await import_tools(upstream.session, relay=relay, timeout=0.5)
            started = anyio.current_time()
            with use_caller(elicit=stuck), pytest.raises(MCPConnectionError):
                await ask_tool.execute({})
            await anyio.sleep(0.5)
    # The answer went as the call ended, not when the server gave up at 5 s.
    assert anyio.current_time() - started < 3
    assert answers == [
        "error -32603: relay_callbacks: the call of tool 'ask' ended before its caller answered "
        "the elicitation request"
    ]


async def test_the_callbacks_are_the_session_keywords_and_serve_one_session() -> None:
    relay = relay_callbacks()
    assert isinstance(relay, RelayCallbacks)
    assert list(relay) == [
        "logging_callback",
        "sampling_callback",
        "elicitation_callback",
        "list_roots_callback",
    ]
    assert len(relay) == 4
    assert repr(relay) == "RelayCallbacks(calls_in_flight=0)"
    with anyio.fail_after(60):
        async with (
            Client(server(UPSTREAM), mode="legacy", **relay) as first,
            Client(server(UPSTREAM), mode="legacy") as second,
        ):
            await import_tools(first.session, relay=relay)
            await import_tools(first.session, relay=relay)  # the same session again: fine
            with pytest.raises(
                ValueError, match=r"^import_tools: these relay_callbacks\(\) already"
            ):
                await import_tools(second.session, relay=relay)
            with pytest.raises(TypeError, match=r"^import_tools: relay must be what relay_callb"):
                await import_tools(second.session, relay=dict(relay))  # type: ignore[arg-type]
            # Another session built with these callbacks gets an error answer, not a guess.
            answers: list[str] = []
            asking = _asking_server([_sampling(_text("user", "hi"))], answers)
            async with Client(asking, mode="legacy", **relay) as third:
                await third.call_tool("ask", {})
    assert answers == [
        "error -32600: relay_callbacks: no tools of this session were imported with these "
        "callbacks to take the sampling request; pass them to import_tools(session, relay=...)"
    ]
