"""Tools that put any text in any field a client receives (issue 35's hostile server).

``emit`` and ``emit_sync`` build a string from code points (so a lone surrogate,
which no client can send, reaches the tool) and put it in the field named:
a log message, a logger name, an elicitation's message or schema, a sampling
prompt, a progress message, a content block's field, the structured value, or
the tool's own exception. ``python tests/mcp_hostile_targets.py`` serves them
over stdio; ``python tests/mcp_hostile_targets.py http PORT`` over Streamable HTTP.
"""

from __future__ import annotations

import sys
import threading
from typing import Any

from standard_tool import ToolContext, tool
from standard_tool.content import EmbeddedResource, Image, ResourceLink, Text, ToolOutput

#: Every field ``emit`` can put its text in.
FIELDS = (
    "log_message",
    "log_data_key",
    "logger",
    "elicit_message",
    "elicit_schema",
    "sample_prompt",
    "sample_system",
    "progress",
    "plain",
    "text",
    "structured",
    "structured_key",
    "link_uri",
    "link_name",
    "link_title",
    "link_description",
    "link_mime",
    "image_mime",
    "resource_uri",
    "resource_text",
    "resource_mime",
    "error",
)

_OBJECT = {"type": "object", "properties": {"name": {"type": "string"}}}


def _output(field: str, text: str) -> Any:
    if field == "plain":
        return text
    if field == "text":
        return ToolOutput([Text(text)])
    if field == "structured":
        return ToolOutput([Text("data")], {"value": text})
    if field == "structured_key":
        return ToolOutput([], {text: 1})
    if field.startswith("link_"):
        values = {"uri": "file:///a", "name": "a", field[5:]: text}
        return ResourceLink(
            values["uri"],
            values["name"],
            mime_type=values.get("mime"),
            title=values.get("title"),
            description=values.get("description"),
        )
    if field == "image_mime":
        return Image(b"\x89PNG", text)
    if field == "resource_uri":
        return EmbeddedResource(text, text="body")
    if field == "resource_text":
        return EmbeddedResource("file:///a", text=text)
    if field == "resource_mime":
        return EmbeddedResource("file:///a", blob=b"%PDF", mime_type=text)
    if field == "error":
        raise RuntimeError(text)
    return "done"


@tool
async def emit(field: str, codes: list[int], ctx: ToolContext) -> Any:
    """Put the text of ``codes`` in ``field`` of what this call sends.

    Args:
        field: where the text goes.
        codes: the text's code points (lone surrogates allowed).
    """
    text = "".join(map(chr, codes))
    if field == "log_message":
        await ctx.log("info", text)
    elif field == "log_data_key":
        await ctx.log("info", {text: [text]})
    elif field == "logger":
        await ctx.log("info", "hello", logger=text)
    elif field == "elicit_message":
        await ctx.elicit(text, _OBJECT)
    elif field == "elicit_schema":
        await ctx.elicit("name?", {"type": "object", "properties": {"n": {"title": text}}})
    elif field == "sample_prompt":
        await ctx.sample(text)
    elif field == "sample_system":
        await ctx.sample("hi", system=text)
    elif field == "progress":
        ctx.report_progress(1, 2, text)
    return _output(field, text)


@tool
def emit_sync(field: str, codes: list[int], ctx: ToolContext) -> Any:
    """``emit`` from a sync tool.

    Args:
        field: where the text goes.
        codes: the text's code points (lone surrogates allowed).
    """
    text = "".join(map(chr, codes))
    if field == "log_message":
        ctx.log_sync("info", text)
    elif field == "log_data_key":
        ctx.log_sync("info", {text: [text]})
    elif field == "logger":
        ctx.log_sync("info", "hello", logger=text)
    elif field == "elicit_message":
        ctx.elicit_sync(text, _OBJECT)
    elif field == "elicit_schema":
        ctx.elicit_sync("name?", {"type": "object", "properties": {"n": {"title": text}}})
    elif field == "sample_prompt":
        ctx.sample_sync(text)
    elif field == "sample_system":
        ctx.sample_sync("hi", system=text)
    elif field == "progress":
        ctx.report_progress(1, 2, text)
    return _output(field, text)


@tool
async def log_odd(kind: str, ctx: ToolContext) -> str:
    """Log data that is not JSON: bytes, an object, a list 5,000 deep.

    Args:
        kind: ``bytes``, ``object`` or ``deep``.
    """
    data: Any = b"\xff\x00raw"
    if kind == "object":
        data = object()
    elif kind == "deep":
        for _ in range(5000):
            data = [data]
    await ctx.log("info", data)
    return "logged"


@tool
def add(a: int, b: int) -> int:
    """Add two integers.

    Args:
        a: the first.
        b: the second.
    """
    return a + b


_NEVER = threading.Event()


@tool
def hang() -> str:
    """Block far past any deadline, ignoring it (a thread cannot be stopped)."""
    _NEVER.wait(3600)
    return "late"


TOOLS = [emit, emit_sync, log_odd, add, hang]


if __name__ == "__main__":
    from standard_tool.mcp import serve

    if sys.argv[1:2] == ["http"]:
        serve(TOOLS, transport="http", port=int(sys.argv[2]), timeout=float(sys.argv[3]))
    else:
        serve(TOOLS, timeout=float(sys.argv[1]) if len(sys.argv) > 1 else None)
