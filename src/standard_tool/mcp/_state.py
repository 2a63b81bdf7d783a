"""Sealed request state: what a multi-round MCP call carries from one round to the next.

Layer: top (standard library only).

MCP 2026-07-28 has no session: a ``tools/call`` that needs the client's input answers
``input_required`` with an opaque ``requestState``, and the client sends it back with
its answers. The state passes through the client, so it is signed here (HMAC-SHA256
over its JSON) with a key the server's processes share, and carries its expiry, the
request it belongs to and, on an authenticated transport, a digest of the principal
it was issued to. Anything that does not verify is refused.

Signing bounds a state's replay (to its request, its principal and its lifetime) but
does not make it single-use; a server whose tools must not run a round twice records
each state it accepts in a ``UsedStates`` store (``server(used_states=...)``).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import time
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple, Protocol, cast

from standard_tool._core import StandardToolError

__all__ = [
    "OpenedState",
    "RequestStateError",
    "RequestStateKeys",
    "UsedStates",
    "current_principal",
    "request_digest",
]

#: The environment variable ``RequestStateKeys.from_env`` reads: keys separated by commas,
#: the signing key first.
STATE_KEYS_ENV = "STANDARD_TOOL_STATE_KEYS"

_PREFIX = "st1."
#: The longest state accepted back (characters); a longer one is refused unread.
MAX_STATE_CHARS = 1_000_000
_MIN_KEY_BYTES = 32


class RequestStateError(StandardToolError, ValueError):
    """A ``requestState`` sent back by a client does not verify.

    It was forged, changed, has expired, was made for another request, or is too
    large. The server answers it with a JSON-RPC error.
    """


def _key_bytes(key: bytes | str) -> bytes:
    raw = key.encode("utf-8") if isinstance(key, str) else bytes(key)
    if len(raw) < _MIN_KEY_BYTES:
        raise ValueError(
            f"RequestStateKeys: a key must have at least {_MIN_KEY_BYTES} bytes, "
            f"not {len(raw)}; make one with "
            "`python -c 'import secrets; print(secrets.token_hex(32))'`"
        )
    return raw


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def current_principal() -> str | None:
    """Return who the current request is authenticated as, or ``None`` on an open transport.

    The principal is the access token's client, issuer and subject (as the SDK's
    bearer authentication sets them for the request: ``http_app(http_options=
    {"auth": ..., "token_verifier": ...})``), so two users of one OAuth client are
    two principals when the token verifier names the subject.
    """
    try:
        from mcp.server.auth.middleware.auth_context import get_access_token
    except ImportError:  # an SDK without auth: nobody is authenticated
        return None
    token = get_access_token()
    if token is None:
        return None
    claims: object = getattr(token, "claims", None)
    issuer: object = (
        cast("Mapping[str, Any]", claims).get("iss") if isinstance(claims, Mapping) else None
    )
    subject: object = getattr(token, "subject", None)
    parts = [str(token.client_id), None if issuer is None else str(issuer)]
    parts.append(None if subject is None else str(subject))
    return json.dumps(parts, separators=(",", ":"))


def principal_tag(principal: str | None) -> str | None:
    """Return the digest of ``principal`` a state carries (the state itself is not secret)."""
    if principal is None:
        return None
    digest = hashlib.sha256(b"standard-tool/principal:" + principal.encode("utf-8", "replace"))
    return digest.hexdigest()[:32]


class OpenedState(NamedTuple):
    """A verified ``requestState``: its payload, its expiry and its identity."""

    payload: dict[str, Any]
    #: When the state stops being accepted (epoch seconds).
    expires_at: float
    #: Unique to this state (its signature): what a ``UsedStates`` store records.
    state_id: str


class UsedStates(Protocol):
    """Where a server records the ``requestState`` values it has accepted, to accept each once.

    ``MemoryTaskStore`` (one process) and ``RedisTaskStore`` (several processes) are
    such stores. The claim must be atomic: of two processes claiming one state at the
    same moment, one wins.
    """

    async def claim(self, state_id: str, expires_at: float) -> bool:
        """Record ``state_id`` as used until ``expires_at``; ``False`` if it was used already.

        Raises:
            TaskStoreError: the store did not answer (the state is then refused).
        """
        ...


def request_digest(method: str, name: str, arguments: Any) -> str:
    """Return a digest of one request (its method, target and arguments) to bind state to.

    Arguments that are not JSON (they come from a JSON request, so rarely) are digested
    by their ``repr``.
    """
    try:
        text = json.dumps([method, name, arguments], sort_keys=True, separators=(",", ":"))
    except (TypeError, ValueError):
        text = repr([method, name, arguments])
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


class RequestStateKeys:
    """The keys that sign and verify ``requestState``, and how long a state lives.

    Every process that serves the same tools must hold the same keys, so that a
    client's next round may reach any of them (behind a load balancer, say). The
    first key signs; every key verifies, so a key is rotated by putting the new
    one first and dropping the old one once ``ttl`` has passed.

    Examples:
        >>> import secrets
        >>> keys = RequestStateKeys([secrets.token_bytes(32)], ttl=60)
        >>> state = keys.seal({"answers": {}}, bound_to="abc")
        >>> keys.open(state, bound_to="abc")
        {'answers': {}}

    Args:
        keys: the keys, at least 32 bytes each (``bytes``, or ``str`` as UTF-8),
            the signing key first.
        ttl: seconds a state stays valid after it is made (a client answering
            later is refused, and must start the call again).

    Raises:
        ValueError: no key, a key shorter than 32 bytes, or ``ttl`` not positive.
    """

    __slots__ = ("_keys", "ttl")

    def __init__(self, keys: Sequence[bytes | str], *, ttl: float = 600.0) -> None:
        if isinstance(keys, (bytes, str)):
            raise TypeError("RequestStateKeys: pass a list of keys, not one key")
        if not keys:
            raise ValueError("RequestStateKeys: give at least one key")
        if not ttl > 0:
            raise ValueError(f"RequestStateKeys: ttl must be positive seconds, not {ttl!r}")
        self._keys = tuple(_key_bytes(key) for key in keys)
        self.ttl = float(ttl)

    def __repr__(self) -> str:
        return f"RequestStateKeys(<{len(self._keys)} key(s)>, ttl={self.ttl:g})"

    @classmethod
    def ephemeral(cls, *, ttl: float = 600.0) -> RequestStateKeys:
        """Return keys made for this process alone: state it signs verifies only here.

        The default of a server given no keys. Right for one process; a server of
        several processes must share its keys (``from_env``).
        """
        return cls([os.urandom(32)], ttl=ttl)

    @classmethod
    def from_env(
        cls, variable: str = STATE_KEYS_ENV, *, ttl: float = 600.0
    ) -> RequestStateKeys | None:
        """Return the keys in the environment variable ``variable``, or ``None`` when unset.

        The value lists the keys separated by commas, the signing key first (each
        at least 32 characters: ``secrets.token_hex(32)`` makes one).
        """
        value = os.environ.get(variable, "").strip()
        if not value:
            return None
        return cls([part.strip() for part in value.split(",") if part.strip()], ttl=ttl)

    def _sign(self, key: bytes, body: str) -> str:
        return _b64(hmac.new(key, body.encode("ascii"), hashlib.sha256).digest())

    def seal(
        self, payload: Mapping[str, Any], *, bound_to: str, principal: str | None = None
    ) -> str:
        """Return ``payload`` as a signed state for the request ``bound_to`` names.

        ``principal`` (see ``current_principal``) binds the state to whoever the
        request was authenticated as: only they may send it back.

        Raises:
            RequestStateError: the sealed state would exceed the length a client may
                send back (``MAX_STATE_CHARS``).
        """
        document: dict[str, Any] = {
            "p": dict(payload),
            "b": bound_to,
            "e": time.time() + self.ttl,
            "n": _b64(os.urandom(12)),  # two states of the same moment differ all the same
        }
        tag = principal_tag(principal)
        if tag is not None:
            document["u"] = tag
        data = json.dumps(document, separators=(",", ":"), ensure_ascii=True).encode("ascii")
        body = _PREFIX + _b64(data)
        sealed = f"{body}.{self._sign(self._keys[0], body)}"
        if len(sealed) > MAX_STATE_CHARS:
            raise RequestStateError(
                f"the call's state would take {len(sealed):,} characters, over the "
                f"{MAX_STATE_CHARS:,} a client may send back; the answers gathered are too large"
            )
        return sealed

    def open(self, state: object, *, bound_to: str, principal: str | None = None) -> dict[str, Any]:
        """Verify a state a client sent back and return its payload.

        Raises:
            RequestStateError: the state is not a string this server signed with one
                of its keys, has expired, or was made for another request or another
                principal.
        """
        return self.verify(state, bound_to=bound_to, principal=principal).payload

    def verify(self, state: object, *, bound_to: str, principal: str | None = None) -> OpenedState:
        """Verify a state a client sent back; return it opened, with its expiry and id.

        Raises:
            RequestStateError: as ``open``.
        """
        if not isinstance(state, str):
            raise RequestStateError(f"requestState must be a string, not {type(state).__name__}")
        if len(state) > MAX_STATE_CHARS:
            raise RequestStateError(f"requestState is longer than {MAX_STATE_CHARS:,} characters")
        body, _, signature = state.rpartition(".")
        if not body.startswith(_PREFIX) or not signature or not body.isascii():
            raise RequestStateError("requestState is not a state this server made")
        given = signature.encode("ascii", "replace").decode("ascii")
        if not any(hmac.compare_digest(self._sign(key, body), given) for key in self._keys):
            raise RequestStateError("requestState does not verify: it was changed or forged")
        try:
            decoded: object = json.loads(_unb64(body[len(_PREFIX) :]))
        except ValueError as exc:  # signed by us, so never; kept a clear error all the same
            raise RequestStateError("requestState does not decode") from exc
        if not isinstance(decoded, dict) or not isinstance(decoded.get("p"), dict):  # pyright: ignore[reportUnknownMemberType]
            raise RequestStateError("requestState does not decode")
        document = cast("dict[str, Any]", decoded)
        expires = document.get("e")
        if not isinstance(expires, (int, float)) or time.time() > expires:
            raise RequestStateError("requestState has expired; call the tool again from the start")
        if document.get("b") != bound_to:
            raise RequestStateError("requestState was made for another request")
        if document.get("u") != principal_tag(principal):
            raise RequestStateError(
                "requestState was issued to another principal: send it back with the "
                "credentials of the call that received it"
            )
        payload: dict[str, Any] = document["p"]
        return OpenedState(payload, float(expires), signature)
