"""Tools that run as tasks (shared by the task tests and their HTTP server).

``make_app()`` serves them over stateless Streamable HTTP with JSON answers, the
tasks in the store ``TASK_STORE_URL`` names (``memory`` by default, or a
``redis://`` URL): ``uvicorn --factory task_tools:make_app``.
"""

from __future__ import annotations

import asyncio
import os
import threading

from standard_tool import ToolContext, tool

NAME = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}


@tool
async def sleepy(seconds: float) -> str:
    """Sleep, then say so (a task past a fifth of a second)."""
    await asyncio.sleep(seconds)
    return f"slept {seconds:g} s"


@tool
def sleepy_sync(seconds: float, ctx: ToolContext) -> str:
    """Sleep in a worker thread, waking when cancelled."""
    if ctx.wait(seconds):
        return "cancelled"
    return f"slept {seconds:g} s in {threading.current_thread().name}"


@tool
async def ask_later(ctx: ToolContext) -> str:
    """Work a little, then ask a name on the task."""
    await asyncio.sleep(0.4)
    answer = await ctx.elicit("Name?", NAME)
    return f"Hello, {(answer.content or {}).get('name')}!"


@tool
async def broken() -> str:
    """Fail after a while with a tool error."""
    await asyncio.sleep(0.4)
    raise ValueError("no luck")


TOOLS = [sleepy, sleepy_sync, ask_later, broken]
SUPPORT = {
    "sleepy": "optional",
    "sleepy_sync": "optional",
    "ask_later": "optional",
    "broken": "required",
}


def options() -> object:
    """The task options of ``make_app``: quick to become tasks, to poll and to give up."""
    from standard_tool.mcp import MemoryTaskStore, RedisTaskStore, TaskOptions

    where = os.environ.get("TASK_STORE_URL", "memory")
    store = MemoryTaskStore() if where == "memory" else RedisTaskStore(where, timeout=1.0)
    return TaskOptions(SUPPORT, store=store, after=0.2, poll=0.05, lease=1.5, ttl=60)  # type: ignore[arg-type]


def make_app() -> object:
    """Serve ``TOOLS`` statelessly, tasks in the store ``TASK_STORE_URL`` names.

    Answers are JSON bodies, or event streams when ``TASK_EVENTS`` is set (what
    ``subscriptions/listen`` needs).
    """
    from standard_tool.mcp import http_app

    json_response = not os.environ.get("TASK_EVENTS")
    return http_app(TOOLS, stateless=True, json_response=json_response, tasks=options())
