"""A tool's context reaches its caller: logs, elicitation and sampling.

Served over MCP and driven by the official SDK client's ``logging_callback``,
``elicitation_callback`` and ``sampling_callback`` (in memory, with the handshake
and with the 2026 per-request opt-in, and over Streamable HTTP on 127.0.0.1);
elsewhere through handlers plugged in with ``use_caller``, or a clear error.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from typing import Any

import anyio
import pytest
from mcp import Client, types

from standard_tool import (
    Caller,
    CallerUnavailableError,
    Elicitation,
    ToolCancelledError,
    ToolContext,
    Toolkit,
    tool,
    use_caller,
)
from standard_tool.mcp import server
from tests.context_caller_tools import SYNC_TOOLS, TOOLS

Logs = list[tuple[str, Any, str | None]]


def _log_recorder() -> tuple[Logs, Any]:
    seen: Logs = []

    async def on_log(params: types.LoggingMessageNotificationParams) -> None:
        seen.append((params.level, params.data, params.logger))

    return seen, on_log


async def _elicit(context: Any, params: Any) -> types.ElicitResult:
    assert params.message == "Who are you?"
    assert params.requested_schema["required"] == ["name"]
    return types.ElicitResult(action="accept", content={"name": "Ada"})


async def _sample(context: Any, params: types.CreateMessageRequestParams) -> Any:
    [message] = params.messages
    assert params.system_prompt == "Be brief."
    assert params.max_tokens == 50
    prompt = message.content.text  # type: ignore[union-attr]
    return types.CreateMessageResult(
        role="assistant",
        content=types.TextContent(type="text", text=f"echo: {prompt}"),
        model="test-model",
    )


# The SDK marks the client's logging/setLevel deprecated from protocol 2026-07-28.
@pytest.mark.filterwarnings("ignore::mcp.shared.exceptions.MCPDeprecationWarning")
async def test_logs_respect_the_level_the_client_set_with_the_handshake() -> None:
    seen, on_log = _log_recorder()
    with anyio.fail_after(60):
        async with Client(server(TOOLS), mode="legacy", logging_callback=on_log) as client:
            await client.call_tool("chatty", {})
            assert [s[0] for s in seen] == ["debug", "info", "error"]
            assert seen[1] == ("info", "found it", "search")
            assert seen[2][1] == {"code": 7}
            seen.clear()
            await client.set_logging_level("info")
            await client.call_tool("chatty", {})
            assert [s[0] for s in seen] == ["info", "error"]


async def test_logs_reach_a_2026_client_only_at_the_level_it_opted_in_to() -> None:
    seen, on_log = _log_recorder()
    with anyio.fail_after(60):
        async with Client(server(TOOLS), logging_callback=on_log, log_level="info") as client:
            await client.call_tool("chatty", {})
    assert [s[0] for s in seen] == ["info", "error"]


async def test_elicitation_and_sampling_reach_the_official_client() -> None:
    with anyio.fail_after(60):
        async with Client(
            server(TOOLS),
            mode="legacy",
            elicitation_callback=_elicit,
            sampling_callback=_sample,
        ) as client:
            asked = await client.call_tool("sign_up", {})
            sampled = await client.call_tool("haiku", {"topic": "tea"})
    assert asked.content[0].text == "accept: {'name': 'Ada'}"  # type: ignore[union-attr]
    assert sampled.content[0].text == "echo: A haiku about tea"  # type: ignore[union-attr]


async def test_a_client_without_the_capability_gets_a_clear_error_result() -> None:
    with anyio.fail_after(60):
        async with Client(server(TOOLS), mode="legacy") as client:
            asked = await client.call_tool("sign_up", {})
            sampled = await client.call_tool("haiku", {"topic": "tea"})
    assert asked.is_error is True
    assert "did not declare the elicitation capability" in asked.content[0].text  # type: ignore[union-attr]
    assert "did not declare the sampling capability" in sampled.content[0].text  # type: ignore[union-attr]


async def test_handlers_plugged_in_with_use_caller_answer_outside_mcp() -> None:
    logged: Logs = []

    async def log(level: Any, message: Any, logger: str | None) -> None:
        logged.append((level, message, logger))

    async def ask(message: str, schema: dict[str, Any]) -> Elicitation:
        return Elicitation("decline")

    async def model(prompt: str, *, system: Any, max_tokens: int, temperature: Any) -> str:
        return f"{prompt} ({max_tokens})"

    kit = Toolkit(TOOLS)
    with use_caller(log=log, elicit=ask, sample=model) as caller:
        assert isinstance(caller, Caller)
        assert (await kit.aexecute("chatty", {})).value == "done"
        assert (await kit.aexecute("sign_up", {})).value == "decline: None"
        assert (await kit.aexecute("haiku", {"topic": "rain"})).value == "A haiku about rain (50)"
    assert [entry[0] for entry in logged] == ["debug", "info", "error"]


def _answering(name: str) -> Caller:
    async def ask(message: str, schema: dict[str, Any]) -> Elicitation:
        return Elicitation("accept", {"name": name})

    return Caller(elicit=ask, name=f"{name}'s caller")


@pytest.mark.parametrize(
    ("name", "limit"),
    [("sign_up", None), ("sign_up", 30.0), ("sign_up_sync", 30.0)],
    ids=["async", "async with a deadline", "sync in a worker thread"],
)
async def test_a_caller_handed_to_the_toolkit_is_the_one_the_context_talks_to(
    name: str, limit: float | None
) -> None:
    """``caller=`` goes down with the call (no ``use_caller``) and wins over ``use_caller``'s."""
    kit = Toolkit([*TOOLS, *SYNC_TOOLS])
    given = await kit.aexecute(name, {}, timeout=limit, caller=_answering("Ada"))
    assert given.value == "accept: {'name': 'Ada'}"
    with use_caller(_answering("Bo")):
        wins = await kit.aexecute(name, {}, timeout=limit, caller=_answering("Cy"))
        default = await kit.aexecute(name, {}, timeout=limit)
    assert wins.value == "accept: {'name': 'Cy'}"
    assert default.value == "accept: {'name': 'Bo'}"
    # nothing is left behind: the next call has no caller
    alone = await kit.aexecute(name, {}, timeout=limit)
    assert alone.success is False
    assert isinstance(alone.exception, CallerUnavailableError)


