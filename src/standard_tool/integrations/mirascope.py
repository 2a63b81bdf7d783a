"""Mirascope: a standard tool as a Mirascope ``Tool``, and a Mirascope tool as ours.

Layer: top (imports the core, the toolkit, the schema adapters and the providers;
never the package root). It imports ``mirascope`` at the top: only code that uses
Mirascope imports this module, and ``import standard_tool`` never does.

``to_mirascope(tool)`` gives a Mirascope ``Tool`` (an ``AsyncTool`` for an async
tool) whose parameters are the declaration ``to_openai_chat(tool, strict=False)``
writes, declared non-strict so Mirascope sends them as they are. Its ``execute``
(what ``response.execute_tools()`` calls) validates the model's arguments with
the tool itself, under the model's call id, instead of Mirascope's own parsing,
and answers with a ``ToolOutput`` whose result is the output, or ``Error: ...``
naming the failing path with the output's ``error`` set, so the model reads why
and the loop goes on. ``from_mirascope(tool)`` goes the other way.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Iterable
from typing import Any, cast

# Mirascope ships no type information (no py.typed): its names are Any to mypy, and
# pyright reads them from the source without stubs.
from mirascope.llm import (  # pyright: ignore[reportMissingTypeStubs]
    AsyncTool,
    Tool,
    ToolCall,
    ToolExecutionError,
    ToolOutput,
)
from mirascope.llm.tools import ToolParameterSchema  # pyright: ignore[reportMissingTypeStubs]
from typing_extensions import overload

from standard_tool._core import StandardToolError, StandardToolV0, StandardToolV0Definition
from standard_tool._core import standard_tool as build_tool
from standard_tool._shared import run_blocking, truncate_text
from standard_tool._toolkit import Toolkit, ToolResult
from standard_tool.providers._declare import is_one_tool
from standard_tool.providers._openai import to_openai_chat
from standard_tool.providers._runner import RUNNER_TIMEOUT, Call, content, run_calls
from standard_tool.providers._text import ERROR_MAX_CHARS
from standard_tool.schemas.jsonschema import tool_schema

__all__ = [
    "MirascopeToolError",
    "StandardMirascopeAsyncTool",
    "StandardMirascopeTool",
    "from_mirascope",
    "to_mirascope",
]

AnyTool = StandardToolV0Definition[Any, Any, Any, Any]


class MirascopeToolError(StandardToolError, RuntimeError):
    """A bridged call failed: its message is the ``Error: ...`` text the model reads.

    From ``from_mirascope``: the Mirascope tool failed (the message is its error, bounded).
    """


def _limit(kit: Toolkit, name: str) -> float:
    own = kit.timeout_of(name)
    return RUNNER_TIMEOUT if own is None else own


def _parameters(function: dict[str, Any]) -> ToolParameterSchema:
    """Hold the tool's JSON Schema as Mirascope does (properties, required, $defs)."""
    schema: dict[str, Any] = function["parameters"]
    return ToolParameterSchema.model_validate(
        {
            "properties": schema.get("properties") or {},
            "required": schema.get("required") or [],
            "additionalProperties": schema.get("additionalProperties") is not False,
            "$defs": schema.get("$defs"),
        }
    )


def _output(call: ToolCall, name: str, result: ToolResult) -> ToolOutput[Any]:
    text = content(result, "Mirascope")
    if result.success:
        return ToolOutput(id=call.id, name=name, result=text)
    error = MirascopeToolError(text)
    error.__cause__ = result.exception
    return ToolOutput(id=call.id, name=name, result=text, error=ToolExecutionError(error))


def _direct(kit: Toolkit, name: str) -> Any:
    """Return what Mirascope calls when the tool is called as a plain function."""
    if kit.is_async(name):

        async def run_async(**arguments: Any) -> Any:
            return _value(await kit.aexecute(name, arguments, timeout=_limit(kit, name)))

        return run_async

    def run_sync(**arguments: Any) -> Any:
        return _value(kit.execute(name, arguments, timeout=_limit(kit, name)))

    return run_sync


def _value(result: ToolResult) -> Any:
    if result.success:
        return result.value
    raise MirascopeToolError(content(result)) from result.exception


class StandardMirascopeTool(Tool[..., Any]):
    """A Mirascope ``Tool`` that runs a sync standard tool (build one with ``to_mirascope``)."""

    def __init__(self, tool: AnyTool) -> None:
        function = to_openai_chat(tool, strict=False)["function"]
        self._standard = tool
        self._kit = Toolkit([tool])
        super().__init__(
            _direct(self._kit, tool.name),
            function["name"],
            tool.description,
            _parameters(function),
            strict=False,
        )

    @property
    def standard_tool(self) -> AnyTool:
        """The standard tool this Mirascope tool runs."""
        return self._standard

    def execute(self, tool_call: ToolCall) -> ToolOutput[Any]:
        """Run one call: the output, or ``Error: ...`` with the output's ``error`` set."""
        name = self._standard.name
        run = run_calls(
            self._kit,
            [Call(tool_call.id, name, tool_call.args or "{}", True)],
            meta=None,
            timeout=None,
            decode=None,
        )
        (result,) = run_blocking(run)
        return _output(tool_call, self.name, result)


