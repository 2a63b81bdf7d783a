"""``standard_tool.mcp.import_tools``: an MCP server's tools as Standard Tools.

Real SDK servers (ours and a hand-written low-level one that misbehaves on purpose),
reached in memory with ``mcp.Client`` and as stdio subprocesses.
"""

from __future__ import annotations

import json
import math
import os
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import mcp_types
import pytest
from mcp import Client, ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError

from standard_tool import (
    ProgressEvent,
    ResultEvent,
    StandardToolValidationError,
    ToolContext,
    Toolkit,
    is_standard_tool,
    tool,
)
from standard_tool._context import enter, leave
from standard_tool._toolkit import DuplicateToolNameError
from standard_tool.mcp import (
    MCPConnectionError,
    MCPTool,
    MCPToolError,
    MCPToolRefusedWarning,
    import_tools,
    server,
)
from standard_tool.providers import (
    run_openai_chat_tool_calls,
    to_anthropic,
    to_gemini,
    to_openai_chat,
)
from tests import mcp_targets

TESTS = Path(__file__).parent
SRC = TESTS.parent / "src"
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join([str(SRC), str(TESTS)])}


LISTING: list[dict[str, Any]] = [
    {
        "name": "weather",
        "title": "Weather",
        "description": "The weather in a city.",
        "inputSchema": {
            "type": "object",
            "properties": {"city": {"type": "string", "pattern": "^[A-Z][a-z]+$"}},
            "required": ["city"],
        },
        "outputSchema": {
            "type": "object",
            "properties": {"celsius": {"type": "number"}},
            "required": ["celsius"],
        },
        "annotations": {"readOnlyHint": True, "openWorldHint": True},
        "_meta": {"example.com/owner": "team-a"},
    },
    {
        "name": "liar",
        "description": "Promises a number, sends text.",
        "inputSchema": {"type": "object"},
        "outputSchema": {
            "type": "object",
            "properties": {"n": {"type": "integer"}},
            "required": ["n"],
        },
    },
    {
        "name": "grumpy",
        "description": "Always answers with an error result.",
        "inputSchema": {"type": "object"},
        "annotations": {"title": "Grumpy from annotations"},
    },
    {
        "name": "pictures",
        "description": "Answers with text and an image.",
        "inputSchema": {"type": "object"},
    },
]


def hand_server() -> tuple[Server[Any], list[str]]:
    """A low-level SDK server with annotations, _meta, and tools that misbehave."""
    received: list[str] = []

    async def on_list_tools(ctx: Any, params: Any) -> mcp_types.ListToolsResult:
        return mcp_types.ListToolsResult.model_validate({"tools": LISTING})

    async def on_call_tool(ctx: Any, params: Any) -> mcp_types.CallToolResult:
        received.append(params.name)
        answers: dict[str, dict[str, Any]] = {
            "weather": {
                "content": [{"type": "text", "text": '{"celsius": 21.5}'}],
                "structuredContent": {"celsius": 21.5},
            },
            "liar": {
                "content": [{"type": "text", "text": "seven"}],
                "structuredContent": {"n": "seven"},
            },
            "grumpy": {"content": [{"type": "text", "text": "not today"}], "isError": True},
            "pictures": {
                "content": [
                    {"type": "text", "text": "a dot"},
                    {"type": "image", "data": "AAAA", "mimeType": "image/png"},
                ]
            },
        }
        return mcp_types.CallToolResult.model_validate(answers[params.name])

    return Server("hand", on_list_tools=on_list_tools, on_call_tool=on_call_tool), received


@asynccontextmanager
async def connected(srv: Server[Any]) -> AsyncIterator[ClientSession]:
    with anyio.fail_after(60):
        async with Client(srv) as client:
            yield client.session


@tool
def local_echo(text: str) -> str:
    """Echo text.

    Args:
        text: what to echo.
    """
    return text