def test_a_caller_handed_to_a_sync_execute_reaches_the_context() -> None:
    kit = Toolkit([*TOOLS, *SYNC_TOOLS])
    for timeout in (None, 30.0):
        for name in ("sign_up", "sign_up_sync"):  # the async one runs in a loop of its own
            result = kit.execute(name, {}, timeout=timeout, caller=_answering("Di"))
            assert result.value == "accept: {'name': 'Di'}", (name, timeout, result.error)
    made = ToolContext("t", caller=_answering("Ed"))
    assert made.caller is not None
    assert made.caller.name == "Ed's caller"
    with use_caller(_answering("Fay")):
        assert ToolContext("t").caller is not None
        assert ToolContext("t", caller=_answering("Gus")).caller.name == "Gus's caller"  # type: ignore[union-attr]


async def test_an_mcp_call_hands_its_client_down_with_the_call_not_through_use_caller() -> None:
    """The server gives the toolkit the request's caller; no caller is current around the tool."""
    from standard_tool._context import CALLER

    seen: list[tuple[object, str | None]] = []

    @tool
    def probe(ctx: ToolContext) -> str:
        """Report who called."""
        seen.append((CALLER.get(), None if ctx.caller is None else ctx.caller.name))
        return "ok"

    @tool
    async def probe_async(ctx: ToolContext) -> str:
        """Report who called."""
        seen.append((CALLER.get(), None if ctx.caller is None else ctx.caller.name))
        return "ok"

    with anyio.fail_after(60):
        async with Client(server([probe, probe_async]), mode="legacy") as client:
            await client.call_tool("probe", {})
            await client.call_tool("probe_async", {})
        async with Client(server([probe, probe_async])) as client:  # 2026-07-28: rounds
            await client.call_tool("probe", {})
            await client.call_tool("probe_async", {})
    assert seen == [(None, "MCP client")] * 4


