"""LlamaIndex: a standard tool as a LlamaIndex ``FunctionTool``, and a LlamaIndex tool as ours.

Layer: top (imports the core, the toolkit, the schema adapters and the providers;
never the package root). It imports ``llama-index-core`` at the top: only code that
uses LlamaIndex imports this module, and ``import standard_tool`` never does.

``to_llama_index(tool)`` gives a ``FunctionTool`` whose metadata declares the
tool's own JSON Schema as it is (LlamaIndex's ``ToolMetadata`` would keep only
``type``, ``properties``, ``required`` and ``$defs`` of a schema, dropping
``additionalProperties`` and showing the model a wider schema than the tool
accepts) and whose calls the tool validates itself. Every call returns a
``ToolOutput``: the text every provider runner writes (``text_result``), or
``is_error=True`` with ``Error: ...`` naming the failing path, so a bad call never
ends the agent's run. A rich result (``standard_tool.content`` blocks) becomes
the ``ToolOutput``'s blocks: text, image, audio and document blocks, which the
agent sends the model as the tool message's content.
``from_llama_index(li_tool)`` goes the other way.
"""

from __future__ import annotations

import asyncio
import copy
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, ClassVar, cast

from llama_index.core.base.llms.types import AudioBlock, DocumentBlock, ImageBlock, TextBlock
from llama_index.core.tools import FunctionTool, ToolMetadata, ToolOutput
from llama_index.core.tools.types import BaseTool, adapt_to_async_tool
from llama_index.core.workflow import Context, Event
from pydantic import BaseModel, ConfigDict
from typing_extensions import overload

from standard_tool._context import ProgressEvent
from standard_tool._core import (
    StandardToolError,
    StandardToolV0,
    StandardToolV0Definition,
    standard_tool,
)
from standard_tool._shared import run_blocking, truncate_text
from standard_tool._toolkit import Toolkit
from standard_tool.content import (
    Audio,
    Content,
    EmbeddedResource,
    Image,
    ResourceLink,
    Text,
    rich_output,
)
from standard_tool.content import ToolOutput as RichOutput
from standard_tool.providers._declare import bridge_many, bridge_one, is_one_tool, parameters
from standard_tool.providers._runner import Call, content, positional_refused, run_calls
from standard_tool.providers._text import (
    ERROR_MAX_CHARS,
    OUTPUT_MAX_CHARS,
    bounded_output,
    rich_text,
)
from standard_tool.schemas.jsonschema import tool_schema

__all__ = [
    "LlamaIndexToolError",
    "StandardLlamaIndexTool",
    "StandardToolMetadata",
    "StandardToolProgress",
    "from_llama_index",
    "to_llama_index",
]

AnyTool = StandardToolV0Definition[Any, Any, Any, Any]
#: Builds the ``meta`` a standard tool receives from the agent workflow's ``Context``.
MetaFromContext = Callable[[Context], Any]
#: The keyword the agent passes the workflow ``Context`` under (never a tool property:
#: LlamaIndex sends the model only what the metadata declares).
_CONTEXT = "_standard_tool_llama_index_context"


class LlamaIndexToolError(StandardToolError, RuntimeError):
    """A LlamaIndex tool (run through ``from_llama_index``) answered its call with an error.

    The message is the tool's error text, bounded.
    """


class StandardToolProgress(Event):
    """A bridged tool's progress report, written to the agent workflow's event stream.

    It arrives among the events of ``handler.stream_events()`` while the call runs.

    Attributes:
        progress: the ``ProgressEvent`` the tool reported (``report_progress``, or
            what a generator tool yielded), with its tool name and call id.
    """

    progress: ProgressEvent


class _Arguments(BaseModel):
    """The ``fn_schema`` of a bridged tool: it shows our schema and checks nothing."""

    model_config = ConfigDict(extra="allow")

    #: The ``parameters`` to declare; each tool gets a subclass that sets it.
    parameters: ClassVar[dict[str, Any]] = {"type": "object", "properties": {}}

    @classmethod
    def model_json_schema(cls, *args: Any, **kwargs: Any) -> dict[str, Any]:
        """Return the tool's ``parameters`` (a fresh copy)."""
        return copy.deepcopy(cls.parameters)


