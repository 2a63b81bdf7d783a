"""Strands Agents: a standard tool as a Strands ``AgentTool``, and a Strands tool as ours.

Layer: top (imports the core, the toolkit, the schema adapters and the providers;
never the package root). It imports ``strands-agents`` at the top: only code that
uses Strands imports this module, and ``import standard_tool`` never does.

``to_strands(tool)`` gives an ``AgentTool`` whose ``inputSchema`` is the tool's
own JSON Schema (Strands sends it to every model provider as is, never in a
strict mode) and whose ``stream`` validates the model's input with the tool
itself. Every call ends in one Strands tool result: ``"success"`` with the text
every provider runner writes (``text_result``), or ``"error"`` with
``Error: ...`` naming the failing path, so a bad call never ends the agent's
turn. ``from_strands(agent_tool)`` goes the other way.
"""

from __future__ import annotations

import asyncio
import copy
import uuid
from collections.abc import AsyncGenerator, Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, cast

from strands.types.tools import AgentTool, ToolResult, ToolSpec, ToolUse
from typing_extensions import overload

from standard_tool._context import ProgressCallback, ProgressEvent, stream_events
from standard_tool._core import (
    StandardToolError,
    StandardToolV0,
    StandardToolV0Definition,
    standard_tool,
)
from standard_tool._shared import truncate_text
from standard_tool._toolkit import Toolkit
from standard_tool.content import EmbeddedResource, Image, Text, ToolOutput, rich_output
from standard_tool.providers._bedrock import bedrock_content
from standard_tool.providers._convert_common import is_array, is_object
from standard_tool.providers._declare import bridge_many, bridge_one, is_one_tool, parameters
from standard_tool.providers._runner import Call, content, run_calls
from standard_tool.providers._text import ERROR_MAX_CHARS
from standard_tool.schemas.jsonschema import tool_schema

__all__ = ["StandardStrandsTool", "StrandsCall", "StrandsToolError", "from_strands", "to_strands"]

AnyTool = StandardToolV0Definition[Any, Any, Any, Any]

#: Every JSON type: as a property's ``type`` it accepts what the property accepts.
_ANY_TYPE = ["string", "number", "boolean", "object", "array", "null"]


@dataclass(frozen=True, slots=True)
class StrandsCall:
    """What Strands knows about one call, for a ``meta`` function.

    Attributes:
        tool_use_id: the model's ``toolUseId`` for this call.
        tool_use: the whole ``ToolUse`` (name, input, id).
        invocation_state: the keyword arguments the agent was invoked with,
            plus Strands' own entries (``agent``, ...).
    """

    tool_use_id: str
    tool_use: ToolUse
    invocation_state: Mapping[str, Any]


class StrandsToolError(StandardToolError, RuntimeError):
    """A Strands tool (run through ``from_strands``) answered its call with an error.

    The message is the tool's error text, bounded.
    """


def _typed_properties(schema: dict[str, Any]) -> dict[str, Any]:
    """Keep Strands' spec normalisation from changing what a property accepts.

    Before sending a spec, Strands gives a property without ``type`` (and without
    ``$ref``; recent releases also spare ``anyOf``...) ``"type": "string"``,
    which would show the model a narrower schema than the tool enforces. Such a
    property gets the list of every JSON type instead: the same values, and
    Strands leaves it alone. Nested objects are visited as Strands visits them.
    """
    properties = schema.get("properties")
    if not is_object(properties):
        return schema
    out: dict[str, Any] = {}
    for name, given in properties.items():
        prop: Any = ({} if given else {"not": {}}) if isinstance(given, bool) else given
        if not is_object(prop) or ("type" in prop and prop["type"] != "object"):
            out[name] = prop
        elif prop.get("type") == "object":
            out[name] = _typed_properties(prop) if "properties" in prop else prop
        elif "$ref" in prop:
            out[name] = prop
        else:
            out[name] = {**prop, "type": _ANY_TYPE}
    return {**schema, "properties": out}