async def test_imported_tools_conform_and_keep_title_annotations_and_meta() -> None:
    srv, _ = hand_server()
    async with connected(srv) as session:
        tools = {t.name: t for t in await import_tools(session)}
    weather = tools["weather"]
    assert isinstance(weather, MCPTool)
    assert is_standard_tool(weather)
    assert (weather.title, weather.description) == ("Weather", "The weather in a city.")
    assert weather.annotations == {"readOnlyHint": True, "openWorldHint": True}
    assert weather.mcp_meta == {"example.com/owner": "team-a"}
    assert tools["grumpy"].title == "Grumpy from annotations"
    assert tools["pictures"].output_schema is None
    with pytest.raises(TypeError):
        weather.annotations["readOnlyHint"] = False  # type: ignore[index]


async def test_input_is_validated_locally_with_ecma_patterns_before_sending() -> None:
    srv, received = hand_server()
    async with connected(srv) as session:
        weather = (await import_tools(session))[0]
        assert await weather.execute({"city": "Paris"}) == {"celsius": 21.5}
        with pytest.raises(StandardToolValidationError, match=r"^input validation failed: city"):
            await weather.execute({"city": "paris"})
        # ECMA-262: "$" matches only at the very end, so a trailing newline fails.
        with pytest.raises(StandardToolValidationError, match="city"):
            await weather.execute({"city": "Paris\n"})
        with pytest.raises(StandardToolValidationError, match="city"):
            await weather.execute({})
    assert received == ["weather"]


async def test_error_results_raise_and_formatted_turns_them_into_data() -> None:
    srv, _ = hand_server()
    async with connected(srv) as session:
        tools = {t.name: t for t in await import_tools(session)}
        with pytest.raises(MCPToolError, match=r"^not today$") as caught:
            await tools["grumpy"].execute({})
        assert caught.value.content == ({"type": "text", "text": "not today"},)
        assert await tools["grumpy"].formatted().execute({}) == {"error": "not today"}
        refused = await tools["liar"].formatted().execute({})
        assert refused["error"].startswith("MCP tool 'liar': the server's result was refused")
        formatted = tools["weather"].formatted(lambda out: f"it is {out['celsius']} C")
        assert isinstance(formatted, MCPTool)
        assert formatted.annotations == tools["weather"].annotations
        assert await formatted.execute({"city": "Oslo"}) == "it is 21.5 C"


async def test_mixed_content_without_output_schema_comes_back_as_content_blocks() -> None:
    from standard_tool.content import Image, Text, ToolOutput

    srv, _ = hand_server()
    async with connected(srv) as session:
        pictures = (await import_tools(session))[3]
        assert await pictures.execute() == ToolOutput(
            [Text("a dot"), Image(b"\x00\x00\x00", "image/png")]
        )


async def test_several_servers_share_a_toolkit_with_prefixes_and_refuse_collisions() -> None:
    hand, _ = hand_server()
    async with connected(hand) as first, connected(server(mcp_targets.toolkit)) as second:
        a = await import_tools(first, prefix="hand_")
        b = await import_tools(second, prefix="ours_")
        kit = Toolkit([*a, *b, local_echo])
        assert "hand_weather" in kit.names
        assert "ours_add" in kit.names
        assert kit.get("ours_add").title is None
        added = await kit.aexecute("ours_add", {"a": 1, "b": 2})
        assert (added.success, added.value) == (True, {"result": 3})
        local = await kit.aexecute("local_echo", {"text": "hi"})
        assert local.value == "hi"
        bad = await kit.aexecute("ours_move", {"point": {"x": -1, "y": 0}})
        assert not bad.success
        assert bad.error is not None
        assert "point.x" in bad.error
        with pytest.raises(DuplicateToolNameError):
            Toolkit([*a, *await import_tools(first, prefix="hand_")])


async def test_imported_tools_convert_for_every_provider() -> None:
    async with connected(server(mcp_targets.toolkit)) as session:
        tools = await import_tools(session)
    strict = to_openai_chat(tools, strict=True)
    move = next(t for t in strict if t["function"]["name"] == "move")
    assert move["function"]["strict"] is True
    assert move["function"]["parameters"]["additionalProperties"] is False
    assert {t["name"] for t in to_anthropic(tools)} == {t.name for t in tools}
    gemini = to_gemini(tools)
    assert len(gemini) == len(tools)


