"""Agno: a standard tool as an Agno ``Function``, and an Agno tool as ours.

Layer: top (imports the core, the toolkit, the schema adapters and the providers;
never the package root). It imports ``agno`` at the top: only code that uses
Agno imports this module, and ``import standard_tool`` never does.

``to_agno(tool)`` gives a ``Function`` whose ``parameters`` are the tool's own
JSON Schema (``skip_entrypoint_processing``: Agno derives nothing and validates
nothing) and whose entrypoint runs the call through a ``Toolkit`` under the
model's call id. A refused input or a raising tool raises out of the
entrypoint, which Agno answers to the model as a tool error
(``tool_call_error``) with our text, ``Error: ...`` naming the failing path,
and the run goes on. A rich result (``standard_tool.content`` blocks) becomes
an Agno ``ToolResult``: images, audio and file bytes as Agno media (Agno hands
them to the model after the tool message and to the run's output), the rest as
its text. ``from_agno(function)`` goes the other way.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, cast

from agno.media import Audio as AgnoAudio
from agno.media import File as AgnoFile
from agno.media import Image as AgnoImage
from agno.tools.function import Function, FunctionCall
from agno.tools.function import ToolResult as AgnoToolResult
from typing_extensions import overload

from standard_tool._core import StandardToolError, StandardToolV0, StandardToolV0Definition
from standard_tool._core import standard_tool as build_tool
from standard_tool._shared import is_async_callable, truncate_text
from standard_tool._toolkit import Toolkit, ToolResult
from standard_tool.content import (
    Audio,
    Content,
    EmbeddedResource,
    Image,
    ResourceLink,
    Text,
    ToolOutput,
    rich_output,
)
from standard_tool.providers._declare import bridge_many, bridge_one, is_one_tool, parameters
from standard_tool.providers._runner import RUNNER_TIMEOUT, content
from standard_tool.providers._text import ERROR_MAX_CHARS, rich_text
from standard_tool.schemas.jsonschema import tool_schema

__all__ = ["AgnoCall", "AgnoToolError", "from_agno", "to_agno"]

AnyTool = StandardToolV0Definition[Any, Any, Any, Any]
_OURS = "__standard_tool__"

#: Marks an entrypoint parameter Agno did not fill. Agno fills parameters by name:
#: ``fc`` with the ``FunctionCall``, the ``_agno_`` ones with the run's objects.
_MISSING: Any = object()


@dataclass(frozen=True, slots=True)
class AgnoCall:
    """What Agno knows about one call, for a ``meta`` function.

    Attributes:
        call_id: the model's id for this call (empty when Agno has none).
        run_context: Agno's ``RunContext`` of the run (session state, dependencies...),
            or ``None`` outside a run.
        agent: the ``Agent`` running the tool, or ``None``.
        team: the ``Team`` running the tool, or ``None``.
    """

    call_id: str
    run_context: Any
    agent: Any
    team: Any


class AgnoToolError(StandardToolError, RuntimeError):
    """A bridged call failed; Agno answers the model with this message as a tool error.

    From ``from_agno``: the Agno tool reported a failure (the message is its error, bounded).
    """


def _limit(kit: Toolkit, name: str) -> float:
    own = kit.timeout_of(name)
    return RUNNER_TIMEOUT if own is None else own


def _answer(result: ToolResult) -> Any:
    if result.success:
        rich = rich_output(result.value)
        return content(result) if rich is None else _agno_result(rich)
    raise AgnoToolError(content(result)) from result.exception


def _agno_result(output: ToolOutput[Any]) -> AgnoToolResult:
    """Write a rich result as an Agno ``ToolResult``.

    An image becomes an Agno ``Image``, audio an Agno ``Audio``, a resource's
    bytes an Agno ``File`` when Agno accepts its MIME type; the ``content`` text
    is the other blocks (a resource link and any kind Agno cannot carry as its
    one bounded fallback line) and the structured value's JSON text.
    """
    texts: list[Content] = []
    images: list[AgnoImage] = []
    audios: list[AgnoAudio] = []
    files: list[AgnoFile] = []
    for block in output.content:
        if isinstance(block, Image):
            images.append(AgnoImage(content=block.data, mime_type=block.mime_type))
        elif isinstance(block, Audio):
            audios.append(AgnoAudio(content=block.data, mime_type=block.mime_type))
        elif (
            isinstance(block, EmbeddedResource)
            and block.blob is not None
            and block.mime_type in AgnoFile.valid_mime_types()
        ):
            name = block.uri.rsplit("/", 1)[-1][:200] or None
            files.append(AgnoFile(content=block.blob, mime_type=block.mime_type, filename=name))
        else:
            texts.append(block)
    return AgnoToolResult(
        content=rich_text(ToolOutput(texts, output.structured), "Agno"),
        images=images or None,
        audios=audios or None,
        files=files or None,
    )


def _entrypoint(tool: AnyTool, meta: Callable[[AgnoCall], Any] | None) -> Callable[..., Any]:
    kit = Toolkit([tool])
    name = tool.name

    def prepare(fc: Any, extra: dict[str, Any]) -> tuple[dict[str, Any], str | None, Any]:
        arguments = dict(extra.pop("arguments"))
        if fc is not _MISSING and not isinstance(fc, FunctionCall):
            arguments["fc"] = fc  # the tool's own "fc" property, not Agno's FunctionCall
            fc = _MISSING
        call_id = fc.call_id if isinstance(fc, FunctionCall) else None
        hook = meta
        if hook is None:
            return arguments, call_id, None
        call = AgnoCall(call_id or "", extra["run_context"], extra["agent"], extra["team"])
        return arguments, call_id, hook(call)

    if is_async_callable(tool.execute):

        async def run_async(
            fc: Any = _MISSING,
            _agno_run_context: Any = None,
            _agno_agent: Any = None,
            _agno_team: Any = None,
            **arguments: Any,
        ) -> Any:
            extra = {
                "arguments": arguments,
                "run_context": _agno_run_context,
                "agent": _agno_agent,
                "team": _agno_team,
            }
            value, call_id, meta_value = prepare(fc, extra)
            result = await kit.aexecute(
                name, value, meta_value, timeout=_limit(kit, name), call_id=call_id
            )
            return _answer(result)

        return run_async

    def run_sync(
        fc: Any = _MISSING,
        _agno_run_context: Any = None,
        _agno_agent: Any = None,
        _agno_team: Any = None,
        **arguments: Any,
    ) -> Any:
        # Agno runs a sync entrypoint in a worker thread in async runs, in the caller's
        # thread in sync ones; the toolkit's sync path needs no event loop either way.
        extra = {
            "arguments": arguments,
            "run_context": _agno_run_context,
            "agent": _agno_agent,
            "team": _agno_team,
        }
        value, call_id, meta_value = prepare(fc, extra)
        result = kit.execute(name, value, meta_value, timeout=_limit(kit, name), call_id=call_id)
        return _answer(result)

    return run_sync


@overload
def to_agno(tool: AnyTool, *, meta: Callable[[AgnoCall], Any] | None = None) -> Function: ...
@overload
def to_agno(
    tool: Toolkit | Iterable[AnyTool], *, meta: Callable[[AgnoCall], Any] | None = None
) -> list[Function]: ...
def to_agno(
    tool: AnyTool | Toolkit | Iterable[AnyTool],
    *,
    meta: Callable[[AgnoCall], Any] | None = None,
) -> Function | list[Function]:
    """Make an Agno ``Function`` of any conforming tool (or a list from a ``Toolkit``).

    Examples:
        >>> from standard_tool import tool
        >>> @tool
        ... def add(a: int, b: int) -> int:
        ...     '''Add two integers.'''
        ...     return a + b
        >>> function = to_agno(add)
        >>> function.parameters["required"]
        ['a', 'b']

    Args:
        tool: a conforming tool (sync or async), or a ``Toolkit`` or iterable of
            tools (then the result is a list, in order; hand it to
            ``Agent(tools=...)``).
        meta: a function from an ``AgnoCall`` (the call id, the run's
            ``RunContext``, the agent or team) to the ``meta`` the tool
            receives, for example ``lambda call: call.run_context.session_state``;
            without it the tool receives ``None``.

    Returns:
        A ``Function`` whose entrypoint is async for an async tool and sync for a
        sync one (Agno runs it in a worker thread in an async run). It returns
        the text a model reads (``text_result``); a refused input or a failing
        tool raises ``AgnoToolError`` with ``"Error: ..."``, which Agno sends to
        the model as the tool's error. Agno's own options (``requires_confirmation``,
        ``cache_results``, hooks...) can be set on it as usual.

    Raises:
        ProviderSchemaError: the tool's input is not a JSON object.
    """
    if is_one_tool(tool):
        return _to_agno(bridge_one(tool, "Agno"), meta)
    return [_to_agno(t, meta) for t in bridge_many(tool, "Agno")]


def _to_agno(tool: AnyTool, meta: Callable[[AgnoCall], Any] | None) -> Function:
    entrypoint = _entrypoint(tool, meta)
    entrypoint.__dict__[_OURS] = tool  # Agno copies a Function per run, not its entrypoint
    return Function(
        name=tool.name,
        description=tool.description,
        parameters=parameters(tool),
        entrypoint=entrypoint,
        skip_entrypoint_processing=True,
    )


def _media_of(item: Any, kind: str) -> Content | None:
    """Read one Agno media object as a content block (None when it has no bytes or URL)."""
    data = item.content
    mime = item.mime_type
    if isinstance(data, bytes) and kind == "image":
        return Image(data, mime or "image/png")
    if isinstance(data, bytes) and kind == "audio":
        return Audio(data, mime or "application/octet-stream")
    if isinstance(data, bytes):
        name = truncate_text(str(getattr(item, "filename", None) or "file"), 200)
        return EmbeddedResource(f"file:{name}", blob=data, mime_type=mime)
    if isinstance(item.url, str):
        return ResourceLink(item.url, kind, mime_type=mime)
    return None


def _value_of(result: Any) -> Any:
    """Return an Agno tool's value: a ``ToolResult`` with media as a ``ToolOutput``."""
    if not isinstance(result, AgnoToolResult):
        return result
    media = [
        *((i, "image") for i in result.images or ()),
        *((a, "audio") for a in result.audios or ()),
        *((f, "file") for f in result.files or ()),
    ]
    if not media:
        return result.content
    blocks = [_media_of(item, kind) for item, kind in media]
    content: list[Content] = [Text(result.content)] if result.content else []
    content += [block for block in blocks if block is not None]
    return ToolOutput(content)


