"""Run the tool calls a model asked for and build the messages that answer them.

One function per API: ``run_openai_chat_tool_calls`` (Chat Completions),
``run_openai_responses_tool_calls`` (Responses) and ``run_anthropic_tool_calls``
(Messages). Each takes the response (the SDK object or its dict form), runs every
tool call in it concurrently with a ``Toolkit``, and
returns what to send back, in the order of the calls. A call that cannot run
(unknown tool, arguments that are not JSON, invalid input, an exception, a timeout)
gets an error result the model can correct itself from; none raises, none is dropped.

Layer: providers (imports the core, the shared helpers and the toolkit; never the
package root).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Coroutine, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, cast

from typing_extensions import Literal, TypeAlias, TypedDict

from standard_tool._core import StandardToolV0Definition
from standard_tool._toolkit import Toolkit, ToolResult, bound_text, error_text
from standard_tool.providers._openai import openai_strict
from standard_tool.providers._results import text_result

__all__ = [
    "AnthropicToolResultBlock",
    "AnthropicToolResultMessage",
    "OpenAIChatToolMessage",
    "OpenAIResponsesToolOutput",
    "Tools",
    "run_anthropic_tool_calls",
    "run_openai_chat_tool_calls",
    "run_openai_responses_tool_calls",
]

#: A ``Toolkit``, or any iterable of tools (made into a toolkit per call).
Tools: TypeAlias = "Toolkit | Iterable[StandardToolV0Definition[Any, Any, Any, Any]]"


class OpenAIChatToolMessage(TypedDict):
    """A Chat Completions ``tool`` message answering one tool call."""

    role: Literal["tool"]
    tool_call_id: str
    content: str


class OpenAIResponsesToolOutput(TypedDict):
    """A Responses input item answering one function (or custom tool) call."""

    type: Literal["function_call_output", "custom_tool_call_output"]
    call_id: str
    output: str


class AnthropicToolResultBlock(TypedDict):
    """An Anthropic ``tool_result`` content block answering one ``tool_use`` block."""

    type: Literal["tool_result"]
    tool_use_id: str
    content: str
    is_error: bool


class AnthropicToolResultMessage(TypedDict):
    """The Anthropic ``user`` message carrying every ``tool_result`` of a turn."""

    role: Literal["user"]
    content: list[AnthropicToolResultBlock]


@dataclass(frozen=True, slots=True)
class _Call:
    """One tool call as the model sent it."""

    call_id: str
    name: str
    arguments: Any  # a JSON text (OpenAI) or an already decoded value (Anthropic)
    is_text: bool
    refused: str | None = None  # set when the call cannot run at all


def _get(obj: Any, key: str) -> Any:
    if type(obj) is dict:  # the common case, without an ABC check
        return cast("dict[str, Any]", obj).get(key)
    if isinstance(obj, Mapping):
        return cast("Mapping[str, Any]", obj).get(key)
    return getattr(obj, key, None)


def _items(value: Any) -> list[Any]:
    return [] if value is None else list(value)


def _list_or_field(response: Any, key: str) -> list[Any]:
    """``response`` itself when it is already the list of items, else its ``key`` field."""
    if isinstance(response, (list, tuple)):
        return list(cast("Iterable[Any]", response))
    return _items(_get(response, key))


def _toolkit(tools: Tools) -> Toolkit:
    return tools if isinstance(tools, Toolkit) else Toolkit(tools)


def _decode_json(text: Any) -> Any:
    """Parse a model's JSON arguments; raise ``ValueError`` with a short reason."""
    if not isinstance(text, str):
        raise ValueError(f"the arguments must be a JSON text, got {type(text).__name__}")
    if not text.strip():
        return {}
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise ValueError(
            f"the arguments are not valid JSON ({err.msg} at line {err.lineno} column "
            f"{err.colno}); send one JSON object that matches the tool's parameters"
        ) from None
    except RecursionError:
        raise ValueError("the arguments are nested too deeply to decode") from None