async def test_a_models_tool_calls_run_on_imported_tools() -> None:
    async with connected(server(mcp_targets.toolkit)) as session:
        tools = await import_tools(session)
        message = {
            "role": "assistant",
            "tool_calls": [
                {
                    "id": "c1",
                    "type": "function",
                    "function": {"name": "add", "arguments": json.dumps({"a": 4, "b": 5})},
                },
                {
                    "id": "c2",
                    "type": "function",
                    "function": {"name": "code", "arguments": json.dumps({"value": "bad code"})},
                },
            ],
        }
        answers = await run_openai_chat_tool_calls(message, tools, strict=False)
    assert [a["tool_call_id"] for a in answers] == ["c1", "c2"]
    assert json.loads(answers[0]["content"]) == {"result": 9}
    assert answers[1]["content"].startswith("Error: input validation failed: value")


async def test_a_gateway_reserves_imported_tools_with_their_annotations() -> None:
    hand, _ = hand_server()
    async with connected(hand) as upstream:
        imported = await import_tools(upstream, prefix="up_")
        async with connected(server(imported, name="gateway")) as downstream:
            listed = {t.name: t for t in (await downstream.list_tools()).tools}
            weather = listed["up_weather"]
            assert weather.annotations is not None
            assert weather.annotations.read_only_hint is True
            assert weather.meta == {"example.com/owner": "team-a"}
            assert weather.title == "Weather"
            good = await downstream.call_tool("up_weather", {"city": "Rome"})
            assert good.structured_content == {"celsius": 21.5}
            bad = await downstream.call_tool("up_weather", {"city": "rome"})
            assert bad.is_error is True
            grumpy = await downstream.call_tool("up_grumpy", {})
            assert grumpy.is_error is True
            assert grumpy.content[0].text == "Error: MCPToolError: not today"  # type: ignore[union-attr]


def _nested(levels: int) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "string"}
    for _ in range(levels):
        schema = {"type": "object", "properties": {"a": schema}}
    return schema


HOSTILE_LISTING: list[dict[str, Any]] = [
    {"name": "a", "inputSchema": {"type": "object", "minProperties": "x"}},
    {"name": "b", "inputSchema": {"type": "object"}},
    {"name": "c", "inputSchema": {"type": "object", "pattern": "("}},
    {"name": "deep", "inputSchema": _nested(75)},  # 150 levels of the document
    {
        "name": "old",
        "inputSchema": {"$schema": "http://json-schema.org/draft-04/schema#", "type": "object"},
    },
    {
        "name": "dangling",
        "inputSchema": {"type": "object", "properties": {"x": {"$ref": "#/$defs/gone"}}},
    },
    {
        "name": "remote",
        "inputSchema": {
            "type": "object",
            "properties": {"x": {"$ref": "https://example.com/x.json"}},
        },
    },
    {
        "name": "bad_output",
        "inputSchema": {"type": "object"},
        "outputSchema": {"type": "object", "properties": {"r": {"$ref": "#/nowhere"}}},
    },
    {"name": "e", "inputSchema": {"type": "object", "properties": {"n": {"type": "integer"}}}},
]


def hostile_server() -> Server[Any]:
    async def on_list_tools(ctx: Any, params: Any) -> mcp_types.ListToolsResult:
        return mcp_types.ListToolsResult.model_validate({"tools": HOSTILE_LISTING})

    async def on_call_tool(ctx: Any, params: Any) -> mcp_types.CallToolResult:
        text = json.dumps(params.arguments)
        return mcp_types.CallToolResult.model_validate(
            {"content": [{"type": "text", "text": text}]}
        )

    return Server("hostile", on_list_tools=on_list_tools, on_call_tool=on_call_tool)


