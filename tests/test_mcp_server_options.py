"""One-call serving is a full SDK server: resources, prompts, completions and options
handed to the SDK, Host/Origin checks on by default, schemas kept as written on request,
``register`` inside the server's middleware chain, and ``_meta`` kept by ``to_mcp``.

Driven by the official MCP Python client and Starlette's test client.
"""

from __future__ import annotations

from typing import Any

import anyio
import pytest
from mcp import Client, types
from mcp.server import MCPServer
from starlette.testclient import TestClient

from standard_tool import standard_tool, tool
from standard_tool.mcp import http_app, register, server
from standard_tool.providers import to_mcp
from standard_tool.schemas import as_standard_schema
from tests import mcp_targets


async def _resources(ctx: Any, params: Any) -> types.ListResourcesResult:
    return types.ListResourcesResult(
        resources=[types.Resource(uri="test://hello", name="hello", mime_type="text/plain")]
    )


async def _read(ctx: Any, params: types.ReadResourceRequestParams) -> types.ReadResourceResult:
    contents = types.TextResourceContents(uri=params.uri, text="hello", mime_type="text/plain")
    return types.ReadResourceResult(contents=[contents])


async def _prompts(ctx: Any, params: Any) -> types.ListPromptsResult:
    return types.ListPromptsResult(prompts=[types.Prompt(name="greet")])


async def _prompt(ctx: Any, params: types.GetPromptRequestParams) -> types.GetPromptResult:
    message = types.PromptMessage(role="user", content=types.TextContent(type="text", text="hi"))
    return types.GetPromptResult(messages=[message])


async def _complete(ctx: Any, params: types.CompleteRequestParams) -> types.CompleteResult:
    return types.CompleteResult(completion=types.Completion(values=["paris", "pau"]))


async def test_resources_prompts_completions_and_options_go_to_the_sdk() -> None:
    srv = server(
        mcp_targets.toolkit,
        instructions="Use add to add.",
        version="1.2.3",
        on_list_resources=_resources,
        on_read_resource=_read,
        on_list_prompts=_prompts,
        on_get_prompt=_prompt,
        on_completion=_complete,
    )
    with anyio.fail_after(60):
        async with Client(srv) as client:
            session = client.session
            added = await session.call_tool("add", {"a": 1, "b": 2})
            assert added.structured_content == {"result": 3}
            listed = await session.list_resources()
            assert [str(r.uri) for r in listed.resources] == ["test://hello"]
            read = await session.read_resource("test://hello")
            assert read.contents[0].text == "hello"  # type: ignore[union-attr]
            prompts = await session.list_prompts()
            assert [p.name for p in prompts.prompts] == ["greet"]
            prompt = await session.get_prompt("greet")
            assert prompt.messages[0].content.text == "hi"  # type: ignore[union-attr]
            done = await session.complete(
                types.PromptReference(type="ref/prompt", name="greet"),
                {"name": "city", "value": "pa"},
            )
            assert done.completion.values == ["paris", "pau"]
    assert (srv.instructions, srv.version) == ("Use add to add.", "1.2.3")


def test_the_tool_handlers_cannot_be_replaced() -> None:
    async def mine(ctx: Any, params: Any) -> Any:
        raise AssertionError

    with pytest.raises(TypeError, match="do not pass on_call_tool"):
        server(mcp_targets.toolkit, on_call_tool=mine)


INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "t", "version": "0"},
    },
}
ACCEPT = {"accept": "application/json, text/event-stream", "content-type": "application/json"}


def _status(client: TestClient, **headers: str) -> int:
    answer = client.post("/mcp", json=INITIALIZE, headers={**ACCEPT, **headers})
    return answer.status_code


@pytest.mark.parametrize("host", ["127.0.0.1", "0.0.0.0", "mcp.example.com"])
def test_host_and_origin_checks_are_on_by_default(host: str) -> None:
    app = http_app(mcp_targets.toolkit, host=host, stateless=True, json_response=True)
    with TestClient(app) as client:
        assert _status(client, host="127.0.0.1:8000") == 200
        assert _status(client, host="evil.example:8000") == 421
        assert _status(client, host="127.0.0.1:8000", origin="http://evil.example") == 403
        named = 421 if host == "0.0.0.0" else 200
        assert _status(client, host=f"{host}:8000") == named