async def _run_calls(
    kit: Toolkit,
    calls: list[_Call],
    *,
    meta: Any,
    timeout: float | None,
    strict: bool | Literal["auto"],
) -> list[ToolResult]:
    async def one(call: _Call) -> ToolResult:
        if call.refused is not None:
            return ToolResult(call.name, call.call_id, False, error=call.refused)
        if call.name not in kit:
            return await kit.aexecute(call.name, call_id=call.call_id)
        try:
            value = _decode_json(call.arguments) if call.is_text else call.arguments
            if strict is not False:
                value = openai_strict(kit.get(call.name)).decode(value)
        except Exception as exc:
            text = str(exc) if isinstance(exc, ValueError) else error_text(exc)
            return ToolResult(call.name, call.call_id, False, error=bound_text(text), exception=exc)
        return await kit.aexecute(call.name, value, meta, timeout=timeout, call_id=call.call_id)

    # A sync tool without a timeout runs inline and blocks the loop either way, so
    # it gets no task of its own; the rest run concurrently. Order is kept.
    results: list[ToolResult | None] = [None] * len(calls)
    pending: list[tuple[int, Coroutine[Any, Any, ToolResult]]] = []
    for index, call in enumerate(calls):
        if timeout is None and not kit.is_async(call.name):
            results[index] = await one(call)
        else:
            pending.append((index, one(call)))
    if len(pending) == 1:
        index, coroutine = pending[0]
        results[index] = await coroutine
    elif pending:
        done = await asyncio.gather(*(coroutine for _, coroutine in pending))
        for (index, _), result in zip(pending, done, strict=True):
            results[index] = result
    return cast("list[ToolResult]", results)


def _content(result: ToolResult) -> str:
    """Write what the model receives: the value as ``text_result`` does, or ``Error: ...``."""
    if result.success:
        return text_result(result.value)
    return f"Error: {result.error}"


# --------------------------------------------------------------------------------------
# OpenAI Chat Completions
# --------------------------------------------------------------------------------------


def _chat_calls(response: Any) -> list[_Call]:
    choices = _get(response, "choices")
    message = _get(_items(choices)[0], "message") if choices else response
    calls: list[_Call] = []
    for item in _items(_get(message, "tool_calls")):
        call_id = str(_get(item, "id") or "")
        kind = _get(item, "type")
        if kind == "custom":
            name = str(_get(_get(item, "custom"), "name") or "")
            refused = "custom tool calls are not supported here; call a function tool"
            calls.append(_Call(call_id, name, None, False, refused))
            continue
        function = _get(item, "function")
        name = str(_get(function, "name") or "")
        calls.append(_Call(call_id, name, _get(function, "arguments"), True))
    return calls


async def run_openai_chat_tool_calls(
    response: Any,
    tools: Tools,
    *,
    meta: Any = None,
    timeout: float | None = None,
    strict: bool | Literal["auto"] = "auto",
) -> list[OpenAIChatToolMessage]:
    """Run the tool calls of a Chat Completions response; return the ``tool`` messages.

    Every call in ``response.choices[0].message.tool_calls`` runs at once (see
    ``Toolkit.aexecute`` for sync
    tools). The result is one ``{"role": "tool", "tool_call_id", "content"}``
    message per call, in the order of the calls; append the assistant message and
    these to the conversation and ask the model again. An empty list means the
    model asked for no tool.

    ``content`` is the tool's return value as ``text_result`` writes it (a
    ``str`` as is, anything else as JSON, cut at 100,000 characters) or, when the
    call failed, ``"Error: <reason>"`` with a short reason (at most about 2,000
    characters): an unknown tool, arguments that are not valid JSON, invalid
    input (naming the path), an exception in the tool or a timeout.

    Args:
        response: a ``ChatCompletion``, its dict form, or the assistant message
            itself (a ``ChatCompletionMessage`` or dict with ``tool_calls``).
        tools: a ``Toolkit`` or any iterable of tools.
        meta: passed verbatim to every tool.
        timeout: seconds each call may take.
        strict: the ``strict`` option the tools were converted with
            (``to_openai_chat``). Unless it is ``False``, the arguments of a
            tool sent in strict mode are decoded back to the tool's own input
            shape (``OpenAIStrictSchema.decode``) before it runs.

    Returns:
        The ``tool`` messages, one per call, in order.

    Raises:
        asyncio.CancelledError: when the caller is cancelled (the calls are too).
    """
    kit = _toolkit(tools)
    calls = _chat_calls(response)
    results = await _run_calls(kit, calls, meta=meta, timeout=timeout, strict=strict)
    return [
        {"role": "tool", "tool_call_id": c.call_id, "content": _content(r)}
        for c, r in zip(calls, results, strict=True)
    ]


# --------------------------------------------------------------------------------------
# OpenAI Responses
# --------------------------------------------------------------------------------------