async def test_a_hostile_listing_keeps_the_good_tools_and_names_the_refused_ones() -> None:
    async with connected(hostile_server()) as session:
        with pytest.warns(MCPToolRefusedWarning) as caught:
            tools = await import_tools(session)
        assert [t.name for t in tools] == ["b", "e"]
        assert (await tools[1].execute({"n": 1})) == '{"n": 1}'
    (warning,) = [w.message for w in caught]  # one warning for the whole import
    assert isinstance(warning, MCPToolRefusedWarning)
    assert warning.count == 7
    refused = dict(warning.refused)
    assert list(refused) == ["a", "c", "deep", "old", "dangling"]  # the first five
    assert (warning.tool_name, warning.reason) == ("a", refused["a"])
    assert "minProperties" in refused["a"]
    assert "nests more than 96 levels deep" in refused["deep"]
    assert "unsupported $schema" in refused["old"]
    assert "points nowhere" in refused["dangling"]
    assert all(len(reason) <= 300 for reason in refused.values())
    assert str(warning).startswith("7 MCP tools left out: 'a' (")
    assert str(warning).endswith("; and 2 more")


async def test_a_server_of_a_thousand_unusable_tools_makes_one_bounded_warning() -> None:
    """One warning per import, naming the first few and counting the rest."""
    listing = [
        {"name": f"t{i}", "inputSchema": {"type": "object", "$ref": "#/$defs/gone"}}
        for i in range(1000)
    ]

    async def on_list_tools(ctx: Any, params: Any) -> mcp_types.ListToolsResult:
        return mcp_types.ListToolsResult.model_validate({"tools": listing})

    async with connected(Server("many", on_list_tools=on_list_tools)) as session:
        with pytest.warns(MCPToolRefusedWarning) as caught:
            assert await import_tools(session) == []
    (warning,) = [w.message for w in caught]
    assert isinstance(warning, MCPToolRefusedWarning)
    assert (warning.count, [name for name, _ in warning.refused]) == (
        1000,
        ["t0", "t1", "t2", "t3", "t4"],
    )
    assert str(warning).endswith("; and 995 more")
    assert len(str(warning)) < 2000


def test_the_refused_warning_pickles_intact() -> None:
    import pickle

    warning = MCPToolRefusedWarning([("a", "why"), ("b", "why not")], count=9)
    copy = pickle.loads(pickle.dumps(warning))
    assert (copy.refused, copy.count, str(copy)) == (warning.refused, 9, str(warning))


async def test_refused_tools_can_be_made_errors_with_a_warnings_filter() -> None:
    import warnings

    async with connected(hostile_server()) as session:
        with warnings.catch_warnings():
            warnings.simplefilter("error", MCPToolRefusedWarning)
            with pytest.raises(MCPToolRefusedWarning, match="7 MCP tools left out: 'a'"):
                await import_tools(session)


@pytest.mark.parametrize("bad", [-math.inf, math.nan, 0, True])
async def test_import_tools_refuses_a_degenerate_timeout(bad: Any) -> None:
    async with connected(server(mcp_targets.toolkit)) as session:
        with pytest.raises((TypeError, ValueError), match="import_tools: timeout: must be"):
            await import_tools(session, timeout=bad)


async def test_a_server_s_exponential_pattern_neither_freezes_nor_blocks_the_client() -> None:
    listing = [
        {
            "name": name,
            "inputSchema": {
                "type": "object",
                "properties": {"s": {"type": "string", "pattern": pattern}},
                "required": ["s"],
            },
        }
        for name, pattern in (("nested", "^(a+)+$"), ("alternation", "^(a|aa)+$"))
    ]

    async def on_list_tools(ctx: Any, params: Any) -> mcp_types.ListToolsResult:
        return mcp_types.ListToolsResult.model_validate({"tools": listing})

    srv = Server("redos", on_list_tools=on_list_tools)
    ticks = 0

    async def tick() -> None:
        nonlocal ticks
        while True:
            await anyio.sleep(0.01)
            ticks += 1

    async with connected(srv) as session:
        tools = {t.name: t for t in await import_tools(session)}
        for name in tools:
            async with anyio.create_task_group() as group:
                group.start_soon(tick)
                before = ticks
                with anyio.fail_after(60), pytest.raises(StandardToolValidationError) as raised:
                    await tools[name].execute({"s": "a" * 41 + "!"})
                during = ticks - before
                group.cancel_scope.cancel()
            assert raised.value.issues[0].path == ("s",)
            if name == "alternation":  # the budget ran out: the loop ran meanwhile
                assert "took too long to match" in raised.value.issues[0].message
                assert during > 0


