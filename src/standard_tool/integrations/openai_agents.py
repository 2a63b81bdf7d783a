"""OpenAI Agents SDK: a standard tool as a ``FunctionTool``, and a ``FunctionTool`` as ours.

Layer: top (imports the core, the toolkit, the schema adapters and the providers;
never the package root). It imports ``openai-agents`` at the top: only code that
uses the Agents SDK imports this module, and ``import standard_tool`` never does.

``to_openai_agents(tool)`` declares the tool in OpenAI strict mode with our own
rewrite (``openai_strict``): every property required, optional ones nullable,
``dict[str, T]`` sent as a list of ``{"key", "value"}`` entries. The SDK's own
strict pass leaves that schema as it is, where it refuses a plain
``dict[str, T]`` schema outright. When the model calls the tool, the arguments
are decoded back to the tool's own shape and validated by the tool itself; the
model reads the text every provider runner writes (``text_result``, or
``Error: ...`` naming the failing path). ``from_openai_agents(function_tool)``
goes the other way.
"""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import Callable, Iterable
from typing import Any, cast

from agents import FunctionTool, RunContextWrapper
from agents.tool_context import ToolContext
from typing_extensions import Literal, TypeGuard, overload

from standard_tool._core import StandardToolV0, StandardToolV0Definition, standard_tool
from standard_tool._toolkit import Toolkit
from standard_tool.content import EmbeddedResource, Image, Text, ToolOutput, rich_output
from standard_tool.providers._declare import bridge_many, bridge_one, is_one_tool
from standard_tool.providers._openai import openai_strict, to_openai_chat
from standard_tool.providers._runner import Call, content, run_calls
from standard_tool.providers._text import (
    OUTPUT_MAX_CHARS,
    bounded_output,
    rich_text,
    structured_text,
)
from standard_tool.schemas.jsonschema import tool_schema

__all__ = ["from_openai_agents", "openai_agents_content", "to_openai_agents"]

AnyTool = StandardToolV0Definition[Any, Any, Any, Any]
#: Builds the ``meta`` a standard tool receives from the SDK's ``ToolContext``.
MetaFromContext = Callable[[ToolContext[Any]], Any]


def _strict_decode(tool: AnyTool, arguments: Any) -> Any:
    return openai_strict(tool).decode(arguments)


class _Invoke:
    """The ``on_invoke_tool`` of a bridged tool: decode, validate and run with our tool."""

    __slots__ = ("decode", "kit", "meta", "tool")

    def __init__(self, tool: AnyTool, strict: bool, meta: MetaFromContext | None) -> None:
        self.tool = tool
        self.kit = Toolkit([tool])
        self.decode = _strict_decode if strict else None
        self.meta = meta

    async def __call__(self, ctx: ToolContext[Any], arguments: str) -> Any:
        name = self.tool.name
        meta = None if self.meta is None else self.meta(ctx)
        calls = [Call(ctx.tool_call_id, name, arguments, True)]
        run = run_calls(self.kit, calls, meta=meta, timeout=None, decode=self.decode)
        if self.kit.is_async(name):
            (result,) = await run
        else:
            # A sync tool runs in a worker thread, as the SDK runs its own sync function tools.
            (result,) = await asyncio.to_thread(asyncio.run, run)
        rich = rich_output(result.value) if result.success else None
        return content(result) if rich is None else openai_agents_content(rich)


#: The image types the Responses API takes as ``input_image``.
_IMAGE_TYPES = frozenset({"image/jpeg", "image/png", "image/gif", "image/webp"})


