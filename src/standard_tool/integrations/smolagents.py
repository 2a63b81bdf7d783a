"""smolagents: a standard tool as a smolagents ``Tool``, and a smolagents ``Tool`` as ours.

Layer: top (imports the core, the toolkit, the schema adapters, the dialects and
the providers; never the package root). It imports ``smolagents`` at the top: only
code that uses smolagents imports this module, and ``import standard_tool`` never
does.

smolagents describes a tool's input as ``inputs``: one entry per argument, with a
``type`` (a JSON type name, or a list of them) and a ``description``; an argument
the model may leave out is marked ``nullable``. Every other keyword of an entry
reaches the model as it is, so ``to_smolagents(tool)`` declares each property of
the tool's JSON Schema (local ``$ref`` inlined) with its ``type`` spelled out and
``nullable`` for an optional one. ``forward`` validates the arguments with the tool
itself. In a ``ToolCallingAgent``'s step a refused input or a raising tool comes
back as that call's own observation, ``Error: ...`` naming the failing path, beside
the results of the step's other calls; called directly (or from a ``CodeAgent``'s
code) it raises ``SmolagentsToolError`` with the same text. ``from_smolagents(tool)``
goes the other way.
"""

from __future__ import annotations

import asyncio
import copy
import keyword
from collections.abc import Iterable, Mapping
from typing import Any, cast

# smolagents ships no type information: its names are Any to the type checkers.
from smolagents import Tool  # pyright: ignore[reportMissingTypeStubs]
from smolagents.models import (  # pyright: ignore[reportMissingTypeStubs]
    get_tool_json_schema,  # pyright: ignore[reportUnknownVariableType]
)
from typing_extensions import overload

from standard_tool._core import (
    StandardToolError,
    StandardToolV0,
    StandardToolV0Definition,
    standard_tool,
)
from standard_tool._shared import run_blocking
from standard_tool._toolkit import Toolkit
from standard_tool.dialects import SchemaConversionError, inline_refs
from standard_tool.providers._convert_common import (
    PREFIX,
    ProviderSchemaError,
    is_array,
    is_object,
)
from standard_tool.providers._declare import bridge_many, bridge_one, is_one_tool, parameters
from standard_tool.providers._runner import RUNNER_TIMEOUT, content
from standard_tool.schemas import InvalidSchemaError
from standard_tool.schemas.jsonschema import from_json_schema

__all__ = ["SmolagentsToolError", "StandardSmolagentsTool", "from_smolagents", "to_smolagents"]

AnyTool = StandardToolV0Definition[Any, Any, Any, Any]

#: The JSON types smolagents accepts in an input's ``type`` (``tools.AUTHORIZED_TYPES``).
_JSON_TYPES = ("string", "boolean", "integer", "number", "array", "object", "null")


class SmolagentsToolError(StandardToolError, RuntimeError):
    """A bridged call failed, called directly or from a ``CodeAgent``'s code.

    In a ``ToolCallingAgent``'s step the same text is that call's observation instead.
    """


def _types(schema: Mapping[str, Any]) -> list[str] | None:
    """Return the JSON types a property schema admits, or ``None`` when it does not say."""
    given = schema.get("type")
    if isinstance(given, str):
        return [given]
    if is_array(given):
        return [t for t in given if isinstance(t, str)]
    if "const" in schema or "enum" in schema:
        values = [schema["const"]] if "const" in schema else list(schema["enum"])
        return sorted({_type_of(v) for v in values})
    for key in ("anyOf", "oneOf"):
        members = schema.get(key)
        if is_array(members):
            found: list[str] = []
            for member in members:
                kinds = _types(member) if is_object(member) else None
                if kinds is None:
                    return None
                found += [k for k in kinds if k not in found]
            return found
    return None