async def test_without_a_caller_elicit_and_sample_raise_and_log_goes_to_logging(
    caplog: pytest.LogCaptureFixture,
) -> None:
    kit = Toolkit(TOOLS)
    asked = await kit.aexecute("sign_up", {})
    assert isinstance(asked.exception, CallerUnavailableError)
    assert str(asked.exception) == (
        "tool 'sign_up': cannot elicit input from the user: nobody offers it; serve the tool "
        "over MCP to a client that supports it, or plug a handler in with use_caller(elicit=...)"
    )
    sampled = await kit.aexecute("haiku", {"topic": "x"})
    assert "use_caller(sample=...)" in str(sampled.exception)
    with caplog.at_level(logging.DEBUG, logger="standard_tool.tools.chatty"):
        await kit.aexecute("chatty", {})
    assert [r.getMessage() for r in caplog.records][:1] == ["looking"]


async def test_a_bad_level_is_refused_and_a_failing_log_handler_does_not_fail_the_call() -> None:
    async def broken(level: Any, message: Any, logger: str | None) -> None:
        raise RuntimeError("down")

    context = ToolContext("t")
    with pytest.raises(ValueError, match="log level must be one of debug, info"):
        await context.log("loud", "x")  # type: ignore[arg-type]
    with use_caller(log=broken):
        await ToolContext("t").log("info", "still fine")


@pytest.mark.filterwarnings("ignore::mcp.shared.exceptions.MCPDeprecationWarning")
async def test_over_streamable_http_each_request_reaches_the_client() -> None:
    import sys

    from tests.test_mcp_serve import _free_port, _process

    port = _free_port()
    script = (
        "import context_caller_tools\nfrom standard_tool.mcp import serve\n"
        f"serve(context_caller_tools.TOOLS, transport='http', port={port})"
    )
    seen, on_log = _log_recorder()
    with _process([sys.executable, "-c", script], port), anyio.fail_after(60):
        async with Client(
            f"http://127.0.0.1:{port}/mcp",
            mode="legacy",
            logging_callback=on_log,
            elicitation_callback=_elicit,
            sampling_callback=_sample,
        ) as client:
            await client.set_logging_level("warning")
            await client.call_tool("chatty", {})
            asked = await client.call_tool("sign_up", {})
            sampled = await client.call_tool("haiku", {"topic": "tea"})
    assert seen == [("error", {"code": 7}, None)]
    assert asked.content[0].text == "accept: {'name': 'Ada'}"  # type: ignore[union-attr]
    assert sampled.content[0].text == "echo: A haiku about tea"  # type: ignore[union-attr]


async def test_a_2026_connection_asks_through_input_required_rounds() -> None:
    """The SDK's default client (2026-07-28: no requests to the client) gets the same answers."""
    seen, on_log = _log_recorder()
    with anyio.fail_after(60):
        async with Client(
            server(TOOLS + SYNC_TOOLS),
            elicitation_callback=_elicit,
            sampling_callback=_sample,
            logging_callback=on_log,
            log_level="info",
        ) as client:
            assert client.session.protocol_version == "2026-07-28"
            asked = await client.call_tool("sign_up", {})
            sampled = await client.call_tool("haiku", {"topic": "tea"})
            asked_sync = await client.call_tool("sign_up_sync", {})
            sampled_sync = await client.call_tool("haiku_sync", {"topic": "tea"})
            await client.call_tool("chatty", {})
    for result in (asked, asked_sync):
        assert result.content[0].text == "accept: {'name': 'Ada'}"  # type: ignore[union-attr]
    for result in (sampled, sampled_sync):
        assert result.content[0].text == "echo: A haiku about tea"  # type: ignore[union-attr]
    assert seen == [("info", "found it", "search"), ("error", {"code": 7}, None)]


