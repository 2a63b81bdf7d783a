"""LangChain: a standard tool as a LangChain ``BaseTool``, and a LangChain tool as a standard tool.

Layer: top (imports the core, the toolkit, the schema adapters and the providers;
never the package root). It imports ``langchain-core`` at the top: only code that
uses LangChain imports this module, and ``import standard_tool`` never does.

``to_langchain(tool)`` gives a ``BaseTool`` whose ``args_schema`` is the tool's
own JSON Schema (a dict, so LangChain validates nothing) and whose run validates
with the tool itself. A failed call is answered, not raised: the ``ToolMessage``
gets ``status="error"`` and the same ``Error: ...`` text every provider runner
writes. ``from_langchain(lc_tool)`` goes the other way: the LangChain tool's
call schema becomes a JSON Schema that we validate before LangChain sees the input.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import contextvars
import sys
import uuid
from collections.abc import Callable, Coroutine, Iterable, Mapping
from dataclasses import dataclass
from typing import Annotated, Any, cast

from langchain_core.messages import ToolMessage
from langchain_core.runnables import RunnableConfig
from langchain_core.runnables.config import ensure_config
from langchain_core.tools import BaseTool, InjectedToolArg, ToolException
from pydantic import BaseModel, ConfigDict, PrivateAttr
from typing_extensions import Literal, overload

from standard_tool._core import (
    StandardToolError,
    StandardToolV0,
    StandardToolV0Definition,
    standard_tool,
)
from standard_tool._shared import is_async_callable, run_blocking, truncate_text
from standard_tool._toolkit import Toolkit, ToolResult, error_text
from standard_tool.content import Audio, EmbeddedResource, Image, Text, ToolOutput, rich_output
from standard_tool.providers._declare import bridge_many, bridge_one, is_one_tool, parameters
from standard_tool.providers._openai import openai_strict, to_openai_chat
from standard_tool.providers._runner import Call, content, run_calls
from standard_tool.providers._text import (
    ERROR_MAX_CHARS,
    OUTPUT_MAX_CHARS,
    bounded_output,
    rich_text,
    structured_text,
)
from standard_tool.schemas.jsonschema import tool_schema

__all__ = [
    "LangChainCall",
    "LangChainToolError",
    "StandardLangChainTool",
    "from_langchain",
    "langchain_content",
    "to_langchain",
]

AnyTool = StandardToolV0Definition[Any, Any, Any, Any]

_CALL_ID: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "standard_tool_langchain_call_id", default=None
)


@dataclass(frozen=True, slots=True)
class LangChainCall:
    """What LangChain knows about one call, for a ``meta`` function.

    Attributes:
        call_id: the model's ``tool_call_id`` (``None`` when the tool was invoked
            with plain arguments rather than a ``ToolCall``).
        config: the ``RunnableConfig`` of the run (callbacks, tags, metadata, ...).
        runtime: the LangGraph ``ToolRuntime`` of the call (``state``,
            ``context``, ``store``, ``stream_writer``, ``tool_call_id``,
            ``config``) when LangGraph's ``ToolNode`` runs the tool (as
            ``langchain.agents.create_agent`` does), else ``None``.
    """

    call_id: str | None
    config: RunnableConfig
    runtime: Any = None


class LangChainToolError(StandardToolError, RuntimeError):
    """A LangChain tool (run through ``from_langchain``) answered its call with an error.

    The message is the tool's error text, bounded.
    """


class _OpenInput(BaseModel):
    """Any arguments: what ``get_input_schema`` gives (the standard tool validates)."""

    model_config = ConfigDict(extra="allow")


class _RuntimeInput(_OpenInput):
    """Any arguments, and a hidden ``runtime`` for LangGraph's ``ToolNode`` to fill."""

    # ToolNode injects a ToolRuntime into an argument named "runtime"; InjectedToolArg
    # keeps it out of what the model is shown and strips a value the model forges.
    runtime: Annotated[Any, InjectedToolArg] = None