class StandardMirascopeAsyncTool(AsyncTool[..., Any]):
    """A Mirascope ``AsyncTool`` that runs an async standard tool (``to_mirascope``)."""

    def __init__(self, tool: AnyTool) -> None:
        function = to_openai_chat(tool, strict=False)["function"]
        self._standard = tool
        self._kit = Toolkit([tool])
        super().__init__(
            _direct(self._kit, tool.name),
            function["name"],
            tool.description,
            _parameters(function),
            strict=False,
        )

    @property
    def standard_tool(self) -> AnyTool:
        """The standard tool this Mirascope tool runs."""
        return self._standard

    async def execute(self, tool_call: ToolCall) -> ToolOutput[Any]:
        """Run one call in the caller's event loop: the output, or ``Error: ...``."""
        name = self._standard.name
        call = Call(tool_call.id, name, tool_call.args or "{}", True)
        (result,) = await run_calls(self._kit, [call], meta=None, timeout=None, decode=None)
        return _output(tool_call, self.name, result)


@overload
def to_mirascope(tool: AnyTool) -> StandardMirascopeTool | StandardMirascopeAsyncTool: ...
@overload
def to_mirascope(
    tool: Toolkit | Iterable[AnyTool],
) -> list[StandardMirascopeTool | StandardMirascopeAsyncTool]: ...
def to_mirascope(
    tool: AnyTool | Toolkit | Iterable[AnyTool],
) -> (
    StandardMirascopeTool
    | StandardMirascopeAsyncTool
    | list[StandardMirascopeTool | StandardMirascopeAsyncTool]
):
    """Make a Mirascope tool of any conforming tool (a list for a ``Toolkit``).

    Examples:
        >>> from standard_tool import tool
        >>> @tool
        ... def add(a: int, b: int) -> int:
        ...     '''Add two integers.'''
        ...     return a + b
        >>> m_add = to_mirascope(add)
        >>> m_add.parameters.required
        ['a', 'b']

    Args:
        tool: a conforming tool, or a ``Toolkit`` or iterable of tools (then the
            result is a list, in order; hand it to ``@llm.call(..., tools=...)``).

    Returns:
        A ``StandardMirascopeTool`` for a sync tool (for sync calls), a
        ``StandardMirascopeAsyncTool`` for an async one (for async calls), or a
        list of them.

    Raises:
        ProviderSchemaError: the name is not accepted by OpenAI (1 to 64 of
            A-Z, a-z, 0-9, ``_`` and ``-``) or the input is not a JSON object.
    """
    if is_one_tool(tool):
        return _one(cast("AnyTool", tool))
    return [_one(t) for t in cast("Iterable[AnyTool]", tool)]


def _one(tool: AnyTool) -> StandardMirascopeTool | StandardMirascopeAsyncTool:
    if Toolkit([tool]).is_async(tool.name):
        return StandardMirascopeAsyncTool(tool)
    return StandardMirascopeTool(tool)


def from_mirascope(
    native: Tool[..., Any] | AsyncTool[..., Any],
) -> StandardToolV0[Any, Any, Any, Any]:
    """Make a standard tool of a Mirascope ``Tool`` or ``AsyncTool``, so a ``Toolkit`` can hold it.

    The input schema is the one Mirascope shows the model, and the standard tool
    validates the input against it before Mirascope sees it. ``execute`` runs the
    tool as ``execute_tools`` does (sync for a ``Tool``, async for an
    ``AsyncTool``) and returns its result; a failure raises ``MirascopeToolError``
    with the tool's error (bounded). A tool made by ``to_mirascope`` comes back as the
    very tool it was made from.

    Examples:
        >>> from mirascope import llm
        >>> @llm.tool
        ... def shout(text: str) -> str:
        ...     '''Upper-case a text.'''
        ...     return text.upper()
        >>> st = from_mirascope(shout)
        >>> st.execute({"text": "hi"})
        'HI'

    Raises:
        InvalidSchemaError: the tool's schema is not a valid JSON Schema.
    """
    if isinstance(native, (StandardMirascopeTool, StandardMirascopeAsyncTool)):
        original = native.standard_tool
        if hasattr(original, "formatted"):
            return original
    dumped = native.parameters.model_dump(by_alias=True, exclude_none=True)
    schema: dict[str, Any] = {"type": "object", **dumped}
    if dumped.get("additionalProperties") is True:
        del schema["additionalProperties"]

    def answer(output: ToolOutput[Any]) -> Any:
        if output.error is not None:
            text = f"Mirascope tool {native.name!r}: {output.result}"
            raise MirascopeToolError(truncate_text(text, ERROR_MAX_CHARS)) from output.error
        return output.result

    def call_of(input: Any) -> ToolCall:
        return ToolCall(
            id=f"call_{uuid.uuid4().hex}", name=native.name, args=json.dumps(input or {})
        )

    run: Callable[[Any], Any]
    if isinstance(native, AsyncTool):

        async def run_async(input: Any) -> Any:
            return answer(await native.execute(call_of(input)))

        run = run_async
    else:

        def run_sync(input: Any) -> Any:
            return answer(native.execute(call_of(input)))

        run = run_sync

    built: Any = build_tool(
        name=native.name,
        description=native.description,
        input_schema=tool_schema(schema, "from_mirascope", native.name),
        execute=run,
    )
    return cast("StandardToolV0[Any, Any, Any, Any]", built)
