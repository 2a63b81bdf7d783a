"""AutoGen: a standard tool as an AutoGen ``BaseTool``, and an AutoGen tool as ours.

Layer: top (imports the core, the toolkit, the schema adapters and the providers;
never the package root). It imports ``autogen-core`` at the top: only code that
uses AutoGen imports this module, and ``import standard_tool`` never does.

``to_autogen(tool)`` gives a ``BaseTool`` whose ``schema`` declares the tool's own
JSON Schema (AutoGen's model clients send it as it is) and whose ``run_json``
validates the model's arguments with the tool itself, under the call id. A
refused input or a raising tool raises ``AutoGenToolError`` with ``Error: ...``
naming the failing path; AutoGen's workbench answers the model with that text as
an error result (``is_error``) and the agent goes on. The tool is also an AutoGen
stream tool: in an ``AssistantAgent`` each progress report of a call arrives
among the agent's streamed events as a ``StandardToolProgress``.
``from_autogen(tool)`` goes the other way.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncGenerator, Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, cast

from autogen_agentchat.messages import BaseAgentEvent
from autogen_core import CancellationToken
from autogen_core.tools import BaseTool, Tool, ToolSchema
from pydantic import BaseModel, ConfigDict
from typing_extensions import overload

from standard_tool._context import ProgressCallback, ProgressEvent, stream_events
from standard_tool._core import (
    StandardToolError,
    StandardToolV0,
    StandardToolV0Definition,
    standard_tool,
)
from standard_tool._toolkit import Toolkit
from standard_tool.providers._declare import bridge_many, bridge_one, is_one_tool, parameters
from standard_tool.providers._runner import RUNNER_TIMEOUT, content
from standard_tool.schemas.jsonschema import tool_schema

__all__ = [
    "AutoGenCall",
    "AutoGenToolError",
    "StandardAutoGenTool",
    "StandardToolProgress",
    "from_autogen",
    "to_autogen",
]

AnyTool = StandardToolV0Definition[Any, Any, Any, Any]


@dataclass(frozen=True, slots=True)
class AutoGenCall:
    """What AutoGen knows about one call, for a ``meta`` function.

    Attributes:
        call_id: the model's id for this call (a fresh one when AutoGen gives none).
        cancellation_token: the run's ``CancellationToken``.
    """

    call_id: str
    cancellation_token: CancellationToken


class AutoGenToolError(StandardToolError, RuntimeError):
    """A bridged call failed; AutoGen answers the model with this message as an error result."""


class StandardToolProgress(BaseAgentEvent):
    """A bridged tool's progress report, among an ``AssistantAgent``'s streamed events.

    Attributes:
        progress: the ``ProgressEvent`` the tool reported (``report_progress``, or
            what a generator tool yielded), with its tool name and call id.
        source: the name of the tool that reported it.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    progress: ProgressEvent
    type: Literal["StandardToolProgress"] = "StandardToolProgress"

    def to_text(self) -> str:
        """Return the report as one line: the tool, how far, the message."""
        event = self.progress
        done = "" if event.progress is None else f" {event.progress:g}"
        total = "" if event.total is None else f"/{event.total:g}"
        note = "" if event.message is None else f" {event.message}"
        return f"{self.source}:{done}{total}{note}"


class _Arguments(BaseModel):
    """The arguments as AutoGen holds them: any object (the standard tool validates)."""

    model_config = ConfigDict(extra="allow")


class StandardAutoGenTool(BaseTool[_Arguments, Any]):
    """An AutoGen ``BaseTool`` that runs a standard tool; build one with ``to_autogen``.

    ``schema`` declares the tool's JSON Schema, never in strict mode.
    ``run_json`` validates the arguments with the standard tool and runs it (an
    async tool in the agent's event loop, a sync one in a worker thread).
    """

    def __init__(self, tool: AnyTool, meta: Callable[[AutoGenCall], Any] | None = None) -> None:
        super().__init__(_Arguments, str, tool.name, tool.description)
        self._standard = tool
        self._kit = Toolkit([tool])
        self._meta = meta
        parameters(tool)  # refuse a non-object input now, not on the first model request

    @property
    def standard_tool(self) -> AnyTool:
        """The standard tool this AutoGen tool runs."""
        return self._standard

    @property
    def schema(self) -> ToolSchema:
        """The tool's name, description and JSON Schema, as AutoGen sends them to a model."""
        declared: Any = {
            "name": self._standard.name,
            "description": self._standard.description,
            "parameters": parameters(self._standard),  # a fresh copy each time
            "strict": False,
        }
        return cast("ToolSchema", declared)

    async def run(self, args: _Arguments, cancellation_token: CancellationToken) -> Any:
        """Run the tool with validated-by-us arguments (``run_json`` is the usual way in)."""
        return await self.run_json(args.model_dump(), cancellation_token)

    async def run_json(
        self,
        args: Mapping[str, Any],
        cancellation_token: CancellationToken,
        call_id: str | None = None,
    ) -> Any:
        """Run one call: the text the model reads, or ``AutoGenToolError`` with ``Error: ...``.

        Args:
            args: the model's arguments, as AutoGen decoded them.
            cancellation_token: the run's token; cancelling it cancels the call.
            call_id: the model's id for the call.
        """
        return await self._call(args, cancellation_token, call_id, None)

    async def run_json_stream(
        self,
        args: Mapping[str, Any],
        cancellation_token: CancellationToken,
        call_id: str | None = None,
    ) -> AsyncGenerator[Any, None]:
        """Run one call as AutoGen runs a stream tool (an ``AssistantAgent`` does).

        Yields:
            A ``StandardToolProgress`` for each progress report while the call
            runs (the agent hands each on to its event stream), then the text
            the model reads. A refused input or a failing tool raises
            ``AutoGenToolError`` with ``Error: ...``.
        """
        source = self._standard.name

        async def start(listener: ProgressCallback) -> str:
            # AutoGen links the token to a plain tool's call only: link it here.
            call = asyncio.ensure_future(self._call(args, cancellation_token, call_id, listener))
            cancellation_token.link_future(call)
            return await call

        def final(text: str | None, error: Exception | None) -> str:
            if error is not None:
                raise error
            return text or ""

        async for event in stream_events(start, final):
            if isinstance(event, ProgressEvent):
                yield StandardToolProgress(source=source, progress=event)
            else:
                yield event

    async def _call(
        self,
        args: Mapping[str, Any],
        cancellation_token: CancellationToken,
        call_id: str | None,
        on_progress: ProgressCallback | None,
    ) -> str:
        name = self._standard.name
        call_id = call_id or f"call_{uuid.uuid4().hex}"
        hook = self._meta
        meta = None if hook is None else hook(AutoGenCall(call_id, cancellation_token))
        own = self._kit.timeout_of(name)
        result = await self._kit.aexecute(
            name,
            dict(args),
            meta,
            timeout=RUNNER_TIMEOUT if own is None else own,
            call_id=call_id,
            on_progress=on_progress,
        )
        if result.success:
            return content(result, "AutoGen")
        raise AutoGenToolError(content(result)) from result.exception