class StandardLangChainTool(BaseTool):
    """A LangChain tool that runs a standard tool; build one with ``to_langchain``.

    ``args_schema`` is the standard tool's JSON Schema as a dict, so LangChain
    passes the model's arguments through untouched and the standard tool
    validates them. The tool answers in ``content_and_artifact`` form: the
    content is the text a model reads (``text_result``), the artifact the
    tool's validated output, or the call's ``ToolResult`` when that output is
    ``None`` (LangChain reads a ``None`` artifact as none at all). A failure
    (invalid input, an exception in the tool) becomes a ``ToolMessage`` with
    ``status="error"`` whose content is ``"Error: ..."``, naming the failing
    path for invalid input.
    """

    response_format: Literal["content", "content_and_artifact"] = "content_and_artifact"
    handle_tool_error: bool | str | Callable[[ToolException], Any] | None = True

    _standard: AnyTool = PrivateAttr()
    _strict: bool = PrivateAttr(default=False)
    _meta: Callable[[LangChainCall], Any] | None = PrivateAttr(default=None)
    _kit: Toolkit = PrivateAttr()
    _takes_runtime: bool = PrivateAttr(default=True)

    @property
    def standard_tool(self) -> AnyTool:
        """The standard tool this LangChain tool runs."""
        return self._standard

    @property
    def strict(self) -> bool:
        """Whether ``args_schema`` is the OpenAI strict rewrite (decoded back before each run)."""
        return self._strict

    def get_input_schema(self, config: RunnableConfig | None = None) -> type[BaseModel]:
        """Return an open Pydantic model of the input (any arguments), for introspection.

        The arguments' schema is ``args_schema`` (what the model is shown); the
        standard tool validates them. LangChain's default for a dict schema is a
        model that refuses a call with no arguments, so a no-input tool failed.
        Unless the tool has an argument of its own named ``runtime``, the model
        has a hidden ``runtime`` field, which LangGraph's ``ToolNode`` reads to
        inject its ``ToolRuntime`` (see ``LangChainCall.runtime``).
        """
        return _RuntimeInput if self._takes_runtime else _OpenInput

    def run(self, tool_input: str | dict[str, Any], *args: Any, **kwargs: Any) -> Any:
        """Run the tool as ``BaseTool.run`` does, keeping the call id for ``meta``."""
        # LangChain does not hand the call id to ``_run`` for a JSON Schema tool.
        token = _CALL_ID.set(kwargs.get("tool_call_id"))
        try:
            return super().run(tool_input, *args, **kwargs)
        finally:
            _CALL_ID.reset(token)

    async def arun(self, tool_input: str | dict[str, Any], *args: Any, **kwargs: Any) -> Any:
        """Run the tool as ``BaseTool.arun`` does, keeping the call id for ``meta``."""
        token = _CALL_ID.set(kwargs.get("tool_call_id"))
        try:
            return await super().arun(tool_input, *args, **kwargs)
        finally:
            _CALL_ID.reset(token)

    # ``self`` is positional-only so a model argument named "self" is just an argument.
    def _run(self, /, **arguments: Any) -> tuple[Any, Any]:
        # Without a running loop here (LangChain's sync path) the call gets its own.
        return self._answer(run_blocking(self._call(arguments)))

    async def _arun(self, /, **arguments: Any) -> tuple[Any, Any]:
        run = self._call(arguments)
        if self._kit.is_async(self._standard.name):
            results = await run
        else:
            # A sync tool runs in a worker thread, as LangChain runs its own sync tools.
            results = await asyncio.to_thread(asyncio.run, run)
        return self._answer(results)

    def _call(self, arguments: dict[str, Any]) -> Coroutine[Any, Any, list[ToolResult]]:
        """Run the call through the toolkit: the call context, the deadline, the progress."""
        call_id = _CALL_ID.get()
        runtime: Any = None
        if self._takes_runtime and _is_tool_runtime(arguments.get("runtime")):
            arguments = dict(arguments)
            runtime = arguments.pop("runtime")
            call_id = call_id or runtime.tool_call_id
        try:
            input, meta = self._prepare(arguments, call_id, runtime)
        except Exception as exc:
            return _refused(self._standard.name, call_id, exc)
        calls = [Call(call_id or _new_id(), self._standard.name, input, False)]
        # Under LangGraph, progress goes to the graph's "custom" stream.
        writer = None if runtime is None else runtime.stream_writer
        return run_calls(self._kit, calls, meta=meta, timeout=None, decode=None, on_progress=writer)

    def _prepare(
        self, arguments: dict[str, Any], call_id: str | None, runtime: Any
    ) -> tuple[Any, Any]:
        input = openai_strict(self._standard).decode(arguments) if self._strict else arguments
        hook = self._meta
        meta = None if hook is None else hook(LangChainCall(call_id, ensure_config(), runtime))
        return input, meta

    @staticmethod
    def _answer(results: list[ToolResult]) -> tuple[Any, Any]:
        (result,) = results
        if not result.success:
            if _is_graph_control(result.exception):
                # An interrupt() or a Command for the parent graph: LangGraph's, not a failure.
                raise cast("BaseException", result.exception)
            text = truncate_text(content(result), ERROR_MAX_CHARS)
            raise ToolException(text) from result.exception
        if _is_graph_command(result.value):
            # A LangGraph Command (state updates, a jump): ToolNode applies it as it is.
            return result.value, None
        rich = rich_output(result.value)
        if rich is not None:
            return langchain_content(rich), result.value
        # LangChain reads a None artifact as "no artifact": the call's record stands in.
        return content(result), result if result.value is None else result.value


