"""Tools that talk back to their caller: log, elicit, sample (shared by the caller tests)."""

from __future__ import annotations

from standard_tool import ToolContext, tool


@tool
async def chatty(ctx: ToolContext) -> str:
    """Log at three levels."""
    await ctx.log("debug", "looking")
    await ctx.log("info", "found it", logger="search")
    await ctx.log("error", {"code": 7})
    return "done"


@tool
async def sign_up(ctx: ToolContext) -> str:
    """Ask the user for a name."""
    schema = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}
    answer = await ctx.elicit("Who are you?", schema)
    return f"{answer.action}: {answer.content}"


@tool
async def haiku(topic: str, ctx: ToolContext) -> str:
    """Ask the caller's model for a haiku."""
    return await ctx.sample(f"A haiku about {topic}", system="Be brief.", max_tokens=50)


TOOLS = [chatty, sign_up, haiku]


@tool
def chatty_sync(ctx: ToolContext) -> str:
    """Log at three levels, from a sync tool."""
    ctx.log_sync("debug", "looking")
    ctx.log_sync("info", "found it", logger="search")
    ctx.log_sync("error", {"code": 7})
    return "done"


@tool
def sign_up_sync(ctx: ToolContext) -> str:
    """Ask the user for a name, from a sync tool."""
    schema = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}
    answer = ctx.elicit_sync("Who are you?", schema)
    return f"{answer.action}: {answer.content}"


@tool
def haiku_sync(topic: str, ctx: ToolContext) -> str:
    """Ask the caller's model for a haiku, from a sync tool."""
    return ctx.sample_sync(f"A haiku about {topic}", system="Be brief.", max_tokens=50)


SYNC_TOOLS = [chatty_sync, sign_up_sync, haiku_sync]
