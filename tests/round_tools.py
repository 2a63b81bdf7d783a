"""Tools that ask their client (shared by the multi-round tests and their HTTP server).

``make_app()`` serves them over stateless Streamable HTTP with JSON answers, signing
the request state with the keys in ``STANDARD_TOOL_STATE_KEYS``:
``uvicorn --factory round_tools:make_app``.
"""

from __future__ import annotations

import asyncio

from standard_tool import CallerUnavailableError, ToolContext, tool

NAME = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}
COLOUR = {"type": "object", "properties": {"c": {"type": "string"}}}
RUNS: list[str] = []


@tool
async def greet(ctx: ToolContext) -> str:
    """Ask a name and a colour, one after the other."""
    RUNS.append("greet")
    name = await ctx.elicit("Name?", NAME)
    colour = await ctx.elicit(
        "Colour?", {"type": "object", "properties": {"c": {"type": "string"}}}
    )
    return f"{(name.content or {}).get('name')} likes {(colour.content or {}).get('c')}"


@tool
async def together(ctx: ToolContext) -> str:
    """Ask the user, the model and the roots in one round."""
    answer, text, roots = await asyncio.gather(
        ctx.elicit("Name?", NAME), ctx.sample("Hi?", max_tokens=5), ctx.roots()
    )
    return f"{answer.action} {text} {[root.uri for root in roots]}"


@tool
def greet_sync(ctx: ToolContext) -> str:
    """Ask a name from a sync tool, then list the roots."""
    name = ctx.elicit_sync("Name?", NAME, key="who")
    roots = ctx.roots_sync()
    return f"{(name.content or {}).get('name')} in {[root.name for root in roots]}"


@tool
async def careless(ctx: ToolContext) -> str:
    """Catch every Exception around the question: the round still stops it."""
    try:
        answer = await ctx.elicit("Name?", NAME)
    except Exception as exc:  # the handler's own catch-all
        return f"caught {type(exc).__name__}"
    return f"got {answer.action}"


@tool
async def sample_or_not(ctx: ToolContext) -> str:
    """Sample when the client can; say so otherwise."""
    try:
        return await ctx.sample("Hi?", max_tokens=5)
    except CallerUnavailableError as exc:
        return f"no sampling: {exc.capability}"


@tool
async def must_sample(ctx: ToolContext) -> str:
    """Sample, without catching anything."""
    return await ctx.sample("Hi?", max_tokens=5)


@tool
def plain(n: int) -> int:
    """Double n."""
    return 2 * n


TOOLS = [greet, together, greet_sync, careless, sample_or_not, must_sample, plain]


def make_app() -> object:
    """Serve ``TOOLS`` statelessly (several processes may share the keys and the load)."""
    from standard_tool.mcp import http_app

    return http_app(TOOLS, stateless=True, json_response=True)
