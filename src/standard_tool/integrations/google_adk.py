"""Google ADK: a standard tool as an ADK ``BaseTool``, and an ADK tool as ours.

Layer: top (imports the core, the toolkit, the schema adapters and the providers;
never the package root). It imports ``google-adk`` at the top: only code that uses
ADK imports this module, and ``import standard_tool`` never does.

``to_google_adk(tool)`` gives a ``BaseTool`` whose function declaration is the
one ``to_gemini`` writes (Gemini's OpenAPI subset, or its JSON Schema fields with
``json_schema=True``), so ADK sends the model the package's own Gemini conversion.
When the model calls the tool, the arguments are decoded back to the tool's own
shape and validated by the tool itself; the function response is the one
``run_gemini_function_calls`` writes: ``{"output": ...}``, or ``{"error":
"Error: ..."}`` naming the failing path, so a bad call never ends the run. A
rich result (``standard_tool.content`` blocks) is the response
``run_gemini_function_calls`` writes for it: PNG, JPEG and WebP images and PDF
bytes as ADK media parts of the function response (``inline_data``), the rest as
text in ``output`` and the structured value in ``structured``.
``from_google_adk(adk_tool)`` goes the other way.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable, Iterable
from functools import cache
from importlib.metadata import version
from typing import Any, cast

from google.adk.tools.base_tool import BaseTool
from google.adk.tools.tool_context import ToolContext
from google.genai import types
from typing_extensions import overload

from standard_tool._core import StandardToolV0, StandardToolV0Definition, standard_tool
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
from standard_tool.providers._declare import bridge_many, bridge_one, is_one_tool
from standard_tool.providers._gemini import (
    GeminiParameters,
    gemini_json_parameters,
    gemini_parameters,
    to_gemini,
)
from standard_tool.providers._gemini_run import (
    _response,  # pyright: ignore[reportPrivateUsage]
    gemini_rich_response,
)
from standard_tool.providers._runner import Call, content, run_calls
from standard_tool.providers._text import rich_text
from standard_tool.schemas.jsonschema import tool_schema

__all__ = ["StandardAdkTool", "from_google_adk", "to_google_adk"]

AnyTool = StandardToolV0Definition[Any, Any, Any, Any]
#: Builds the ``meta`` a standard tool receives from ADK's ``ToolContext``.
MetaFromContext = Callable[[ToolContext], Any]


class StandardAdkTool(BaseTool):
    """An ADK tool that runs a standard tool; build one with ``to_google_adk``.

    Its declaration is ``to_gemini(tool)`` (or ``to_gemini(tool, json_schema=True)``).
    ``run_async`` decodes the model's arguments, validates them with the standard
    tool and runs it (an async tool in the agent's event loop, a sync one in a
    worker thread), and answers with a function response: ``{"output": value}``
    or ``{"error": "Error: ..."}``.
    """

    def __init__(self, tool: AnyTool, json_schema: bool, meta: MetaFromContext | None) -> None:
        super().__init__(name=tool.name, description=tool.description)
        self._standard = tool
        self._declaration = to_gemini(tool, json_schema=json_schema)
        self._parameters: GeminiParameters = (
            gemini_json_parameters(tool) if json_schema else gemini_parameters(tool)
        )
        self._kit = Toolkit([tool])
        self._meta = meta

    @property
    def standard_tool(self) -> AnyTool:
        """The standard tool this ADK tool runs."""
        return self._standard

    def _get_declaration(self) -> types.FunctionDeclaration:
        """Return the function declaration ADK sends to the model (a fresh object each time)."""
        return types.FunctionDeclaration.model_validate(self._declaration)

    async def run_async(self, *, args: dict[str, Any], tool_context: ToolContext) -> Any:
        """Run one call and return its function response.

        Args:
            args: the model's arguments.
            tool_context: ADK's context of the call (its ``function_call_id`` is
                the call id the standard tool sees).

        Returns:
            ``{"output": value}`` (a string as text, anything else as JSON data)
            or ``{"error": "Error: ..."}``.
        """
        name = self._standard.name
        hook = self._meta
        meta = None if hook is None else hook(tool_context)
        call_id = getattr(tool_context, "function_call_id", None) or ""
        parameters = self._parameters

        def decode(_tool: AnyTool, value: Any) -> Any:
            return parameters.decode(value)

        calls = [Call(call_id, name, args, False)]
        run = run_calls(self._kit, calls, meta=meta, timeout=None, decode=decode)
        if self._kit.is_async(name):
            (result,) = await run
        else:
            # A sync tool runs in a worker thread, so the agent's event loop never blocks.
            (result,) = await asyncio.to_thread(asyncio.run, run)
        return _adk_response(result)


def _adk_response(result: ToolResult) -> dict[str, Any]:
    """Write the function response of one call, a rich result's media as ADK ``Part`` entries.

    ADK takes every ``Part`` with ``inline_data`` out of a tool's response and
    sends it as a part of the function response, so the media go under a key of
    their own that ADK removes.
    """
    rich = rich_output(result.value) if result.success else None
    if rich is None:
        return _response(result.value, content(result), result.success)
    response, parts = gemini_rich_response(rich)
    older = _adk_without_media()
    if parts and older is not None:  # the shim: each block's bounded fallback line instead
        response["output"] = rich_text(ToolOutput(rich.content), older)
    elif parts:
        response["media"] = [
            types.Part(inline_data=types.Blob(**part["inline_data"])) for part in parts
        ]
    return response


@cache
def _adk_without_media() -> str | None:
    """Shim for Google ADK before 2.7 (1.19 among them); ``None`` when ADK sends media.

    From 2.7 ADK takes every ``Part`` with ``inline_data`` out of a tool's response
    and sends it to the model as a part of the function response. Older releases
    (the 1.x line too) would leave the bytes inside the response's JSON, so the
    bridge writes each image and document as its bounded fallback line there
    instead; this returns the name those lines give (``"Google ADK 1.19.0"``).
    """
    installed = version("google-adk")
    major_minor = tuple(int(part) for part in re.findall(r"\d+", installed)[:2])
    return None if major_minor >= (2, 7) else f"Google ADK {installed}"


@overload
def to_google_adk(
    tool: AnyTool, *, json_schema: bool = False, meta: MetaFromContext | None = None
) -> StandardAdkTool: ...
@overload
def to_google_adk(
    tool: Toolkit | Iterable[AnyTool],
    *,
    json_schema: bool = False,
    meta: MetaFromContext | None = None,
) -> list[StandardAdkTool]: ...
def to_google_adk(
    tool: AnyTool | Toolkit | Iterable[AnyTool],
    *,
    json_schema: bool = False,
    meta: MetaFromContext | None = None,
) -> StandardAdkTool | list[StandardAdkTool]:
    """Make an ADK ``BaseTool`` of any conforming tool (or a list from a ``Toolkit``).

    Examples:
        >>> from standard_tool import tool
        >>> @tool
        ... def add(a: int, b: int) -> int:
        ...     '''Add two integers.'''
        ...     return a + b
        >>> adk_add = to_google_adk(add)
        >>> adk_add._get_declaration().parameters.required
        ['a', 'b']

    Args:
        tool: a conforming tool (sync or async), or a ``Toolkit`` or iterable of
            tools (then the result is a list, in order; hand it to
            ``Agent(tools=...)``).
        json_schema: declare with Gemini's JSON Schema fields
            (``parametersJsonSchema``, ``$defs`` and ``$ref`` kept) instead of its
            OpenAPI subset, as ``to_gemini(..., json_schema=True)`` does.
        meta: a function from ADK's ``ToolContext`` (``function_call_id``,
            ``state``, the session, ...) to the ``meta`` the tool receives, for
            example ``lambda ctx: ctx.state.get("user")``; without it the tool
            receives ``None``.

    Returns:
        A ``StandardAdkTool`` (or a list of them).

    Raises:
        ProviderSchemaError: a name Gemini refuses, or an input schema Gemini
            cannot express (named in the message).
    """
    if is_one_tool(tool):
        return StandardAdkTool(bridge_one(tool, "Google ADK"), json_schema, meta)
    return [StandardAdkTool(t, json_schema, meta) for t in bridge_many(tool, "Google ADK")]


def _block_of(part: types.Part) -> Content | None:
    """Read one ``Part`` as a content block (None for a kind we do not read)."""
    if part.text is not None:
        return Text(part.text)
    blob = part.inline_data
    if blob is not None and blob.data is not None and blob.mime_type:
        mime = blob.mime_type
        if mime.startswith("image/"):
            return Image(blob.data, mime)
        if mime.startswith("audio/"):
            return Audio(blob.data, mime)
        name = truncate_text(blob.display_name or "data", 200)
        return EmbeddedResource(f"part:{name}", blob=blob.data, mime_type=mime)
    file = part.file_data
    if file is not None and file.file_uri:
        name = truncate_text(file.display_name or "file", 200)
        return ResourceLink(file.file_uri, name, mime_type=file.mime_type)
    return None


def _rich_of(value: Any) -> ToolOutput[Any] | None:
    """Read an ADK tool's ``Part`` (or list of them) holding media as a ``ToolOutput``."""
    items: list[Any] = [value] if isinstance(value, types.Part) else value
    if not isinstance(value, (types.Part, list)) or not items:
        return None
    if not all(isinstance(item, types.Part) for item in items):
        return None
    blocks = [_block_of(item) for item in items]
    content = [block for block in blocks if block is not None]
    if len(content) != len(blocks) or all(isinstance(b, Text) for b in content):
        return None
    return ToolOutput(content)


