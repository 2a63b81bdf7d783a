"""AG2: a standard tool as an AG2 ``FunctionTool``, and an AG2 ``FunctionTool`` as ours.

Layer: top (imports the core, the toolkit, the schema adapters and the providers;
never the package root). It imports ``ag2`` at the top: only code that uses AG2
imports this module, and ``import standard_tool`` never does.

``to_ag2(tool)`` gives a ``FunctionTool`` whose parameters are the declaration
``to_openai_chat(tool, strict=False)`` writes, so the model sees the tool's own
JSON Schema. When the agent runs a call, the tool validates the model's
arguments itself (AG2's own argument checks never run), under the model's call
id, and answers with a ``ToolResultEvent`` holding the text every provider
runner writes. A refused input or a raising tool answers with a
``ToolErrorEvent``, so AG2 and its middleware see a failed call, whose text for
the model is ``Error: ...`` naming the failing path (not a traceback); the run
goes on. ``from_ag2(function_tool)`` goes the other way.
"""

from __future__ import annotations

import asyncio
import copy
import json
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, cast

from ag2 import MemoryStream
from ag2 import ToolResult as AG2ToolResult
from ag2 import tool as ag2_tool
from ag2.context import ConversationContext
from ag2.events import ToolCallEvent, ToolErrorEvent, ToolResultEvent
from ag2.events.input_events import BinaryInput, DataInput, TextInput
from ag2.tools.final.function_tool import FunctionTool
from typing_extensions import overload

from standard_tool._core import StandardToolError, StandardToolV0, StandardToolV0Definition
from standard_tool._core import standard_tool as build_tool
from standard_tool._shared import truncate_text
from standard_tool._toolkit import Toolkit, ToolResult
from standard_tool.content import Audio, Content, EmbeddedResource, Image, Text, ToolOutput
from standard_tool.providers._declare import is_one_tool
from standard_tool.providers._openai import to_openai_chat
from standard_tool.providers._runner import RUNNER_TIMEOUT, Call, content, run_calls
from standard_tool.providers._text import ERROR_MAX_CHARS, json_text, jsonable
from standard_tool.schemas.jsonschema import tool_schema

__all__ = ["AG2Call", "AG2ToolError", "StandardAG2Tool", "from_ag2", "to_ag2"]

AnyTool = StandardToolV0Definition[Any, Any, Any, Any]


@dataclass(frozen=True, slots=True)
class AG2Call:
    """What AG2 knows about one call, for a ``meta`` function.

    Attributes:
        call_id: the model's id for this call.
        context: AG2's ``Context`` of the conversation (its ``variables``,
            ``dependencies``, ``stream``...).
    """

    call_id: str
    context: ConversationContext


#: Builds the ``meta`` a standard tool receives from an ``AG2Call``.
MetaFromCall = Callable[[AG2Call], Any]


class AG2ToolError(StandardToolError, RuntimeError):
    """A bridged call failed: its message is the ``Error: ...`` text the model reads.

    From ``from_ag2``: the AG2 tool failed (the message is its error, bounded).
    """


def _limit(kit: Toolkit, name: str) -> float:
    own = kit.timeout_of(name)
    return RUNNER_TIMEOUT if own is None else own


class StandardAG2Tool(FunctionTool):
    """An AG2 ``FunctionTool`` that runs a standard tool (build one with ``to_ag2``).

    Calling it with a ``ToolCallEvent`` (what the agent does) validates the
    arguments with the standard tool and runs it: an async tool in the agent's
    event loop, a sync one in a worker thread.
    """

    def __init__(self, tool: AnyTool, meta: MetaFromCall | None) -> None:
        function = to_openai_chat(tool, strict=False)["function"]
        kit = Toolkit([tool])
        name = tool.name

        # What AG2 calls only when the tool is used as a plain function (never in a run).
        if kit.is_async(name):

            async def run_async(**arguments: Any) -> Any:
                return _value(await kit.aexecute(name, arguments, timeout=_limit(kit, name)))

            runner: Callable[..., Any] = run_async
        else:

            def run_sync(**arguments: Any) -> Any:
                return _value(kit.execute(name, arguments, timeout=_limit(kit, name)))

            runner = run_sync
        runner.__name__ = runner.__qualname__ = name
        model = ag2_tool(runner, name=name, schema=function["parameters"]).model
        super().__init__(
            model,
            name=function["name"],
            description=tool.description,
            schema=function["parameters"],
        )
        self._standard = tool
        self._kit = kit
        self._meta = meta

    def __deepcopy__(self, memo: dict[int, Any]) -> StandardAG2Tool:
        # AG2 deep-copies a tool when it registers it; the standard tool stays shared.
        return copy.copy(self)

    @property
    def standard_tool(self) -> AnyTool:
        """The standard tool this AG2 tool runs."""
        return self._standard

    async def __call__(self, event: ToolCallEvent, context: ConversationContext) -> ToolResultEvent:
        """Run one call: a ``ToolResultEvent``, or a ``ToolErrorEvent`` with ``Error: ...``."""
        name = self._standard.name
        hook = self._meta
        meta = None if hook is None else hook(AG2Call(event.id, context))
        run = run_calls(
            self._kit,
            [Call(event.id, name, event.arguments, True)],
            meta=meta,
            timeout=None,
            decode=None,
        )
        if self._kit.is_async(name):
            (result,) = await run
        else:
            # A sync tool runs in a worker thread, so the agent's event loop never blocks.
            (result,) = await asyncio.to_thread(asyncio.run, run)
        text = content(result, "AG2")
        if result.success:
            return ToolResultEvent.from_call(event, result=text)
        error = AG2ToolError(text)
        error.__cause__ = result.exception
        return ToolErrorEvent(
            parent_id=event.id, name=event.name, error=error, result=AG2ToolResult(text)
        )


