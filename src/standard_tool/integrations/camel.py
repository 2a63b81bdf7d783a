"""CAMEL: a standard tool as a CAMEL ``FunctionTool``, and a CAMEL tool as ours.

Layer: top (imports the core, the toolkit, the content types, the schema adapters
and the providers; never the package root). It imports ``camel`` at the top: only
code that uses CAMEL imports this module, and ``import standard_tool`` never does.

``to_camel(tool)`` gives a ``StandardCamelTool``, a CAMEL ``FunctionTool`` whose
OpenAI tool schema is the declaration ``to_openai_chat(tool, strict=False)``
writes, so a ``ChatAgent`` shows the model the schema the tool enforces. A call
(``tool(**arguments)`` from ``ChatAgent.step``, ``await tool.async_call(...)``
from ``astep``) is validated by the standard tool itself and answers with the text
every provider runner writes: the output (``text_result``), or ``Error: ...``
naming the failing path, so the model reads why and the run goes on. A sync tool
called from ``astep`` runs in a worker thread, so the agent's event loop never
blocks. A rich result with images becomes CAMEL's ``ToolResult``: its text, and
the images as data URLs, which CAMEL shows the model (with Pillow installed).
``from_camel(tool)`` goes the other way.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import uuid
from collections.abc import Callable, Coroutine, Iterable
from typing import Any, cast

from camel.toolkits import FunctionTool
from camel.utils.tool_result import ToolResult as CamelToolResult
from typing_extensions import overload

from standard_tool._core import StandardToolError, StandardToolV0, StandardToolV0Definition
from standard_tool._core import standard_tool as build_tool
from standard_tool._shared import run_blocking, truncate_text
from standard_tool._toolkit import Toolkit, ToolResult
from standard_tool.content import Content, Image, Text, ToolOutput, rich_output
from standard_tool.providers._declare import bridge_many, bridge_one, is_one_tool
from standard_tool.providers._openai import to_openai_chat
from standard_tool.providers._runner import Call, content, positional_refused, run_calls
from standard_tool.providers._text import ERROR_MAX_CHARS, rich_text
from standard_tool.schemas.jsonschema import tool_schema

__all__ = ["CamelToolError", "StandardCamelTool", "from_camel", "to_camel"]

AnyTool = StandardToolV0Definition[Any, Any, Any, Any]

#: The image types CAMEL's ``ToolResult`` carries to the model (as data URLs).
_IMAGE_TYPES = frozenset({"image/png", "image/jpeg", "image/gif", "image/webp"})


class CamelToolError(StandardToolError, RuntimeError):
    """A CAMEL tool brought in with ``from_camel`` failed: its message, bounded."""


class StandardCamelTool(FunctionTool):
    """A CAMEL ``FunctionTool`` that runs a standard tool; build one with ``to_camel``.

    Its OpenAI tool schema is the standard tool's declaration; ``tool(**arguments)``
    and ``await tool.async_call(**arguments)`` return the text a model reads (or a
    CAMEL ``ToolResult`` for a rich result with images).
    """

    def __init__(self, tool: AnyTool) -> None:
        kit = Toolkit([tool])
        self._standard = tool
        self._async = kit.is_async(tool.name)
        self._answering = _answering(kit, tool.name, self._async)
        declared = to_openai_chat(tool, strict=False)
        super().__init__(self._answering, declared)  # pyright: ignore[reportUnknownMemberType]

    @property
    def standard_tool(self) -> AnyTool:
        """The standard tool this CAMEL tool runs."""
        return self._standard

    @staticmethod
    def validate_openai_tool_schema(openai_tool_schema: dict[str, Any]) -> None:
        """Accept the declaration: the standard tool's schema was checked when it was made.

        CAMEL's own check, run on every step, would warn about each parameter
        without a ``description``, which the declaration does not need.
        """

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """Run one call from CAMEL's sync path (``ChatAgent.step``)."""
        if args:
            return content(positional_refused(self._standard.name, len(args)), "CAMEL")
        if self._async:
            return run_blocking(self._answering(**kwargs))
        return self._answering(**kwargs)

    async def async_call(self, *args: Any, **kwargs: Any) -> Any:
        """Run one call from CAMEL's async path (``ChatAgent.astep``)."""
        if args:
            return content(positional_refused(self._standard.name, len(args)), "CAMEL")
        if self._async:
            return await self._answering(**kwargs)
        # A sync tool runs in a worker thread, so the agent's event loop never blocks.
        return await asyncio.to_thread(self._answering, **kwargs)


def _answering(kit: Toolkit, name: str, is_async: bool) -> Callable[..., Any]:
    """Return what ``FunctionTool.func`` holds: the tool called by keyword, answering our text.

    Async for an async tool. A copy CAMEL makes of the tool (``ChatAgent.clone``
    wraps ``func`` in a plain ``FunctionTool``) therefore answers as the tool does.
    """

    def run(arguments: dict[str, Any]) -> Coroutine[Any, Any, list[ToolResult]]:
        call = Call(f"call_{uuid.uuid4().hex}", name, arguments, False)
        return run_calls(kit, [call], meta=None, timeout=None, decode=None)

    if is_async:

        async def answer_async(**arguments: Any) -> Any:
            (result,) = await run(arguments)
            return _answer(result)

        answer_async.__name__ = name
        return answer_async

    def answer_sync(**arguments: Any) -> Any:
        (result,) = run_blocking(run(arguments))
        return _answer(result)

    answer_sync.__name__ = name
    return answer_sync