# -- the same tools registered on the SDK's MCPServer, on fastmcp, or as handlers ---------


def _registered_on_mcpserver(tools: Any = TOOLS) -> Any:
    from mcp.server import MCPServer

    from standard_tool.mcp import register

    srv = MCPServer("existing")
    register(srv, tools)
    return srv


def _lowlevel_with_handlers() -> Any:
    from mcp.server.lowlevel import Server

    from standard_tool.providers import mcp_tool_handlers

    return Server("handlers", **mcp_tool_handlers(TOOLS))


@pytest.mark.parametrize("make", [_registered_on_mcpserver, _lowlevel_with_handlers])
async def test_registered_tools_reach_the_official_client(make: Any) -> None:
    seen, on_log = _log_recorder()
    with anyio.fail_after(60):
        async with Client(
            make(),
            mode="legacy",
            logging_callback=on_log,
            elicitation_callback=_elicit,
            sampling_callback=_sample,
        ) as client:
            await client.call_tool("chatty", {})
            asked = await client.call_tool("sign_up", {})
            sampled = await client.call_tool("haiku", {"topic": "tea"})
    assert [s[0] for s in seen] == ["debug", "info", "error"]
    assert seen[1] == ("info", "found it", "search")
    assert asked.content[0].text == "accept: {'name': 'Ada'}"  # type: ignore[union-attr]
    assert sampled.content[0].text == "echo: A haiku about tea"  # type: ignore[union-attr]


# fastmcp sends logs with the SDK's logging API, deprecated from protocol 2026-07-28.
@pytest.mark.filterwarnings("ignore::mcp.shared.exceptions.MCPDeprecationWarning")
async def test_tools_registered_on_fastmcp_reach_fastmcps_client() -> None:
    import fastmcp

    from standard_tool.mcp import register

    srv = fastmcp.FastMCP("existing")
    register(srv, TOOLS)
    logged: list[tuple[str, Any, str | None]] = []

    async def on_log(message: Any) -> None:
        logged.append((message.level, message.data, message.logger))

    async def on_elicit(message: str, response_type: Any, params: Any, context: Any) -> Any:
        assert message == "Who are you?"
        assert params.requested_schema["required"] == ["name"]
        return types.ElicitResult(action="accept", content={"name": "Ada"})

    async def on_sample(messages: Any, params: Any, context: Any) -> str:
        assert params.system_prompt == "Be brief."
        return f"echo: {messages[0].content.text}"

    with anyio.fail_after(60):
        async with fastmcp.Client(
            srv,
            mode="legacy",  # 2026-07-28 has no server-to-client requests
            log_handler=on_log,
            elicitation_handler=on_elicit,
            sampling_handler=on_sample,
        ) as client:
            await client.call_tool("chatty", {})
            asked = await client.call_tool("sign_up", {})
            sampled = await client.call_tool("haiku", {"topic": "tea"})
    assert [entry[0] for entry in logged] == ["debug", "info", "error"]
    assert logged[1][1:] == ({"msg": "found it", "extra": None}, "search")
    assert logged[2][1]["msg"] == '{"code": 7}'  # fastmcp takes text: JSON data is sent as JSON
    assert asked.content[0].text == "accept: {'name': 'Ada'}"
    assert sampled.content[0].text == "echo: A haiku about tea"


# -- sync tools: log_sync, elicit_sync, sample_sync -----------------------------------


