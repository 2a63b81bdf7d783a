"""Gemini: running ``google-genai`` function-call parts and writing function-response parts.

Layer: providers (imports the toolkit, the shared runner helpers and ``_gemini``;
never the package root).
"""

from __future__ import annotations

import json
from typing import Any

from typing_extensions import Literal, NotRequired, TypedDict

from standard_tool._shared import truncate_text
from standard_tool._toolkit import ToolResult
from standard_tool.content import Content, EmbeddedResource, Image, ToolOutput, rich_output
from standard_tool.providers._gemini import gemini_json_parameters, gemini_parameters
from standard_tool.providers._runner import (
    Call,
    Decode,
    Tools,
    content,
    field,
    items,
    not_one_call,
    run_calls,
    toolkit,
    view_decoder,
)
from standard_tool.providers._sync import run_sync
from standard_tool.providers._text import (
    ERROR_MAX_CHARS,
    OUTPUT_MAX_CHARS,
    json_text,
    jsonable,
    rich_text,
    text_result,
)

__all__ = [
    "GeminiFunctionResponse",
    "GeminiFunctionResponseContent",
    "GeminiFunctionResponsePart",
    "gemini_function_response",
    "gemini_rich_response",
    "run_gemini_function_calls",
    "run_gemini_function_calls_sync",
]


class GeminiFunctionResponse(TypedDict):
    """A ``FunctionResponse``: the call's id (when it had one), name, response and parts."""

    id: NotRequired[str]
    name: str
    response: dict[str, Any]
    parts: NotRequired[list[dict[str, Any]]]


class GeminiFunctionResponsePart(TypedDict):
    """A ``Part`` carrying one function response."""

    function_response: GeminiFunctionResponse


class GeminiFunctionResponseContent(TypedDict):
    """The ``user`` turn carrying every function response of a model turn."""

    role: Literal["user"]
    parts: list[GeminiFunctionResponsePart]


def _response(value: Any, text: str, success: bool) -> dict[str, Any]:
    """``{"output": value}`` (a string as bounded text, else JSON data) or ``{"error": text}``."""
    if not success:
        return {"error": text}
    if isinstance(value, str):
        return {"output": text}
    try:
        return {"output": json.loads(text)}
    except ValueError:  # cut at the bound: the text says so
        return {"output": text}


#: What a function response's ``inline_data`` part takes.
_PART_TYPES = frozenset({"image/png", "image/jpeg", "image/webp", "application/pdf"})


def _inline(block: Content) -> dict[str, Any] | None:
    if isinstance(block, Image) and block.mime_type in _PART_TYPES:
        return {"inline_data": {"mime_type": block.mime_type, "data": block.data}}
    if (
        isinstance(block, EmbeddedResource)
        and block.blob is not None
        and block.mime_type in _PART_TYPES
    ):
        return {"inline_data": {"mime_type": block.mime_type, "data": block.blob}}
    return None


