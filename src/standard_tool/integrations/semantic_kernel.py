"""Semantic Kernel: a standard tool as a ``KernelFunction``, and a ``KernelFunction`` as ours.

Layer: top (imports the core, the toolkit, the schema adapters, the dialects and
the providers; never the package root). It imports ``semantic-kernel`` at the top:
only code that uses Semantic Kernel imports this module, and ``import
standard_tool`` never does.

Semantic Kernel declares a function to the model parameter by parameter: each
property of the tool's JSON Schema becomes a ``KernelParameterMetadata`` whose
``schema_data`` is that property's schema (local ``$ref`` inlined, since the
declared object has no ``$defs``), required as the tool says. The function's
``invoke`` validates the model's arguments with the tool itself, under the call
id, and answers with the text every provider runner writes (``text_result``, or
``Error: ...`` naming the failing path), so a bad call never ends the turn.
``from_semantic_kernel(function)`` goes the other way.
"""

from __future__ import annotations

import contextvars
import copy
import re
import uuid
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, cast

from pydantic import PrivateAttr
from semantic_kernel import Kernel
from semantic_kernel.filters.functions.function_invocation_context import (
    FunctionInvocationContext,
)
from semantic_kernel.functions import (
    FunctionResult,
    KernelArguments,
    KernelFunction,
    KernelFunctionMetadata,
    KernelParameterMetadata,
)
from typing_extensions import overload

from standard_tool._core import StandardToolV0, StandardToolV0Definition, standard_tool
from standard_tool._toolkit import Toolkit
from standard_tool.dialects import SchemaConversionError, inline_refs
from standard_tool.providers._convert_common import PREFIX, ProviderSchemaError, is_object
from standard_tool.providers._declare import (
    bridge_many,
    bridge_one,
    check_name,
    is_one_tool,
    parameters,
)
from standard_tool.providers._runner import RUNNER_TIMEOUT, content
from standard_tool.schemas.jsonschema import tool_schema

__all__ = [
    "SemanticKernelCall",
    "StandardKernelFunction",
    "from_semantic_kernel",
    "to_semantic_kernel",
]

AnyTool = StandardToolV0Definition[Any, Any, Any, Any]

#: Semantic Kernel's rule for function and parameter names (``utils/validation.py``).
_NAME = re.compile(r"[0-9A-Za-z_-]+")

#: Root keywords the declared object can do without: Semantic Kernel sends ``type``,
#: ``properties`` and ``required``, and refuses an argument it did not declare itself
#: (``additionalProperties``); the others are annotations.
_ROOT_KEYWORDS = frozenset(
    (
        "type",
        "properties",
        "required",
        "additionalProperties",
        "title",
        "description",
        "$schema",
        "$id",
        "$comment",
        "default",
        "examples",
    )
)

#: The call id of the call being invoked: Semantic Kernel hands it to ``invoke`` (in
#: ``metadata``), not to the function's own ``_invoke_internal``.
_CALL_ID: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "standard_tool_semantic_kernel_call_id", default=None
)


@dataclass(frozen=True, slots=True)
class SemanticKernelCall:
    """What Semantic Kernel knows about one call, for a ``meta`` function.

    Attributes:
        call_id: the model's id for this call (a fresh one when invoked directly).
        kernel: the ``Kernel`` running the function (services, plugins, filters).
        arguments: the ``KernelArguments`` of the invocation: the model's
            arguments merged over those the caller gave the chat or agent run.
    """

    call_id: str
    kernel: Kernel
    arguments: KernelArguments


def _declared(tool: AnyTool) -> tuple[list[KernelParameterMetadata], list[str]]:
    """Return the tool's properties as Semantic Kernel parameters, and their names."""
    try:
        schema = inline_refs(parameters(tool))
    except SchemaConversionError as err:
        raise ProviderSchemaError(
            f"{PREFIX}Semantic Kernel declares each parameter on its own, without $defs: {err} "
            f"[tool {tool.name!r}]"
        ) from err
    kept = sorted(set(schema) - _ROOT_KEYWORDS)
    if kept:
        raise ProviderSchemaError(
            f"{PREFIX}Semantic Kernel declares an object's properties and required list only, "
            f"so the root keyword(s) {', '.join(kept)[:200]} would not reach the model: move "
            f"the constraint into a property [tool {tool.name!r}]"
        )
    properties: Mapping[str, Any] = schema.get("properties") or {}
    required: set[str] = set(cast("list[str]", schema.get("required") or []))
    declared: list[KernelParameterMetadata] = []
    for name, given in properties.items():
        if not _NAME.fullmatch(name):
            raise ProviderSchemaError(
                f"{PREFIX}property {name[:80]!r} is not accepted by Semantic Kernel: use letters, "
                f"digits, '_' and '-' [tool {tool.name!r}]"
            )
        prop: dict[str, Any] = (
            dict(cast("Mapping[str, Any]", given))
            if is_object(given)
            else ({} if given else {"not": {}})
        )
        description = prop.get("description")
        fields = {
            "name": name,
            "description": description if isinstance(description, str) else None,
            "type": None,  # the schema is schema_data; no Python type name to infer from
            "is_required": name in required,
            "schema_data": prop,
        }
        declared.append(KernelParameterMetadata.model_validate(fields))
    return declared, list(properties)


