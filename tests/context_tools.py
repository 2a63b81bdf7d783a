"""Tools that read the call context, for the framework bridge tests."""

from __future__ import annotations

from typing import Any

from standard_tool import ToolContext, current_context, tool


@tool
def whoami(sku: str, ctx: ToolContext) -> dict[str, Any]:
    """Say which call this is.

    Args:
        sku: any product code.
    """
    running = current_context()
    assert running is ctx
    return {"sku": sku, "tool": ctx.tool_name, "call": ctx.call_id, "raw": ctx.arguments}


@tool(timeout=0.05)
def crawl(ctx: ToolContext) -> str:
    """Crawl until told to stop."""
    while not ctx.wait(1.0):
        pass
    return "stopped"


@tool
def index(files: list[str], ctx: ToolContext) -> int:
    """Index some files, reporting progress.

    Args:
        files: the files to index.
    """
    for done, name in enumerate(files, start=1):
        ctx.report_progress(done, len(files), f"indexed {name}")
    return len(files)