def gemini_rich_response(
    output: ToolOutput[Any], max_chars: int = OUTPUT_MAX_CHARS
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Split a rich result into a Gemini function response's ``response`` and ``parts``.

    Images (PNG, JPEG, WebP) and PDF resources become ``inline_data`` parts
    with their bytes; the other blocks are text (their ``fallback_text`` for
    audio, links and other types) in ``response["output"]``, and the structured
    value, when there is one, is ``response["structured"]`` as JSON data.

    Examples:
        >>> output = ToolOutput([Image(b"abc", "image/png")], {"n": 1})
        >>> response, parts = gemini_rich_response(output)
        >>> response
        {'output': '', 'structured': {'n': 1}}
        >>> parts
        [{'inline_data': {'mime_type': 'image/png', 'data': b'abc'}}]
    """
    parts: list[dict[str, Any]] = []
    rest: list[Content] = []
    for block in output.content:
        part = _inline(block)
        if part is None:
            rest.append(block)
        else:
            parts.append(part)
    response: dict[str, Any] = {"output": rich_text(ToolOutput(rest), "Gemini", max_chars)}
    if output.structured is not None:
        data = jsonable(output.structured, max(max_chars, 1), escape=True)
        text = json_text(data)
        # JSON data when it fits the bound, else its JSON text, cut (as a plain output is).
        response["structured"] = data if len(text) <= max_chars else truncate_text(text, max_chars)
    return response, parts


def gemini_function_response(
    outcome: Any,
    *,
    name: str,
    call_id: str | None = None,
    max_chars: int = OUTPUT_MAX_CHARS,
    error_max_chars: int = ERROR_MAX_CHARS,
) -> dict[str, Any]:
    """Render a tool's outcome as a Gemini function-response ``Part`` (a dict).

    Returns ``{"function_response": {"id", "name", "response"}}``, the
    ``response`` being ``{"output": <value>}`` (JSON data, as ``text_result``
    writes it; a string, or a value longer than ``max_chars``, as text) or, for
    an exception, ``{"error": "Error: ..."}``. ``id`` is left out when not given.
    A rich result (``ToolOutput`` or content blocks) is split by
    ``gemini_rich_response``: images and PDFs go in ``parts``.
    ``google.genai.types.Part.model_validate`` accepts it.

    Examples:
        >>> gemini_function_response({"temp": 21}, name="weather", call_id="c1")
        {'function_response': {'id': 'c1', 'name': 'weather', 'response': {'output': {'temp': 21}}}}
    """
    failed = isinstance(outcome, Exception)
    body: dict[str, Any] = {}
    if call_id is not None:
        body["id"] = call_id
    body["name"] = name
    rich = None if failed else rich_output(outcome)
    if rich is not None:
        body["response"], parts = gemini_rich_response(rich, max_chars)
        if parts:
            body["parts"] = parts
    else:
        text = text_result(outcome, max_chars=max_chars, error_max_chars=error_max_chars)
        body["response"] = _response(outcome, text, not failed)
    return {"function_response": body}


def _parts(response: Any) -> list[Any]:
    if isinstance(response, (list, tuple)):
        return items(response, "response")
    not_one_call(response, "functionCall")
    not_one_call(response, "function_call")
    candidates = items(field(response, "candidates"), "candidates")
    holder = field(candidates[0], "content") if candidates else response
    where = "candidates[0].content.parts" if candidates else "parts"
    return items(field(holder, "parts"), where)


def _gemini_calls(response: Any) -> list[tuple[str | None, Call]]:
    calls: list[tuple[str | None, Call]] = []
    for part in _parts(response):
        call = field(part, "function_call")
        if call is None:
            call = field(part, "functionCall")
        if call is None:
            continue
        raw_id = field(call, "id")
        call_id = None if raw_id is None else str(raw_id)
        name = str(field(call, "name") or "")
        calls.append((call_id, Call(call_id or "", name, field(call, "args"), False)))
    return calls


def _decoder(json_schema: bool) -> Decode:
    return view_decoder(gemini_json_parameters if json_schema else gemini_parameters)


async def run_gemini_function_calls(
    response: Any,
    tools: Tools,
    *,
    meta: Any = None,
    timeout: float | None = None,
    json_schema: bool = False,
) -> GeminiFunctionResponseContent | None:
    """Run the function calls of a Gemini response; return the ``user`` turn answering them.

    Every function-call part of the first candidate runs at once (see
    ``Toolkit.aexecute`` for sync tools). The result is one ``{"role": "user",
    "parts": [{"function_response": {"id", "name", "response"}}, ...]}``
    content with a part per call, in order; append the model's content
    (``response.candidates[0].content``) and this one to ``contents`` and ask
    again. ``None`` means the model asked for no function.

    ``response`` is ``{"output": <value>}`` for a call that succeeded and
    ``{"error": "Error: <reason>"}`` for one that failed: an unknown function,
    invalid arguments (naming the path), an exception in the tool or a timeout.
    The arguments are first decoded back to the tool's own input shape
    (``GeminiParameters.decode``), undoing the ``dict[str, T]`` rewrite.

    Args:
        response: a ``GenerateContentResponse`` or its dict form (SDK field
            names or the REST API's camelCase), a ``Content``, or a list of parts.
        tools: a ``Toolkit`` or any iterable of tools.
        meta: passed verbatim to every tool.
        timeout: seconds each call may take.
        json_schema: the ``json_schema`` option the tools were declared with
            (``to_gemini``), which decides how arguments are decoded.

    Returns:
        The ``user`` content, or ``None`` when there was no function call.

    Raises:
        asyncio.CancelledError: when the caller is cancelled (the calls are too).
    """
    kit = toolkit(tools)
    pairs = _gemini_calls(response)
    if not pairs:
        return None
    calls = [call for _, call in pairs]
    results = await run_calls(
        kit,
        calls,
        meta=meta,
        timeout=timeout,
        decode=_decoder(json_schema),
        where="run_gemini_function_calls",
    )
    return {
        "role": "user",
        "parts": [
            _part(call_id, call, result)
            for (call_id, call), result in zip(pairs, results, strict=True)
        ],
    }


def _part(call_id: str | None, call: Call, result: ToolResult) -> GeminiFunctionResponsePart:
    rich = rich_output(result.value) if result.success else None
    parts: list[dict[str, Any]] = []
    if rich is not None:
        response, parts = gemini_rich_response(rich)
    else:
        response = _response(result.value, content(result), result.success)
    body: GeminiFunctionResponse = {"name": call.name, "response": response}
    if parts:
        body["parts"] = parts
    if call_id is not None:
        body = {"id": call_id, **body}
    return {"function_response": body}


def run_gemini_function_calls_sync(
    response: Any,
    tools: Tools,
    *,
    meta: Any = None,
    timeout: float | None = None,
    json_schema: bool = False,
) -> GeminiFunctionResponseContent | None:
    """``run_gemini_function_calls`` for synchronous code (``client.models``).

    Runs the calls in a new event loop and returns the same ``user`` content
    (or ``None``).

    Raises:
        RuntimeError: called inside a running event loop; use
            ``await run_gemini_function_calls(...)`` there.
    """
    return run_sync(
        lambda: run_gemini_function_calls(
            response, tools, meta=meta, timeout=timeout, json_schema=json_schema
        ),
        "run_gemini_function_calls_sync",
        "run_gemini_function_calls",
    )