class StandardKernelFunction(KernelFunction):
    """A ``KernelFunction`` that runs a standard tool; build one with ``to_semantic_kernel``.

    Its parameters are the tool's properties. ``invoke`` keeps the model's
    arguments for those properties, validates them with the standard tool and
    runs it (an async tool in the kernel's event loop, a sync one in a worker
    thread); the result's value is the text the model reads.
    """

    _standard: Any = PrivateAttr(default=None)
    _kit: Any = PrivateAttr(default=None)
    _names: Any = PrivateAttr(default=None)
    _meta: Any = PrivateAttr(default=None)

    @property
    def standard_tool(self) -> AnyTool:
        """The standard tool this function runs."""
        return cast("AnyTool", self._standard)

    async def invoke(
        self,
        kernel: Kernel,
        arguments: KernelArguments | None = None,
        metadata: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> FunctionResult | None:
        """Invoke the function; the model's call id comes from ``metadata`` (``"id"``)."""
        call_id = (metadata or {}).get("id")
        token = _CALL_ID.set(call_id if isinstance(call_id, str) and call_id else None)
        try:
            return await super().invoke(kernel, arguments, metadata, **kwargs)
        finally:
            _CALL_ID.reset(token)

    async def _invoke_internal(self, context: FunctionInvocationContext) -> None:
        kit: Toolkit = self._kit
        name = self.standard_tool.name
        call_id = _CALL_ID.get() or f"call_{uuid.uuid4().hex}"
        given = cast("Mapping[str, Any]", context.arguments or KernelArguments())
        names: list[str] = self._names
        value = {k: given[k] for k in names if k in given}
        hook: Callable[[SemanticKernelCall], Any] | None = self._meta
        meta = (
            None
            if hook is None
            else hook(
                SemanticKernelCall(call_id, context.kernel, context.arguments or KernelArguments())
            )
        )
        own = kit.timeout_of(name)
        result = await kit.aexecute(
            name,
            value,
            meta,
            timeout=RUNNER_TIMEOUT if own is None else own,
            call_id=call_id,
        )
        context.result = FunctionResult(
            function=self.metadata, value=content(result, "Semantic Kernel")
        )

    async def _invoke_internal_stream(self, context: FunctionInvocationContext) -> None:
        # One call, one result: the stream holds the result's text as its one item.
        await self._invoke_internal(context)


@overload
def to_semantic_kernel(
    tool: AnyTool,
    *,
    plugin_name: str | None = None,
    meta: Callable[[SemanticKernelCall], Any] | None = None,
) -> StandardKernelFunction: ...
@overload
def to_semantic_kernel(
    tool: Toolkit | Iterable[AnyTool],
    *,
    plugin_name: str | None = None,
    meta: Callable[[SemanticKernelCall], Any] | None = None,
) -> list[StandardKernelFunction]: ...
def to_semantic_kernel(
    tool: AnyTool | Toolkit | Iterable[AnyTool],
    *,
    plugin_name: str | None = None,
    meta: Callable[[SemanticKernelCall], Any] | None = None,
) -> StandardKernelFunction | list[StandardKernelFunction]:
    """Make a Semantic Kernel ``KernelFunction`` of any conforming tool (or a list of them).

    Examples:
        >>> from standard_tool import tool
        >>> @tool
        ... def add(a: int, b: int) -> int:
        ...     '''Add two integers.'''
        ...     return a + b
        >>> function = to_semantic_kernel(add)
        >>> [(p.name, p.is_required) for p in function.parameters]
        [('a', True), ('b', True)]

    Args:
        tool: a conforming tool (sync or async), or a ``Toolkit`` or iterable of
            tools (then the result is a list, in order; hand it to
            ``KernelPlugin(name=..., functions=...)`` or ``kernel.add_functions``).
        plugin_name: the plugin the function belongs to, when you add it to a
            kernel yourself (``kernel.add_plugin`` sets it otherwise).
        meta: a function from a ``SemanticKernelCall`` (the call id, the
            ``Kernel``, the invocation's ``KernelArguments``) to the ``meta`` the
            tool receives, for example ``lambda call: call.arguments["user"]``;
            without it the tool receives ``None``.

    Returns:
        A ``StandardKernelFunction`` (or a list of them). Invoked by the kernel
        (automatic function calling, an agent, ``kernel.invoke``), its result's
        value is the text a model reads: the output as ``text_result`` writes
        it, or ``"Error: ..."`` (invalid input naming the path, an exception in
        the tool).

    Raises:
        ProviderSchemaError: the tool's name or a property name is not accepted by
            Semantic Kernel, the input is not a JSON object, or it is recursive
            (Semantic Kernel cannot declare ``$defs``).
    """
    if is_one_tool(tool):
        return _to_semantic_kernel(bridge_one(tool, "Semantic Kernel"), plugin_name, meta)
    return [_to_semantic_kernel(t, plugin_name, meta) for t in bridge_many(tool, "Semantic Kernel")]


def _to_semantic_kernel(
    tool: AnyTool, plugin_name: str | None, meta: Callable[[SemanticKernelCall], Any] | None
) -> StandardKernelFunction:
    name = check_name(tool, _NAME, "Semantic Kernel", "letters, digits, '_' and '-'")
    declared, names = _declared(tool)
    metadata = KernelFunctionMetadata(
        name=name,
        plugin_name=plugin_name,
        description=tool.description,
        parameters=declared,
        is_prompt=False,
        is_asynchronous=True,
    )
    function = StandardKernelFunction(metadata=metadata)
    function._standard = tool  # pyright: ignore[reportPrivateUsage]  # the class's own state
    function._kit = Toolkit([tool])  # pyright: ignore[reportPrivateUsage]
    function._names = names  # pyright: ignore[reportPrivateUsage]
    function._meta = meta  # pyright: ignore[reportPrivateUsage]
    return function


def _schema_of(function: KernelFunction) -> dict[str, Any]:
    """Return the parameters object Semantic Kernel declares to the model for ``function``."""
    shown = [p for p in function.parameters if p.include_in_function_choices and p.name]
    return {
        "type": "object",
        "properties": {p.name: p.schema_data or {} for p in shown},
        "required": [p.name for p in shown if p.is_required],
    }


def from_semantic_kernel(function: KernelFunction) -> StandardToolV0[Any, Any, Any, Any]:
    """Make a standard tool of a Semantic Kernel ``KernelFunction``, so a ``Toolkit`` can hold it.

    The input schema is the object Semantic Kernel declares to a model for the
    function (each parameter's ``schema_data``, required as declared), and the
    standard tool validates the input against it before Semantic Kernel sees
    it. ``execute`` is async: it invokes the function with the input as its
    ``KernelArguments`` and returns the result's ``value``; what the function
    raises propagates. ``meta`` may be a ``SemanticKernelCall`` (its kernel and
    arguments are used, the input merged over them, and its call id), or a
    ``Kernel``; otherwise a new empty ``Kernel`` runs it. A function made by
    ``to_semantic_kernel`` comes back as the very tool it was made from.

    Examples:
        >>> import asyncio
        >>> from semantic_kernel.functions import KernelFunction, kernel_function
        >>> @kernel_function(description="Upper-case a text.")
        ... def shout(text: str) -> str:
        ...     return text.upper()
        >>> st = from_semantic_kernel(KernelFunction.from_method(shout))
        >>> asyncio.run(st.execute({"text": "hi"}))
        'HI'

    Raises:
        InvalidSchemaError: a parameter's schema is not a valid JSON Schema.
    """
    if isinstance(function, StandardKernelFunction) and hasattr(
        function.standard_tool, "formatted"
    ):
        return function.standard_tool

    async def run(input: Any, meta: Any) -> Any:
        metadata: dict[str, Any] = {}
        if isinstance(meta, SemanticKernelCall):
            kernel, arguments = meta.kernel, copy.copy(meta.arguments)
            metadata["id"] = meta.call_id
        else:
            kernel = meta if isinstance(meta, Kernel) else Kernel()
            arguments = KernelArguments()
        cast("dict[str, Any]", arguments).update(input or {})
        result = await function.invoke(kernel, arguments, metadata=metadata)
        return None if result is None else result.value

    built: Any = standard_tool(
        name=function.name,
        description=function.description or "",
        input_schema=tool_schema(_schema_of(function), "from_semantic_kernel", function.name),
        execute=run,
    )
    return cast("StandardToolV0[Any, Any, Any, Any]", built)
