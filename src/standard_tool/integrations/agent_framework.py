"""Microsoft Agent Framework: a standard tool as its ``FunctionTool``, and one of those as ours.

Layer: top (imports the core, the toolkit, the schema adapters and the providers;
never the package root). It imports ``agent-framework-core`` at the top: only code
that uses Agent Framework imports this module, and ``import standard_tool`` never
does.

``to_agent_framework(tool)`` gives a ``FunctionTool`` whose parameters are the
declaration ``to_openai_chat(tool, strict=False)`` writes, so the model sees the
tool's own JSON Schema. Its ``invoke`` (what the agent's function-calling loop
calls) validates the model's arguments with the tool itself, under the model's
call id, instead of Agent Framework's own checks, and answers with the text every
provider runner writes: the result, or ``Error: ...`` naming the failing path. A
refusal or a failure is the call's result, so the model reads why without
``include_detailed_errors`` and the run goes on. A rich result
(``standard_tool.content`` blocks) is a list of Agent Framework ``Content``
items: images, audio and file bytes as data items, the rest as text.
``from_agent_framework(function_tool)`` goes the other way.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, cast

from agent_framework import Content as AfContent
from agent_framework import FunctionInvocationContext, FunctionTool
from pydantic import BaseModel
from typing_extensions import overload, override

from standard_tool._core import StandardToolError, StandardToolV0, StandardToolV0Definition
from standard_tool._core import standard_tool as build_tool
from standard_tool._shared import truncate_text
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
from standard_tool.providers._declare import is_one_tool
from standard_tool.providers._openai import to_openai_chat
from standard_tool.providers._runner import RUNNER_TIMEOUT, Call, content, run_calls
from standard_tool.providers._text import (
    OUTPUT_MAX_CHARS,
    bounded_output,
    rich_text,
    structured_text,
)
from standard_tool.schemas.jsonschema import tool_schema

__all__ = [
    "AgentFrameworkCall",
    "AgentFrameworkToolError",
    "StandardAgentFrameworkTool",
    "from_agent_framework",
    "to_agent_framework",
]

AnyTool = StandardToolV0Definition[Any, Any, Any, Any]


@dataclass(frozen=True, slots=True)
class AgentFrameworkCall:
    """What Agent Framework knows about one call, for a ``meta`` function.

    Attributes:
        call_id: the model's id for this call (empty when there is none).
        context: Agent Framework's ``FunctionInvocationContext`` of the call (its
            ``session``, the run's ``kwargs``, ``metadata``), or ``None`` when the
            tool is invoked outside an agent's loop.
    """

    call_id: str
    context: FunctionInvocationContext | None


#: Builds the ``meta`` a standard tool receives from an ``AgentFrameworkCall``.
MetaFromCall = Callable[[AgentFrameworkCall], Any]


class AgentFrameworkToolError(StandardToolError, RuntimeError):
    """A bridged call failed where no model reads the answer (``invoke(skip_parsing=True)``).

    Its message is the ``Error: ...`` text the model would have read.
    """


class StandardAgentFrameworkTool(FunctionTool):
    """An Agent Framework ``FunctionTool`` that runs a standard tool (``to_agent_framework``).

    ``invoke`` validates the arguments with the standard tool and runs it (an
    async tool in the agent's event loop, a sync one in a worker thread); its
    answer is the text a model reads, or ``Content`` items for a rich result.
    """

    def __init__(self, tool: AnyTool, meta: MetaFromCall | None) -> None:
        function = to_openai_chat(tool, strict=False)["function"]
        kit = Toolkit([tool])
        name = tool.name

        def hook(ctx: FunctionInvocationContext | None) -> Any:
            return None if meta is None else meta(AgentFrameworkCall("", ctx))

        # Calling the FunctionTool itself (``af_tool(a=1)``) runs the tool here and
        # returns its value; Agent Framework hands its context to the parameter
        # annotated with its type.
        if kit.is_async(name):

            async def run_async(ctx: Any = None, **arguments: Any) -> Any:
                result = await kit.aexecute(name, arguments, hook(ctx), timeout=_limit(kit, name))
                return _answer(result, raw=True)

            run: Callable[..., Any] = run_async
        else:

            def run_sync(ctx: Any = None, **arguments: Any) -> Any:
                result = kit.execute(name, arguments, hook(ctx), timeout=_limit(kit, name))
                return _answer(result, raw=True)

            run = run_sync
        run.__annotations__["ctx"] = FunctionInvocationContext
        super().__init__(
            name=function["name"],
            description=tool.description,
            func=run,
            input_model=function["parameters"],
        )
        self._standard = tool
        self._kit = kit
        self._meta = meta

    @property
    def standard_tool(self) -> AnyTool:
        """The standard tool this Agent Framework tool runs."""
        return self._standard

    @overload
    async def invoke(
        self,
        *,
        arguments: BaseModel | Mapping[str, Any] | None = None,
        context: FunctionInvocationContext | None = None,
        tool_call_id: str | None = None,
        skip_parsing: Literal[True],
        **kwargs: Any,
    ) -> Any: ...
    @overload
    async def invoke(
        self,
        *,
        arguments: BaseModel | Mapping[str, Any] | None = None,
        context: FunctionInvocationContext | None = None,
        tool_call_id: str | None = None,
        skip_parsing: Literal[False] = False,
        **kwargs: Any,
    ) -> list[AfContent]: ...
    @override
    async def invoke(
        self,
        *,
        arguments: BaseModel | Mapping[str, Any] | None = None,
        context: FunctionInvocationContext | None = None,
        tool_call_id: str | None = None,
        skip_parsing: bool = False,
        **kwargs: Any,
    ) -> list[AfContent] | Any:
        """Run one call: what the model reads, as Agent Framework ``Content`` items.

        Args:
            arguments: the model's arguments (a mapping, or a pydantic model of them).
            context: the loop's ``FunctionInvocationContext``, handed to ``meta``.
            tool_call_id: the model's call id, which the standard tool sees.
            skip_parsing: return the tool's own value instead (a failure then
                raises ``AgentFrameworkToolError`` with the ``Error: ...`` text).
            kwargs: the arguments given one by one, when ``arguments`` is not.

        Returns:
            The result's text (``Error: ...`` naming what went wrong for a refused
            input or a failing tool) as one text item, or a rich result's items.
        """
        given: Any = arguments
        if isinstance(arguments, BaseModel):
            given = arguments.model_dump(exclude_unset=True)
        elif arguments is None:
            given = dict(kwargs)
        call_id = tool_call_id or ""
        hook = self._meta
        meta = None if hook is None else hook(AgentFrameworkCall(call_id, context))
        name = self._standard.name
        run = run_calls(
            self._kit, [Call(call_id, name, given, False)], meta=meta, timeout=None, decode=None
        )
        if self._kit.is_async(name):
            (result,) = await run
        else:
            # A sync tool runs in a worker thread, so the agent's event loop never blocks.
            (result,) = await asyncio.to_thread(asyncio.run, run)
        return _answer(result, raw=skip_parsing)


def _limit(kit: Toolkit, name: str) -> float:
    own = kit.timeout_of(name)
    return RUNNER_TIMEOUT if own is None else own


def _answer(result: ToolResult, *, raw: bool) -> Any:
    if raw:
        if result.success:
            return result.value
        raise AgentFrameworkToolError(content(result)) from result.exception
    rich = rich_output(result.value) if result.success else None
    if rich is None:
        return [AfContent.from_text(content(result))]
    return agent_framework_content(rich)


def agent_framework_content(
    output: ToolOutput[Any], max_chars: int = OUTPUT_MAX_CHARS
) -> list[AfContent]:
    """Write a rich result as Agent Framework ``Content`` items.

    A ``Text`` is a text item; an ``Image``, ``Audio`` or an ``EmbeddedResource``
    with bytes a data item of its MIME type; a ``ResourceLink`` or a text resource
    its text (Agent Framework's clients refuse a URI item without a media type).
    The structured value follows as its JSON text. Agent
    Framework's Responses client sends the data items to the model; its Chat
    Completions client sends the text items only. The text items share
    ``max_chars`` and the structured value's text is cut at it.
    """
    output = bounded_output(output, max_chars)
    items: list[AfContent] = []
    for block in output.content:
        if isinstance(block, (Image, Audio)):
            items.append(AfContent.from_data(block.data, block.mime_type))
        elif isinstance(block, EmbeddedResource) and block.blob is not None:
            items.append(
                AfContent.from_data(block.blob, block.mime_type or "application/octet-stream")
            )
        else:
            text = rich_text(ToolOutput([block]), "Agent Framework", max_chars)
            items.append(AfContent.from_text(text))
    if output.structured is not None:
        items.append(AfContent.from_text(structured_text(output.structured, max_chars)))
    return items


@overload
def to_agent_framework(
    tool: AnyTool, *, meta: MetaFromCall | None = None
) -> StandardAgentFrameworkTool: ...
@overload
def to_agent_framework(
    tool: Toolkit | Iterable[AnyTool], *, meta: MetaFromCall | None = None
) -> list[StandardAgentFrameworkTool]: ...
def to_agent_framework(
    tool: AnyTool | Toolkit | Iterable[AnyTool],
    *,
    meta: MetaFromCall | None = None,
) -> StandardAgentFrameworkTool | list[StandardAgentFrameworkTool]:
    """Make an Agent Framework ``FunctionTool`` of any conforming tool (a list for a ``Toolkit``).

    Examples:
        >>> from standard_tool import tool
        >>> @tool
        ... def add(a: int, b: int) -> int:
        ...     '''Add two integers.'''
        ...     return a + b
        >>> af_add = to_agent_framework(add)
        >>> af_add.parameters()["required"]
        ['a', 'b']

    Args:
        tool: a conforming tool (sync or async), or a ``Toolkit`` or iterable of
            tools (then the result is a list, in order; hand it to
            ``Agent(tools=...)``).
        meta: a function from an ``AgentFrameworkCall`` (the call id and the
            loop's ``FunctionInvocationContext``) to the ``meta`` the tool
            receives, for example ``lambda call: call.context.kwargs["user"]``;
            without it the tool receives ``None``.

    Returns:
        A ``StandardAgentFrameworkTool`` (or a list of them). Agent Framework's
        own options (``approval_mode``, ``max_invocations``...) can be set on it
        as on any ``FunctionTool``.

    Raises:
        ProviderSchemaError: the name is not accepted by OpenAI (1 to 64 of
            A-Z, a-z, 0-9, ``_`` and ``-``) or the input is not a JSON object.
    """
    if is_one_tool(tool):
        return StandardAgentFrameworkTool(cast("AnyTool", tool), meta)
    return [StandardAgentFrameworkTool(t, meta) for t in cast("Iterable[AnyTool]", tool)]


def _block_of(item: AfContent) -> Content | None:
    """Read one Agent Framework ``Content`` item as a content block (None: a kind we skip)."""
    if item.type == "text":
        return Text(item.text or "")
    mime = item.media_type
    if item.type == "data" and item.uri is not None and mime:
        data = _data_of(item.uri)
        if mime.startswith("image/"):
            return Image(data, mime)
        if mime.startswith("audio/"):
            return Audio(data, mime)
        name = truncate_text(item.name or "data", 200)
        return EmbeddedResource(f"file:{name}", blob=data, mime_type=mime)
    if item.type == "uri" and item.uri is not None:
        return ResourceLink(item.uri, item.name or "uri", mime_type=mime)
    return None


def _data_of(uri: str) -> bytes:
    import base64

    return base64.b64decode(uri.split(",", 1)[1])


def _value_of(items: list[AfContent]) -> Any:
    """Return an Agent Framework tool's answer: its text, or a ``ToolOutput`` when it has media."""
    if all(item.type == "text" for item in items):
        return "\n".join(item.text or "" for item in items)
    blocks = [_block_of(item) for item in items]
    return ToolOutput([block for block in blocks if block is not None])


def from_agent_framework(function_tool: FunctionTool) -> StandardToolV0[Any, Any, Any, Any]:
    """Make a standard tool of an Agent Framework ``FunctionTool``, so a ``Toolkit`` can hold it.

    ``function_tool`` is any ``FunctionTool`` (what Agent Framework's ``@tool``
    makes). The input schema is the one Agent Framework shows the model, and the
    standard tool validates the input against it before Agent Framework sees it.
    ``execute`` is async: it calls the tool's ``invoke`` (a sync function in a
    worker thread, as Agent Framework runs it) and returns its text, or a
    ``ToolOutput`` when it answers with images, audio or files; what the tool
    raises propagates. ``meta`` may be an ``AgentFrameworkCall``: its call id and
    context are handed to the tool. A tool made by ``to_agent_framework`` comes
    back as the very tool it was made from.

    Examples:
        >>> import asyncio
        >>> from agent_framework import tool
        >>> @tool
        ... def shout(text: str) -> str:
        ...     '''Upper-case a text.'''
        ...     return text.upper()
        >>> st = from_agent_framework(shout)
        >>> asyncio.run(st.execute({"text": "hi"}))
        'HI'

    Raises:
        InvalidSchemaError: the tool's schema is not a valid JSON Schema.
    """
    if isinstance(function_tool, StandardAgentFrameworkTool):
        original = function_tool.standard_tool
        if hasattr(original, "formatted"):
            return original
    name = function_tool.name

    async def run(input: Any, meta: Any) -> Any:
        call_id = f"call_{uuid.uuid4().hex}"
        context = None
        if isinstance(meta, AgentFrameworkCall):
            call_id = meta.call_id or call_id
            context = meta.context
        items = await function_tool.invoke(
            arguments=dict(input or {}), context=context, tool_call_id=call_id
        )
        return _value_of(items)

    built: Any = build_tool(
        name=name,
        description=function_tool.description or "",
        input_schema=tool_schema(function_tool.parameters(), "from_agent_framework", name),
        execute=run,
    )
    return cast("StandardToolV0[Any, Any, Any, Any]", built)