class StandardStrandsTool(AgentTool):
    """A Strands ``AgentTool`` that runs a standard tool; build one with ``to_strands``.

    The spec's ``inputSchema`` is the standard tool's JSON Schema. ``stream``
    validates the model's input with the standard tool, runs it (an async tool
    in the agent's event loop, a sync one in a worker thread, as Strands runs
    its own sync tools) and yields one tool result.
    """

    def __init__(self, tool: AnyTool, meta: Callable[[StrandsCall], Any] | None = None) -> None:
        super().__init__()
        self._standard = tool
        self._kit = Toolkit([tool])
        self._meta = meta
        self._spec: ToolSpec = {
            "name": tool.name,
            "description": tool.description,
            "inputSchema": {"json": _typed_properties(parameters(tool))},
        }

    @property
    def standard_tool(self) -> AnyTool:
        """The standard tool this Strands tool runs."""
        return self._standard

    @property
    def tool_name(self) -> str:
        """The tool's name, as the model calls it."""
        return self._standard.name

    @property
    def tool_spec(self) -> ToolSpec:
        """The spec Strands sends to the model (a fresh copy; Strands edits what it gets)."""
        return copy.deepcopy(self._spec)

    @property
    def tool_type(self) -> str:
        """``"standard_tool"``."""
        return "standard_tool"

    async def stream(
        self, tool_use: ToolUse, invocation_state: dict[str, Any], **kwargs: Any
    ) -> AsyncGenerator[Any, None]:
        """Run one call; yield its progress events, then its Strands tool result.

        Args:
            tool_use: the model's call: ``toolUseId``, ``name`` and ``input``.
            invocation_state: the agent's invocation keyword arguments.
            **kwargs: Strands' own extras (unused).

        Yields:
            A ``ProgressEvent`` for each progress report while the call runs
            (Strands hands each on to ``Agent.stream_async`` as a tool stream
            event), then one ``ToolResult`` dict with the call's ``toolUseId``: ``"success"``
            and the output as text, or ``"error"`` and ``"Error: ..."``.
        """
        call_id = str(tool_use.get("toolUseId") or "")
        name = self._standard.name
        hook = self._meta
        meta = None if hook is None else hook(StrandsCall(call_id, tool_use, invocation_state))
        calls = [Call(call_id, name, tool_use.get("input"), False)]
        kit = self._kit

        async def start(listener: ProgressCallback) -> list[Any]:
            run = run_calls(kit, calls, meta=meta, timeout=None, decode=None, on_progress=listener)
            if kit.is_async(name):
                return await run
            return await asyncio.to_thread(asyncio.run, run)

        def final(results: list[Any] | None, error: Exception | None) -> Any:
            if error is not None:
                raise error
            return results

        results: Any = None
        async for event in stream_events(start, final):
            if isinstance(event, ProgressEvent):
                yield event  # Strands hands it on as a ``ToolStreamEvent``
            else:
                results = event
        (result,) = results
        rich = rich_output(result.value) if result.success else None
        # Strands writes tool results in Bedrock's shape: text, json, image, document.
        blocks: Any = (
            [{"text": content(result)}]
            if rich is None
            else bedrock_content(rich, consumer="Strands")
        )
        answer: ToolResult = {
            "toolUseId": call_id,
            "status": "success" if result.success else "error",
            "content": blocks,
        }
        yield answer


@overload
def to_strands(
    tool: AnyTool, *, meta: Callable[[StrandsCall], Any] | None = None
) -> StandardStrandsTool: ...
@overload
def to_strands(
    tool: Toolkit | Iterable[AnyTool], *, meta: Callable[[StrandsCall], Any] | None = None
) -> list[StandardStrandsTool]: ...
def to_strands(
    tool: AnyTool | Toolkit | Iterable[AnyTool],
    *,
    meta: Callable[[StrandsCall], Any] | None = None,
) -> StandardStrandsTool | list[StandardStrandsTool]:
    """Make a Strands ``AgentTool`` of any conforming tool (or a list from a ``Toolkit``).

    Examples:
        >>> from standard_tool import tool
        >>> @tool
        ... def add(a: int, b: int) -> int:
        ...     '''Add two integers.'''
        ...     return a + b
        >>> strands_add = to_strands(add)
        >>> strands_add.tool_spec["inputSchema"]["json"]["required"]
        ['a', 'b']

    Args:
        tool: a conforming tool (sync or async), or a ``Toolkit`` or iterable of
            tools (then the result is a list, in order; hand it to
            ``Agent(tools=...)``).
        meta: a function from a ``StrandsCall`` (the ``toolUseId``, the
            ``ToolUse``, the agent's invocation state) to the ``meta`` the tool
            receives, for example ``lambda call: call.tool_use_id``; without it
            the tool receives ``None``.

    Returns:
        A ``StandardStrandsTool`` (or a list of them).

    Raises:
        ProviderSchemaError: the tool's input is not a JSON object.
    """
    if is_one_tool(tool):
        return StandardStrandsTool(bridge_one(tool, "Strands"), meta)
    return [StandardStrandsTool(t, meta) for t in bridge_many(tool, "Strands")]


def _result_of(event: Any) -> Any:
    """Return the tool result an event carries (a ``ToolResultEvent`` or a raw dict), or None."""
    if not is_object(event):
        return None
    if is_object(event.get("tool_result")):  # a ToolResultEvent
        return event["tool_result"]
    if "status" in event and "content" in event:
        return event
    return None


def _value_of(result: Any) -> Any:
    """Turn a successful Strands result into a value: one text or JSON block, else the list."""
    blocks: Any = result.get("content")
    if is_array(blocks) and len(blocks) == 1 and is_object(blocks[0]):
        block = blocks[0]
        if set(block) == {"text"}:
            return block["text"]
        if set(block) == {"json"}:
            return block["json"]
    rich = _rich_of(blocks)
    return blocks if rich is None else rich