def _input_schema(declaration: types.FunctionDeclaration | None) -> dict[str, Any]:
    """Return the JSON Schema of a declaration's parameters (an empty object one without)."""
    if declaration is None:
        return {"type": "object", "properties": {}}
    if declaration.parameters_json_schema is not None:
        return cast("dict[str, Any]", declaration.parameters_json_schema)
    if declaration.parameters is not None:
        return declaration.parameters.json_schema.model_dump(mode="json", exclude_none=True)
    return {"type": "object", "properties": {}}


def from_google_adk(adk_tool: BaseTool) -> StandardToolV0[Any, Any, Any, Any]:
    """Make a standard tool of an ADK ``BaseTool`` (a ``FunctionTool``...), for a ``Toolkit``.

    The input schema is the tool's own declaration (its ``parametersJsonSchema``,
    or its ``parameters`` turned into JSON Schema by ``google-genai``), and the
    standard tool validates the input against it before ADK sees it.
    ``execute`` is async and returns what the tool's ``run_async`` returns (a
    ``Part``, or a list of them, holding media as a ``ToolOutput``: inline
    images and audio as ``Image`` and ``Audio``, other bytes as an
    ``EmbeddedResource``, a file URI as a ``ResourceLink``). Pass
    ADK's ``ToolContext`` as ``meta`` to hand a tool that reads it its context;
    without one the tool runs with none, which a plain ``FunctionTool`` allows.
    A tool made by ``to_google_adk`` comes back as the very tool it was made from.

    Examples:
        >>> import asyncio
        >>> from google.adk.tools import FunctionTool
        >>> def shout(text: str) -> str:
        ...     '''Upper-case a text.'''
        ...     return text.upper()
        >>> st = from_google_adk(FunctionTool(shout))
        >>> asyncio.run(st.execute({"text": "hi"}))
        'HI'

    Raises:
        InvalidSchemaError: the tool's schema is not a valid JSON Schema.
    """
    if isinstance(adk_tool, StandardAdkTool):
        original = adk_tool.standard_tool
        if hasattr(original, "formatted"):
            return original
    declaration = adk_tool._get_declaration()  # pyright: ignore[reportPrivateUsage]

    async def run(input: Any, meta: Any) -> Any:
        context = cast("ToolContext", meta if isinstance(meta, ToolContext) else None)
        value = await adk_tool.run_async(args=dict(input or {}), tool_context=context)
        rich = _rich_of(value)
        return value if rich is None else rich

    built: Any = standard_tool(
        name=adk_tool.name,
        description=adk_tool.description or "",
        input_schema=tool_schema(_input_schema(declaration), "from_google_adk", adk_tool.name),
        execute=run,
    )
    return cast("StandardToolV0[Any, Any, Any, Any]", built)
