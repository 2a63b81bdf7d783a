"""Haystack: a standard tool as a Haystack ``Tool``, and a Haystack ``Tool`` as ours.

Layer: top (imports the core, the toolkit, the schema adapters and the providers;
never the package root). It imports ``haystack-ai`` at the top: only code that
uses Haystack imports this module, and ``import standard_tool`` never does.

``to_haystack(tool)`` gives a ``Tool`` whose ``parameters`` are the tool's own JSON
Schema (Haystack's chat generators send them as they are) and whose ``invoke`` and
``invoke_async`` validate the model's arguments with the tool itself. A refused
input or a raising tool raises ``ToolInvocationError`` with ``Error: ...`` naming
the failing path: an ``Agent`` (which does not raise on tool failures by default)
hands the model that text as an error result, and the run goes on. A rich
result (``standard_tool.content`` blocks) reaches the model as Haystack content
parts (``TextContent``, ``ImageContent``, ``FileContent``: the tool is declared
with ``outputs_to_string={"raw_result": True}``, so the agent hands them on
unchanged). ``from_haystack(tool)`` goes the other way.
"""

from __future__ import annotations

import base64
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, cast

from haystack.components.agents.state import State
from haystack.dataclasses import FileContent, ImageContent, TextContent
from haystack.dataclasses.image_content import IMAGE_MIME_TYPES
from haystack.tools.errors import ToolInvocationError
from haystack.tools.tool import Tool
from typing_extensions import TypeAlias, overload

from standard_tool._core import StandardToolV0, StandardToolV0Definition, standard_tool
from standard_tool._shared import truncate_text
from standard_tool._toolkit import Toolkit, ToolResult
from standard_tool.content import Content, EmbeddedResource, Image, Text, ToolOutput, rich_output
from standard_tool.providers._declare import bridge_many, bridge_one, is_one_tool, parameters
from standard_tool.providers._runner import RUNNER_TIMEOUT, content
from standard_tool.providers._text import OUTPUT_MAX_CHARS, bounded_output, rich_text
from standard_tool.schemas.jsonschema import tool_schema

__all__ = ["HaystackCall", "StandardHaystackTool", "from_haystack", "to_haystack"]

AnyTool = StandardToolV0Definition[Any, Any, Any, Any]
_OURS = "__standard_tool__"

#: The parameter through which Haystack's agent hands a tool its ``State``: Haystack
#: injects the run's ``State`` into any parameter annotated ``State``.
_STATE = "_haystack_state"


@dataclass(frozen=True, slots=True)
class HaystackCall:
    """What Haystack knows about one call, for a ``meta`` function.

    Attributes:
        state: the ``Agent`` run's ``State`` (messages and the keys of its
            ``state_schema``), or ``None`` when the tool is invoked outside an agent.
    """

    state: State | None


class StandardHaystackTool(Tool):
    """A Haystack ``Tool`` that runs a standard tool; build one with ``to_haystack``.

    ``invoke`` (used by ``Agent.run``) and ``invoke_async`` (``Agent.run_async``)
    validate the arguments with the standard tool and run it; a sync tool invoked
    from async code runs in a worker thread, an async tool invoked from sync code
    in an event loop of its own.
    """

    @property
    def standard_tool(self) -> AnyTool:
        """The standard tool this Haystack tool runs."""
        return cast("AnyTool", getattr(cast("Any", self).function, _OURS))

    def invoke(self, **kwargs: Any) -> Any:
        """Run one call from sync code: the text the model reads (content parts for a rich result).

        Raises:
            ToolInvocationError: with ``Error: ...`` naming what went wrong.
        """
        function: Callable[..., Any] = cast("Any", self).function
        return function(**kwargs)

    async def invoke_async(self, **kwargs: Any) -> Any:
        """Run one call from async code: the text the model reads (content parts for a rich result).

        Raises:
            ToolInvocationError: with ``Error: ...`` naming what went wrong.
        """
        function: Callable[..., Any] = cast("Any", self).async_function
        return await function(**kwargs)


