"""Anthropic: the Messages API tool declaration.

Layer: providers (imports the core and the shared declaration helpers; never the
package root).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any, Union, cast

from typing_extensions import Literal, NotRequired, TypeAlias, TypedDict, overload

from standard_tool._toolkit import ToolResult
from standard_tool.content import EmbeddedResource, Image, Text, ToolOutput, rich_output
from standard_tool.providers._anthropic_strict import anthropic_strict
from standard_tool.providers._convert_common import PREFIX, ProviderOptionError
from standard_tool.providers._declare import (
    AnyTool,
    ManyTools,
    check_name,
    is_one_tool,
    parameters,
)
from standard_tool.providers._runner import (
    Call,
    Decode,
    Tools,
    content,
    field,
    list_or_field,
    not_one_call,
    run_calls,
    toolkit,
    view_decoder,
)
from standard_tool.providers._text import (
    ERROR_MAX_CHARS,
    OUTPUT_MAX_CHARS,
    bounded_output,
    json_text,
    jsonable,
    rich_text,
    sendable,
    text_result,
    wire_text,
)

__all__ = [
    "AnthropicBase64Source",
    "AnthropicContentBlock",
    "AnthropicDocumentBlock",
    "AnthropicImageBlock",
    "AnthropicToolResultBlock",
    "AnthropicToolResultMessage",
    "anthropic_content",
    "anthropic_tool_result",
    "run_anthropic_tool_calls",
    "to_anthropic",
]

_ANTHROPIC_NAME = re.compile(r"[A-Za-z0-9_-]{1,128}")


@overload
def to_anthropic(
    tool: AnyTool, *, cache_control: Mapping[str, Any] | None = None, strict: bool = False
) -> dict[str, Any]: ...
@overload
def to_anthropic(
    tool: ManyTools, *, cache_control: Mapping[str, Any] | None = None, strict: bool = False
) -> list[dict[str, Any]]: ...
def to_anthropic(
    tool: AnyTool | ManyTools,
    *,
    cache_control: Mapping[str, Any] | None = None,
    strict: bool = False,
) -> dict[str, Any] | list[dict[str, Any]]:
    """Declare ``tool`` for the Anthropic Messages API.

    Args:
        tool: any conforming tool, or a ``Toolkit`` or iterable of tools (then
            the result is a list of declarations, in order).
        cache_control: an optional prompt-caching breakpoint, for example
            ``{"type": "ephemeral"}``, set on the tool (on the last one of a list,
            so the whole list is cached). Provider options belong here, never on
            the tool.
        strict: send ``"strict": true`` (strict tool use) with the schema
            rewritten for it (``anthropic_strict``); a schema strict mode cannot
            represent raises ``AnthropicStrictError``. Run the calls with
            ``run_anthropic_tool_calls(..., strict=True)``.

    Returns:
        ``{"name", "description", "input_schema"}`` (plus ``cache_control``,
        and ``strict`` when asked), the input schema being the tool's draft
        2020-12 JSON Schema.

    Raises:
        ProviderSchemaError: the name is not ``[A-Za-z0-9_-]{1,128}`` or the input
            is not an object.
    """
    if strict not in (True, False):  # a caller without a type checker
        raise ProviderOptionError(f"{PREFIX}strict must be True or False, not {strict!r}")
    if is_one_tool(tool):
        return _anthropic(cast("AnyTool", tool), cache_control, strict)
    listed = list(cast("Iterable[AnyTool]", tool))
    last = len(listed) - 1
    return [
        _anthropic(t, cache_control if i == last else None, strict) for i, t in enumerate(listed)
    ]


def _anthropic(
    tool: AnyTool, cache_control: Mapping[str, Any] | None, strict: bool = False
) -> dict[str, Any]:
    name = check_name(tool, _ANTHROPIC_NAME, "Anthropic", "1 to 128 of A-Z, a-z, 0-9, '_' and '-'")
    out: dict[str, Any] = {"name": name}
    if tool.description:
        out["description"] = tool.description
    if strict:
        out["input_schema"] = anthropic_strict(tool).schema
        out["strict"] = True
    else:
        out["input_schema"] = parameters(tool)
    if cache_control is not None:
        out["cache_control"] = dict(cache_control)
    return out


class AnthropicTextBlock(TypedDict):
    """A ``text`` content block."""

    type: Literal["text"]
    text: str


class AnthropicBase64Source(TypedDict):
    """The ``source`` of an image or document block: base64 data with its media type."""

    type: Literal["base64"]
    media_type: str
    data: str


class AnthropicImageBlock(TypedDict):
    """An ``image`` content block."""

    type: Literal["image"]
    source: AnthropicBase64Source


class AnthropicDocumentBlock(TypedDict):
    """A ``document`` content block (a PDF)."""

    type: Literal["document"]
    source: AnthropicBase64Source


#: A content block of a ``tool_result``.
AnthropicContentBlock: TypeAlias = Union[  # noqa: UP007  # 3.10 runs this at import
    AnthropicTextBlock, AnthropicImageBlock, AnthropicDocumentBlock
]

#: The image types a ``tool_result`` image block takes.
_IMAGE_TYPES = frozenset({"image/jpeg", "image/png", "image/gif", "image/webp"})


def anthropic_content(
    output: ToolOutput[Any], max_chars: int = OUTPUT_MAX_CHARS
) -> list[AnthropicContentBlock]:
    """Write a rich result as the content blocks of an Anthropic ``tool_result``.

    A ``Text`` is a ``text`` block; an ``Image`` of JPEG, PNG, GIF or WebP an
    ``image`` block (base64 source); a PDF ``EmbeddedResource`` a ``document``
    block. Every other block (audio, a resource link, other image and file types)
    is its ``fallback_text``; the structured value, when there is one, follows as
    its JSON text.

    Examples:
        >>> anthropic_content(ToolOutput([Image(b"abc", "image/png")]))
        [{'type': 'image', 'source': {'type': 'base64', 'media_type': 'image/png', 'data': 'YWJj'}}]
    """
    output = bounded_output(output, max_chars)
    blocks: list[AnthropicContentBlock] = []
    for block in output.content:
        if isinstance(block, Text):
            blocks.append({"type": "text", "text": sendable(block.text)})
        elif isinstance(block, Image) and block.mime_type in _IMAGE_TYPES:
            source: AnthropicBase64Source = {
                "type": "base64",
                "media_type": block.mime_type,
                "data": block.base64,
            }
            blocks.append({"type": "image", "source": source})
        elif (
            isinstance(block, EmbeddedResource)
            and block.mime_type == "application/pdf"
            and (block.blob is not None)
        ):
            pdf: AnthropicBase64Source = {
                "type": "base64",
                "media_type": "application/pdf",
                "data": block.base64 or "",
            }
            blocks.append({"type": "document", "source": pdf})
        else:
            blocks.append(
                {"type": "text", "text": rich_text(ToolOutput([block]), "Anthropic", max_chars)}
            )
    if output.structured is not None:
        data = json_text(jsonable(output.structured, max(max_chars, 1)))
        blocks.append({"type": "text", "text": sendable(data[:max_chars])})
    if not blocks:  # the API refuses an empty tool_result
        blocks.append({"type": "text", "text": ""})
    return blocks


def result_content(result: ToolResult) -> str | list[AnthropicContentBlock]:
    rich = rich_output(result.value) if result.success else None
    return content(result) if rich is None else anthropic_content(rich)


class AnthropicToolResult(TypedDict):
    """The ``tool_result`` block ``anthropic_tool_result`` writes (fully typed, no ``Any``).

    ``tool_use_id`` is absent when the block was made by a formatter: set it from
    the model's ``tool_use`` block before sending.
    """

    type: Literal["tool_result"]
    tool_use_id: NotRequired[str]
    content: list[AnthropicContentBlock]
    is_error: bool


def anthropic_tool_result(
    outcome: object,
    *,
    tool_use_id: str | None = None,
    max_chars: int = OUTPUT_MAX_CHARS,
    error_max_chars: int = ERROR_MAX_CHARS,
) -> AnthropicToolResult:
    """Render a tool's outcome as an Anthropic ``tool_result`` content block.

    Returns ``{"type": "tool_result", "tool_use_id", "content": [{"type":
    "text", "text"}], "is_error"}``; a rich result (``ToolOutput`` or content
    blocks) gets the blocks ``anthropic_content`` writes. Used as a formatter (where the id is not
    known yet) the block has no ``tool_use_id``: set it from the model's
    ``tool_use`` block before sending.
    """
    failed = isinstance(outcome, Exception)
    rich = None if failed else rich_output(outcome)
    content: list[AnthropicContentBlock]
    if rich is not None:
        content = anthropic_content(rich, max_chars)
    else:
        text = text_result(outcome, max_chars=max_chars, error_max_chars=error_max_chars)
        content = [{"type": "text", "text": text}]
    if tool_use_id is None:
        return {"type": "tool_result", "content": content, "is_error": failed}
    return {
        "type": "tool_result",
        "tool_use_id": tool_use_id,
        "content": content,
        "is_error": failed,
    }


class AnthropicToolResultBlock(TypedDict):
    """An Anthropic ``tool_result`` content block answering one ``tool_use`` block."""

    type: Literal["tool_result"]
    tool_use_id: str
    content: str | list[AnthropicContentBlock]
    is_error: bool


class AnthropicToolResultMessage(TypedDict):
    """The Anthropic ``user`` message carrying every ``tool_result`` of a turn."""

    role: Literal["user"]
    content: list[AnthropicToolResultBlock]


def _anthropic_calls(response: Any) -> list[Call]:
    not_one_call(response, "type", "tool_use")
    calls: list[Call] = []
    for block in list_or_field(response, "content"):
        if field(block, "type") == "tool_use":
            call_id = wire_text(field(block, "id"))
            calls.append(
                Call(call_id, wire_text(field(block, "name")), field(block, "input"), False)
            )
    return calls


async def run_anthropic_tool_calls(
    response: Any,
    tools: Tools,
    *,
    meta: Any = None,
    timeout: float | None = None,
    strict: bool = False,
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
        strict: the ``strict`` option the tools were declared with
            (``to_anthropic``); when true, each ``input`` is decoded back to the
            tool's own shape (``AnthropicStrictSchema.decode``) before it runs.

    Returns:
        The ``user`` message, or ``None`` when there was no ``tool_use`` block.

    Raises:
        asyncio.CancelledError: when the caller is cancelled (the calls are too).
    """
    kit = toolkit(tools)
    calls = _anthropic_calls(response)
    if not calls:
        return None
    decode: Decode | None = None
    if strict:
        decode = view_decoder(anthropic_strict)
    results = await run_calls(
        kit, calls, meta=meta, timeout=timeout, decode=decode, where="run_anthropic_tool_calls"
    )
    blocks: list[AnthropicToolResultBlock] = [
        {
            "type": "tool_result",
            "tool_use_id": call.call_id,
            "content": result_content(result),
            # a tool may return an exception object: it is written as an error too
            "is_error": not result.success or isinstance(result.value, Exception),
        }
        for call, result in zip(calls, results, strict=True)
    ]
    return {"role": "user", "content": blocks}
