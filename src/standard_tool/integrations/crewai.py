"""CrewAI: a standard tool as a CrewAI ``BaseTool``, and a CrewAI tool as ours.

Layer: top (imports the core, the toolkit, the schema adapters and the providers;
never the package root). It imports ``crewai`` at the top: only code that uses
CrewAI imports this module, and ``import standard_tool`` never does.

CrewAI declares every tool to the model in OpenAI strict mode: it closes every
object and makes every property required, whatever the tool's schema says. So
``to_crewai(tool)`` gives CrewAI our own strict rewrite (``openai_strict``: every
property required, optional ones nullable, ``dict[str, T]`` sent as a list of
``{"key", "value"}`` entries), which CrewAI's pass leaves as it is; its arguments
are decoded back to the tool's own shape and validated by the tool itself. The
model reads the text every provider runner writes (``text_result``, or ``Error:
...`` naming the failing path), so a bad call never ends the agent's task.
``from_crewai(crewai_tool)`` goes the other way.
"""

from __future__ import annotations

import asyncio
import copy
import inspect
import json
import uuid
from collections.abc import Iterable
from typing import Any, ClassVar, cast

from crewai.tools import BaseTool
from crewai.tools.base_tool import Tool
from pydantic import BaseModel, ConfigDict, PrivateAttr
from typing_extensions import overload

from standard_tool._core import (
    StandardToolV0,
    StandardToolV0Definition,
    input_json_schema,
    standard_tool,
)
from standard_tool._shared import run_blocking
from standard_tool._toolkit import Toolkit
from standard_tool.providers._declare import bridge_many, bridge_one, is_one_tool
from standard_tool.providers._openai import openai_strict, to_openai_chat
from standard_tool.providers._runner import Call, content, positional_refused, run_calls
from standard_tool.schemas.jsonschema import tool_schema

__all__ = ["StandardCrewAITool", "from_crewai", "to_crewai"]

AnyTool = StandardToolV0Definition[Any, Any, Any, Any]


class _Arguments(BaseModel):
    """The ``args_schema`` of a bridged tool: it shows our schema and checks nothing.

    CrewAI validates a tool's keyword arguments with its ``args_schema`` model
    when the model has fields; this one has none (the standard tool validates),
    and its JSON Schema is the strict ``parameters`` the tool is declared with.
    """

    model_config = ConfigDict(extra="allow")

    #: The ``parameters`` to declare; each tool gets a subclass that sets it.
    parameters: ClassVar[dict[str, Any]] = {"type": "object", "properties": {}}

    @classmethod
    def model_json_schema(cls, *args: Any, **kwargs: Any) -> dict[str, Any]:
        """Return the tool's declared ``parameters`` (a fresh copy; CrewAI edits it)."""
        return copy.deepcopy(cls.parameters)


class StandardCrewAITool(BaseTool):
    """A CrewAI tool that runs a standard tool; build one with ``to_crewai``.

    ``args_schema`` shows the model the standard tool's OpenAI strict-mode
    ``parameters`` and validates nothing; the standard tool decodes and
    validates the model's arguments. Every call returns the text a model
    reads: the output as ``text_result`` writes it, or ``"Error: ..."``.
    """

    _standard: AnyTool = PrivateAttr()
    _kit: Toolkit = PrivateAttr()

    @property
    def standard_tool(self) -> AnyTool:
        """The standard tool this CrewAI tool runs."""
        return self._standard

    def _generate_description(self) -> None:
        """Shim for CrewAI before 1.14: its composite description shows the real arguments.

        Those releases rewrite ``description`` into ``Tool Name: ... Tool Arguments:
        ... Tool Description: ...``, the arguments read from ``args_schema``'s pydantic
        fields, which this tool has none of (``{}``); the model reads that text in
        every text (ReAct) step. The shim writes the strict ``parameters`` the model
        is held to there instead. Later releases keep ``description`` as written.
        """
        authored = self.description
        super()._generate_description()
        if self.description != authored:
            shown = json.dumps(self.args_schema.model_json_schema())
            self.description = (
                f"Tool Name: {self.name}\nTool Arguments: {shown}\nTool Description: {authored}"
            )

    async def _call(self, arguments: dict[str, Any]) -> str:
        tool = self._standard
        strict = openai_strict(tool)

        def decode(_tool: AnyTool, value: Any) -> Any:
            return strict.decode(value)

        kit = self._kit
        calls = [Call(f"call_{uuid.uuid4().hex}", tool.name, arguments, False)]
        run = run_calls(kit, calls, meta=None, timeout=None, decode=decode)
        if kit.is_async(tool.name):
            (result,) = await run
        else:
            # A sync tool runs in a worker thread, so an async crew's loop never blocks.
            (result,) = await asyncio.to_thread(asyncio.run, run)
        return content(result, "CrewAI")

    def _run(self, *args: Any, **kwargs: Any) -> str:
        """Run one call from CrewAI's sync path; return the text the model reads."""
        if args:
            return content(positional_refused(self.standard_tool.name, len(args)), "CrewAI")
        return run_blocking(self._call(_shim_security_context(self._standard, kwargs)))

    async def _arun(self, *args: Any, **kwargs: Any) -> str:
        """Run one call from CrewAI's async path; return the text the model reads."""
        if args:
            return content(positional_refused(self.standard_tool.name, len(args)), "CrewAI")
        return await self._call(_shim_security_context(self._standard, kwargs))