@dataclass
class StandardToolMetadata(ToolMetadata):
    """``ToolMetadata`` that declares a standard tool's JSON Schema whole.

    ``get_parameters_dict`` (which every LlamaIndex LLM sends as the tool's
    ``parameters``) returns the tool's own schema, ``additionalProperties`` and
    every other keyword kept.
    """

    def get_parameters_dict(self) -> dict[str, Any]:
        """Return the tool's ``parameters`` as the model is shown them (a fresh copy)."""
        schema = self.fn_schema
        assert schema is not None  # always set by to_llama_index
        return schema.model_json_schema()


def _llama_blocks(output: RichOutput[Any]) -> list[Any]:
    """Write a rich result as LlamaIndex content blocks.

    An image is an ``ImageBlock``, audio an ``AudioBlock`` (its format from the
    MIME type), a resource's bytes a ``DocumentBlock``; a text, a text resource
    and a resource link are ``TextBlock``s of their fallback text, and the
    structured value follows as its JSON text. The texts share the output bound,
    as every provider's writer's do.
    """
    output = bounded_output(output, OUTPUT_MAX_CHARS)
    blocks: list[Any] = []
    for block in output.content:
        if isinstance(block, Image):
            # base64 given: LlamaIndex keeps bytes that happen to read as base64 unencoded
            image = block.base64.encode("ascii")
            blocks.append(ImageBlock(image=image, image_mimetype=block.mime_type))
        elif isinstance(block, Audio):
            kind = block.mime_type.rpartition("/")[2][:20] or None
            blocks.append(AudioBlock(audio=block.base64.encode("ascii"), format=kind))
        elif isinstance(block, EmbeddedResource) and block.blob is not None:
            title = block.uri.rsplit("/", 1)[-1][:200] or "document"
            blocks.append(
                DocumentBlock(
                    data=(block.base64 or "").encode("ascii"),
                    document_mimetype=block.mime_type,
                    title=title,
                )
            )
        else:
            blocks.append(TextBlock(text=rich_text(RichOutput([block]), "LlamaIndex")))
    if output.structured is not None:
        blocks.append(TextBlock(text=rich_text(RichOutput([], output.structured), "LlamaIndex")))
    return blocks


def _block_of(block: Any) -> Content | None:
    """Read one LlamaIndex block as a content block (None for a kind we do not read)."""
    if isinstance(block, TextBlock):
        return Text(block.text)
    if isinstance(block, ImageBlock) and block.image is not None:
        return Image(block.resolve_image().read(), block.image_mimetype or "image/png")
    if isinstance(block, ImageBlock) and block.url is not None:
        return ResourceLink(str(block.url), "image", mime_type=block.image_mimetype)
    if isinstance(block, AudioBlock) and block.audio is not None:
        kind = f"audio/{block.format}" if block.format else "application/octet-stream"
        return Audio(block.resolve_audio().read(), kind)
    if isinstance(block, DocumentBlock) and block.data is not None:
        title = truncate_text(block.title or "document", 200)
        data = block.resolve_document().read()
        return EmbeddedResource(f"document:{title}", blob=data, mime_type=block.document_mimetype)
    return None


def _rich_of(blocks: list[Any]) -> RichOutput[Any] | None:
    """Read a LlamaIndex tool's image, audio and document blocks as a ``ToolOutput``.

    ``None`` when the blocks are text only, or hold a kind (a video, a citation,
    media by path only) that has no content type here: then the tool's
    ``raw_output`` is the value.
    """
    if all(isinstance(block, TextBlock) for block in blocks):
        return None
    read = [_block_of(block) for block in blocks]
    content = [block for block in read if block is not None]
    return RichOutput(content) if len(content) == len(read) else None


_CONTENT_BLOCKS = (TextBlock, ImageBlock, AudioBlock, DocumentBlock)


def _shim_unparsed_blocks(output: ToolOutput) -> list[Any]:
    """Shim for older LlamaIndex (0.14.12 among them): the blocks a tool returned.

    Those releases parse a returned list into blocks only when every item is a
    text, image or audio block; a list with a ``DocumentBlock`` becomes one text
    block of the list's ``repr``. The list itself is then read instead.
    """
    raw: Any = output.raw_output
    if isinstance(raw, list):
        items = cast("list[object]", raw)
        if items and all(isinstance(item, _CONTENT_BLOCKS) for item in items):
            return list(items)
    return list(output.blocks)