@pytest.mark.parametrize("make", [server, _registered_on_mcpserver])
async def test_sync_tools_in_worker_threads_reach_the_official_client(make: Any) -> None:
    """The server runs sync tools in worker threads; their calls hop to the server's loop."""
    from tests.context_caller_tools import SYNC_TOOLS

    seen, on_log = _log_recorder()
    with anyio.fail_after(60):
        async with Client(
            make(SYNC_TOOLS),
            mode="legacy",
            logging_callback=on_log,
            elicitation_callback=_elicit,
            sampling_callback=_sample,
        ) as client:
            logged = await client.call_tool("chatty_sync", {})
            asked = await client.call_tool("sign_up_sync", {})
            sampled = await client.call_tool("haiku_sync", {"topic": "tea"})
    assert logged.content[0].text == "done"  # type: ignore[union-attr]
    assert [s[0] for s in seen] == ["debug", "info", "error"]
    assert seen[2] == ("error", {"code": 7}, None)
    assert asked.content[0].text == "accept: {'name': 'Ada'}"  # type: ignore[union-attr]
    assert sampled.content[0].text == "echo: A haiku about tea"  # type: ignore[union-attr]


async def test_sync_twins_hop_from_a_worker_thread_to_the_loop_of_use_caller() -> None:
    from tests.context_caller_tools import SYNC_TOOLS

    loops: list[int] = []

    async def ask(message: str, schema: dict[str, Any]) -> Elicitation:
        loops.append(threading.get_ident())
        return Elicitation("accept", {"name": "Bo"})

    kit = Toolkit(SYNC_TOOLS)
    with use_caller(elicit=ask):
        result = await anyio.to_thread.run_sync(lambda: kit.execute("sign_up_sync", {}))
    assert result.value == "accept: {'name': 'Bo'}"
    assert loops == [threading.get_ident()]  # answered on this loop's thread


def test_sync_twins_without_a_loop_run_the_handler_in_a_loop_of_their_own() -> None:
    from tests.context_caller_tools import SYNC_TOOLS

    async def model(prompt: str, *, system: Any, max_tokens: int, temperature: Any) -> str:
        return f"{prompt}!"

    with use_caller(sample=model):
        assert Toolkit(SYNC_TOOLS).execute("haiku_sync", {"topic": "x"}).value == "A haiku about x!"
    asked = Toolkit(SYNC_TOOLS).execute("sign_up_sync", {})
    assert isinstance(asked.exception, CallerUnavailableError)


def test_a_sync_twin_on_a_thread_running_a_loop_says_to_use_the_async_method() -> None:
    context = ToolContext("t")

    async def inside() -> None:
        context.elicit_sync("x", {"type": "object"})

    with pytest.raises(RuntimeError, match=r"make the tool async and use `await ctx.elicit"):
        asyncio.run(inside())


def test_a_cancelled_call_stops_waiting_for_its_caller() -> None:
    loop = asyncio.new_event_loop()
    asked = threading.Event()

    async def never(message: str, schema: dict[str, Any]) -> Elicitation:
        asked.set()
        await asyncio.Event().wait()
        raise AssertionError("unreachable")

    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    try:
        with use_caller(Caller(elicit=never, loop=loop)):
            context = ToolContext("t")
        threading.Thread(target=lambda: (asked.wait(), context.cancel()), daemon=True).start()
        with pytest.raises(ToolCancelledError, match="the call was cancelled"):
            context.elicit_sync("x", {"type": "object"})
    finally:
        loop.call_soon_threadsafe(loop.stop)
        thread.join()
        loop.run_until_complete(asyncio.sleep(0))  # the cancelled handler ends
        loop.close()


# -- issue 35: a context after its call, a stopped loop, arguments of the wrong type ------


