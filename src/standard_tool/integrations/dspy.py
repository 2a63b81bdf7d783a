"""DSPy: a standard tool as a ``dspy.Tool``, and a ``dspy.Tool`` as ours.

Layer: top (imports the core, the toolkit, the schema adapters and the providers;
never the package root). It imports ``dspy`` at the top: only code that uses DSPy
imports this module, and ``import standard_tool`` never does.

``to_dspy(tool)`` gives a ``dspy.Tool`` that shows the model the tool's whole JSON
Schema (DSPy's own form keeps only each property's schema and counts a property
required unless it has a default) and whose calls the tool validates itself
(DSPy's per-argument check and conversion are skipped). Every call returns the
text every provider runner writes: the output (``text_result``), or ``Error:
...`` naming the failing path, so a bad call never ends a ``dspy.ReAct`` loop.
``from_dspy(dspy_tool)`` goes the other way.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import uuid
from collections.abc import Iterable
from typing import Any, cast

import dspy  # pyright: ignore[reportMissingTypeStubs]
from pydantic import PrivateAttr
from typing_extensions import overload

from standard_tool._core import StandardToolV0, StandardToolV0Definition, standard_tool
from standard_tool._shared import fresh_copy, run_blocking
from standard_tool._toolkit import Toolkit
from standard_tool.providers._declare import bridge_many, bridge_one, is_one_tool, parameters
from standard_tool.providers._runner import Call, content, positional_refused, run_calls
from standard_tool.schemas.jsonschema import tool_schema

__all__ = ["StandardDSPyTool", "from_dspy", "to_dspy"]

AnyTool = StandardToolV0Definition[Any, Any, Any, Any]


class StandardDSPyTool(dspy.Tool):
    """A ``dspy.Tool`` that runs a standard tool; build one with ``to_dspy``.

    ``args`` holds the schema of each property, as DSPy expects; the prompt line
    (``str(tool)``) and the native function-calling form
    (``format_as_litellm_function_call``) show the whole JSON Schema. Calls are
    validated by the standard tool, not by DSPy, and answered with the text a
    model reads.
    """

    _standard: Any = PrivateAttr()
    _kit: Any = PrivateAttr()
    _parameters: Any = PrivateAttr()

    @property
    def standard_tool(self) -> AnyTool:
        """The standard tool this DSPy tool runs."""
        return cast("AnyTool", self._standard)

    def _validate_and_parse_args(self, **kwargs: Any) -> dict[str, Any]:
        """Pass the arguments on untouched: the standard tool validates them."""
        return kwargs

    def format_as_litellm_function_call(self) -> dict[str, Any]:
        """Return the tool in Chat Completions form, with the whole JSON Schema."""
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.desc,
                "parameters": self.parameters,
            },
        }

    @property
    def parameters(self) -> dict[str, Any]:
        """The tool's ``parameters``: its input JSON Schema with an object root (a copy)."""
        return fresh_copy(cast("dict[str, Any]", self._parameters))

    def __str__(self) -> str:
        desc = f", whose description is <desc>{self.desc}</desc>.".replace("\n", "  ")
        schema = json.dumps(self._parameters, ensure_ascii=False)
        return f"{self.name}{desc} It takes arguments matching the JSON Schema {schema}."

    async def _run(self, kwargs: dict[str, Any]) -> str:
        tool = self.standard_tool
        kit: Toolkit = self._kit
        calls = [Call(f"call_{uuid.uuid4().hex}", tool.name, kwargs, False)]
        run = run_calls(kit, calls, meta=None, timeout=None, decode=None)
        if kit.is_async(tool.name):
            (result,) = await run
        else:
            # A sync tool runs in a worker thread, so an async program's loop never blocks.
            (result,) = await asyncio.to_thread(asyncio.run, run)
        return content(result, "DSPy")

    def __call__(self, *args: Any, **kwargs: Any) -> str:
        """Run one call from sync code; return the text the model reads."""
        if args:
            return content(positional_refused(self.standard_tool.name, len(args)), "DSPy")
        return run_blocking(self._run(kwargs))

    async def acall(self, *args: Any, **kwargs: Any) -> str:
        """Run one call; return the text the model reads."""
        if args:
            return content(positional_refused(self.standard_tool.name, len(args)), "DSPy")
        return await self._run(kwargs)