def _read_blocks(content: object) -> ToolOutput[Any] | None:
    """Read a list of LangChain standard content blocks back as a ``ToolOutput``."""
    if not isinstance(content, list) or not content:
        return None
    blocks: list[Any] = []
    for item in cast("list[object]", content):
        if isinstance(item, str):
            blocks.append(Text(item))
            continue
        if not isinstance(item, Mapping):
            return None
        block = cast("Mapping[str, Any]", item)
        kind, data, mime = block.get("type"), block.get("base64"), block.get("mime_type")
        try:
            if kind == "text":
                blocks.append(Text(str(block["text"])))
            elif kind in ("image", "audio", "file") and isinstance(data, str) and mime:
                raw = base64.b64decode(data, validate=True)
                if kind == "image":
                    blocks.append(Image(raw, str(mime)))
                elif kind == "audio":
                    blocks.append(Audio(raw, str(mime)))
                else:
                    extras: Any = block.get("extras")
                    found: Any = None
                    if isinstance(extras, Mapping):
                        found = cast("Mapping[str, Any]", extras).get("uri")
                    uri = str(found or "file:///unnamed")
                    blocks.append(EmbeddedResource(uri, blob=raw, mime_type=str(mime)))
            else:
                return None  # a kind with no neutral form: the blocks stay as LangChain wrote them
        except (KeyError, TypeError, ValueError, binascii.Error):
            return None
    return ToolOutput(blocks)


def langchain_content(output: ToolOutput[Any], max_chars: int = OUTPUT_MAX_CHARS) -> list[Any]:
    """Write a rich result as LangChain standard content blocks (a ``ToolMessage``'s content).

    A ``Text`` is a ``text`` block; an ``Image`` an ``image`` block and an
    ``EmbeddedResource`` with bytes a ``file`` block, each with ``base64`` and
    ``mime_type``. Audio (LangChain's tools do not answer with audio blocks), a
    text resource and a resource link are their ``fallback_text``; the structured
    value follows as its JSON text.
    The ``ToolMessage``'s artifact is the ``ToolOutput`` itself. The text
    blocks share ``max_chars`` and the structured value's text is cut at it, as
    every provider's writer does.
    """
    output = bounded_output(output, max_chars)
    blocks: list[Any] = []
    for block in output.content:
        if isinstance(block, Text):
            blocks.append({"type": "text", "text": block.text})
        elif isinstance(block, Image):
            blocks.append({"type": "image", "base64": block.base64, "mime_type": block.mime_type})
        elif isinstance(block, EmbeddedResource) and block.blob is not None:
            file: dict[str, Any] = {"type": "file", "base64": block.base64}
            file["mime_type"] = block.mime_type or "application/octet-stream"
            file["extras"] = {"uri": block.uri}
            blocks.append(file)
        else:
            text = rich_text(ToolOutput([block]), "LangChain", max_chars)
            blocks.append({"type": "text", "text": text})
    if output.structured is not None:
        blocks.append({"type": "text", "text": structured_text(output.structured, max_chars)})
    return blocks


def _is_tool_runtime(value: object) -> bool:
    """Whether ``value`` is LangGraph's ``ToolRuntime`` (none exists unless LangGraph is loaded)."""
    kind = _langgraph_type("langgraph.prebuilt.tool_node", "ToolRuntime")
    return kind is not None and isinstance(value, kind)


def _langgraph_type(module: str, name: str) -> type[Any] | None:
    """Return a LangGraph class when LangGraph is loaded (the bridge never imports it)."""
    found: Any = getattr(sys.modules.get(module), name, None)
    return found if isinstance(found, type) else None


def _is_graph_control(exc: object) -> bool:
    """Whether ``exc`` is LangGraph's control flow (``GraphBubbleUp``: an interrupt, a jump)."""
    kind = _langgraph_type("langgraph.errors", "GraphBubbleUp")
    return kind is not None and isinstance(exc, kind)