def test_a_context_kept_past_its_call_refuses_at_once_saying_the_call_ended() -> None:
    kept: list[ToolContext] = []

    async def ask(message: str, schema: dict[str, Any]) -> Elicitation:
        return Elicitation("accept", {})

    @tool
    def keep(ctx: ToolContext) -> str:
        """Keep the context for later."""
        kept.append(ctx)
        return "kept"

    @tool
    async def keep_async(ctx: ToolContext) -> str:
        """Keep the context for later, from an async tool."""
        kept.append(ctx)
        return "kept"

    kit = Toolkit([keep, keep_async])
    with use_caller(elicit=ask):
        assert kit.execute("keep", {}).value == "kept"
        assert kit.execute("keep", {}, timeout=5).value == "kept"
        assert asyncio.run(kit.aexecute("keep_async", {})).value == "kept"
    assert len(kept) == 3
    uses: list[Any] = [
        lambda c: c.elicit_sync("x", {"type": "object"}),
        lambda c: c.log_sync("info", "late"),
        lambda c: c.sample_sync("x"),
        lambda c: asyncio.run(c.elicit("x", {})),
        lambda c: asyncio.run(c.roots()),
    ]
    for context in kept:
        for use in uses:
            with pytest.raises(CallerUnavailableError, match=r"was called after the call ended"):
                use(context)


def test_a_sync_twin_whose_caller_loop_stopped_answers_at_once() -> None:
    """A stored caller whose loop stopped (not closed) used to make elicit_sync wait for ever."""
    loop = asyncio.new_event_loop()

    async def ask(message: str, schema: dict[str, Any]) -> Elicitation:
        return Elicitation("accept", {})

    try:
        with use_caller(Caller(elicit=ask, log=None, loop=loop)):
            context = ToolContext("t")
        with pytest.raises(CallerUnavailableError, match=r"the event loop it answers on is not"):
            context.elicit_sync("x", {"type": "object"})
    finally:
        loop.close()


@pytest.mark.parametrize(
    ("use", "message"),
    [
        (lambda c: c.elicit("Name?", None), r"elicit: schema must be a mapping .*, not NoneType"),
        (lambda c: c.elicit(5, {}), r"elicit: message must be a string, not int"),
        (lambda c: c.sample(None), r"sample: prompt must be a string, not NoneType"),
        (lambda c: c.sample("x", system=3), r"sample: system must be a string or None, not int"),
        (
            lambda c: c.sample("x", max_tokens="9"),
            r"sample: max_tokens must be an integer, not str",
        ),
        (lambda c: c.sample("x", temperature="hot"), r"temperature must be a number, not str"),
        (lambda c: c.log("info", "x", logger=5), r"log: logger must be a string or None, not int"),
    ],
)
async def test_an_argument_of_the_wrong_type_is_refused_where_it_is_given(
    use: Any, message: str
) -> None:
    async def ask(message: str, schema: dict[str, Any]) -> Elicitation:
        raise AssertionError("never asked")

    async def model(prompt: str, *, system: Any, max_tokens: int, temperature: Any) -> str:
        raise AssertionError("never asked")

    with use_caller(elicit=ask, sample=model):
        context = ToolContext("t")
    with pytest.raises(TypeError, match=message):
        await use(context)


async def test_a_legacy_client_over_stateless_http_is_told_the_channel_is_missing() -> None:
    """It declared elicitation and sampling: the error names the connection, not the client."""
    import sys

    from tests.test_mcp_serve import _free_port, _process

    port = _free_port()
    script = (
        "import context_caller_tools\nfrom standard_tool.mcp import serve\n"
        f"serve(context_caller_tools.TOOLS, transport='http', port={port}, stateless=True)"
    )
    with _process([sys.executable, "-c", script], port), anyio.fail_after(60):
        async with Client(
            f"http://127.0.0.1:{port}/mcp",
            mode="legacy",
            elicitation_callback=_elicit,
            sampling_callback=_sample,
        ) as client:
            asked = await client.call_tool("sign_up", {})
            sampled = await client.call_tool("haiku", {"topic": "tea"})
    for result, what in ((asked, "elicitation"), (sampled, "sampling")):
        assert result.is_error is True
        text = result.content[0].text  # type: ignore[union-attr]
        assert f"cannot carry the {what} request to the client" in text
        assert "did not declare" not in text
