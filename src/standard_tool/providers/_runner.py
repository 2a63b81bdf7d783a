"""The loop every runner shares: read the calls, run them concurrently, keep their order.

Layer: providers (imports the core, the shared helpers and the toolkit; never the
package root). It knows no provider: each provider module reads its own response
shape into ``Call`` values and passes its own argument decoder.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from typing import Any, NamedTuple, cast

from typing_extensions import TypeAlias

from standard_tool._context import ProgressCallback
from standard_tool._core import StandardToolV0Definition
from standard_tool._shared import checked_timeout
from standard_tool._toolkit import Request, Toolkit, ToolResult, bound_text, error_text, run_batch
from standard_tool.content import rich_output
from standard_tool.providers._convert_common import value_text
from standard_tool.providers._text import rich_text, sendable, text_result

__all__ = [
    "RUNNER_TIMEOUT",
    "Call",
    "Decode",
    "Tools",
    "content",
    "field",
    "items",
    "list_or_field",
    "not_one_call",
    "positional_refused",
    "run_calls",
    "toolkit",
    "view_decoder",
]

#: Turns a model's decoded arguments into the tool's input (e.g. undoing a strict rewrite).
Decode: TypeAlias = "Callable[[StandardToolV0Definition[Any, Any, Any, Any], Any], Any]"
#: A ``Toolkit``, or any iterable of tools (made into a toolkit per call).
Tools: TypeAlias = "Toolkit | Iterable[StandardToolV0Definition[Any, Any, Any, Any]]"


class Call(NamedTuple):
    """One tool call as the model sent it (a tuple: every call of a response makes one)."""

    call_id: str
    name: str
    arguments: Any  # a JSON text (OpenAI) or an already decoded value (Anthropic)
    is_text: bool
    refused: str | None = None  # set when the call cannot run at all


def view_decoder(view: Callable[[StandardToolV0Definition[Any, Any, Any, Any]], Any]) -> Decode:
    """Return a ``Decode`` calling ``view(tool).decode(value)``, each view looked up once.

    Made per response: the views are cached per tool anyway, but that look-up is a
    weak reference each time, and a response's calls mostly share a few tools.
    """
    views: dict[int, Any] = {}  # id -> view; the toolkit keeps every tool alive meanwhile

    def decode(tool: StandardToolV0Definition[Any, Any, Any, Any], value: Any) -> Any:
        found = views.get(id(tool))
        if found is None:
            found = views[id(tool)] = view(tool)
        return found.decode(value)

    return decode


def field(obj: Any, key: str) -> Any:
    # ``__class__``, not ``type()``: ``obj`` stays ``Any`` for the type checkers, with
    # no ``cast`` call (this runs several times a call).
    if obj.__class__ is dict:  # the common case, without an ABC check
        return obj.get(key)
    if isinstance(obj, Mapping):
        return cast("Mapping[str, Any]", obj).get(key)
    return getattr(obj, key, None)


def items(value: Any, path: str) -> list[Any]:
    """Return the list at ``path`` of a response (``None``: no items); refuse anything else.

    A structurally wrong response gets no results, only this error: one call where
    the list of calls belongs is not run, since running it would guess at what the
    response meant.

    Raises:
        TypeError: ``value`` is not a list (or tuple); the message names ``path``.
    """
    if value.__class__ is list:  # the common case, without the checks below
        return list(cast("Iterable[Any]", value))
    if value is None:
        return []
    if isinstance(value, (list, tuple)):
        return list(cast("Iterable[Any]", value))
    raise TypeError(f"{path} must be a list, got {type(value).__name__} {value_text(value)}")


def list_or_field(response: Any, key: str) -> list[Any]:
    """``response`` itself when it is already the list of items, else its ``key`` list."""
    if isinstance(response, (list, tuple)):
        return list(cast("Iterable[Any]", response))
    return items(field(response, key), key)


def not_one_call(response: Any, marker: str, value: object = None) -> None:
    """Refuse a single call given where a response (or a list of calls) belongs.

    ``marker`` is the field only a call has (``value``, when given, is what it holds).

    Raises:
        TypeError: ``response`` is one call.
    """
    found = field(response, marker) if response is not None else None
    if found is not None and (value is None or found == value):
        raise TypeError(
            "got one tool call where a response or a list of calls belongs: "
            f"{value_text(response)}; pass the response, or the calls in a list"
        )


def toolkit(tools: Tools) -> Toolkit:
    return tools if isinstance(tools, Toolkit) else Toolkit(tools)


def _no_constant(name: str) -> Any:
    """Refuse ``NaN``, ``Infinity`` and ``-Infinity``: Python reads them, JSON has none."""
    raise ValueError(
        f"the arguments are not valid JSON ({name} is not a JSON number); send one JSON "
        "object that matches the tool's parameters"
    )


#: One decoder for every call: ``json.loads`` with an option builds a new one each time.
_DECODER = json.JSONDecoder(parse_constant=_no_constant)


def _decode_json(text: Any) -> Any:
    """Parse a model's JSON arguments; raise ``ValueError`` with a short reason."""
    if not isinstance(text, str):
        raise ValueError(f"the arguments must be a JSON text, got {type(text).__name__}")
    try:
        return _DECODER.decode(text)
    except json.JSONDecodeError as err:
        if not text.strip():
            return {}  # no arguments at all: a tool without parameters
        raise ValueError(
            f"the arguments are not valid JSON ({err.msg} at line {err.lineno} column "
            f"{err.colno}); send one JSON object that matches the tool's parameters"
        ) from None
    except RecursionError:
        raise ValueError("the arguments are nested too deeply to decode") from None


