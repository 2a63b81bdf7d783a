"""``LiveTools``: tools served while they change, and clients told of each change.

Driven by the official SDK client of protocol 2026-07-28, which listens with
``subscriptions/listen`` and gets ``notifications/tools/list_changed``.
"""

from __future__ import annotations

import threading

import anyio
import pytest
from mcp import Client

from standard_tool import DuplicateToolNameError, tool
from standard_tool.mcp import LiveTools, server


@tool
def ping() -> str:
    """Answer pong."""
    return "pong"


@tool
def echo(text: str) -> str:
    """Say the text back."""
    return text


async def _names(client: Client) -> list[str]:
    return [t.name for t in (await client.list_tools()).tools]


async def test_added_and_removed_tools_are_listed_called_and_announced() -> None:
    live = LiveTools([ping])
    with anyio.fail_after(60):
        async with Client(server(live)) as client:
            assert await _names(client) == ["ping"]
            async with client.listen(tools_list_changed=True) as changes:
                live.add(echo)
                await changes.__anext__()
                assert await _names(client) == ["ping", "echo"]
                said = await client.call_tool("echo", {"text": "hi"})
                assert said.content[0].text == "hi"  # type: ignore[union-attr]
                # A change made from another thread is announced as well.
                worker = threading.Thread(target=live.remove, args=("ping",))
                worker.start()
                worker.join()
                await changes.__anext__()
                assert await _names(client) == ["echo"]
            gone = await client.call_tool("ping", {})
    assert gone.is_error is True
    assert "unknown tool 'ping'" in gone.content[0].text  # type: ignore[union-attr]


def test_a_live_toolkit_refuses_what_a_toolkit_refuses() -> None:
    live = LiveTools([ping])
    with pytest.raises(DuplicateToolNameError):
        live.add(ping)
    live.remove("nothing-served")  # not served: nothing to do
    assert live.toolkit.names == ("ping",)
    assert repr(live) == "LiveTools(['ping'])"
