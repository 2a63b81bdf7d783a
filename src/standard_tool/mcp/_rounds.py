"""Multi-round calls (MCP 2026-07-28): a tool that asks its client answers ``input_required``.

Layer: top (imports the call context and the providers' MCP caller; ``mcp`` lazily).

From protocol 2026-07-28 a server sends the client no requests of its own. A tool
that calls ``ctx.elicit``, ``ctx.sample`` or ``ctx.roots`` is served by *replay*:

1. The handler runs. The first question it asks that has no answer yet stops it
   (``InputRequired``, a ``BaseException``, so ``except Exception`` in the handler
   does not catch it); questions asked together (``asyncio.gather``) are all
   collected before it stops.
2. The server answers ``{"resultType": "input_required", "inputRequests": {...},
   "requestState": ...}``: the questions, each under a key, and a signed state
   holding the answers so far (``RequestStateKeys``).
3. The client answers and calls again. The server verifies the state, adds the new
   answers, and runs the handler again from the start: the questions it already
   asked get their answers at once, by name (``key=``) or else by their order in
   the call (the first ``elicit`` gets the first elicitation's answer, and so on),
   until it asks a new one or returns.

So a handler's code is the same on every protocol version; what runs before its
last question runs once per round, and must be safe to repeat (read, don't write,
before asking). Any process holding the same keys can run the next round.

A state is bound to its request and, on an authenticated transport, to the principal
it was issued to. It may still be sent again within its lifetime (a retry, or a
replay); a server given ``used_states`` accepts each state once.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Mapping
from typing import Any, cast

from standard_tool._context import QUESTION_KEY, Caller, CallerUnavailableError, Elicitation, Root
from standard_tool._shared import safe_str, truncate_text
from standard_tool.mcp._state import (
    OpenedState,
    RequestStateError,
    RequestStateKeys,
    UsedStates,
    request_digest,
)
from standard_tool.mcp._tasks import TaskLink, TaskStoreError
from standard_tool.providers._mcp_caller import (
    elicit_request,
    elicitation_of,
    roots_of,
    sample_request,
    text_of,
)

__all__ = ["KINDS", "InputRequired", "Rounds", "checked_answer"]

#: Each kind of question: its MCP method, the client capability it needs, the
#: SDK result type that answers it, and the prefix of its keys.
KINDS: dict[str, tuple[str, str, str]] = {
    "elicitation/create": ("elicitation", "ElicitResult", "elicit"),
    "sampling/createMessage": ("sampling", "CreateMessageResult", "sample"),
    "roots/list": ("roots", "ListRootsResult", "roots"),
}
#: The most answers one call may gather (questions asked over all its rounds).
MAX_QUESTIONS = 100
#: Seconds a ``UsedStates`` store may take to record a state before the state is refused.
CLAIM_TIMEOUT = 10.0
_MAX_SHOWN = 200


class InputRequired(BaseException):
    """Stops a tool call served over MCP 2026-07-28 at a question the client has not answered.

    Raised by ``ToolContext.elicit``, ``sample`` and ``roots`` inside such a call;
    the server answers ``input_required`` with the questions and runs the handler
    again once the client has answered. A ``BaseException`` (as
    ``asyncio.CancelledError`` is), so a handler's ``except Exception`` lets it
    through; a handler that catches ``BaseException`` must re-raise it.
    """


def _invalid(message: str) -> Exception:
    from mcp.shared.exceptions import MCPError
    from mcp_types import INVALID_PARAMS

    return MCPError(code=INVALID_PARAMS, message=message)


#: The keys of legacy rounds, which never sign a state (their questions go to the
#: client directly, or on a task): one set for the process, not one per call.
_UNSIGNED = RequestStateKeys.ephemeral()


class Rounds:
    """One round of a multi-round call: the answers given so far, the questions asked now.

    ``Rounds.start`` reads the request (its ``requestState`` and ``inputResponses``);
    ``caller`` gives the tool a ``Caller`` whose ``elicit``, ``sample`` and ``roots``
    answer from them or ask; ``input_required`` is the answer when the tool asked.
    """

    __slots__ = (
        "answers",
        "asked",
        "bound_to",
        "capabilities",
        "count",
        "keys",
        "legacy",
        "link",
        "opened",
        "principal",
    )

    def __init__(
        self,
        keys: RequestStateKeys,
        bound_to: str,
        answers: dict[str, Any],
        capabilities: Any,
        principal: str | None = None,
        opened: OpenedState | None = None,
    ) -> None:
        self.keys = keys
        self.bound_to = bound_to
        self.answers = answers
        self.capabilities = capabilities
        #: Whom the request was authenticated as: the states made are bound to it.
        self.principal = principal
        #: The state the request sent back, verified (``None`` on a first round).
        self.opened = opened
        self.asked: dict[str, dict[str, Any]] = {}
        self.count = 0
        #: The caller of a connection with requests to the client (before 2026-07-28),
        #: asked while the call has not become a task.
        self.legacy: Caller | None = None
        #: The task the call became (``detach``): questions then wait for ``tasks/update``.
        self.link: TaskLink | None = None

    @classmethod
    def for_legacy(cls, base: Caller) -> Rounds:
        """Return rounds of a connection before 2026-07-28: asking ``base`` until detached."""
        made = cls(_UNSIGNED, "", {}, None)
        made.legacy = base
        return made

    def detach(self, link: TaskLink, capabilities: Any) -> None:
        """Post the call's questions on its task from now on (the call became one)."""
        self.link = link
        self.capabilities = capabilities

    @classmethod
    def start(
        cls,
        keys: RequestStateKeys,
        method: str,
        name: str,
        arguments: Any,
        params: Any,
        capabilities: Any,
        principal: str | None = None,
    ) -> Rounds:
        """Read one request's ``requestState`` and ``inputResponses``.

        ``principal``: whom the request was authenticated as (``current_principal``).

        An answer is kept when the state says its key was asked; answers to keys
        never asked are ignored, and a question left unanswered is asked again.

        Raises:
            MCPError: ``INVALID_PARAMS`` for a state that does not verify, or an
                answer that is not what its question asks for.
        """
        bound_to = request_digest(method, name, arguments)
        state = getattr(params, "request_state", None)
        responses = getattr(params, "input_responses", None)
        if state is None:
            return cls(keys, bound_to, {}, capabilities, principal)
        try:
            opened = keys.verify(state, bound_to=bound_to, principal=principal)
        except RequestStateError as exc:
            raise _invalid(f"Invalid or expired requestState: {exc}") from exc
        payload = opened.payload
        answers: dict[str, Any] = dict(payload.get("answers") or {})
        asked: Mapping[str, str] = payload.get("asked") or {}
        given: Mapping[str, Any] = {}
        if isinstance(responses, Mapping):
            given = cast("Mapping[str, Any]", responses)
        for key, method_asked in asked.items():
            if key in given and method_asked in KINDS:
                answers[key] = checked_answer(key, method_asked, given[key])
        return cls(keys, bound_to, answers, capabilities, principal, opened)

    async def claim(self, used: UsedStates) -> None:
        """Record the state this request sent back as used; refuse one used before.

        Raises:
            MCPError: ``INVALID_PARAMS`` for a state accepted before, ``INTERNAL_ERROR``
                when the store does not answer (the state is not accepted then).
        """
        if self.opened is None:
            return
        try:
            claimed = used.claim(self.opened.state_id, self.opened.expires_at)
            first = await asyncio.wait_for(claimed, CLAIM_TIMEOUT)
        except Exception as exc:  # the store's boundary: fail closed, saying why
            from mcp.shared.exceptions import MCPError
            from mcp_types import INTERNAL_ERROR

            if isinstance(exc, asyncio.TimeoutError):
                said = f"the store did not answer within {CLAIM_TIMEOUT:g} s"
            elif isinstance(exc, TaskStoreError):  # its message names the store already
                said = safe_str(exc, _MAX_SHOWN)
            else:
                said = f"{type(exc).__name__}: {safe_str(exc, _MAX_SHOWN)}"
            message = f"requestState could not be checked: {said}"
            raise MCPError(code=INTERNAL_ERROR, message=message) from exc
        if first is not True:
            raise _invalid(
                "Invalid or expired requestState: it was used already (each state is "
                "accepted once); call the tool again from the start"
            )

    def _declared(self, capability: str) -> bool:
        declared = self.capabilities
        return declared is not None and getattr(declared, capability, None) is not None

    async def _ask(self, request: Any) -> Any:
        """Return the answer to the call's next question, or ask it.

        Asked in a round (``InputRequired`` stops the call), on the call's task (it
        waits for ``tasks/update``), or, before 2026-07-28, of the client directly
        (``None``: the caller's own handler answers).
        """
        from mcp import types

        method: str = request.method
        capability, result_type, prefix = KINDS[method]
        self.count += 1
        key = QUESTION_KEY.get() or f"{prefix}-{self.count}"
        raw = self.answers.get(key)
        if raw is not None:
            return getattr(types, result_type).model_validate(raw)
        if self.link is None and self.legacy is not None:
            return None
        if not self._declared(capability):
            raise CallerUnavailableError(
                f"the MCP client did not declare the {capability} capability in this "
                "request, so it cannot be asked",
                capability=capability,
            )
        if self.count > MAX_QUESTIONS:
            raise CallerUnavailableError(
                f"a call may ask its MCP client at most {MAX_QUESTIONS} questions"
            )
        asked = request.model_dump(mode="json", by_alias=True, exclude_none=True)
        if self.link is not None:
            answer = await self.link.ask(key, asked)
            checked = checked_answer(key, method, answer)
            return getattr(types, result_type).model_validate(checked)
        self.asked[key] = asked
        raise InputRequired(key)

    async def _elicit(self, message: str, schema: dict[str, Any]) -> Elicitation:
        answer = await self._ask(elicit_request(message, schema))
        if answer is None:
            assert self.legacy is not None
            assert self.legacy.elicit is not None
            return await self.legacy.elicit(message, schema)
        return elicitation_of(answer)

    async def _sample(
        self, prompt: str, *, system: str | None, max_tokens: int, temperature: float | None
    ) -> str:
        request = sample_request(
            prompt, system=system, max_tokens=max_tokens, temperature=temperature
        )
        answer = await self._ask(request)
        if answer is None:
            assert self.legacy is not None
            assert self.legacy.sample is not None
            return await self.legacy.sample(
                prompt, system=system, max_tokens=max_tokens, temperature=temperature
            )
        return text_of(answer)

    async def _roots(self) -> list[Root]:
        from mcp import types

        answer = await self._ask(types.ListRootsRequest())
        if answer is None:
            assert self.legacy is not None
            assert self.legacy.roots is not None
            return await self.legacy.roots()
        return roots_of(answer)

    def caller(self, base: Caller, loop: asyncio.AbstractEventLoop | None) -> Caller:
        """Return ``base`` (the request's caller, for logs) asking through these rounds."""
        return dataclasses.replace(
            base, elicit=self._elicit, sample=self._sample, roots=self._roots, loop=loop
        )

    def input_required(self) -> dict[str, Any]:
        """Return the ``input_required`` result asking this round's questions.

        Raises:
            MCPError: ``INTERNAL_ERROR`` when the answers gathered no longer fit in a state.
        """
        payload = {
            "answers": self.answers,
            "asked": {key: request["method"] for key, request in self.asked.items()},
        }
        try:
            state = self.keys.seal(payload, bound_to=self.bound_to, principal=self.principal)
        except RequestStateError as exc:
            from mcp.shared.exceptions import MCPError
            from mcp_types import INTERNAL_ERROR

            raise MCPError(code=INTERNAL_ERROR, message=str(exc)) from exc
        return {
            "resultType": "input_required",
            "inputRequests": dict(self.asked),
            "requestState": state,
        }


def checked_answer(key: str, method: str, answer: object) -> Any:
    """Return ``answer`` as JSON when it is what ``method`` answers with; else refuse it."""
    import pydantic
    from mcp import types

    result_type = getattr(types, KINDS[method][1])
    try:
        model = result_type.model_validate(answer)
    except pydantic.ValidationError as exc:
        first = exc.errors()[0] if exc.errors() else {"loc": (), "msg": "invalid"}
        where = ".".join(str(part) for part in first.get("loc", ()))
        said = str(first.get("msg", "invalid"))
        detail = truncate_text(f"{where}: {said}" if where else said, _MAX_SHOWN)
        shown = truncate_text(key, 60)
        raise _invalid(f"inputResponses[{shown!r}] is not a {method} result ({detail})") from None
    return model.model_dump(mode="json", by_alias=True, exclude_none=True)