def test_allowed_hosts_and_origins_extend_the_checks() -> None:
    app = http_app(
        mcp_targets.toolkit,
        host="0.0.0.0",
        stateless=True,
        json_response=True,
        allowed_hosts=["api.example.com"],
        allowed_origins=["https://app.example.com"],
    )
    with TestClient(app) as client:
        assert _status(client, host="api.example.com") == 200
        assert _status(client, host="api.example.com", origin="https://app.example.com") == 200
        assert _status(client, host="api.example.com", origin="https://evil.example") == 403
    open_app = http_app(
        mcp_targets.toolkit, stateless=True, json_response=True, allowed_hosts=["*"]
    )
    with TestClient(open_app) as client:
        assert _status(client, host="anything.example", origin="http://x.example") == 200


SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "$defs": {"city": {"type": "string", "minLength": 1}},
    "properties": {"city": {"$ref": "#/$defs/city"}},
    "required": ["city"],
}


async def test_keep_schemas_declares_them_as_written() -> None:
    weather = standard_tool(
        name="weather",
        description="Tell the weather.",
        input_schema=as_standard_schema(SCHEMA),
        execute=lambda value: f"sunny in {value['city']}",
    )
    with anyio.fail_after(60):
        async with Client(server([weather], keep_schemas=True)) as client:
            kept = (await client.session.list_tools()).tools[0].input_schema
            result = await client.session.call_tool("weather", {"city": "Oslo"})
        async with Client(server([weather])) as client:
            inlined = (await client.session.list_tools()).tools[0].input_schema
    assert kept == SCHEMA
    assert result.is_error is False
    assert "$schema" not in inlined
    assert "$defs" not in inlined
    assert inlined["properties"]["city"] == {"type": "string", "minLength": 1}


async def test_register_keeps_the_servers_middleware_chain() -> None:
    seen: list[tuple[str, object]] = []

    async def record(ctx: Any, call_next: Any) -> Any:
        params = ctx.params or {}
        seen.append((ctx.method, params.get("name")))
        return await call_next(ctx)

    srv = MCPServer("existing")
    srv.middleware.append(record)
    register(srv, mcp_targets.toolkit)
    with anyio.fail_after(60):
        async with Client(srv) as client:
            added = await client.session.call_tool("add", {"a": 2, "b": 2})
            listed = await client.session.list_tools()
    assert added.structured_content == {"result": 4}
    assert "add" in {t.name for t in listed.tools}
    assert ("tools/call", "add") in seen
    assert ("tools/list", None) in seen


async def test_to_mcp_and_the_servers_keep_meta() -> None:
    @tool(metadata={"owner": "maps-team", "tags": ["geo"]})
    def where(city: str) -> str:
        """Say where a city is."""
        return f"{city} is on the map"

    assert to_mcp(where)["_meta"] == {"owner": "maps-team", "tags": ["geo"]}
    with anyio.fail_after(60):
        async with Client(server([where])) as client:
            listed = (await client.session.list_tools()).tools
    assert listed[0].meta == {"owner": "maps-team", "tags": ["geo"]}


def test_http_app_hands_server_options_to_the_sdk() -> None:
    app = http_app(
        mcp_targets.toolkit,
        stateless=True,
        json_response=True,
        instructions="Use add to add.",
        on_list_resources=_resources,
        http_options={"max_request_body_size": 10_000},
    )
    with TestClient(app, base_url="http://127.0.0.1:8000") as client:
        answer = client.post("/mcp", json=INITIALIZE, headers=ACCEPT).json()["result"]
        too_big = client.post("/mcp", content=b" " * 20_000, headers=ACCEPT)
    assert answer["instructions"] == "Use add to add."
    assert "resources" in answer["capabilities"]
    assert too_big.status_code == 413