def openai_agents_content(output: ToolOutput[Any], max_chars: int = OUTPUT_MAX_CHARS) -> list[Any]:
    """Write a rich result as the SDK's tool outputs: ``ToolOutputText``, ``...Image``, ``...File``.

    A ``Text`` is a ``ToolOutputText``; an ``Image`` of JPEG, PNG, GIF or WebP a
    ``ToolOutputImage`` (a base64 data URL); a PDF ``EmbeddedResource`` a
    ``ToolOutputFileContent``. Every other block is its ``fallback_text``; the
    structured value follows as its JSON text. The SDK sends them to the
    Responses API as ``input_image`` / ``input_file`` items of the tool's output.
    The text items share ``max_chars`` and the structured value's text is cut at it.
    """
    from agents import ToolOutputFileContent, ToolOutputImage, ToolOutputText

    output = bounded_output(output, max_chars)
    items: list[Any] = []
    for block in output.content:
        if isinstance(block, Text):
            items.append(ToolOutputText(text=block.text))
        elif isinstance(block, Image) and block.mime_type in _IMAGE_TYPES:
            url = f"data:{block.mime_type};base64,{block.base64}"
            items.append(ToolOutputImage(image_url=url))
        elif (
            isinstance(block, EmbeddedResource)
            and block.mime_type == "application/pdf"
            and (block.blob is not None)
        ):
            name = block.uri.rstrip("/").rsplit("/", 1)[-1][:200] or "file.pdf"
            data = f"data:application/pdf;base64,{block.base64}"
            items.append(ToolOutputFileContent(file_data=data, filename=name))
        else:
            text = rich_text(ToolOutput([block]), "OpenAI Agents", max_chars)
            items.append(ToolOutputText(text=text))
    if output.structured is not None:
        items.append(ToolOutputText(text=structured_text(output.structured, max_chars)))
    return items


@overload
def to_openai_agents(
    tool: AnyTool,
    *,
    strict: bool | Literal["auto"] = "auto",
    meta: MetaFromContext | None = None,
) -> FunctionTool: ...
@overload
def to_openai_agents(
    tool: Toolkit | Iterable[AnyTool],
    *,
    strict: bool | Literal["auto"] = "auto",
    meta: MetaFromContext | None = None,
) -> list[FunctionTool]: ...
def to_openai_agents(
    tool: AnyTool | Toolkit | Iterable[AnyTool],
    *,
    strict: bool | Literal["auto"] = "auto",
    meta: MetaFromContext | None = None,
) -> FunctionTool | list[FunctionTool]:
    """Make an Agents SDK ``FunctionTool`` of any conforming tool (or a list from a ``Toolkit``).

    Examples:
        >>> from standard_tool import tool
        >>> @tool
        ... def tag_count(tags: dict[str, str]) -> int:
        ...     '''Count the tags.'''
        ...     return len(tags)
        >>> function_tool = to_openai_agents(tag_count)
        >>> function_tool.strict_json_schema
        True
        >>> function_tool.params_json_schema["properties"]["tags"]["type"]
        'array'

    Args:
        tool: a conforming tool (sync or async), or a ``Toolkit`` or iterable of
            tools (then the result is a list, in order; hand it to
            ``Agent(tools=...)``).
        strict: ``"auto"`` (default) declares our OpenAI strict-mode rewrite with
            ``strict_json_schema=True`` whenever the schema can be represented,
            and the tool's own schema with ``strict_json_schema=False``
            otherwise. ``True`` insists on strict mode (raises
            ``OpenAIStrictError`` when the schema cannot be represented);
            ``False`` always declares the tool's own schema, not strict. The
            model's arguments are decoded back (maps, optional properties)
            before the tool validates them.
        meta: a function from the SDK's ``ToolContext`` (``tool_call_id``, the
            run's ``context``, ``usage``, ...) to the ``meta`` the tool
            receives, for example ``lambda ctx: ctx.context``; without it the
            tool receives ``None``.

    Returns:
        A ``FunctionTool`` whose ``on_invoke_tool`` awaits an async tool and runs
        a sync one in a worker thread. It answers every call with the text a
        model reads: the output as ``text_result`` writes it, or ``"Error: ..."``
        (invalid JSON, invalid input naming the path, an exception in the tool),
        so a bad call never ends the run. Set the SDK's own options
        (``needs_approval``, ``timeout_seconds``, ...) on it as usual.

    Raises:
        ProviderSchemaError: the name is not accepted by OpenAI or the input is
            not a JSON object.
    """
    if is_one_tool(tool):
        return _to_openai_agents(bridge_one(tool, "OpenAI Agents"), strict, meta)
    return [_to_openai_agents(t, strict, meta) for t in bridge_many(tool, "OpenAI Agents")]


