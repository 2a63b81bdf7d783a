"""Tools the MCP tests serve: in process, as a stdio subprocess, and under uvicorn.

``python tests/mcp_targets.py`` serves them over stdio; ``make_app`` is the app
factory uvicorn imports for the multi-worker test.
"""

from __future__ import annotations

import os
import sys
from collections.abc import AsyncIterator
from typing import Annotated, Any

from pydantic import BaseModel, Field

from standard_tool import ToolContext, Toolkit, current_context, tool
from standard_tool.mcp import http_app, serve


class Point(BaseModel):
    """A point on a grid."""

    x: int = Field(ge=0)
    y: int = Field(ge=0)


class Moved(BaseModel):
    """Where a point ended up."""

    x: int
    y: int
    worker: int


@tool
def add(a: int, b: int = 0) -> int:
    """Add two integers.

    Args:
        a: the first number.
        b: the second number.
    """
    return a + b


@tool(title="Move a point")
def move(point: Point, dx: int = 0, dy: int = 0) -> Moved:
    """Move a point on the grid.

    Args:
        point: where to start.
        dx: steps right.
        dy: steps down.
    """
    return Moved(x=point.x + dx, y=point.y + dy, worker=os.getpid())


@tool
def code(value: Annotated[str, Field(pattern=r"^[A-Z]{2}-\d+$")]) -> str:
    """Echo a product code.

    Args:
        value: a code like AB-12.
    """
    return value


@tool
def explode(reason: str) -> str:
    """Always fail.

    Args:
        reason: the message of the error.
    """
    raise RuntimeError(reason)


@tool
def crash() -> str:
    """End the server process at once, mid-call."""
    sys.stdout.flush()
    os._exit(3)


@tool
async def nap(seconds: float) -> str:
    """Sleep, then answer.

    Args:
        seconds: how long.
    """
    import anyio

    await anyio.sleep(seconds)
    return "awake"


@tool
async def steps(n: int) -> AsyncIterator[str]:
    """Work through n steps, saying each one.

    Args:
        n: how many steps.
    """
    import anyio

    for i in range(1, n + 1):
        await anyio.lowlevel.checkpoint()
        yield f"step {i}"


@tool
def index(files: list[str], ctx: ToolContext) -> dict[str, Any]:
    """Index some files, reporting progress; say which call it was.

    Args:
        files: the files to index.
    """
    for done, name in enumerate(files, start=1):
        ctx.report_progress(done, len(files), f"indexed {name}")
    running = current_context()
    assert running is not None
    return {"count": len(files), "call": ctx.call_id, "same": running.call_id == ctx.call_id}


toolkit = Toolkit([add, move, code, explode, crash, nap, steps, index])


def make_app() -> object:
    """The app factory for ``uvicorn --factory tests.mcp_targets:make_app``."""
    return http_app(toolkit, stateless=True, json_response=True)


if __name__ == "__main__":
    serve(toolkit)