async def test_a_json_rpc_error_of_a_live_server_is_reported_with_its_code_and_message() -> None:
    calls = 0

    async def on_list_tools(ctx: Any, params: Any) -> mcp_types.ListToolsResult:
        return mcp_types.ListToolsResult.model_validate(
            {"tools": [{"name": "busy", "inputSchema": {"type": "object"}}]}
        )

    async def on_call_tool(ctx: Any, params: Any) -> mcp_types.CallToolResult:
        nonlocal calls
        calls += 1
        if calls == 1:
            raise MCPError(-32000, "rate limited " + "x" * 5_000)
        return mcp_types.CallToolResult.model_validate(
            {"content": [{"type": "text", "text": "ok"}]}
        )

    srv = Server("busy", on_list_tools=on_list_tools, on_call_tool=on_call_tool)
    async with connected(srv) as session:
        (busy,) = await import_tools(session)
        with pytest.raises(MCPConnectionError) as raised:
            await busy.execute({})
        text = str(raised.value)
        assert text.startswith(
            "MCP tool 'busy': the server answered with error -32000: rate limited"
        )
        assert "closed" not in text
        assert len(text) < 500
        assert await busy.execute({}) == "ok"  # the session is still open


async def test_a_closed_session_gives_a_connection_error() -> None:
    async with connected(server(mcp_targets.toolkit)) as session:
        add = (await import_tools(session))[0]
    with anyio.fail_after(30):
        result = await Toolkit([add]).aexecute("add", {"a": 1})
    assert not result.success
    assert isinstance(result.exception, MCPConnectionError)
    assert result.error == "MCPConnectionError: MCP tool 'add': the connection is closed"


async def test_a_slow_server_times_out_as_an_error() -> None:
    async with connected(server(mcp_targets.toolkit)) as session:
        nap = next(t for t in await import_tools(session, timeout=0.5) if t.name == "nap")
        with pytest.raises(MCPConnectionError, match=r"^MCP tool 'nap': no answer within 0.5 s$"):
            await nap.execute({"seconds": 20})


async def test_a_crashed_stdio_server_becomes_an_error_result_not_a_hang() -> None:
    params = StdioServerParameters(
        command=sys.executable, args=[str(TESTS / "mcp_targets.py")], env=ENV
    )
    with anyio.fail_after(60):
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            kit = Toolkit(await import_tools(session, timeout=10))
            assert (await kit.aexecute("add", {"a": 1, "b": 1})).value == {"result": 2}
            crashed = await kit.aexecute("crash", {})
            assert not crashed.success
            assert isinstance(crashed.exception, MCPConnectionError)
            after = await kit.aexecute("add", {"a": 1})
            assert isinstance(after.exception, MCPConnectionError)


async def test_a_server_that_never_lists_its_tools_times_out() -> None:
    async def on_list_tools(ctx: Any, params: Any) -> mcp_types.ListToolsResult:
        await anyio.sleep_forever()
        raise AssertionError("unreachable")

    stuck = Server("stuck", on_list_tools=on_list_tools)
    async with connected(stuck) as session:
        with pytest.raises(MCPConnectionError, match=r"^MCP tools/list: no answer within 0.5 s$"):
            await import_tools(session, timeout=0.5)


async def test_a_huge_error_text_is_bounded() -> None:
    async def on_list_tools(ctx: Any, params: Any) -> mcp_types.ListToolsResult:
        return mcp_types.ListToolsResult.model_validate(
            {"tools": [{"name": "loud", "inputSchema": {"type": "object"}}]}
        )

    async def on_call_tool(ctx: Any, params: Any) -> mcp_types.CallToolResult:
        text = "x" * 1_000_000
        return mcp_types.CallToolResult.model_validate(
            {"content": [{"type": "text", "text": text}], "isError": True}
        )

    loud = Server("loud", on_list_tools=on_list_tools, on_call_tool=on_call_tool)
    async with connected(loud) as session:
        (tool,) = await import_tools(session)
        with pytest.raises(MCPToolError) as caught:
            await tool.execute()
    message = str(caught.value)
    assert len(message) <= 2000
    assert message.endswith("characters]")