def _to_openai_agents(
    tool: AnyTool, strict: bool | Literal["auto"], meta: MetaFromContext | None
) -> FunctionTool:
    function = to_openai_chat(tool, strict=strict)["function"]
    is_strict: bool = function["strict"]
    return FunctionTool(
        name=function["name"],
        description=tool.description,
        params_json_schema=function["parameters"],
        on_invoke_tool=_Invoke(tool, is_strict, meta),
        strict_json_schema=is_strict,
    )


def _is_tool_context(value: object) -> TypeGuard[ToolContext[Any]]:
    return isinstance(value, ToolContext)


def _is_run_context(value: object) -> TypeGuard[RunContextWrapper[Any]]:
    return isinstance(value, RunContextWrapper)


def _tool_context(meta: object, name: str, arguments: str) -> ToolContext[Any]:
    """Build the SDK context of one call, keeping the caller's run context and call id."""
    call_id = meta.tool_call_id if _is_tool_context(meta) else f"call_{uuid.uuid4().hex}"
    if _is_run_context(meta):
        return ToolContext(meta.context, meta.usage, name, call_id, arguments)
    return ToolContext(meta, tool_name=name, tool_call_id=call_id, tool_arguments=arguments)


def from_openai_agents(function_tool: FunctionTool) -> StandardToolV0[Any, Any, Any, Any]:
    """Make a standard tool of an Agents SDK ``FunctionTool``, so a ``Toolkit`` can hold it.

    The input schema is the tool's own ``params_json_schema`` (in strict mode,
    the strict form the model is shown), and the standard tool validates the
    input against it before the SDK sees it. ``execute`` is async and returns
    what ``on_invoke_tool`` returns. Pass the SDK's ``ToolContext`` (or any
    ``RunContextWrapper``) as ``meta`` to hand the tool its run context; any
    other ``meta`` becomes the ``context`` of a fresh ``ToolContext`` with a
    new call id. A tool made by ``to_openai_agents`` comes back as the very
    tool it was made from.

    A ``@function_tool`` answers its own failures with a text by default; build
    it with ``failure_error_function=None`` to have them raised instead. The
    SDK's ``is_enabled``, ``needs_approval`` and guardrails belong to an agent
    run and are not applied here.

    Examples:
        >>> import asyncio
        >>> from agents import function_tool
        >>> @function_tool
        ... def shout(text: str) -> str:
        ...     '''Upper-case a text.'''
        ...     return text.upper()
        >>> st = from_openai_agents(shout)
        >>> asyncio.run(st.execute({"text": "hi"}))
        'HI'

    Raises:
        InvalidSchemaError: the tool's schema is not a valid JSON Schema.
    """
    invoker = function_tool.on_invoke_tool
    if isinstance(invoker, _Invoke) and hasattr(invoker.tool, "formatted"):
        return invoker.tool
    name = function_tool.name

    async def run(input: Any, meta: Any) -> Any:
        arguments = json.dumps(input, ensure_ascii=False)
        return await function_tool.on_invoke_tool(_tool_context(meta, name, arguments), arguments)

    built: Any = standard_tool(
        name=name,
        description=function_tool.description,
        input_schema=tool_schema(function_tool.params_json_schema, "from_openai_agents", name),
        execute=run,
    )
    return cast("StandardToolV0[Any, Any, Any, Any]", built)
