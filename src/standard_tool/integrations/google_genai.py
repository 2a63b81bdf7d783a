"""Google Gen AI SDK: a standard tool as a function for the SDK's automatic function calling.

Layer: top (imports the core, the toolkit and the providers; never the package
root). It needs nothing of ``google-genai`` itself, only ``pydantic`` (which the SDK
depends on), imported when a function is made.

``google-genai`` runs the model's function calls itself when a request's
``tools`` hold Python functions (automatic function calling): it declares each
function from its signature, as JSON Schema, calls it with the model's arguments
and sends the return value back as ``{"result": value}``, or ``{"error": text}``
when the function raises. ``to_google_genai(tool)`` gives such a function: one
keyword parameter per property of ``to_gemini(tool, json_schema=True)``, each
annotated with that property's schema, so the SDK declares the package's own
Gemini conversion (``$ref`` inlined: a recursive schema is refused). The
function validates the arguments with the tool itself and returns the output (a
string as text, anything else as JSON data); a refused input or a raising tool
raises ``GoogleGenAIToolError`` with ``Error: ...`` naming the failing path,
which the SDK sends to the model as the call's ``error``, and the loop goes on.
Declarations without functions (``FunctionDeclaration``) are ``to_gemini``'s, run
with ``run_gemini_function_calls``.
"""

from __future__ import annotations

import inspect
import json
import keyword
from collections.abc import Callable, Iterable, Mapping
from typing import Annotated, Any, cast

from typing_extensions import overload

from standard_tool._core import StandardToolError, StandardToolV0Definition
from standard_tool._toolkit import Toolkit, ToolResult
from standard_tool.content import rich_output
from standard_tool.dialects import SchemaConversionError, inline_refs
from standard_tool.providers._convert_common import (
    PREFIX,
    ProviderSchemaError,
    is_object,
    value_text,
)
from standard_tool.providers._declare import is_one_tool
from standard_tool.providers._declare import parameters as parameters_of
from standard_tool.providers._gemini import GeminiParameters, gemini_json_parameters, to_gemini
from standard_tool.providers._runner import RUNNER_TIMEOUT, content

__all__ = ["GoogleGenAIToolError", "to_google_genai"]

AnyTool = StandardToolV0Definition[Any, Any, Any, Any]


class GoogleGenAIToolError(StandardToolError, RuntimeError):
    """A bridged call failed; the SDK sends the model this message as the call's ``error``."""


def _limit(kit: Toolkit, name: str) -> float:
    own = kit.timeout_of(name)
    return RUNNER_TIMEOUT if own is None else own


def _answer(result: ToolResult) -> Any:
    """Return what the SDK sends as ``result``: a string as text, else JSON data."""
    if not result.success:
        raise GoogleGenAIToolError(content(result)) from result.exception
    text = content(result, "Gemini automatic function calling")
    if isinstance(result.value, str) or rich_output(result.value) is not None:
        return text
    try:
        return json.loads(text)
    except ValueError:  # cut at the bound: the text says so
        return text


def _signature(
    tool: AnyTool, parameters: GeminiParameters
) -> tuple[inspect.Signature, dict[str, Any]]:
    """One keyword parameter per property, annotated with its schema.

    The SDK declares a parameter with a default as optional, writing the default
    into its schema: an optional property's default is the tool's own (``None``
    when it has none, or one of an object). Each parameter's annotation is
    deferred, as under ``from __future__ import annotations``: the SDK reads the
    resolved one (the schema) to declare the function and, without its extras
    (``object``), to convert the arguments, which therefore pass through unchanged.
    """
    from pydantic import WithJsonSchema

    try:
        schema = inline_refs(parameters.schema or {})
    except SchemaConversionError as err:
        raise ProviderSchemaError(
            f"{PREFIX}the SDK's automatic function calling declares each parameter on its "
            f"own, without $defs: {err}; declare the tool with to_gemini(..., json_schema=True) "
            f"and run the calls with run_gemini_function_calls(...) instead [tool {tool.name!r}]"
        ) from err
    required = set(cast("list[str]", schema.get("required") or []))
    properties: Mapping[str, Any] = schema.get("properties") or {}
    plain: Mapping[str, Any] = parameters_of(tool).get("properties") or {}
    params: list[inspect.Parameter] = []
    for name in properties:
        if not name.isidentifier() or keyword.iskeyword(name):
            raise ProviderSchemaError(
                f"{PREFIX}property {value_text(name, 80)} of tool {tool.name!r} cannot be a "
                "Python parameter, which the SDK's automatic function calling declares from: "
                "declare the tool with to_gemini(...) and run the calls with "
                "run_gemini_function_calls(...) instead"
            )
        default = inspect.Parameter.empty if name in required else _default(plain, name)
        params.append(
            inspect.Parameter(
                name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation="Any"
            )
        )
    hints = {name: Annotated[object, WithJsonSchema(dict(p))] for name, p in properties.items()}
    return inspect.Signature(params), hints


