"""Amazon Bedrock Converse: the ``toolSpec`` declaration, its checker, ``toolConfig``, the runner.

Layer: providers (imports the core, the shared declaration and runner helpers; never
the package root). Bedrock passes the JSON Schema on to the model, so the schema is
the tool's own draft 2020-12 schema; the service itself checks the name, the
description and that the schema is a JSON document with an object at its root
(the rules below quote the Converse API's shapes ``ToolSpecification``,
``ToolName`` and ``ToolInputSchema``).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Mapping
from typing import Any, cast

from typing_extensions import Literal, TypedDict, overload

from standard_tool._shared import Snapshot, truncate_text
from standard_tool._toolkit import ToolResult
from standard_tool.content import EmbeddedResource, Image, Text, ToolOutput, rich_output
from standard_tool.providers._check import Path, Problems, SchemaProblem
from standard_tool.providers._convert_common import (
    PREFIX,
    ProviderOptionError,
    ProviderSchemaError,
    ToolCache,
    is_object,
    reasons_text,
    value_text,
)
from standard_tool.providers._declare import (
    AnyTool,
    ManyTools,
    check_name,
    each,
    is_one_tool,
    parameters,
)
from standard_tool.providers._runner import (
    Call,
    Tools,
    content,
    field,
    items,
    not_one_call,
    run_calls,
    toolkit,
)
from standard_tool.providers._sync import run_sync
from standard_tool.providers._text import (
    ERROR_MAX_CHARS,
    OUTPUT_MAX_CHARS,
    bounded_output,
    json_text,
    jsonable,
    rich_text,
    sendable,
    text_result,
)

__all__ = [
    "BedrockToolResult",
    "BedrockToolResultBlock",
    "BedrockToolResultMessage",
    "bedrock_content",
    "bedrock_tool_config",
    "bedrock_tool_result",
    "check_bedrock",
    "run_bedrock_tool_calls",
    "run_bedrock_tool_calls_sync",
    "to_bedrock",
]

#: ``ToolName``: 1 to 64 characters, pattern ``[a-zA-Z0-9_-]+``.
BEDROCK_NAME = re.compile(r"[a-zA-Z0-9_-]{1,64}")
_NAME_RULE = "1 to 64 of A-Z, a-z, 0-9, '_' and '-'"
_MAX_DOCUMENT_DEPTH = 64


# --------------------------------------------------------------------------------------
# Declaration
# --------------------------------------------------------------------------------------


@overload
def to_bedrock(tool: AnyTool) -> dict[str, Any]: ...
@overload
def to_bedrock(tool: ManyTools) -> list[dict[str, Any]]: ...
def to_bedrock(tool: AnyTool | ManyTools) -> dict[str, Any] | list[dict[str, Any]]:
    """Declare ``tool`` (or each of a ``Toolkit`` or iterable) for the Bedrock Converse API.

    Args:
        tool: any conforming tool, or a ``Toolkit`` or iterable of tools (then
            the result is a list of declarations, in order).

    Returns:
        ``{"toolSpec": {"name", "description", "inputSchema": {"json": ...}}}``,
        the schema being the tool's draft 2020-12 input schema with an object
        root. ``description`` is left out when the tool has none (Bedrock refuses
        an empty one). Put the list in ``toolConfig={"tools": [...]}``, or use
        ``bedrock_tool_config``.

    Raises:
        ProviderSchemaError: the name is not ``[a-zA-Z0-9_-]{1,64}``, the input is
            not an object, or the schema is not plain JSON data (every problem
            ``check_bedrock`` finds is named).

    Examples:
        >>> from standard_tool import standard_tool
        >>> ping = standard_tool(name="ping", description="Ping.", execute=lambda: "pong")
        >>> to_bedrock(ping)["toolSpec"]["inputSchema"]
        {'json': {'type': 'object', 'properties': {}}}
    """
    return each(tool, _bedrock)


_SPECS: ToolCache[Snapshot[dict[str, Any]]] = ToolCache()


def _bedrock(tool: AnyTool) -> dict[str, Any]:
    return {"toolSpec": _SPECS.get(tool, lambda: Snapshot(_spec(tool))).get()}


def _spec(tool: AnyTool) -> dict[str, Any]:
    name = check_name(tool, BEDROCK_NAME, "Bedrock", _NAME_RULE)
    spec: dict[str, Any] = {"name": name}
    if tool.description:
        spec["description"] = tool.description
    spec["inputSchema"] = {"json": parameters(tool)}
    problems = [str(p) for p in check_bedrock(spec)]
    if problems:
        raise ProviderSchemaError(
            truncate_text(
                f"{PREFIX}cannot declare tool {name!r} for Bedrock: {reasons_text(problems)}", 2000
            )
        )
    return spec


def bedrock_tool_config(
    tools: AnyTool | ManyTools, *, tool_choice: Literal["auto", "any"] | str | None = None
) -> dict[str, Any]:
    """Build the Converse ``toolConfig`` for a ``Toolkit`` (or any iterable of tools).

    Args:
        tools: the tools the model may call, at least one.
        tool_choice: ``None`` leaves the choice to Bedrock's default; ``"auto"``
            lets the model decide, ``"any"`` makes it call some tool, and any other
            text names the one tool it must call.

    Returns:
        ``{"tools": [{"toolSpec": ...}, ...]}`` plus ``"toolChoice"`` when asked,
        ready for ``client.converse(..., toolConfig=...)``.

    Raises:
        ValueError: no tools, or ``tool_choice`` names no given tool
            (a ``ProviderOptionError``).
        ProviderSchemaError: a tool cannot be declared (see ``to_bedrock``).
    """
    listed: list[AnyTool] = (
        [cast("AnyTool", tools)] if is_one_tool(tools) else list(cast("Iterable[AnyTool]", tools))
    )
    specs = [_bedrock(t) for t in listed]
    if not specs:
        raise ProviderOptionError(f"{PREFIX}a Bedrock toolConfig needs at least one tool")
    config: dict[str, Any] = {"tools": specs}
    if tool_choice in ("auto", "any"):
        config["toolChoice"] = {tool_choice: {}}
    elif tool_choice is not None:
        names = [s["toolSpec"]["name"] for s in specs]
        if tool_choice not in names:
            raise ProviderOptionError(
                f"{PREFIX}tool_choice {value_text(tool_choice, 80)} names no given tool; "
                f'use "auto", "any" or one of {value_text(names, 200)}'
            )
        config["toolChoice"] = {"tool": {"name": tool_choice}}
    return config


# --------------------------------------------------------------------------------------
# Checker
# --------------------------------------------------------------------------------------


def check_bedrock(tool_spec: Mapping[str, Any]) -> list[SchemaProblem]:
    """List what the Converse API would reject in a ``toolSpec`` (or ``{"toolSpec": ...}``).

    Checks the service's own rules: a name of 1 to 64 of ``[a-zA-Z0-9_-]``; a
    description, when present, that is a non-empty string; an ``inputSchema``
    with a ``json`` schema whose root has ``"type": "object"``; and a schema that
    is a JSON document (string keys; strings, finite numbers, booleans, null,
    lists and objects only). What a model accepts beyond that is the model's
    own dialect.

    Returns:
        The problems found, empty when the declaration is acceptable (at most 200).
    """
    problems = Problems()
    if not is_object(tool_spec):
        problems.add((), "is not a JSON object")
        return problems.items
    spec: Any = tool_spec
    base: Path = ()
    if "toolSpec" in spec:
        spec = spec["toolSpec"]
        base = ("toolSpec",)
        if not is_object(spec):
            problems.add(base, "is not a JSON object")
            return problems.items
    name = spec.get("name")
    if not isinstance(name, str) or not BEDROCK_NAME.fullmatch(name):
        problems.add((*base, "name"), f"must be {_NAME_RULE}")
    if "description" in spec and (
        not isinstance(spec["description"], str) or not spec["description"]
    ):
        problems.add((*base, "description"), "must be a non-empty string (or left out)")
    schema_holder = spec.get("inputSchema")
    if not is_object(schema_holder) or "json" not in schema_holder:
        problems.add((*base, "inputSchema"), 'must be {"json": <JSON Schema>}')
        return problems.items
    schema = schema_holder["json"]
    path: Path = (*base, "inputSchema", "json")
    if not is_object(schema):
        problems.add(path, "must be a JSON Schema object")
        return problems.items
    if schema.get("type") != "object":
        problems.add((*path, "type"), 'the top-level schema must have "type": "object"')
    _document(schema, path, problems, 0)
    return problems.items


def _document(value: Any, path: Path, problems: Problems, depth: int) -> None:
    if depth > _MAX_DOCUMENT_DEPTH:
        problems.add(path, f"nests deeper than {_MAX_DOCUMENT_DEPTH} levels")
        return
    if value is None or isinstance(value, (str, bool, int)):
        return
    if isinstance(value, float):
        if not math.isfinite(value):
            problems.add(path, f"is {value!r}, which JSON cannot carry")
        return
    if isinstance(value, list):
        entries: Any = value  # pyright: ignore[reportUnknownVariableType]
        for index, item in enumerate(entries):
            _document(item, (*path, index), problems, depth + 1)
        return
    if isinstance(value, dict):
        mapping: Any = value  # pyright: ignore[reportUnknownVariableType]
        for key, item in mapping.items():
            if not isinstance(key, str):
                problems.add(path, f"has a key {value_text(repr(key), 80)} that is not a string")
                continue
            _document(item, (*path, key), problems, depth + 1)
        return
    problems.add(path, f"is a {type(value).__name__}, not JSON data")


# --------------------------------------------------------------------------------------
# Results and running tool calls
# --------------------------------------------------------------------------------------


class BedrockToolResult(TypedDict):
    """The body of a Converse ``toolResult`` block."""

    toolUseId: str
    content: list[dict[str, Any]]
    status: Literal["success", "error"]


class BedrockToolResultBlock(TypedDict):
    """A Converse content block answering one ``toolUse`` block."""

    toolResult: BedrockToolResult


class BedrockToolResultMessage(TypedDict):
    """The Converse ``user`` message carrying every ``toolResult`` of a turn."""

    role: Literal["user"]
    content: list[BedrockToolResultBlock]


def _result_content(value: Any, text: str, success: bool) -> list[dict[str, Any]]:
    """Send a mapping output as ``{"json": ...}``; anything else (or a cut one) as text."""
    if success and isinstance(value, Mapping):
        try:
            document = json.loads(text)
        except ValueError:  # cut at the bound: the text says so
            document = None
        if is_object(document):
            return [{"json": document}]
    return [{"text": text}]


#: ``ImageFormat`` by MIME type.
_IMAGE_FORMATS = {
    "image/png": "png",
    "image/jpeg": "jpeg",
    "image/gif": "gif",
    "image/webp": "webp",
}
#: ``DocumentFormat`` by MIME type.
_DOCUMENT_FORMATS = {
    "application/pdf": "pdf",
    "text/csv": "csv",
    "application/msword": "doc",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "docx",
    "application/vnd.ms-excel": "xls",
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": "xlsx",
    "text/html": "html",
    "text/plain": "txt",
    "text/markdown": "md",
}
#: ``DocumentBlock.name``: letters, digits, single spaces, hyphens, parentheses, brackets.
_NAME_DROP = re.compile(r"[^A-Za-z0-9\s\-()\[\]]+")


def _document_name(uri: str, index: int) -> str:
    stem = uri.rstrip("/").rsplit("/", 1)[-1].rsplit(".", 1)[0]
    name = " ".join(_NAME_DROP.sub(" ", stem).split())[:100]
    return f"{name or 'document'} ({index})"  # names must differ within a message


def bedrock_content(
    output: ToolOutput[Any], max_chars: int = OUTPUT_MAX_CHARS, *, consumer: str = "Bedrock"
) -> list[dict[str, Any]]:
    """Write a rich result as the ``content`` of a Converse ``toolResult``.

    A ``Text`` is ``{"text"}``; an ``Image`` of PNG, JPEG, GIF or WebP an
    ``{"image": {"format", "source": {"bytes"}}}``; an ``EmbeddedResource`` with
    bytes of a document type Bedrock reads (PDF, CSV, Word, Excel, HTML, text,
    Markdown) a ``{"document": {"format", "name", "source": {"bytes"}}}``, named
    after its URI. Every other block is its ``fallback_text``; the structured
    value follows as ``{"json": ...}`` (an object) or its JSON text. ``consumer``
    is the name the fallback text gives (Strands writes tool results in this shape too).

    Examples:
        >>> bedrock_content(ToolOutput([Image(b"abc", "image/png")]))
        [{'image': {'format': 'png', 'source': {'bytes': b'abc'}}}]
    """
    output = bounded_output(output, max_chars)
    blocks: list[dict[str, Any]] = []
    for index, block in enumerate(output.content):
        image = _IMAGE_FORMATS.get(block.mime_type) if isinstance(block, Image) else None
        document = (
            _DOCUMENT_FORMATS.get(block.mime_type or "")
            if isinstance(block, EmbeddedResource) and block.blob is not None
            else None
        )
        if isinstance(block, Text):
            blocks.append({"text": sendable(block.text)})
        elif isinstance(block, Image) and image is not None:
            blocks.append({"image": {"format": image, "source": {"bytes": block.data}}})
        elif isinstance(block, EmbeddedResource) and block.blob is not None and document:
            name = _document_name(block.uri, index + 1)
            doc = {"format": document, "name": name, "source": {"bytes": block.blob}}
            blocks.append({"document": doc})
        else:
            blocks.append({"text": rich_text(ToolOutput([block]), consumer, max_chars)})
    if output.structured is not None:
        data = jsonable(output.structured, max(max_chars, 1), escape=True)
        text = json_text(data)
        blocks.append(
            {"json": data}
            if isinstance(data, dict) and len(text) <= max_chars
            else {"text": text[:max_chars]}
        )
    return blocks or [{"text": ""}]


def bedrock_tool_result(
    outcome: Any,
    *,
    tool_use_id: str | None = None,
    max_chars: int = OUTPUT_MAX_CHARS,
    error_max_chars: int = ERROR_MAX_CHARS,
) -> dict[str, Any]:
    """Render a tool's outcome as a Converse ``toolResult`` content block.

    A mapping output is sent as ``{"json": ...}`` (JSON data, as ``text_result``
    writes it); any other output, or one longer than ``max_chars``, as
    ``{"text": ...}``. An exception gives ``"status": "error"`` and the text
    ``"Error: ..."``. A rich result (``ToolOutput`` or content blocks) is written
    by ``bedrock_content``. Used as a formatter (where the id is not known yet) the
    block has no ``toolUseId``: set it from the model's ``toolUse`` block.

    Examples:
        >>> bedrock_tool_result({"temp": 21}, tool_use_id="t1")["toolResult"]["content"]
        [{'json': {'temp': 21}}]
    """
    failed = isinstance(outcome, Exception)
    body: dict[str, Any] = {}
    if tool_use_id is not None:
        body["toolUseId"] = tool_use_id
    rich = None if failed else rich_output(outcome)
    if rich is not None:
        body["content"] = bedrock_content(rich, max_chars)
    else:
        text = text_result(outcome, max_chars=max_chars, error_max_chars=error_max_chars)
        body["content"] = _result_content(outcome, text, not failed)
    body["status"] = "error" if failed else "success"
    return {"toolResult": body}


def _bedrock_calls(response: Any) -> list[Call]:
    if isinstance(response, (list, tuple)):
        blocks = items(response, "response")
    else:
        not_one_call(response, "toolUse")
        message = field(field(response, "output"), "message")
        if message is None:
            blocks = items(field(response, "content"), "content")
        else:
            blocks = items(field(message, "content"), "output.message.content")
    calls: list[Call] = []
    for block in blocks:
        use = field(block, "toolUse")
        if use is None:
            continue
        call_id = str(field(use, "toolUseId") or "")
        calls.append(Call(call_id, str(field(use, "name") or ""), field(use, "input"), False))
    return calls


async def run_bedrock_tool_calls(
    response: Any,
    tools: Tools,
    *,
    meta: Any = None,
    timeout: float | None = None,
) -> BedrockToolResultMessage | None:
    """Run the ``toolUse`` blocks of a Converse response; return the ``user`` reply.

    Every ``toolUse`` block runs at once (see ``Toolkit.aexecute`` for sync
    tools). The result is one ``{"role": "user", "content": [{"toolResult":
    {"toolUseId", "content", "status"}}, ...]}`` message with a block per call,
    in order; append the assistant message (``response["output"]["message"]``)
    and this one to ``messages`` and call ``converse`` again. ``None`` means
    the model asked for no tool.

    A call that succeeded has ``"status": "success"`` and its output as
    ``[{"json": {...}}]`` when the tool returned a mapping, else
    ``[{"text": ...}]`` written as ``text_result`` does. A failed call (unknown
    tool, invalid input naming its path, an exception, a timeout) has
    ``"status": "error"`` and ``[{"text": "Error: <reason>"}]``.

    Args:
        response: what ``client.converse(...)`` returned, its ``output.message``,
            or that message's ``content`` list.
        tools: a ``Toolkit`` or any iterable of tools.
        meta: passed verbatim to every tool.
        timeout: seconds each call may take.

    Returns:
        The ``user`` message, or ``None`` when there was no ``toolUse`` block.

    Raises:
        asyncio.CancelledError: when the caller is cancelled (the calls are too).
    """
    kit = toolkit(tools)
    calls = _bedrock_calls(response)
    if not calls:
        return None
    results = await run_calls(
        kit, calls, meta=meta, timeout=timeout, decode=None, where="run_bedrock_tool_calls"
    )
    return {
        "role": "user",
        "content": [_block(call, result) for call, result in zip(calls, results, strict=True)],
    }


def _block(call: Call, result: ToolResult) -> BedrockToolResultBlock:
    rich = rich_output(result.value) if result.success else None
    if rich is not None:
        blocks = bedrock_content(rich)
    else:
        blocks = _result_content(result.value, content(result), result.success)
    return {
        "toolResult": {
            "toolUseId": call.call_id,
            "content": blocks,
            "status": "success" if result.success else "error",
        }
    }


def run_bedrock_tool_calls_sync(
    response: Any,
    tools: Tools,
    *,
    meta: Any = None,
    timeout: float | None = None,
) -> BedrockToolResultMessage | None:
    """``run_bedrock_tool_calls`` for synchronous code, such as a boto3 loop.

    Runs the calls in a new event loop and returns the same ``user`` message
    (or ``None``).

    Raises:
        RuntimeError: called inside a running event loop; use
            ``await run_bedrock_tool_calls(...)`` there.
    """
    return run_sync(
        lambda: run_bedrock_tool_calls(response, tools, meta=meta, timeout=timeout),
        "run_bedrock_tool_calls_sync",
        "run_bedrock_tool_calls",
    )