#: What a bridged tool answers: the text a model reads, or Haystack content parts.
Answer: TypeAlias = "str | list[TextContent | ImageContent | FileContent]"


def _answer(name: str, result: ToolResult) -> Answer:
    if result.success:
        rich = rich_output(result.value)
        return content(result) if rich is None else _haystack_parts(rich)
    raise ToolInvocationError(content(result), tool_name=name) from result.exception


def _haystack_parts(output: ToolOutput[Any]) -> list[TextContent | ImageContent | FileContent]:
    """Write a rich result as Haystack content parts.

    An image of a MIME type Haystack accepts is an ``ImageContent``, a
    resource's bytes a ``FileContent``; every other block is a ``TextContent``
    of its fallback text, and the structured value follows as its JSON text.
    The texts share the output bound, as every provider's writer's do.
    """
    output = bounded_output(output, OUTPUT_MAX_CHARS)
    parts: list[TextContent | ImageContent | FileContent] = []
    for block in output.content:
        if isinstance(block, Image) and block.mime_type in IMAGE_MIME_TYPES:
            parts.append(ImageContent(base64_image=block.base64, mime_type=block.mime_type))
        elif isinstance(block, EmbeddedResource) and block.blob is not None:
            name = block.uri.rsplit("/", 1)[-1][:200] or None
            data = block.base64 or ""
            parts.append(FileContent(base64_data=data, mime_type=block.mime_type, filename=name))
        else:
            parts.append(TextContent(rich_text(ToolOutput([block]), "Haystack")))
    if output.structured is not None:
        parts.append(TextContent(rich_text(ToolOutput([], output.structured), "Haystack")))
    return parts


def _rich_of(value: Any) -> ToolOutput[Any] | None:
    """Read a list of Haystack content parts holding an image or a file as a ``ToolOutput``."""
    if not isinstance(value, list) or not value:
        return None
    parts: list[Any] = value  # pyright: ignore[reportUnknownVariableType]
    if not all(isinstance(p, (TextContent, ImageContent, FileContent)) for p in parts):
        return None
    if all(isinstance(p, TextContent) for p in parts):
        return None
    content: list[Content] = []
    for part in parts:
        if isinstance(part, TextContent):
            content.append(Text(part.text))
        elif isinstance(part, ImageContent):
            data = base64.b64decode(part.base64_image)
            content.append(Image(data, part.mime_type or "image/png"))
        else:
            name = truncate_text(part.filename or "file", 200)
            data = base64.b64decode(part.base64_data)
            content.append(EmbeddedResource(f"file:{name}", blob=data, mime_type=part.mime_type))
    return ToolOutput(content)


def _runners(
    tool: AnyTool, meta: Callable[[HaystackCall], Any] | None
) -> tuple[Callable[..., Any], Callable[..., Any]]:
    kit = Toolkit([tool])
    name = tool.name
    own = kit.timeout_of(name)
    limit = RUNNER_TIMEOUT if own is None else own

    def meta_of(state: State | None) -> Any:
        return None if meta is None else meta(HaystackCall(state))

    def run(_haystack_state: State | None = None, **arguments: Any) -> Answer:
        value = kit.execute(name, arguments, meta_of(_haystack_state), timeout=limit)
        return _answer(name, value)

    async def run_async(_haystack_state: State | None = None, **arguments: Any) -> Answer:
        value = await kit.aexecute(name, arguments, meta_of(_haystack_state), timeout=limit)
        return _answer(name, value)

    run.__dict__[_OURS] = tool
    return run, run_async