async def test_a_gateway_forwards_the_upstream_progress_to_its_client() -> None:
    seen: list[tuple[float, float | None, str | None]] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        seen.append((progress, total, message))

    async with connected(server(mcp_targets.toolkit)) as upstream:
        imported = await import_tools(upstream, prefix="up_")
        async with connected(server(imported, name="gateway")) as downstream:
            result = await downstream.call_tool(
                "up_index", {"files": ["a", "b"]}, progress_callback=on_progress
            )
    assert result.is_error is False
    assert result.structured_content is not None
    assert result.structured_content["count"] == 2
    assert seen == [(1, 2, "indexed a"), (2, 2, "indexed b")]


async def test_an_imported_tool_hands_progress_to_the_running_call() -> None:
    heard: list[ProgressEvent] = []
    async with connected(server(mcp_targets.toolkit)) as session:
        steps = next(t for t in await import_tools(session) if t.name == "steps")
        result = await Toolkit([steps]).aexecute(
            "steps", {"n": 2}, call_id="outer_1", on_progress=heard.append
        )
    assert result.value == {"result": "step 2"}  # the wrapped structuredContent
    assert [(e.progress, e.message, e.call_id) for e in heard] == [
        (1, "step 1", "outer_1"),
        (2, "step 2", "outer_1"),
    ]


async def test_the_calls_deadline_bounds_an_imported_tool() -> None:
    async with connected(server(mcp_targets.toolkit)) as session:
        nap = next(t for t in await import_tools(session, timeout=30) if t.name == "nap")
        token = enter(ToolContext("nap", timeout=0.3))
        try:
            # The bound is what was left of the call's 0.3 s when the request went out
            # (0.299 s on a busy machine), not the import's 30 s.
            with pytest.raises(
                MCPConnectionError, match=r"^MCP tool 'nap': no answer within 0\.[0-3]\d* s$"
            ):
                await nap.execute({"seconds": 20})
        finally:
            leave(token)
        # Outside a call the tool's own timeout holds.
        assert await nap.execute({"seconds": 0}) == {"result": "awake"}


async def test_an_imported_tool_streams_the_servers_progress_then_its_result() -> None:
    async with connected(server(mcp_targets.toolkit)) as session:
        plain = {t.name: t for t in await import_tools(session)}
        prefixed = {t.name: t for t in await import_tools(session, prefix="fs_")}
        events = [e async for e in plain["steps"].stream({"n": 2})]
        labelled = [e async for e in prefixed["fs_steps"].stream({"n": 1})]
        renamed = Toolkit([plain["steps"]]).with_prefix("up_").get("up_steps")
        relabelled = [e async for e in renamed.stream({"n": 1})]
    *progress, result = events
    assert [(e.progress, e.message, e.tool_name) for e in progress] == [
        (1, "step 1", "steps"),
        (2, "step 2", "steps"),
    ]
    assert isinstance(result, ResultEvent)
    assert (result.value, result.error, result.tool_name) == ({"result": "step 2"}, None, "steps")
    assert {e.tool_name for e in labelled} == {"fs_steps"}
    assert {e.tool_name for e in relabelled} == {"up_steps"}
    assert len(labelled) == len(relabelled) == 2


async def test_a_prefixed_tools_stream_is_labelled_with_the_prefixed_name() -> None:
    events = [
        e
        async for e in Toolkit([local_echo])
        .with_prefix("my_")
        .get("my_local_echo")
        .stream({"text": "hi"}, None)
    ]
    assert [(type(e).__name__, e.tool_name) for e in events] == [("ResultEvent", "my_local_echo")]
    assert isinstance(events[-1], ResultEvent)
    assert events[-1].value == "hi"