#: MIME type by Strands' (Bedrock's) image and document ``format``.
_IMAGE_MIME = {"png": "image/png", "jpeg": "image/jpeg", "gif": "image/gif", "webp": "image/webp"}
_DOCUMENT_MIME = {"pdf": "application/pdf", "txt": "text/plain", "md": "text/markdown"}


def _rich_of(blocks: Any) -> ToolOutput[Any] | None:
    """Read Strands image and document blocks back as a ``ToolOutput`` (None when none)."""
    if not is_array(blocks):
        return None
    content: list[Any] = []
    structured: Any = None
    for block in blocks:
        if not is_object(block) or len(block) != 1:
            return None
        (kind, body), *_ = block.items()
        source = body.get("source") if is_object(body) else None
        data = source.get("bytes") if is_object(source) else None
        if kind == "text":
            content.append(Text(str(body)))
        elif kind == "json":
            structured = body
        elif kind == "image" and isinstance(data, bytes) and body.get("format") in _IMAGE_MIME:
            content.append(Image(data, _IMAGE_MIME[body["format"]]))
        elif kind == "document" and isinstance(data, bytes):
            mime = _DOCUMENT_MIME.get(str(body.get("format")), "application/octet-stream")
            uri = f"document:{truncate_text(str(body.get('name') or 'document'), 200)}"
            content.append(EmbeddedResource(uri, blob=data, mime_type=mime))
        else:
            return None
    if not any(isinstance(b, (Image, EmbeddedResource)) for b in content):
        return None
    return ToolOutput(content, structured)


def _error_of(name: str, result: Any) -> StrandsToolError:
    blocks: Any = result.get("content")
    texts = [b["text"] for b in blocks if is_object(b) and "text" in b] if is_array(blocks) else []
    detail = " ".join(str(t) for t in texts) or "the tool reported an error"
    return StrandsToolError(truncate_text(f"Strands tool {name!r}: {detail}", ERROR_MAX_CHARS))


def from_strands(agent_tool: AgentTool) -> StandardToolV0[Any, Any, Any, Any]:
    """Make a standard tool of a Strands ``AgentTool``, so a ``Toolkit`` can hold it.

    The input schema is the tool's own spec (``inputSchema``, with or without
    its ``"json"`` wrapper), and the standard tool validates the input against
    it before Strands sees it. ``execute`` is async: it streams the Strands
    tool and returns the result's single text or JSON block (the list of
    content blocks otherwise). An ``"error"`` result raises
    ``StrandsToolError`` with the tool's text. ``meta`` may be a
    ``StrandsCall`` (its ``toolUseId`` and invocation state are used) or a
    mapping used as the invocation state; otherwise a fresh call id is made
    and the state is empty. A tool made by ``to_strands`` comes back as the
    very tool it was made from.

    Examples:
        >>> import asyncio
        >>> from strands import tool
        >>> @tool
        ... def shout(text: str) -> str:
        ...     '''Upper-case a text.
        ...
        ...     Args:
        ...         text: what to shout.
        ...     '''
        ...     return text.upper()
        >>> st = from_strands(shout)
        >>> asyncio.run(st.execute({"text": "hi"}))
        'HI'

    Raises:
        InvalidSchemaError: the tool's schema is not a valid JSON Schema.
    """
    if isinstance(agent_tool, StandardStrandsTool):
        original = agent_tool.standard_tool
        if hasattr(original, "formatted"):
            return original
    spec = cast("dict[str, Any]", agent_tool.tool_spec)
    declared = spec["inputSchema"]
    schema = declared["json"] if is_object(declared) and "json" in declared else declared
    name = agent_tool.tool_name

    async def run(input: Any, meta: Any) -> Any:
        if isinstance(meta, StrandsCall):
            call_id, state = meta.tool_use_id, dict(meta.invocation_state)
        else:
            call_id = f"tooluse_{uuid.uuid4().hex}"
            state = dict(cast("Mapping[str, Any]", meta)) if isinstance(meta, Mapping) else {}
        tool_use: ToolUse = {"toolUseId": call_id, "name": name, "input": input}
        result: Any = None
        async for event in agent_tool.stream(tool_use, state):
            result = _result_of(event) or result
        if result is None:
            raise StrandsToolError(f"Strands tool {name!r} did not return a result")
        if result.get("status") == "error":
            raise _error_of(name, result)
        return _value_of(result)

    built: Any = standard_tool(
        name=name,
        description=spec.get("description") or "",
        input_schema=tool_schema(schema, "from_strands", name),
        execute=run,
    )
    return cast("StandardToolV0[Any, Any, Any, Any]", built)