@overload
def to_haystack(
    tool: AnyTool, *, meta: Callable[[HaystackCall], Any] | None = None
) -> StandardHaystackTool: ...
@overload
def to_haystack(
    tool: Toolkit | Iterable[AnyTool], *, meta: Callable[[HaystackCall], Any] | None = None
) -> list[StandardHaystackTool]: ...
def to_haystack(
    tool: AnyTool | Toolkit | Iterable[AnyTool],
    *,
    meta: Callable[[HaystackCall], Any] | None = None,
) -> StandardHaystackTool | list[StandardHaystackTool]:
    """Make a Haystack ``Tool`` of any conforming tool (or a list from a ``Toolkit``).

    Examples:
        >>> from standard_tool import tool
        >>> @tool
        ... def add(a: int, b: int) -> int:
        ...     '''Add two integers.'''
        ...     return a + b
        >>> haystack_add = to_haystack(add)
        >>> haystack_add.invoke(a=2, b=3)
        '5'

    Args:
        tool: a conforming tool (sync or async), or a ``Toolkit`` or iterable of
            tools (then the result is a list, in order; hand it to
            ``Agent(tools=...)`` or a ``Toolset``).
        meta: a function from a ``HaystackCall`` (the agent run's ``State``) to
            the ``meta`` the tool receives, for example
            ``lambda call: call.state.get("user")``; without it the tool
            receives ``None``.

    Returns:
        A ``StandardHaystackTool`` (or a list of them).

    Raises:
        ProviderSchemaError: the tool's input is not a JSON object.
    """
    if is_one_tool(tool):
        return _to_haystack(bridge_one(tool, "Haystack"), meta)
    return [_to_haystack(t, meta) for t in bridge_many(tool, "Haystack")]


def _to_haystack(tool: AnyTool, meta: Callable[[HaystackCall], Any] | None) -> StandardHaystackTool:
    run, run_async = _runners(tool, meta)
    return StandardHaystackTool(
        name=tool.name,
        description=tool.description,
        parameters=parameters(tool),
        function=run,
        async_function=run_async,
        # the agent hands a str or content parts on as they are, not their str()
        outputs_to_string={"raw_result": True},
    )


def from_haystack(native: Tool) -> StandardToolV0[Any, Any, Any, Any]:
    """Make a standard tool of a Haystack ``Tool``, so a ``Toolkit`` can hold it.

    ``native`` is any Haystack ``Tool`` (``@tool`` from ``haystack.tools``, a
    ``ComponentTool``, ...). The input schema is its ``parameters``, what
    Haystack sends the model, and the standard tool validates the input against
    it before Haystack sees it. ``execute`` is async: it awaits
    ``invoke_async`` (which runs a sync tool in a worker thread) and returns the
    tool's value (a list of content parts holding an image or a file as a
    ``ToolOutput``); a failure raises Haystack's ``ToolInvocationError``. What an
    ``Agent`` adds around a call (``inputs_from_state``, ``outputs_to_state``,
    ``outputs_to_string``) belongs to the agent run and is not applied. A tool
    made by ``to_haystack`` comes back as the very tool it was made from.

    Examples:
        >>> import asyncio
        >>> from haystack.tools import tool
        >>> @tool
        ... def shout(text: str) -> str:
        ...     '''Upper-case a text.'''
        ...     return text.upper()
        >>> st = from_haystack(shout)
        >>> asyncio.run(st.execute({"text": "hi"}))
        'HI'

    Raises:
        InvalidSchemaError: the tool's parameters are not a valid JSON Schema.
    """
    if isinstance(native, StandardHaystackTool) and hasattr(native.standard_tool, "formatted"):
        return native.standard_tool

    async def run(input: Any) -> Any:
        value = await native.invoke_async(**(input or {}))
        rich = _rich_of(value)
        return value if rich is None else rich

    built: Any = standard_tool(
        name=native.name,
        description=native.description,
        input_schema=tool_schema(native.parameters, "from_haystack", native.name),
        execute=run,
    )
    return cast("StandardToolV0[Any, Any, Any, Any]", built)
