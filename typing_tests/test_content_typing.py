"""Typing promises of rich results and the caller context. Never executed."""

from __future__ import annotations

from typing import Any

from typing_extensions import assert_type

from standard_tool import Caller, Elicitation, ToolContext, use_caller
from standard_tool.content import Content, Image, Text, ToolOutput, rich_output

out = ToolOutput([Text("a"), Image(b"", "image/png")], {"n": 1})
assert_type(out, ToolOutput[dict[str, int]])
assert_type(out.content, tuple[Content, ...])
assert_type(out.structured, dict[str, int] | None)
assert_type(ToolOutput([Text("a")]).structured, Any | None)
assert_type(rich_output(out), ToolOutput[Any] | None)


async def handlers(ctx: ToolContext) -> None:
    assert_type(await ctx.elicit("name?", {"type": "object"}), Elicitation)
    assert_type(await ctx.sample("hi"), str)
    assert_type(await ctx.log("info", "x"), None)

    async def ask(message: str, schema: dict[str, Any]) -> Elicitation:
        return Elicitation("accept", {})

    with use_caller(elicit=ask) as caller:
        assert_type(caller, Caller)