def _answer(result: ToolResult) -> Any:
    """Return the text a model reads, or a CAMEL ``ToolResult`` for a rich result's images."""
    rich = rich_output(result.value) if result.success else None
    if rich is None:
        return content(result, "CAMEL")
    return _camel_content(rich)


def _camel_content(output: ToolOutput[Any]) -> str | CamelToolResult:
    """Write a rich result as CAMEL reads a tool's answer.

    Without images it is one text: each block's ``fallback_text`` and the
    structured value's JSON text, cut at the output bound (``rich_text``). With PNG,
    JPEG, GIF or WebP images it is a CAMEL ``ToolResult``: that text (the images left
    out of it) and the images as ``data:`` URLs, which ``ChatAgent`` shows the model.
    """
    images: list[str] = []
    rest: list[Content] = []
    for block in output.content:
        if isinstance(block, Image) and block.mime_type in _IMAGE_TYPES:
            images.append(f"data:{block.mime_type};base64,{block.base64}")
        else:
            rest.append(block)
    text = rich_text(ToolOutput(rest, output.structured), "CAMEL")
    return CamelToolResult(text, images) if images else text


@overload
def to_camel(tool: AnyTool) -> StandardCamelTool: ...
@overload
def to_camel(tool: Toolkit | Iterable[AnyTool]) -> list[StandardCamelTool]: ...
def to_camel(
    tool: AnyTool | Toolkit | Iterable[AnyTool],
) -> StandardCamelTool | list[StandardCamelTool]:
    """Make a CAMEL ``FunctionTool`` of any conforming tool (a list for a ``Toolkit``).

    Examples:
        >>> from standard_tool import tool
        >>> @tool
        ... def add(a: int, b: int) -> int:
        ...     '''Add two integers.'''
        ...     return a + b
        >>> c_add = to_camel(add)
        >>> c_add.get_function_name()
        'add'
        >>> c_add(a=1, b="two")
        "Error: input validation failed: b: expected integer, got string 'two'"

    Args:
        tool: a conforming tool, or a ``Toolkit`` or iterable of tools (then the
            result is a list, in order; hand it to ``ChatAgent(tools=...)``).

    Raises:
        ProviderSchemaError: a name the bridges do not accept (1 to 64 of A-Z, a-z,
            0-9, ``_``, ``-`` and ``.``), or an input that is not a JSON object.
        DuplicateToolNameError: two tools of a list have the same name.
    """
    if is_one_tool(tool):
        return StandardCamelTool(bridge_one(tool, "CAMEL"))
    return [StandardCamelTool(t) for t in bridge_many(tool, "CAMEL")]


def from_camel(tool: FunctionTool) -> StandardToolV0[Any, Any, Any, Any]:
    """Make a standard tool of a CAMEL ``FunctionTool``, so a ``Toolkit`` can hold it.

    The input schema is the ``parameters`` CAMEL shows the model, and the
    standard tool validates the input against it before CAMEL sees it.
    ``execute`` calls the tool as a ``ChatAgent`` does (sync for a sync function,
    ``async_call`` for an async one) and returns its result; a CAMEL ``ToolResult``
    with images comes back as a ``ToolOutput`` (its text and images). A failure
    raises ``CamelToolError`` with CAMEL's message (bounded). A tool made by
    ``to_camel`` comes back as the very tool it was made from.

    Examples:
        >>> from camel.toolkits import FunctionTool
        >>> def shout(text: str) -> str:
        ...     '''Upper-case a text.
        ...
        ...     Args:
        ...         text: the text.
        ...     '''
        ...     return text.upper()
        >>> st = from_camel(FunctionTool(shout))
        >>> st.execute({"text": "hi"})
        'HI'

    Raises:
        InvalidSchemaError: the tool's parameters are not a valid JSON Schema.
    """
    if isinstance(tool, StandardCamelTool):
        return tool.standard_tool
    declared: dict[str, Any] = tool.openai_tool_schema.get("function") or {}
    name = str(declared.get("name") or tool.get_function_name())
    parameters: Any = declared.get("parameters") or {"type": "object", "properties": {}}

    def failed(exc: Exception) -> CamelToolError:
        text = f"CAMEL tool {name!r}: {exc}"
        return CamelToolError(truncate_text(text, ERROR_MAX_CHARS))

    run: Callable[[Any], Any]
    if tool.is_async:

        async def run_async(input: Any) -> Any:
            try:
                value = await tool.async_call(**(input or {}))
            except Exception as exc:
                raise failed(exc) from exc
            return _read(value)

        run = run_async
    else:

        def run_sync(input: Any) -> Any:
            try:
                value = tool(**(input or {}))
            except Exception as exc:
                raise failed(exc) from exc
            return _read(value)

        run = run_sync

    built: Any = build_tool(
        name=name,
        description=str(declared.get("description") or ""),
        input_schema=tool_schema(parameters, "from_camel", name),
        execute=run,
    )
    return cast("StandardToolV0[Any, Any, Any, Any]", built)


def _read(value: Any) -> Any:
    """Return a CAMEL tool's answer: its value, or a ``ToolOutput`` of its images and text."""
    if not isinstance(value, CamelToolResult) or not value.images:
        return value
    blocks: list[Content] = [Text(value.text)] if value.text else []
    for url in value.images:
        head, _, data = url.partition(",")
        mime = head.removeprefix("data:").removesuffix(";base64")
        try:
            blocks.append(Image(base64.b64decode(data, validate=True), mime or "image/png"))
        except (binascii.Error, ValueError, TypeError):
            blocks.append(Text(f"[an image CAMEL gave as {truncate_text(head, 60)!r}]"))
    return ToolOutput(blocks)