#: Seconds a runner gives a call when neither the call, the tool (``@tool(timeout=...)``)
#: nor the toolkit (``Toolkit(timeout=...)``) sets a limit. A model's turn waits for
#: every call, so a hung tool must not hold an agent for ever; a minute leaves room for
#: a slow fetch or query (the built-in ``http_fetch`` gives up after 10 s by default).
RUNNER_TIMEOUT = 60.0


async def run_calls(
    kit: Toolkit,
    calls: list[Call],
    *,
    meta: Any,
    timeout: float | None,
    decode: Decode | None,
    sequential: bool | None = None,
    on_progress: ProgressCallback | None = None,
    where: str = "run_calls",
) -> list[ToolResult]:
    """Run a response's calls and return their results in the calls' order.

    Concurrently, unless ``sequential`` (default: the toolkit's ``sequential``) asks
    for one after another. Each call's deadline is ``timeout``, else the tool's or the
    toolkit's, else ``RUNNER_TIMEOUT``; ``math.inf`` means none. ``on_progress``
    (default: the toolkit's) receives every progress event; each names its call id.
    A ``timeout`` that is not a positive number, ``math.inf`` or ``None`` raises
    ``TypeError`` or ``ValueError`` naming ``where`` (the public runner) before any call runs.
    """
    if timeout is not None and not (timeout.__class__ is float and timeout > 0):
        timeout = checked_timeout(timeout, where)  # the common cases need no call

    def limit(name: str) -> float:
        if timeout is not None:
            return timeout
        own = kit.timeout_of(name)
        return RUNNER_TIMEOUT if own is None else own

    def prepared(call: Call) -> ToolResult | tuple[Any]:
        """Return ``(input,)`` for the call, or the ``ToolResult`` that answers it unrun."""
        if call.refused is not None:
            return ToolResult(call.name, call.call_id, False, error=call.refused)
        tool = kit.get(call.name, None)
        if tool is None:
            return kit.execute(call.name, call_id=call.call_id)  # the unknown-tool result
        try:
            value = _decode_json(call.arguments) if call.is_text else call.arguments
            if decode is not None:
                value = decode(tool, value)
        except Exception as exc:
            text = str(exc) if isinstance(exc, ValueError) else error_text(exc)
            return ToolResult(call.name, call.call_id, False, error=bound_text(text), exception=exc)
        return (value,)

    if kit.sequential if sequential is None else sequential:
        done: list[ToolResult] = []
        for call in calls:
            ready = prepared(call)
            if isinstance(ready, ToolResult):
                done.append(ready)
                continue
            result = await kit.aexecute(
                call.name,
                ready[0],
                meta,
                timeout=limit(call.name),
                call_id=call.call_id,
                on_progress=on_progress,
            )
            done.append(result)
        return done
    results: list[Any] = [None] * len(calls)  # each a ToolResult by the end
    requests: list[Request] = []
    placed: list[int] = []
    for index, call in enumerate(calls):
        ready = prepared(call)
        if isinstance(ready, ToolResult):
            results[index] = ready
        else:
            requests.append((call.name, ready[0], call.call_id, limit(call.name)))
            placed.append(index)
    if requests:
        ran = await run_batch(kit, requests, meta=meta, on_progress=on_progress)
        for index, result in zip(placed, ran, strict=True):
            results[index] = result
    return results


def positional_refused(name: str, given: int) -> ToolResult:
    """Return the failed call of a framework that passed ``given`` arguments by position.

    A tool's input is one object, its arguments by name; a bridge answers a
    positional call with this error (the model or the caller can correct it)
    rather than a bare ``TypeError`` or a value silently dropped.
    """
    error = (
        f"input validation failed: {given} positional argument{'s' if given != 1 else ''} "
        "given; pass every argument by name (the input is an object)"
    )
    return ToolResult(name, None, False, error=error)


def content(result: ToolResult, consumer: str | None = None) -> str:
    """Write what the model receives: the value as ``text_result`` does, or ``Error: ...``.

    With ``consumer``, a rich result's blocks that are not text are its
    ``fallback_text``, naming that consumer (``text_result`` names none).
    """
    if result.success:
        if consumer is not None:
            rich = rich_output(result.value)
            if rich is not None:
                return rich_text(rich, consumer)
        return text_result(result.value)
    return sendable(f"Error: {result.error}")  # a message may hold a lone surrogate