@overload
def to_autogen(
    tool: AnyTool, *, meta: Callable[[AutoGenCall], Any] | None = None
) -> StandardAutoGenTool: ...
@overload
def to_autogen(
    tool: Toolkit | Iterable[AnyTool], *, meta: Callable[[AutoGenCall], Any] | None = None
) -> list[StandardAutoGenTool]: ...
def to_autogen(
    tool: AnyTool | Toolkit | Iterable[AnyTool],
    *,
    meta: Callable[[AutoGenCall], Any] | None = None,
) -> StandardAutoGenTool | list[StandardAutoGenTool]:
    """Make an AutoGen ``BaseTool`` of any conforming tool (or a list from a ``Toolkit``).

    Examples:
        >>> from standard_tool import tool
        >>> @tool
        ... def add(a: int, b: int) -> int:
        ...     '''Add two integers.'''
        ...     return a + b
        >>> autogen_add = to_autogen(add)
        >>> autogen_add.schema["parameters"]["required"]
        ['a', 'b']

    Args:
        tool: a conforming tool (sync or async), or a ``Toolkit`` or iterable of
            tools (then the result is a list, in order; hand it to
            ``AssistantAgent(tools=...)`` or a ``StaticWorkbench``).
        meta: a function from an ``AutoGenCall`` (the call id, the run's
            ``CancellationToken``) to the ``meta`` the tool receives; without it
            the tool receives ``None``.

    Returns:
        A ``StandardAutoGenTool`` (or a list of them).

    Raises:
        ProviderSchemaError: the tool's input is not a JSON object.
    """
    if is_one_tool(tool):
        return StandardAutoGenTool(bridge_one(tool, "AutoGen"), meta)
    return [StandardAutoGenTool(t, meta) for t in bridge_many(tool, "AutoGen")]


def from_autogen(native: Tool) -> StandardToolV0[Any, Any, Any, Any]:
    """Make a standard tool of an AutoGen tool, so a ``Toolkit`` can hold it.

    ``native`` is any AutoGen ``Tool`` (a ``FunctionTool``, a ``BaseTool``
    subclass, a tool of an MCP workbench adapter...). The input schema is the
    ``parameters`` of its ``schema``, what AutoGen sends the model, and the
    standard tool validates the input against it before AutoGen sees it.
    ``execute`` is async: it calls ``run_json`` as AutoGen's workbench does and
    returns the tool's value; what the tool raises propagates. ``meta`` may be
    an ``AutoGenCall`` (its call id and cancellation token are used). A tool
    made by ``to_autogen`` comes back as the very tool it was made from.

    Examples:
        >>> import asyncio
        >>> from autogen_core.tools import FunctionTool
        >>> def shout(text: str) -> str:
        ...     return text.upper()
        >>> st = from_autogen(FunctionTool(shout, description="Upper-case a text."))
        >>> asyncio.run(st.execute({"text": "hi"}))
        'HI'

    Raises:
        InvalidSchemaError: the tool's schema is not a valid JSON Schema.
    """
    if isinstance(native, StandardAutoGenTool) and hasattr(native.standard_tool, "formatted"):
        return native.standard_tool
    declared = native.schema
    schema: Any = declared.get("parameters") or {"type": "object", "properties": {}}

    async def run(input: Any, meta: Any) -> Any:
        if isinstance(meta, AutoGenCall):
            call_id, token = meta.call_id, meta.cancellation_token
        else:
            call_id, token = f"call_{uuid.uuid4().hex}", CancellationToken()
        return await native.run_json(input or {}, token, call_id=call_id)

    built: Any = standard_tool(
        name=native.name,
        description=native.description,
        input_schema=tool_schema(dict(schema), "from_autogen", native.name),
        execute=run,
    )
    return cast("StandardToolV0[Any, Any, Any, Any]", built)
