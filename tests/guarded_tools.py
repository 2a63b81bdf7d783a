"""A server behind bearer authentication that accepts each request state once.

``make_app()`` serves, statelessly with JSON answers, the multi-round tools of
``round_tools``, the task tools of ``task_tools`` and ``redeem`` (a one-time
redemption, confirmed in a second round), with the SDK's own bearer authentication
(``http_options={"auth": ..., "token_verifier": ...}``). ``GUARDED_STORE`` names the
store of tasks and used states: ``memory`` (the default), ``none`` (states not
recorded: a replay runs again) or a ``redis://`` URL; ``STANDARD_TOOL_STATE_KEYS``
the keys; with ``GUARDED_EVENTS`` set, answers are event streams (what
``subscriptions/listen`` needs). ``uvicorn --factory guarded_tools:make_app``.

The tokens: ``alice`` and ``bob`` are two users (subjects) of the client ``app``;
``service`` is another client with no subject. Any other token is refused (401).
"""

from __future__ import annotations

import os
from typing import Any

from standard_tool import ToolContext, tool
from tests import round_tools, task_tools

CONFIRM = {"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}
#: How many times this process redeemed a voucher (once per voucher, with single use).
REDEEMED: list[str] = []


@tool
async def redeem(voucher: str, ctx: ToolContext) -> str:
    """Ask for confirmation, then redeem the voucher (a write: it must run once)."""
    answer = await ctx.elicit(f"Redeem {voucher}?", CONFIRM)
    if not (answer.content or {}).get("ok"):
        return "not redeemed"
    REDEEMED.append(voucher)
    return f"redeemed {voucher}: redemption {len(REDEEMED)} of this process"


class Tokens:
    """The token verifier: three fixed tokens (see the module's docstring)."""

    async def verify_token(self, token: str) -> Any:
        from mcp.server.auth.provider import AccessToken

        users = {"alice": ("app", "alice"), "bob": ("app", "bob"), "service": ("svc", None)}
        if token not in users:
            return None
        client_id, subject = users[token]
        return AccessToken(token=token, client_id=client_id, scopes=[], subject=subject)


def make_app() -> object:
    """Serve the tools behind bearer authentication (see the module's docstring)."""
    from mcp.server.auth.settings import AuthSettings

    from standard_tool.mcp import MemoryTaskStore, RedisTaskStore, TaskOptions, http_app

    where = os.environ.get("GUARDED_STORE", "memory")
    store = MemoryTaskStore() if where in ("memory", "none") else RedisTaskStore(where, timeout=1)
    tasks = TaskOptions(task_tools.SUPPORT, store=store, after=0.2, poll=0.05, ttl=60)  # type: ignore[arg-type]
    auth = AuthSettings(issuer_url="http://127.0.0.1:9/", resource_server_url=None)  # type: ignore[arg-type]
    return http_app(
        [*round_tools.TOOLS, *task_tools.TOOLS, redeem],
        stateless=True,
        json_response=not os.environ.get("GUARDED_EVENTS"),
        tasks=tasks,
        used_states=None if where == "none" else store,
        http_options={"auth": auth, "token_verifier": Tokens()},
    )