def _is_graph_command(value: object) -> bool:
    """Whether ``value`` is a LangGraph ``Command``, which a tool returns to update the state."""
    kind = _langgraph_type("langgraph.types", "Command")
    return kind is not None and isinstance(value, kind)


async def _refused(name: str, call_id: str | None, exc: Exception) -> list[ToolResult]:
    return [ToolResult(name, call_id, False, error=error_text(exc), exception=exc)]


@overload
def to_langchain(
    tool: AnyTool,
    *,
    strict: bool | Literal["auto"] = False,
    meta: Callable[[LangChainCall], Any] | None = None,
) -> StandardLangChainTool: ...
@overload
def to_langchain(
    tool: Toolkit | Iterable[AnyTool],
    *,
    strict: bool | Literal["auto"] = False,
    meta: Callable[[LangChainCall], Any] | None = None,
) -> list[StandardLangChainTool]: ...
def to_langchain(
    tool: AnyTool | Toolkit | Iterable[AnyTool],
    *,
    strict: bool | Literal["auto"] = False,
    meta: Callable[[LangChainCall], Any] | None = None,
) -> StandardLangChainTool | list[StandardLangChainTool]:
    """Make a LangChain tool of any conforming tool (or a list of them from a ``Toolkit``).

    Examples:
        >>> from standard_tool import tool
        >>> @tool
        ... def add(a: int, b: int) -> int:
        ...     '''Add two integers.'''
        ...     return a + b
        >>> lc_add = to_langchain(add)
        >>> lc_add.invoke({"a": 2, "b": 3})
        '5'
        >>> lc_add.invoke({"a": 2, "b": "3"})
        "Error: input validation failed: b: expected integer, got string '3'"

    Args:
        tool: a conforming tool (sync or async), or a ``Toolkit`` or iterable of
            tools (then the result is a list, in order).
        strict: ``False`` (default) declares the tool's own JSON Schema. ``True``
            declares the OpenAI strict-mode rewrite (``openai_strict``) and
            decodes the model's arguments back before the tool runs (raises
            ``OpenAIStrictError`` if the schema cannot be represented);
            ``"auto"`` does so only when it can. Use it with a chat model bound
            with ``strict=True``.
        meta: a function from the call (``LangChainCall``: the model's call id,
            the run's config, and LangGraph's ``ToolRuntime`` when ``ToolNode``
            runs the tool) to the ``meta`` the tool receives; without it the
            tool receives ``None``. Under LangGraph, progress reports go to the
            runtime's ``stream_writer`` (the graph's ``"custom"`` stream).

    Returns:
        A ``StandardLangChainTool`` (a ``BaseTool``), sync and async: ``invoke``
        runs an async tool in a new event loop, ``ainvoke`` runs a sync tool in
        LangChain's executor.

    Raises:
        ProviderSchemaError: the tool's input is not a JSON object.
    """
    if is_one_tool(tool):
        return _to_langchain(bridge_one(tool, "LangChain"), strict, meta)
    return [_to_langchain(t, strict, meta) for t in bridge_many(tool, "LangChain")]


def _to_langchain(
    tool: AnyTool, strict: bool | Literal["auto"], meta: Callable[[LangChainCall], Any] | None
) -> StandardLangChainTool:
    schema, is_strict = _declared(tool, strict)
    lc_tool = StandardLangChainTool(
        name=tool.name, description=tool.description, args_schema=schema
    )
    lc_tool._standard = tool  # pyright: ignore[reportPrivateUsage]
    lc_tool._strict = is_strict  # pyright: ignore[reportPrivateUsage]
    lc_tool._meta = meta  # pyright: ignore[reportPrivateUsage]
    lc_tool._kit = Toolkit([tool])  # pyright: ignore[reportPrivateUsage]
    lc_tool._takes_runtime = "runtime" not in schema.get("properties", {})  # pyright: ignore[reportPrivateUsage]
    return lc_tool


def _declared(tool: AnyTool, strict: bool | Literal["auto"]) -> tuple[dict[str, Any], bool]:
    """Return the schema to declare and whether it is the strict rewrite (decoded per run)."""
    if strict is False:
        return parameters(tool), False
    function = to_openai_chat(tool, strict=strict)["function"]
    return function["parameters"], function["strict"]