def _default(properties: Mapping[str, Any], name: str) -> Any:
    prop = properties.get(name)
    given = prop.get("default") if is_object(prop) else None
    return None if isinstance(given, dict) else given


def _function(tool: AnyTool) -> Callable[..., Any]:
    to_gemini(tool, json_schema=True)  # checks the name and the schema for Gemini
    parameters = gemini_json_parameters(tool)
    signature, hints = _signature(tool, parameters)
    kit = Toolkit([tool])
    name = tool.name

    if kit.is_async(name):

        async def run_async(**arguments: Any) -> Any:
            value = parameters.decode(arguments)
            return _answer(await kit.aexecute(name, value, timeout=_limit(kit, name)))

        function: Callable[..., Any] = run_async
    else:

        def run_sync(**arguments: Any) -> Any:
            value = parameters.decode(arguments)
            return _answer(kit.execute(name, value, timeout=_limit(kit, name)))

        function = run_sync
    function.__name__ = function.__qualname__ = name
    function.__doc__ = tool.description
    function.__signature__ = signature  # type: ignore[attr-defined]
    function.__annotations__ = hints
    function.__dict__["standard_tool"] = tool
    return function


@overload
def to_google_genai(tool: AnyTool) -> Callable[..., Any]: ...
@overload
def to_google_genai(tool: Toolkit | Iterable[AnyTool]) -> list[Callable[..., Any]]: ...
def to_google_genai(
    tool: AnyTool | Toolkit | Iterable[AnyTool],
) -> Callable[..., Any] | list[Callable[..., Any]]:
    """Make a function for ``google-genai``'s automatic function calling (or a list of them).

    Examples:
        >>> from standard_tool import tool
        >>> @tool
        ... def add(a: int, b: int) -> int:
        ...     '''Add two integers.'''
        ...     return a + b
        >>> genai_add = to_google_genai(add)
        >>> genai_add.__name__, genai_add(a=2, b=3)
        ('add', 5)

    Args:
        tool: a conforming tool (sync or async), or a ``Toolkit`` or iterable of
            tools (then the result is a list, in order; hand it to
            ``GenerateContentConfig(tools=...)``).

    Returns:
        A function named after the tool, with its description as docstring: a
        coroutine function for an async tool (the SDK calls those from
        ``client.aio`` only), a plain one for a sync tool (the SDK runs it in a
        worker thread from ``client.aio``). It returns the output, or raises
        ``GoogleGenAIToolError`` with ``"Error: ..."``.

    Raises:
        ProviderSchemaError: a name Gemini refuses, an input schema Gemini
            cannot express, or a property name that is not a Python identifier
            (named in the message).
        ImportError: the installed google-genai is older than 2.34 (the newest
            release for Python 3.10 is), which cannot declare these functions.
    """
    _check_sdk()
    if is_one_tool(tool):
        return _function(cast("AnyTool", tool))
    return [_function(t) for t in cast("Iterable[AnyTool]", tool)]


#: The first google-genai release that declares a function from its annotations'
#: JSON Schema, which the functions made here rely on.
FIRST_RELEASE = (2, 34)


def _check_sdk() -> None:
    import importlib.metadata
    import re

    found = importlib.metadata.version("google-genai")
    release = tuple(int(part) for part in re.findall(r"\d+", found)[:2])
    if release < FIRST_RELEASE:
        raise ImportError(
            f"{PREFIX}to_google_genai needs google-genai 2.34 or later, found {found[:40]}; "
            "on Python 3.10, whose newest google-genai is older, declare the tools with "
            "to_gemini(...) and run the calls with run_gemini_function_calls(...) instead"
        )