def _agno_function(native: Function | Callable[..., Any]) -> Function:
    """Return a ready copy of an Agno tool (a ``Function``, or a plain function)."""
    if isinstance(native, Function):
        function = native.model_copy(deep=True)
    else:
        # Agno leaves the callable's return type unannotated.
        function = cast("Function", cast("Any", Function).from_callable(native))
    function.process_entrypoint()
    return function


def from_agno(native: Function | Callable[..., Any]) -> StandardToolV0[Any, Any, Any, Any]:
    """Make a standard tool of an Agno tool, so a ``Toolkit`` can hold it.

    ``native`` is a ``Function`` (what Agno's ``@tool`` makes, or one taken from
    an Agno ``Toolkit``'s ``functions``) or a plain function Agno would accept.
    The input schema is the one Agno shows the model, and the standard tool
    validates the input against it before Agno sees it. ``execute`` is async:
    it runs the tool as Agno does (an async entrypoint awaited, a sync one in
    a worker thread) and returns its result (an Agno ``ToolResult``'s text, or a
    ``ToolOutput`` when it carries images, audio or files). A failure Agno reports (its own
    argument validation, an exception in the tool) raises ``AgnoToolError``
    with Agno's error text. ``meta`` may be an ``AgnoCall``: its call id, run
    context, agent and team are handed to the tool. A tool made by
    ``to_agno`` comes back as the very tool it was made from.

    Examples:
        >>> import asyncio
        >>> from agno.tools import tool
        >>> @tool
        ... def shout(text: str) -> str:
        ...     '''Upper-case a text.
        ...
        ...     Args:
        ...         text: what to shout.
        ...     '''
        ...     return text.upper()
        >>> st = from_agno(shout)
        >>> asyncio.run(st.execute({"text": "hi"}))
        'HI'

    Raises:
        InvalidSchemaError: the tool's schema is not a valid JSON Schema.
    """
    original = getattr(getattr(native, "entrypoint", None), _OURS, None)
    if original is not None and hasattr(original, "formatted"):
        return cast("StandardToolV0[Any, Any, Any, Any]", original)
    function = _agno_function(native)
    name = function.name

    async def run(input: Any, meta: Any) -> Any:
        call = function.model_copy(deep=True)
        call_id = f"call_{uuid.uuid4().hex}"
        if isinstance(meta, AgnoCall):
            call_id = meta.call_id or call_id
            call._run_context = meta.run_context  # pyright: ignore[reportPrivateUsage]
            call._agent = meta.agent  # pyright: ignore[reportPrivateUsage]
            call._team = meta.team  # pyright: ignore[reportPrivateUsage]
        fc = FunctionCall(function=call, arguments=dict(input or {}), call_id=call_id)
        if is_async_callable(cast("Any", call).entrypoint):
            outcome = await fc.aexecute()
        else:
            outcome = await asyncio.to_thread(fc.execute)
        if outcome.status != "success":
            detail = outcome.error or "the tool reported an error"
            text = f"Agno tool {name!r}: {detail}"
            raise AgnoToolError(truncate_text(text, ERROR_MAX_CHARS))
        return _value_of(outcome.result)

    built: Any = build_tool(
        name=name,
        description=function.description or "",
        input_schema=tool_schema(function.parameters, "from_agno", name),
        execute=run,
    )
    return cast("StandardToolV0[Any, Any, Any, Any]", built)