def _value(result: ToolResult) -> Any:
    if result.success:
        return result.value
    raise AG2ToolError(content(result)) from result.exception


@overload
def to_ag2(tool: AnyTool, *, meta: MetaFromCall | None = None) -> StandardAG2Tool: ...
@overload
def to_ag2(
    tool: Toolkit | Iterable[AnyTool], *, meta: MetaFromCall | None = None
) -> list[StandardAG2Tool]: ...
def to_ag2(
    tool: AnyTool | Toolkit | Iterable[AnyTool],
    *,
    meta: MetaFromCall | None = None,
) -> StandardAG2Tool | list[StandardAG2Tool]:
    """Make an AG2 ``FunctionTool`` of any conforming tool (a list for a ``Toolkit``).

    Examples:
        >>> from standard_tool import tool
        >>> @tool
        ... def add(a: int, b: int) -> int:
        ...     '''Add two integers.'''
        ...     return a + b
        >>> ag2_add = to_ag2(add)
        >>> ag2_add.schema.function.parameters["required"]
        ['a', 'b']

    Args:
        tool: a conforming tool (sync or async), or a ``Toolkit`` or iterable of
            tools (then the result is a list, in order; hand it to
            ``Agent(tools=...)``).
        meta: a function from an ``AG2Call`` (the call id and AG2's ``Context``)
            to the ``meta`` the tool receives, for example
            ``lambda call: call.context.variables["user"]``; without it the tool
            receives ``None``.

    Returns:
        A ``StandardAG2Tool`` (or a list of them).

    Raises:
        ProviderSchemaError: the name is not accepted by OpenAI (1 to 64 of
            A-Z, a-z, 0-9, ``_`` and ``-``) or the input is not a JSON object.
    """
    if is_one_tool(tool):
        return StandardAG2Tool(cast("AnyTool", tool), meta)
    return [StandardAG2Tool(t, meta) for t in cast("Iterable[AnyTool]", tool)]


def _block_of(part: Any) -> Content | None:
    if isinstance(part, TextInput):
        return Text(part.content)
    if isinstance(part, DataInput):
        return Text(json_text(jsonable(part.data)))
    if isinstance(part, BinaryInput):
        mime = str(part.media_type)
        if mime.startswith("image/"):
            return Image(part.data, mime)
        if mime.startswith("audio/"):
            return Audio(part.data, mime)
        return EmbeddedResource("file:data", blob=part.data, mime_type=mime)
    return None


def _value_of(result: AG2ToolResult) -> Any:
    """Return an AG2 tool's answer: its value, its text, or a ``ToolOutput`` when it holds bytes."""
    parts = result.parts
    if len(parts) == 1 and isinstance(parts[0], DataInput):
        return parts[0].data
    blocks = [_block_of(part) for part in parts]
    if all(isinstance(block, Text) for block in blocks):
        return "\n".join(cast("Text", block).text for block in blocks)
    return ToolOutput([block for block in blocks if block is not None])


def from_ag2(function_tool: FunctionTool) -> StandardToolV0[Any, Any, Any, Any]:
    """Make a standard tool of an AG2 ``FunctionTool``, so a ``Toolkit`` can hold it.

    ``function_tool`` is what AG2's ``@tool`` makes. The input schema is the one
    AG2 shows the model, and the standard tool validates the input against it
    before AG2 sees it. ``execute`` is async: it runs the tool as the agent does
    (with a ``ToolCallEvent``) and returns its text, or a ``ToolOutput`` when it
    answers with bytes; a failure raises ``AG2ToolError`` with the tool's error
    (bounded). ``meta`` may be an ``AG2Call``: its call id and context are handed
    to the tool (else it gets a fresh, empty context). A tool made by ``to_ag2``
    comes back as the very tool it was made from.

    Examples:
        >>> import asyncio
        >>> from ag2 import tool
        >>> @tool
        ... def shout(text: str) -> str:
        ...     '''Upper-case a text.'''
        ...     return text.upper()
        >>> st = from_ag2(shout)
        >>> asyncio.run(st.execute({"text": "hi"}))
        'HI'

    Raises:
        InvalidSchemaError: the tool's schema is not a valid JSON Schema.
    """
    if isinstance(function_tool, StandardAG2Tool):
        original = function_tool.standard_tool
        if hasattr(original, "formatted"):
            return original
    definition = function_tool.schema.function

    async def run(input: Any, meta: Any) -> Any:
        call_id = f"call_{uuid.uuid4().hex}"
        if isinstance(meta, AG2Call):
            call_id, context = meta.call_id or call_id, meta.context
        else:
            context = ConversationContext(stream=MemoryStream())
        call = ToolCallEvent(name=definition.name, arguments=json.dumps(input or {}), id=call_id)
        answer = await function_tool(call, context)
        if isinstance(answer, ToolErrorEvent):
            text = f"AG2 tool {definition.name!r}: {answer.error}"
            raise AG2ToolError(truncate_text(text, ERROR_MAX_CHARS)) from answer.error
        return _value_of(answer.result)

    built: Any = build_tool(
        name=definition.name,
        description=definition.description,
        input_schema=tool_schema(definition.parameters, "from_ag2", definition.name),
        execute=run,
    )
    return cast("StandardToolV0[Any, Any, Any, Any]", built)
