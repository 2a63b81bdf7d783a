"""Rich content over MCP: each kind served, read by the SDK client, passed on by a gateway."""

from __future__ import annotations

import base64
from typing import Any

import anyio
import pytest
from mcp import Client, ClientSession, types

from standard_tool import standard_tool
from standard_tool.content import (
    Audio,
    EmbeddedResource,
    Image,
    ResourceLink,
    Text,
    ToolOutput,
    fallback_text,
    rich_output,
)
from standard_tool.mcp import import_tools, server
from standard_tool.providers import mcp_call_tool_result
from tests import content_tools as c


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


async def _check_each_kind(session: ClientSession) -> None:
    image = await session.call_tool("show_image", {})
    assert image.is_error is False
    [block] = image.content
    assert block.type == "image"
    assert (block.data, block.mime_type) == (_b64(c.PNG), "image/png")

    audio = await session.call_tool("play_audio", {})
    [block] = audio.content
    assert block.type == "audio"
    assert (block.data, block.mime_type) == (_b64(c.WAV), "audio/wav")

    link = await session.call_tool("link_file", {})
    text, ref = link.content
    assert text.type == "text"
    assert text.text == "see"
    assert ref.type == "resource_link"
    assert (str(ref.uri), ref.name, ref.mime_type, ref.size) == (
        "file:///reports/q3.pdf",
        "q3.pdf",
        "application/pdf",
        len(c.PDF),
    )

    embedded = await session.call_tool("embed_resources", {})
    notes, pdf = embedded.content
    assert notes.type == "resource"
    assert pdf.type == "resource"
    dumped = [b.model_dump(mode="json", by_alias=True, exclude_none=True) for b in (notes, pdf)]
    assert dumped[0]["resource"] == {
        "uri": "test://notes.txt",
        "mimeType": "text/plain",
        "text": "some notes",
    }
    assert dumped[1]["resource"]["blob"] == _b64(c.PDF)

    mixed = await session.call_tool("chart", {})
    assert [b.type for b in mixed.content] == ["text", "image"]
    assert mixed.structured_content == {"points": 1}


async def test_each_content_kind_reaches_the_official_client() -> None:
    with anyio.fail_after(60):
        async with Client(server(c.ALL)) as client:
            await _check_each_kind(client.session)


async def test_the_gateway_passes_upstream_content_through_unchanged() -> None:
    with anyio.fail_after(60):
        async with Client(server(c.ALL)) as upstream:
            imported = await import_tools(upstream.session)
            image = await imported[0].execute({})
            assert image == ToolOutput([c.IMAGE])
            async with Client(server(imported)) as client:
                await _check_each_kind(client.session)


def test_a_structured_value_alone_is_also_its_json_text() -> None:
    result = mcp_call_tool_result(ToolOutput(structured=[1, 2]))
    assert result == {
        "content": [{"type": "text", "text": "[1, 2]"}],
        "structuredContent": {"result": [1, 2]},
        "isError": False,
    }


def test_a_structured_value_too_large_is_an_error_not_a_cut() -> None:
    result = mcp_call_tool_result(ToolOutput([c.IMAGE], structured="x" * 50), max_chars=10)
    assert result["isError"] is True
    assert "too large" in str(result["content"][0])


def test_rich_output_reads_blocks_and_leaves_plain_data() -> None:
    assert rich_output(c.IMAGE) == ToolOutput([c.IMAGE])
    assert rich_output([Text("a"), c.AUDIO]) == ToolOutput([Text("a"), c.AUDIO])
    assert rich_output([Text("a"), "b"]) is None
    assert rich_output([]) is None
    assert rich_output({"a": 1}) is None