def _to_dspy(tool: AnyTool) -> StandardDSPyTool:
    schema = parameters(tool)
    properties = cast("dict[str, Any]", schema.get("properties") or {})

    def run(**kwargs: Any) -> str:
        return built(**kwargs)

    built = StandardDSPyTool(
        func=run,
        name=tool.name,
        desc=tool.description,
        args=properties,
        arg_types=dict.fromkeys(properties, Any),
    )
    built._standard = tool  # pyright: ignore[reportPrivateUsage]
    built._kit = Toolkit([tool])  # pyright: ignore[reportPrivateUsage]
    built._parameters = schema  # pyright: ignore[reportPrivateUsage]
    return built


@overload
def to_dspy(tool: AnyTool) -> StandardDSPyTool: ...
@overload
def to_dspy(tool: Toolkit | Iterable[AnyTool]) -> list[StandardDSPyTool]: ...
def to_dspy(
    tool: AnyTool | Toolkit | Iterable[AnyTool],
) -> StandardDSPyTool | list[StandardDSPyTool]:
    """Make a ``dspy.Tool`` of any conforming tool (or a list of them from a ``Toolkit``).

    Examples:
        >>> from standard_tool import tool
        >>> @tool
        ... def add(a: int, b: int) -> int:
        ...     '''Add two integers.'''
        ...     return a + b
        >>> dspy_add = to_dspy(add)
        >>> dspy_add(a=1, b=2)
        '3'
        >>> dspy_add(a=1, b="2")
        "Error: input validation failed: b: expected integer, got string '2'"

    Args:
        tool: a conforming tool (sync or async), or a ``Toolkit`` or iterable of
            tools (then the result is a list, in order; hand it to
            ``dspy.ReAct(signature, tools=...)``).

    Returns:
        A ``StandardDSPyTool`` (or a list of them).

    Raises:
        ProviderSchemaError: the tool's input is not a JSON object.
    """
    if is_one_tool(tool):
        return _to_dspy(bridge_one(tool, "DSPy"))
    return [_to_dspy(t) for t in bridge_many(tool, "DSPy")]


def from_dspy(dspy_tool: dspy.Tool) -> StandardToolV0[Any, Any, Any, Any]:
    """Make a standard tool of a ``dspy.Tool``, so a ``Toolkit`` can hold it.

    The input schema is the one DSPy declares for the tool with native function
    calling (``format_as_litellm_function_call``: each argument's schema, those
    without a default required), and the standard tool validates the input
    against it before DSPy sees it; DSPy then converts each argument to its
    annotated type, as in a program. ``execute`` is async: it awaits an async
    function and runs a sync one in a worker thread. What the function raises
    propagates. A tool made by ``to_dspy`` comes back as the very tool it was
    made from.

    Examples:
        >>> import asyncio
        >>> import dspy
        >>> def shout(text: str) -> str:
        ...     '''Upper-case a text.'''
        ...     return text.upper()
        >>> st = from_dspy(dspy.Tool(shout))
        >>> asyncio.run(st.execute({"text": "hi"}))
        'HI'

    Raises:
        InvalidSchemaError: the tool's schema is not a valid JSON Schema.
    """
    if isinstance(dspy_tool, StandardDSPyTool):
        original = dspy_tool.standard_tool
        if hasattr(original, "formatted"):
            return original
    # DSPy has no type information: its tool is read as ``Any``.
    native: Any = dspy_tool
    declared: dict[str, Any] = native.format_as_litellm_function_call()
    schema: dict[str, Any] = declared["function"]["parameters"]
    is_async = inspect.iscoroutinefunction(native.func) or isinstance(native, StandardDSPyTool)

    async def run(input: Any) -> Any:
        arguments = dict(input or {})
        if is_async:
            return await native.acall(**arguments)
        return await asyncio.to_thread(lambda: native(**arguments))

    built: Any = standard_tool(
        name=dspy_tool.name or "tool",
        description=dspy_tool.desc or "",
        input_schema=tool_schema(schema, "from_dspy", dspy_tool.name),
        execute=run,
    )
    return cast("StandardToolV0[Any, Any, Any, Any]", built)