def from_langchain(lc_tool: BaseTool) -> StandardToolV0[Any, Any, Any, Any]:
    """Make a standard tool of a LangChain tool, so a ``Toolkit`` can hold it.

    The input schema is LangChain's own call schema (``tool_call_schema``: the
    ``args_schema`` dict, or the JSON Schema of its Pydantic model), and the
    standard tool validates the input against it before LangChain sees it.
    The tool is async when the LangChain tool has its own async implementation
    (a ``coroutine``, or an overridden ``_arun``), else sync.

    The result is what the LangChain tool returns, and what it raises propagates.
    A tool that answers in ``content_and_artifact`` form or handles its own
    errors (``handle_tool_error``) runs as a ``ToolCall`` instead: the result is
    then its artifact (``content_and_artifact``) or the message content, and a
    call it answers with ``status="error"`` raises ``LangChainToolError`` with
    that text, bounded. ``meta``, when it is a dict, is the call's
    ``RunnableConfig``.

    Examples:
        >>> from langchain_core.tools import tool as lc_tool
        >>> @lc_tool
        ... def shout(text: str) -> str:
        ...     '''Upper-case a text.'''
        ...     return text.upper()
        >>> st = from_langchain(shout)
        >>> st.execute({"text": "hi"})
        'HI'

    Raises:
        InvalidSchemaError: the LangChain tool's schema is not a valid JSON Schema.
    """
    input_schema = tool_schema(_call_schema(lc_tool), "from_langchain", lc_tool.name)
    artifact = lc_tool.response_format == "content_and_artifact"
    # A tool that answers its own errors, or keeps an artifact, must run as a ToolCall:
    # only the ToolMessage tells its error answers apart and carries the artifact.
    as_call = artifact or bool(lc_tool.handle_tool_error) or bool(lc_tool.handle_validation_error)

    def call(input: Any, meta: Any) -> dict[str, Any]:
        config = (
            cast("RunnableConfig", dict(cast("Mapping[str, Any]", meta)))
            if isinstance(meta, Mapping)
            else None
        )
        if not as_call:
            return {"call": input, "config": config}
        return {
            "call": {"type": "tool_call", "name": lc_tool.name, "args": input, "id": _new_id()},
            "config": config,
        }

    def answer(output: Any) -> Any:
        if not isinstance(output, ToolMessage):
            rich = _read_blocks(output)
            return output if rich is None else rich
        if output.status == "error":
            text = output.content if isinstance(output.content, str) else str(output.content)
            raise LangChainToolError(truncate_text(text, ERROR_MAX_CHARS))
        if artifact:
            return output.artifact
        rich = _read_blocks(output.content)
        return output.content if rich is None else rich

    if _has_own_async(lc_tool):

        async def run_async(input: Any, meta: Any) -> Any:
            args = call(input, meta)
            return answer(await lc_tool.ainvoke(args["call"], args["config"]))

        built: Any = standard_tool(
            name=lc_tool.name,
            description=lc_tool.description,
            input_schema=input_schema,
            execute=run_async,
        )
        return cast("StandardToolV0[Any, Any, Any, Any]", built)

    def run_sync(input: Any, meta: Any) -> Any:
        args = call(input, meta)
        return answer(lc_tool.invoke(args["call"], args["config"]))

    built = standard_tool(
        name=lc_tool.name,
        description=lc_tool.description,
        input_schema=input_schema,
        execute=run_sync,
    )
    return cast("StandardToolV0[Any, Any, Any, Any]", built)


def _call_schema(lc_tool: BaseTool) -> dict[str, Any]:
    """Return the JSON Schema LangChain declares for ``lc_tool`` (its ``tool_call_schema``)."""
    call_schema: Any = lc_tool.tool_call_schema
    if isinstance(call_schema, dict):
        schema = dict(cast("dict[str, Any]", call_schema))
    elif hasattr(call_schema, "model_json_schema"):
        schema = dict(call_schema.model_json_schema())
    else:  # a pydantic.v1 model
        schema = dict(call_schema.schema())
    schema.pop("description", None)  # LangChain copies the tool description here
    return schema


def _has_own_async(lc_tool: BaseTool) -> bool:
    if isinstance(lc_tool, StandardLangChainTool):
        return is_async_callable(lc_tool.standard_tool.execute)
    if getattr(lc_tool, "coroutine", None) is not None:  # StructuredTool, Tool
        return True
    if getattr(lc_tool, "func", None) is not None:
        return False
    for klass in type(lc_tool).__mro__:
        if klass is BaseTool:
            return False
        if "_arun" in vars(klass):
            return True
    return False


def _new_id() -> str:
    return f"call_{uuid.uuid4().hex}"