def test_blocks_refuse_wrong_types_with_the_field_named() -> None:
    import pytest

    with pytest.raises(TypeError, match=r"Image\.data must be bytes, not str"):
        Image("abc", "image/png")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="exactly one of text= and blob="):
        EmbeddedResource("x://y")
    with pytest.raises(TypeError, match=r"ToolOutput\.content\[1\] must be a content block"):
        ToolOutput([Text("a"), {"type": "text"}])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="must be a list of content blocks"):
        ToolOutput("text")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: Image(b"x", 5), r"Image\.mime_type must be str, not int"),
        (lambda: Audio(b"x", None), r"Audio\.mime_type must be str, not NoneType"),
        (lambda: ResourceLink("u", "n", mime_type=5), r"ResourceLink\.mime_type must be str or"),
        (lambda: ResourceLink("u", "n", title=b"t"), r"ResourceLink\.title must be str or None"),
        (lambda: ResourceLink("u", "n", description=1), r"ResourceLink\.description must be"),
        (lambda: ResourceLink("u", "n", size="big"), r"ResourceLink\.size must be int or None"),
        (lambda: ResourceLink("u", "n", size=True), r"ResourceLink\.size must be int or None"),
        (lambda: ResourceLink("u", "n", size=-1), r"ResourceLink\.size must be 0 or more"),
        (lambda: EmbeddedResource("u", text="t", mime_type=5), r"EmbeddedResource\.mime_type"),
    ],
)
def test_every_field_of_a_block_is_checked_where_it_is_given(make: Any, message: str) -> None:
    """A wrong type never reaches a client as an invalid result (-32603)."""
    with pytest.raises((TypeError, ValueError), match=message):
        make()


def test_fallback_text_names_kind_size_and_consumer_and_is_bounded() -> None:
    assert fallback_text(Audio(b"12", "audio/wav"), "X") == (
        "[audio/wav audio, 2 bytes: X tool results cannot carry audio]"
    )
    assert fallback_text(c.TEXT_RESOURCE, "X") == "[resource test://notes.txt]\nsome notes"
    assert fallback_text(ResourceLink("u://" + "a" * 5000, "n"), "X").endswith("...]")
    assert len(fallback_text(ResourceLink("u://" + "a" * 5000, "n"), "X")) < 300
    assert "4 bytes" in fallback_text(EmbeddedResource("u://f", blob=b"1234"), "X")


def _upstream_with_an_output_schema() -> Any:
    """The SDK's own low-level server: a tool with an outputSchema that answers an image too."""
    from mcp.server.lowlevel import Server

    chart = {
        "name": "chart",
        "description": "Draw a chart.",
        "inputSchema": {"type": "object", "properties": {}},
        "outputSchema": {
            "type": "object",
            "properties": {"points": {"type": "integer"}},
            "required": ["points"],
        },
    }

    async def on_list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult.model_validate({"tools": [chart]})

    async def on_call_tool(ctx: Any, params: Any) -> types.CallToolResult:
        answer = {
            "content": [
                {"type": "text", "text": "A red dot:"},
                {"type": "image", "data": _b64(c.PNG), "mimeType": "image/png"},
            ],
            "structuredContent": {"points": 1},
        }
        return types.CallToolResult.model_validate(answer)

    return Server("upstream", on_list_tools=on_list_tools, on_call_tool=on_call_tool)


async def test_an_imported_tool_with_an_output_schema_keeps_its_content_beside_it() -> None:
    with anyio.fail_after(60):
        async with Client(_upstream_with_an_output_schema()) as upstream:
            [chart] = await import_tools(upstream.session)
            assert await chart.execute({}) == ToolOutput(
                [Text("A red dot:"), c.IMAGE], structured={"points": 1}
            )
            async with Client(server([chart])) as client:
                again = await client.session.call_tool("chart", {})
    assert [b.type for b in again.content] == ["text", "image"]
    assert again.content[1].data == _b64(c.PNG)  # type: ignore[union-attr]
    assert again.structured_content == {"points": 1}


async def test_a_plain_value_round_trips_through_serve_and_import() -> None:
    """No outputSchema: no structuredContent invented for it; the text is the value."""
    ping = standard_tool(name="ping", description="Answer pong.", execute=lambda: "pong")
    point = standard_tool(name="point", description="A point.", execute=lambda: {"x": 1})
    with anyio.fail_after(60):
        async with Client(server([ping, point])) as upstream:
            answered = await upstream.session.call_tool("ping", {})
            assert answered.structured_content is None
            assert answered.content[0].text == "pong"  # type: ignore[union-attr]
            imported = {t.name: t for t in await import_tools(upstream.session)}
            assert await imported["ping"].execute({}) == "pong"
            assert await imported["point"].execute({}) == {"x": 1}