def _responses_calls(response: Any) -> list[tuple[str, _Call]]:
    output = _list_or_field(response, "output")
    calls: list[tuple[str, _Call]] = []
    for item in _items(output):
        kind = _get(item, "type")
        call_id = str(_get(item, "call_id") or "")
        name = str(_get(item, "name") or "")
        if kind == "function_call":
            calls.append(
                ("function_call_output", _Call(call_id, name, _get(item, "arguments"), True))
            )
        elif kind == "custom_tool_call":
            refused = "custom tool calls are not supported here; call a function tool"
            calls.append(("custom_tool_call_output", _Call(call_id, name, None, False, refused)))
    return calls


async def run_openai_responses_tool_calls(
    response: Any,
    tools: Tools,
    *,
    meta: Any = None,
    timeout: float | None = None,
    strict: bool | Literal["auto"] = "auto",
) -> list[OpenAIResponsesToolOutput]:
    """Run the function calls of a Responses API response; return the output items.

    Every ``function_call`` item of ``response.output`` runs at once. The result is
    one ``{"type": "function_call_output", "call_id", "output"}`` item per call, in
    order, to send as ``input`` of the next request (with
    ``previous_response_id``, or after the response's own output items). A
    ``custom_tool_call`` item gets a ``custom_tool_call_output`` error item. An
    empty list means the model asked for no tool. ``output`` is written as for
    ``run_openai_chat_tool_calls``.

    Args:
        response: a ``Response``, its dict form, or its ``output`` list.
        tools: a ``Toolkit`` or any iterable of tools.
        meta: passed verbatim to every tool.
        timeout: seconds each call may take.
        strict: the ``strict`` option the tools were converted with
            (``to_openai_responses``); see ``run_openai_chat_tool_calls``.

    Returns:
        The output items, one per call, in order.

    Raises:
        asyncio.CancelledError: when the caller is cancelled (the calls are too).
    """
    kit = _toolkit(tools)
    pairs = _responses_calls(response)
    calls = [c for _, c in pairs]
    results = await _run_calls(kit, calls, meta=meta, timeout=timeout, strict=strict)
    out: list[OpenAIResponsesToolOutput] = []
    for (kind, call), result in zip(pairs, results, strict=True):
        item_kind: Literal["function_call_output", "custom_tool_call_output"] = (
            "custom_tool_call_output"
            if kind == "custom_tool_call_output"
            else "function_call_output"
        )
        out.append({"type": item_kind, "call_id": call.call_id, "output": _content(result)})
    return out


# --------------------------------------------------------------------------------------
# Anthropic Messages
# --------------------------------------------------------------------------------------


def _anthropic_calls(response: Any) -> list[_Call]:
    content = _list_or_field(response, "content")
    calls: list[_Call] = []
    for block in _items(content):
        if _get(block, "type") == "tool_use":
            call_id = str(_get(block, "id") or "")
            calls.append(
                _Call(call_id, str(_get(block, "name") or ""), _get(block, "input"), False)
            )
    return calls


async def run_anthropic_tool_calls(
    response: Any,
    tools: Tools,
    *,
    meta: Any = None,
    timeout: float | None = None,
) -> AnthropicToolResultMessage | None:
    """Run the ``tool_use`` blocks of an Anthropic message; return the ``user`` reply.

    Every ``tool_use`` block of ``response.content`` runs at once. The result is one
    ``{"role": "user", "content": [{"type": "tool_result", "tool_use_id",
    "content", "is_error"}, ...]}`` message with a block per call, in order;
    append the assistant message and this one to the conversation and ask again.
    ``None`` means the model asked for no tool.

    ``content`` is written as for ``run_openai_chat_tool_calls``, and
    ``is_error`` is true for a failed call.

    Args:
        response: a ``Message``, its dict form, or its ``content`` list.
        tools: a ``Toolkit`` or any iterable of tools.
        meta: passed verbatim to every tool.
        timeout: seconds each call may take.

    Returns:
        The ``user`` message, or ``None`` when there was no ``tool_use`` block.

    Raises:
        asyncio.CancelledError: when the caller is cancelled (the calls are too).
    """
    kit = _toolkit(tools)
    calls = _anthropic_calls(response)
    if not calls:
        return None
    results = await _run_calls(kit, calls, meta=meta, timeout=timeout, strict=False)
    blocks: list[AnthropicToolResultBlock] = [
        {
            "type": "tool_result",
            "tool_use_id": call.call_id,
            "content": _content(result),
            "is_error": not result.success,
        }
        for call, result in zip(calls, results, strict=True)
    ]
    return {"role": "user", "content": blocks}
