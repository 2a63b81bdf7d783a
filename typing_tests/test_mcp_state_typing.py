"""Typing promises of MCP request states and the stores that record them (pyright, mypy strict).

Never executed. Each ``assert_type`` is a promise; each ignore comment marks a use
that must stay a type error (an unused ignore fails the check).
"""

from __future__ import annotations

from typing import Any

from typing_extensions import assert_type

from standard_tool.mcp import (
    MemoryTaskStore,
    OpenedState,
    RedisTaskStore,
    RequestStateKeys,
    UsedStates,
    server,
)


def keys_and_states(keys: RequestStateKeys, state: object) -> None:
    sealed = keys.seal({"answers": {}}, bound_to="r", principal='["app",null,"ada"]')
    assert_type(sealed, str)
    assert_type(keys.open(state, bound_to="r"), dict[str, Any])
    opened = keys.verify(state, bound_to="r", principal=None)
    assert_type(opened, OpenedState)
    assert_type(opened.payload, dict[str, Any])
    assert_type(opened.expires_at, float)
    assert_type(opened.state_id, str)
    keys.seal({}, "r")  # type: ignore[call-arg]  # pyright: ignore[reportCallIssue]


async def stores(memory: MemoryTaskStore, redis: RedisTaskStore) -> None:
    used: UsedStates = memory
    used = redis
    assert_type(await used.claim("id", 0.0), bool)
    server([], used_states=memory)
    server([], used_states=redis)


class _NoClaim:
    async def set(self, state_id: str, expires_at: float) -> None: ...


def not_a_store() -> None:
    server([], used_states=_NoClaim())  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