def _shim_security_context(tool: AnyTool, arguments: dict[str, Any]) -> dict[str, Any]:
    """Shim for CrewAI before 1.14: drop the ``security_context`` it adds to the arguments.

    Those releases' text (ReAct) tool loop puts a ``security_context`` of their own
    into every call's arguments, which the model never wrote and a tool's schema
    does not declare (its ``additionalProperties: false`` would refuse the call);
    later releases pass it beside the arguments. A tool that declares a property of
    that name keeps it.
    """
    if "security_context" not in arguments:
        return arguments
    declared = input_json_schema(tool).get("properties")
    if isinstance(declared, dict) and "security_context" in declared:
        return arguments
    return {k: v for k, v in arguments.items() if k != "security_context"}


def _to_crewai(tool: AnyTool) -> StandardCrewAITool:
    parameters = to_openai_chat(tool, strict=True)["function"]["parameters"]
    arguments = type(f"{tool.name}_arguments", (_Arguments,), {"parameters": parameters})
    built = StandardCrewAITool(name=tool.name, description=tool.description, args_schema=arguments)
    built._standard = tool  # pyright: ignore[reportPrivateUsage]
    built._kit = Toolkit([tool])  # pyright: ignore[reportPrivateUsage]
    return built


@overload
def to_crewai(tool: AnyTool) -> StandardCrewAITool: ...
@overload
def to_crewai(tool: Toolkit | Iterable[AnyTool]) -> list[StandardCrewAITool]: ...
def to_crewai(
    tool: AnyTool | Toolkit | Iterable[AnyTool],
) -> StandardCrewAITool | list[StandardCrewAITool]:
    """Make a CrewAI ``BaseTool`` of any conforming tool (or a list from a ``Toolkit``).

    Examples:
        >>> from standard_tool import tool
        >>> @tool
        ... def tag_count(tags: dict[str, str]) -> int:
        ...     '''Count the tags.'''
        ...     return len(tags)
        >>> crew_tool = to_crewai(tag_count)
        >>> crew_tool.args_schema.model_json_schema()["properties"]["tags"]["type"]
        'array'

    Args:
        tool: a conforming tool (sync or async), or a ``Toolkit`` or iterable of
            tools (then the result is a list, in order; hand it to
            ``Agent(tools=...)``).

    Returns:
        A ``StandardCrewAITool`` (or a list of them). Set CrewAI's own options
        (``result_as_answer``, ``max_usage_count``, ...) on it as usual.

    Raises:
        OpenAIStrictError: the input schema cannot be written in OpenAI strict
            mode, which is how CrewAI declares every tool.
        ProviderSchemaError: the name is not accepted by OpenAI or the input is
            not a JSON object.
    """
    if is_one_tool(tool):
        return _to_crewai(bridge_one(tool, "CrewAI"))
    return [_to_crewai(t) for t in bridge_many(tool, "CrewAI")]


def _is_async(crewai_tool: BaseTool) -> bool:
    """Whether the tool has an async implementation (a ``Tool`` only for an async function)."""
    if isinstance(crewai_tool, Tool):
        return inspect.iscoroutinefunction(cast("Tool[..., Any]", crewai_tool).func)
    return type(crewai_tool)._arun is not BaseTool._arun  # pyright: ignore[reportPrivateUsage]


def from_crewai(crewai_tool: BaseTool) -> StandardToolV0[Any, Any, Any, Any]:
    """Make a standard tool of a CrewAI ``BaseTool`` (``@tool`` ones too), for a ``Toolkit``.

    The input schema is the JSON Schema of the tool's ``args_schema`` model, and
    the standard tool validates the input against it before CrewAI sees it;
    CrewAI's own model then turns it into the function's arguments, as it would
    in a crew. ``execute`` is async: it awaits the tool's ``arun``, or runs its
    sync ``run`` in a worker thread when the tool has no async implementation.
    A tool made by ``to_crewai`` comes back as the very tool it was made from.

    Examples:
        >>> import asyncio
        >>> from crewai.tools import tool as crewai_tool
        >>> @crewai_tool("shout")
        ... def shout(text: str) -> str:
        ...     '''Upper-case a text.'''
        ...     return text.upper()
        >>> st = from_crewai(shout)
        >>> asyncio.run(st.execute({"text": "hi"}))
        'HI'

    Raises:
        InvalidSchemaError: the tool's schema is not a valid JSON Schema.
    """
    if isinstance(crewai_tool, StandardCrewAITool):
        original = crewai_tool.standard_tool
        if hasattr(original, "formatted"):
            return original
    schema = crewai_tool.args_schema.model_json_schema()
    has_async = _is_async(crewai_tool)

    async def run(input: Any) -> Any:
        arguments = dict(input or {})
        if has_async:
            return await crewai_tool.arun(**arguments)
        return await asyncio.to_thread(crewai_tool.run, **arguments)

    built: Any = standard_tool(
        name=crewai_tool.name,
        description=crewai_tool.description,
        input_schema=tool_schema(schema, "from_crewai", crewai_tool.name),
        execute=run,
    )
    return cast("StandardToolV0[Any, Any, Any, Any]", built)