def _reporter(context: Context) -> Callable[[ProgressEvent], None]:
    """Write each progress report to the workflow's stream, from any thread."""
    loop = asyncio.get_running_loop()

    def report(event: ProgressEvent) -> None:
        wrapped = StandardToolProgress(progress=event)
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            context.write_event_to_stream(wrapped)
        else:
            loop.call_soon_threadsafe(context.write_event_to_stream, wrapped)

    return report


async def _takes_context(_standard_tool_llama_index_context: Any = None, **kwargs: Any) -> None:
    """Stand-in function whose signature tells the agent to pass its workflow ``Context``."""


# The agent looks for a parameter annotated with the ``Context`` class itself.
_takes_context.__annotations__[_CONTEXT] = Context


class StandardLlamaIndexTool(FunctionTool):
    """A LlamaIndex ``FunctionTool`` that runs a standard tool; build one with ``to_llama_index``.

    The agent passes it the workflow ``Context`` (for the ``meta`` function);
    ``call`` and ``acall`` validate the arguments with the standard tool, run it
    and return a ``ToolOutput``: the text a model reads, with ``raw_output`` the
    tool's value, or ``is_error=True`` and ``"Error: ..."``.
    """

    def __init__(self, tool: AnyTool, meta: MetaFromContext | None) -> None:
        arguments = type(f"{tool.name}_arguments", (_Arguments,), {"parameters": parameters(tool)})
        metadata = StandardToolMetadata(
            description=tool.description, name=tool.name, fn_schema=arguments
        )
        super().__init__(async_fn=_takes_context, metadata=metadata)
        self.standard_tool: AnyTool = tool
        self._kit = Toolkit([tool])
        self._meta = meta

    async def _run(self, kwargs: dict[str, Any]) -> ToolOutput:
        context = kwargs.pop(_CONTEXT, None)
        hook = self._meta
        meta = None if hook is None or context is None else hook(context)
        name = self.standard_tool.name
        kit = self._kit
        calls = [Call(f"call_{uuid.uuid4().hex}", name, kwargs, False)]
        report = None if context is None else _reporter(context)
        run = run_calls(kit, calls, meta=meta, timeout=None, decode=None, on_progress=report)
        if kit.is_async(name):
            (result,) = await run
        else:
            # A sync tool runs in a worker thread, so the agent's event loop never blocks.
            (result,) = await asyncio.to_thread(asyncio.run, run)
        rich = rich_output(result.value) if result.success else None
        return ToolOutput(
            tool_name=name,
            content=content(result) if rich is None else None,
            blocks=None if rich is None else _llama_blocks(rich),
            raw_input=dict(kwargs),
            raw_output=result.value if result.success else result.error,
            is_error=not result.success,
            exception=result.exception if isinstance(result.exception, Exception) else None,
        )

    def call(self, *args: Any, **kwargs: Any) -> ToolOutput:
        """Run one call from sync code; return its ``ToolOutput``."""
        if args:
            return self._positional(args, kwargs)
        return run_blocking(self._run(kwargs))

    async def acall(self, *args: Any, **kwargs: Any) -> ToolOutput:
        """Run one call; return its ``ToolOutput``."""
        if args:
            return self._positional(args, kwargs)
        return await self._run(kwargs)

    def _positional(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> ToolOutput:
        """Refuse a call given arguments by position (LlamaIndex would drop them)."""
        name = self.standard_tool.name
        refused = positional_refused(name, len(args))
        kwargs.pop(_CONTEXT, None)
        return ToolOutput(
            tool_name=name,
            content=content(refused),
            raw_input={"args": list(args), "kwargs": dict(kwargs)},
            raw_output=refused.error,
            is_error=True,
        )


@overload
def to_llama_index(
    tool: AnyTool, *, meta: MetaFromContext | None = None
) -> StandardLlamaIndexTool: ...
@overload
def to_llama_index(
    tool: Toolkit | Iterable[AnyTool], *, meta: MetaFromContext | None = None
) -> list[StandardLlamaIndexTool]: ...
def to_llama_index(
    tool: AnyTool | Toolkit | Iterable[AnyTool],
    *,
    meta: MetaFromContext | None = None,
) -> StandardLlamaIndexTool | list[StandardLlamaIndexTool]:
    """Make a LlamaIndex ``FunctionTool`` of any conforming tool (or a list from a ``Toolkit``).

    Examples:
        >>> from standard_tool import tool
        >>> @tool
        ... def add(a: int, b: int) -> int:
        ...     '''Add two integers.'''
        ...     return a + b
        >>> li_add = to_llama_index(add)
        >>> li_add.metadata.to_openai_tool()["function"]["parameters"]["required"]
        ['a', 'b']
        >>> str(li_add.call(a=1, b=2))
        '3'

    Args:
        tool: a conforming tool (sync or async), or a ``Toolkit`` or iterable of
            tools (then the result is a list, in order; hand it to
            ``FunctionAgent(tools=...)`` or any other LlamaIndex agent).
        meta: a function from the agent workflow's ``Context`` (its ``store``,
            ``write_event_to_stream``, ...) to the ``meta`` the tool receives; without
            it, or when the tool is called outside an agent, the tool receives ``None``.

    Returns:
        A ``StandardLlamaIndexTool`` (or a list of them).

    Raises:
        ProviderSchemaError: the tool's input is not a JSON object.
    """
    if is_one_tool(tool):
        return StandardLlamaIndexTool(bridge_one(tool, "LlamaIndex"), meta)
    return [StandardLlamaIndexTool(t, meta) for t in bridge_many(tool, "LlamaIndex")]


def from_llama_index(li_tool: BaseTool) -> StandardToolV0[Any, Any, Any, Any]:
    """Make a standard tool of a LlamaIndex tool (a ``FunctionTool``, ...), for a ``Toolkit``.

    The input schema is the tool's declared ``parameters``
    (``metadata.get_parameters_dict()``, what LlamaIndex shows a model), and the
    standard tool validates the input against it before LlamaIndex sees it.
    ``execute`` is async: it awaits the tool's ``acall`` (a sync-only tool runs
    in a worker thread) and returns the output's ``raw_output``, or a
    ``ToolOutput`` when its blocks hold images, audio or documents (as bytes;
    an image by URL is a ``ResourceLink``); an output with
    ``is_error`` raises ``LlamaIndexToolError`` with its text. A ``FunctionTool``
    whose function takes the workflow ``Context`` needs one as ``meta``. A tool
    made by ``to_llama_index`` comes back as the very tool it was made from.

    Examples:
        >>> import asyncio
        >>> from llama_index.core.tools import FunctionTool
        >>> def shout(text: str) -> str:
        ...     '''Upper-case a text.'''
        ...     return text.upper()
        >>> st = from_llama_index(FunctionTool.from_defaults(shout))
        >>> asyncio.run(st.execute({"text": "hi"}))
        'HI'

    Raises:
        InvalidSchemaError: the tool's schema is not a valid JSON Schema.
    """
    if isinstance(li_tool, StandardLlamaIndexTool):
        original = li_tool.standard_tool
        if hasattr(original, "formatted"):
            return original
    metadata = li_tool.metadata
    name = metadata.get_name()
    # ``get_parameters_dict`` is annotated as returning a bare ``dict``.
    untyped: Any = metadata
    declared: dict[str, Any] = untyped.get_parameters_dict()
    async_tool = adapt_to_async_tool(li_tool)
    context_name = li_tool.ctx_param_name if isinstance(li_tool, FunctionTool) else None
    # A bridged tool of ours takes the Context when there is one; a function tool needs it.
    needs_context = context_name is not None and not isinstance(li_tool, StandardLlamaIndexTool)

    async def run(input: Any, meta: Any) -> Any:
        arguments = dict(input or {})
        if context_name is not None and isinstance(meta, Context):
            arguments[context_name] = meta
        elif needs_context:
            raise TypeError(f"tool {name!r} takes a LlamaIndex Context: pass one as meta")
        output = await async_tool.acall(**arguments)
        if output.is_error:
            text = f"LlamaIndex tool {name!r}: {output.content or 'the tool reported an error'}"
            raise LlamaIndexToolError(truncate_text(text, ERROR_MAX_CHARS))
        rich = _rich_of(_shim_unparsed_blocks(output))
        return output.raw_output if rich is None else rich

    built: Any = standard_tool(
        name=name,
        description=metadata.description,
        input_schema=tool_schema(declared, "from_llama_index", name),
        execute=run,
    )
    return cast("StandardToolV0[Any, Any, Any, Any]", built)
