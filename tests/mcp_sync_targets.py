"""Sync and async tools that block, for the MCP concurrency and cancellation tests.

``python tests/mcp_sync_targets.py [timeout]`` serves them over stdio (with that
deadline for every call when given).
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Iterator

from standard_tool import ToolContext, Toolkit, tool
from standard_tool.mcp import serve

#: What the tools saw, read back with the ``seen`` tool.
SEEN: list[str] = []

#: Set by a test (in process) to let ``wait_for_client`` go on.
CLIENT_HEARD = threading.Event()


@tool
def sleepy(seconds: float) -> str:
    """Block the calling thread, then answer.

    Args:
        seconds: how long.
    """
    time.sleep(seconds)
    return "slept"


@tool
def hold(ctx: ToolContext) -> str:
    """Wait (up to a minute) until the call is cancelled."""
    SEEN.append("hold started")
    if ctx.wait(60):
        SEEN.append("hold cancelled")
        return "cancelled"
    return "not cancelled"


@tool
async def hold_async() -> str:
    """Wait (up to a minute) until the call is cancelled."""
    import anyio

    SEEN.append("hold_async started")
    try:
        await anyio.sleep(60)
    except anyio.get_cancelled_exc_class():
        SEEN.append("hold_async cancelled")
        raise
    return "not cancelled"


@tool
def stubborn() -> str:
    """Block for ten minutes, whatever happens."""
    SEEN.append("stubborn started")
    time.sleep(600)
    return "done"


@tool
def seen() -> list[str]:
    """Say what the tools saw so far."""
    return list(SEEN)


@tool
def ticks(n: int) -> Iterator[str]:
    """Yield n ticks; after the first, wait (up to 30 s) until the client heard it.

    Args:
        n: how many ticks.
    """
    for i in range(1, n + 1):
        yield f"tick {i}"
        if i == 1:
            SEEN.append(f"client heard tick 1 first: {CLIENT_HEARD.wait(30)}")


toolkit = Toolkit([sleepy, hold, hold_async, stubborn, seen, ticks])

if __name__ == "__main__":
    serve(toolkit, timeout=float(sys.argv[1]) if len(sys.argv) > 1 else None)
