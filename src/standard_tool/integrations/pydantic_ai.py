"""Pydantic AI: a standard tool as a Pydantic AI ``Tool``, and a Pydantic AI tool as ours.

Layer: top (imports the core, the toolkit, the schema adapters and the providers;
never the package root). It imports ``pydantic-ai-slim`` at the top: only code that
uses Pydantic AI imports this module, and ``import standard_tool`` never does.

``to_pydantic_ai(tool)`` gives a ``Tool`` built with ``Tool.from_schema``: the
tool's own JSON Schema is what the model is shown, Pydantic AI validates nothing,
and the standard tool validates the arguments. Invalid input raises
``ModelRetry`` (the model is asked to correct the call, within the tool's retry
budget); an exception in the tool raises ``ToolFailed`` (the model sees the
failure and adapts, no retry). Both carry the text a ``ToolResult`` carries
(the validation message naming the path, or ``Type: message``), bounded.
``from_pydantic_ai(pa_tool)`` goes the other way.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Callable, Iterable
from typing import Any, cast

from pydantic_ai import ModelRetry, RunContext, Tool
from pydantic_ai.exceptions import ToolFailed
from pydantic_core import SchemaValidator, core_schema
from typing_extensions import overload

from standard_tool._core import (
    StandardToolV0,
    StandardToolV0Definition,
    StandardToolValidationError,
    standard_tool,
)
from standard_tool._shared import is_async_callable, truncate_text
from standard_tool._toolkit import Toolkit, ToolResult
from standard_tool.content import Audio, EmbeddedResource, Image, Text, ToolOutput, rich_output
from standard_tool.providers._declare import bridge_many, bridge_one, is_one_tool, parameters
from standard_tool.providers._openai import openai_strict, to_openai_chat
from standard_tool.providers._runner import Call, Decode, run_calls
from standard_tool.providers._text import (
    OUTPUT_MAX_CHARS,
    bounded_output,
    json_text,
    jsonable,
    rich_text,
    text_result,
)
from standard_tool.schemas.jsonschema import tool_schema

__all__ = ["from_pydantic_ai", "pydantic_ai_content", "to_pydantic_ai"]

AnyTool = StandardToolV0Definition[Any, Any, Any, Any]
_OURS = "__standard_tool_bridge__"

#: Builds the ``meta`` a standard tool receives from Pydantic AI's run context.
MetaFromContext = Callable[[RunContext[Any]], Any]


@overload
def to_pydantic_ai(
    tool: AnyTool,
    *,
    strict: bool | None = None,
    meta: MetaFromContext | None = None,
    max_retries: int | None = None,
) -> Tool[Any]: ...
@overload
def to_pydantic_ai(
    tool: Toolkit | Iterable[AnyTool],
    *,
    strict: bool | None = None,
    meta: MetaFromContext | None = None,
    max_retries: int | None = None,
) -> list[Tool[Any]]: ...
def to_pydantic_ai(
    tool: AnyTool | Toolkit | Iterable[AnyTool],
    *,
    strict: bool | None = None,
    meta: MetaFromContext | None = None,
    max_retries: int | None = None,
) -> Tool[Any] | list[Tool[Any]]:
    """Make a Pydantic AI ``Tool`` of any conforming tool (or a list of them from a ``Toolkit``).

    Examples:
        >>> from pydantic_ai import Agent
        >>> from pydantic_ai.models.test import TestModel
        >>> from standard_tool import tool
        >>> @tool
        ... def add(a: int, b: int) -> int:
        ...     '''Add two integers.'''
        ...     return a + b
        >>> import asyncio
        >>> agent = Agent(TestModel(), tools=[to_pydantic_ai(add)])
        >>> asyncio.run(agent.run("What is 0 + 0?")).output
        '{"add":"0"}'

    Args:
        tool: a conforming tool (sync or async), or a ``Toolkit`` or iterable of
            tools (then the result is a list, in order; hand it to
            ``Agent(tools=...)`` or a ``FunctionToolset``).
        strict: ``None`` (default) declares the tool's own JSON Schema and lets
            Pydantic AI decide per model whether it can be sent in strict mode
            (it does so only when the schema already qualifies). ``True``
            declares our OpenAI strict-mode rewrite (``openai_strict``) with
            ``strict=True`` and decodes the model's arguments back before the
            tool runs (raises ``OpenAIStrictError`` when the schema cannot be
            represented). ``False`` declares the tool's own schema, never strict.
        meta: a function from Pydantic AI's ``RunContext`` (deps, ``tool_call_id``,
            retry count, ...) to the ``meta`` the tool receives, for example
            ``lambda ctx: ctx.deps``; without it the tool receives ``None``.
        max_retries: how many invalid calls the model may retry (Pydantic AI's
            ``max_retries``; the agent's default when ``None``).

    Returns:
        A ``Tool`` whose function is sync for a sync tool (Pydantic AI runs it in
        a thread) and async for an async one. It returns the text a model reads
        (``text_result``): a string as is, anything else as JSON.

    Raises:
        ProviderSchemaError: the tool's input is not a JSON object.
    """
    if is_one_tool(tool):
        return _to_pydantic_ai(bridge_one(tool, "Pydantic AI"), strict, meta, max_retries)
    return [_to_pydantic_ai(t, strict, meta, max_retries) for t in bridge_many(tool, "Pydantic AI")]


def _to_pydantic_ai(
    tool: AnyTool, strict: bool | None, meta: MetaFromContext | None, max_retries: int | None
) -> Tool[Any]:
    if strict is True:
        function = to_openai_chat(tool, strict=True)["function"]
        schema: dict[str, Any] = function["parameters"]
        strict_view = openai_strict(tool)

        def strict_undo(_tool: AnyTool, value: Any) -> Any:
            return strict_view.decode(value)

        undo: Decode | None = strict_undo
    else:
        schema = parameters(tool)
        undo = None

    kit = Toolkit([tool])
    name = tool.name

    def call(ctx: RunContext[Any] | None, arguments: dict[str, Any]) -> Any:
        """Run the call through the toolkit: the call context, the deadline, the progress."""
        meta_value = None if meta is None or ctx is None else meta(ctx)
        call_id = (None if ctx is None else ctx.tool_call_id) or f"call_{uuid.uuid4().hex}"
        # Decoding runs inside run_calls, so a refused decode (a repeated map key) is an
        # answer to the model like any other bad input, not an exception in the agent.
        return run_calls(
            kit, [Call(call_id, name, arguments, False)], meta=meta_value, timeout=None, decode=undo
        )

    if is_async_callable(tool.execute):

        async def run_async(ctx: RunContext[Any] | None = None, /, **arguments: Any) -> Any:
            return _answer(await call(ctx, arguments))

        function_: Callable[..., Any] = run_async
    else:

        def run_sync(ctx: RunContext[Any] | None = None, /, **arguments: Any) -> Any:
            # Pydantic AI runs a sync function in a worker thread: no loop runs here.
            return _answer(asyncio.run(call(ctx, arguments)))

        function_ = run_sync
    # It takes the RunContext for the call id, but runs without one too (``from_pydantic_ai``).
    function_.__dict__[_OURS] = True
    # from_schema returns ``Self``, which the checkers cannot resolve through its decorator.
    built: Any = Tool.from_schema(  # pyright: ignore[reportUnknownMemberType, reportUnknownVariableType]
        function_,
        name=tool.name,
        description=tool.description,
        json_schema=schema,
        takes_ctx=True,
    )
    pa_tool = cast("Tool[Any]", built)
    # ``from_schema`` validates the arguments as any value and then calls the function
    # with ``**arguments``, so arguments that are JSON but not an object (``[1, 2]``,
    # ``"a"``) ended the run with a TypeError. A mapping validator makes them invalid
    # arguments, which Pydantic AI answers by asking the model to retry.
    pa_tool.function_schema.validator = SchemaValidator(
        core_schema.dict_schema(keys_schema=core_schema.str_schema())
    )
    pa_tool.strict = strict
    pa_tool.max_retries = max_retries
    return pa_tool


def _answer(results: list[ToolResult]) -> Any:
    (result,) = results
    if result.success:
        rich = rich_output(result.value)
        return text_result(result.value) if rich is None else pydantic_ai_content(rich)
    raise _failure(result) from result.exception


def pydantic_ai_content(output: ToolOutput[Any], max_chars: int = OUTPUT_MAX_CHARS) -> Any:
    """Write a rich result as what a Pydantic AI tool returns.

    A ``Text`` is a string; an ``Image``, an ``Audio`` and an ``EmbeddedResource``
    with bytes a ``BinaryContent`` (its ``identifier`` the resource's URI); a text
    resource and a resource link their ``fallback_text``. Without a structured
    value that list is the return; with one, a ``ToolReturn`` whose
    ``return_value`` is the structured value (as JSON data) and whose ``content``
    is the list. The texts share ``max_chars``; a structured value whose JSON
    text is longer is its JSON text, cut.
    """
    from pydantic_ai.messages import BinaryContent, ToolReturn

    output = bounded_output(output, max_chars)
    parts: list[Any] = []
    for block in output.content:
        if isinstance(block, Text):
            parts.append(block.text)
        elif isinstance(block, (Image, Audio)):
            parts.append(BinaryContent(block.data, media_type=block.mime_type))
        elif isinstance(block, EmbeddedResource) and block.blob is not None:
            media = block.mime_type or "application/octet-stream"
            parts.append(BinaryContent(block.blob, media_type=media, identifier=block.uri))
        else:
            parts.append(rich_text(ToolOutput([block]), "Pydantic AI", max_chars))
    if output.structured is None:
        return parts
    data = jsonable(output.structured, max(max_chars, 1))
    text = json_text(data)
    value = data if len(text) <= max_chars else truncate_text(text, max_chars)
    return ToolReturn(return_value=value, content=parts)


def _failure(result: ToolResult) -> ModelRetry | ToolFailed:
    """Invalid input asks the model to retry; any other failure is reported, not retried.

    The text is the one a ``ToolResult`` carries (Pydantic AI sends it as ``{"error": ...}``).
    """
    exc = result.exception
    text = result.error or "the call failed"
    if isinstance(exc, StandardToolValidationError) and exc.target == "input":
        return ModelRetry(text)
    return ToolFailed(text)


def from_pydantic_ai(pa_tool: Tool[Any]) -> StandardToolV0[Any, Any, Any, Any]:
    """Make a standard tool of a Pydantic AI ``Tool``, so a ``Toolkit`` can hold it.

    The input schema is the tool's own ``parameters_json_schema``, and the
    standard tool validates the input against it first; Pydantic AI's own
    validator then turns the JSON into the function's arguments (models,
    dates, ...), as it would in an agent run. ``execute`` is async (Pydantic AI
    runs every tool function through its async call path). A tool that takes
    a ``RunContext`` needs one as ``meta``; the tool's ``prepare`` and
    ``args_validator`` hooks belong to an agent run and are not called.

    Examples:
        >>> import asyncio
        >>> from pydantic_ai import Tool
        >>> def shout(text: str) -> str:
        ...     '''Upper-case a text.'''
        ...     return text.upper()
        >>> st = from_pydantic_ai(Tool(shout))
        >>> asyncio.run(st.execute({"text": "hi"}))
        'HI'

    Raises:
        InvalidSchemaError: the tool's schema is not a valid JSON Schema.
    """
    schema = pa_tool.function_schema

    async def run(input: Any, meta: Any) -> Any:
        ours = getattr(pa_tool.function, _OURS, False)
        if schema.takes_ctx and not ours and not isinstance(meta, RunContext):
            raise TypeError(
                f"tool {pa_tool.name!r} takes a Pydantic AI RunContext: pass one as meta"
            )
        arguments: dict[str, Any] = schema.validator.validate_python(input)
        context = cast("RunContext[Any]", meta)
        return await schema.call(arguments, context)

    built: Any = standard_tool(
        name=pa_tool.name,
        description=pa_tool.description or "",
        input_schema=tool_schema(
            pa_tool.tool_def.parameters_json_schema, "from_pydantic_ai", pa_tool.name
        ),
        execute=run,
    )
    return cast("StandardToolV0[Any, Any, Any, Any]", built)