def _type_of(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


def _inputs(tool: AnyTool) -> dict[str, dict[str, Any]]:
    """Return the tool's properties as smolagents ``inputs``."""
    try:
        schema = inline_refs(parameters(tool))
    except SchemaConversionError as err:
        raise ProviderSchemaError(
            f"{PREFIX}smolagents declares each input on its own, without $defs: {err} "
            f"[tool {tool.name!r}]"
        ) from err
    required = set(cast("list[str]", schema.get("required") or []))
    inputs: dict[str, dict[str, Any]] = {}
    properties: Mapping[str, Any] = schema.get("properties") or {}
    for name, given in properties.items():
        prop: dict[str, Any] = (
            dict(cast("Mapping[str, Any]", given))
            if is_object(given)
            else ({} if given else {"not": {}})
        )
        kinds = _types(prop)
        # smolagents reads a member's "type" for each anyOf member: only typed members pass.
        if "anyOf" in prop and _types({"anyOf": prop["anyOf"]}) is None:
            kinds = None
            prop.pop("anyOf")
        entry = {**prop, "type": kinds or list(_JSON_TYPES), "description": ""}
        entry["description"] = prop.get("description") or ""
        if len(entry["type"]) == 1:
            entry["type"] = entry["type"][0]
        if name not in required:
            entry["nullable"] = True
        inputs[name] = entry
    return inputs


def _drop_nulls(
    arguments: dict[str, Any], inputs: Mapping[str, Any], required: set[str]
) -> dict[str, Any]:
    """Leave out an optional argument the model sent as null when its schema refuses null.

    smolagents marks an optional argument ``nullable``: for it, null means "not given".
    """
    out: dict[str, Any] = {}
    for name, value in arguments.items():
        entry = inputs.get(name)
        if value is None and name not in required and entry is not None:
            kinds = entry["type"] if isinstance(entry["type"], list) else [entry["type"]]
            if "null" not in kinds:
                continue
        out[name] = value
    return out


class StandardSmolagentsTool(Tool):
    """A smolagents ``Tool`` that runs a standard tool; build one with ``to_smolagents``.

    ``forward`` validates the arguments with the standard tool and returns the
    text a model reads; an async tool runs in an event loop of its own.
    """

    skip_forward_signature_validation = True
    output_type = "string"

    def __init__(self, tool: AnyTool) -> None:
        name = tool.name
        if not name.isidentifier() or keyword.iskeyword(name):
            raise ProviderSchemaError(
                f"{PREFIX}tool name {name[:80]!r} is not accepted by smolagents: use a Python "
                "identifier that is not a keyword"
            )
        self.name = name
        self.description = tool.description
        self.inputs = _inputs(tool)
        self._standard = tool
        self._kit = Toolkit([tool])
        self._required = set(cast("list[str]", parameters(tool).get("required") or []))
        cast("Any", super()).__init__()  # smolagents' Tool checks the inputs declared above

    def __call__(self, *args: Any, sanitize_inputs_outputs: bool = False, **kwargs: Any) -> Any:
        """Run one call as smolagents does; in an agent's tool-calling step, never raise.

        A ``ToolCallingAgent`` calls each tool of a step with
        ``sanitize_inputs_outputs=True`` and, when one raises, drops the results of
        the step's other calls. There a failed call returns its ``Error: ...`` text,
        so the model reads it as that call's observation beside the others.
        """
        call = cast("Any", super()).__call__
        try:
            return call(*args, sanitize_inputs_outputs=sanitize_inputs_outputs, **kwargs)
        except SmolagentsToolError as err:
            if not sanitize_inputs_outputs:
                raise
            return str(err)

    @property
    def standard_tool(self) -> AnyTool:
        """The standard tool this smolagents tool runs."""
        return self._standard

    def forward(self, *args: Any, **kwargs: Any) -> str:
        """Run one call: the text the model reads.

        Raises:
            SmolagentsToolError: with ``Error: ...`` naming what went wrong (in an
                agent's tool-calling step ``__call__`` returns this text instead).
        """
        if args:  # smolagents passes a one-input tool's value positionally
            (value,) = args
            kwargs = {next(iter(self.inputs)): value, **kwargs}
        name = self._standard.name
        own = self._kit.timeout_of(name)
        arguments = _drop_nulls(kwargs, self.inputs, self._required)
        timeout = RUNNER_TIMEOUT if own is None else own
        if self._kit.is_async(name):  # a loop of its own, in a thread when one runs here
            result = run_blocking(self._kit.aexecute(name, arguments, timeout=timeout))
        else:
            result = self._kit.execute(name, arguments, timeout=timeout)
        if result.success:
            return content(result, "smolagents")
        raise SmolagentsToolError(content(result)) from result.exception


@overload
def to_smolagents(tool: AnyTool) -> StandardSmolagentsTool: ...
@overload
def to_smolagents(tool: Toolkit | Iterable[AnyTool]) -> list[StandardSmolagentsTool]: ...
def to_smolagents(
    tool: AnyTool | Toolkit | Iterable[AnyTool],
) -> StandardSmolagentsTool | list[StandardSmolagentsTool]:
    """Make a smolagents ``Tool`` of any conforming tool (or a list from a ``Toolkit``).

    Examples:
        >>> from standard_tool import tool
        >>> @tool
        ... def add(a: int, b: int = 1) -> int:
        ...     '''Add two integers.'''
        ...     return a + b
        >>> smol_add = to_smolagents(add)
        >>> smol_add.inputs["b"]["nullable"]
        True
        >>> smol_add(a=2)
        '3'

    Args:
        tool: a conforming tool (sync or async), or a ``Toolkit`` or iterable of
            tools (then the result is a list, in order; hand it to
            ``ToolCallingAgent(tools=...)`` or ``CodeAgent(tools=...)``).

    Returns:
        A ``StandardSmolagentsTool`` (or a list of them).

    Raises:
        ProviderSchemaError: the tool's name is not a Python identifier, its
            input is not a JSON object, or it is recursive.
    """
    if is_one_tool(tool):
        return StandardSmolagentsTool(bridge_one(tool, "smolagents"))
    return [StandardSmolagentsTool(t) for t in bridge_many(tool, "smolagents")]


def _schema_of(native: Tool) -> dict[str, Any]:
    """Return what smolagents shows the model, with ``nullable`` spelled as JSON Schema."""
    declared = cast("Any", get_tool_json_schema(native))
    shown: dict[str, Any] = copy.deepcopy(declared["function"]["parameters"])
    properties: dict[str, Any] = shown["properties"]
    for name, prop in list(properties.items()):
        if is_object(prop) and prop.get("nullable") is True:
            entry = {k: v for k, v in prop.items() if k != "nullable"}
            kinds = entry.get("type")
            if isinstance(kinds, str) and kinds != "null":
                entry["type"] = [kinds, "null"]
            elif is_array(kinds) and "null" not in kinds:
                entry["type"] = [*kinds, "null"]
            properties[name] = entry
    return shown


def from_smolagents(native: Tool) -> StandardToolV0[Any, Any, Any, Any]:
    """Make a standard tool of a smolagents ``Tool``, so a ``Toolkit`` can hold it.

    ``native`` is any smolagents ``Tool`` (``@tool``, a ``Tool`` subclass, one from
    the Hub). The input schema is what smolagents shows the model for it, a
    ``nullable`` input accepting null, and the standard tool validates the input
    against it before smolagents sees it. ``execute`` is async: it calls the
    tool in a worker thread (smolagents tools are synchronous) and returns what
    ``forward`` returns; what the tool raises propagates. A tool made by
    ``to_smolagents`` comes back as the very tool it was made from.

    Examples:
        >>> import asyncio
        >>> from smolagents import tool
        >>> @tool
        ... def shout(text: str) -> str:
        ...     '''Upper-case a text.
        ...
        ...     Args:
        ...         text: what to shout.
        ...     '''
        ...     return text.upper()
        >>> st = from_smolagents(shout)
        >>> asyncio.run(st.execute({"text": "hi"}))
        'HI'

    Raises:
        InvalidSchemaError: the tool's inputs do not make a valid JSON Schema.
    """
    if isinstance(native, StandardSmolagentsTool) and hasattr(native.standard_tool, "formatted"):
        return native.standard_tool
    call = cast("Any", native)

    async def run(input: Any) -> Any:
        return await asyncio.to_thread(lambda: call(**(input or {})))

    name = str(call.name)
    try:
        schema = from_json_schema(_schema_of(native))
    except InvalidSchemaError as err:
        raise InvalidSchemaError(f"from_smolagents: tool {name[:80]!r}: {err}") from err
    built: Any = standard_tool(
        name=name, description=str(call.description), input_schema=schema, execute=run
    )
    return cast("StandardToolV0[Any, Any, Any, Any]", built)
