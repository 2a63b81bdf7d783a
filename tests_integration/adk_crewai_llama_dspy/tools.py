"""The tools every framework test of this environment hands to its framework's agent."""

from __future__ import annotations

import asyncio
from typing import Any

from standard_tool import tool
from standard_tool.content import Image, Text, ToolOutput


@tool
def tag_count(tags: dict[str, str], limit: int = 10) -> int:
    """Count the tags, at most ``limit``.

    Args:
        tags: the tags, name to value.
        limit: the largest count reported.
    """
    return min(len(tags), limit)


@tool
async def forecast(city: str, days: int) -> dict[str, Any]:
    """Forecast the weather.

    Args:
        city: the city.
        days: how many days ahead.
    """
    await asyncio.sleep(0)
    return {"city": city, "days": days, "sky": "clear"}


@tool
def explode(reason: str) -> str:
    """Fail with ``reason``.

    Args:
        reason: why.
    """
    raise RuntimeError(reason)


@tool
def snapshot() -> ToolOutput:
    """Take a picture and describe it."""
    return ToolOutput([Text("The dashboard:"), Image(b"\x89PNG", "image/png")], {"rows": 3})


def snapshot_text(framework: str) -> str:
    """What a text-only framework's model reads from ``snapshot``."""
    return (
        f"The dashboard:\n[image/png image, 4 bytes: {framework} tool results cannot carry images]"
        '\n{"rows": 3}'
    )
