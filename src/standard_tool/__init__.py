"""standard-tool: one neutral shape for an LLM tool.

Layer: façade (the top of the package; nothing inside the package imports it).

This namespace re-exports the core (``standard_tool._core``: the Standard Schema /
Standard JSON Schema binding, the Standard Tool V0 interface, the builder and the
consumer helpers), function tools (``tool``, ``Param``, ``Meta``), the call context
(``ToolContext``, ``current_context``) and ``Toolkit``.
The builder exported here also accepts a Pydantic model, a msgspec ``Struct`` type
or a JSON Schema dict, wrapped by ``standard_tool.schemas`` when first needed.
The optional layers live in submodules and are never imported here:
``standard_tool.schemas``, ``standard_tool.dialects``, ``standard_tool.providers``.
Typing plumbing lives in ``standard_tool.types``.
"""

import typing as _typing

from standard_tool._context import (
    Caller,
    CallerUnavailableError,
    Elicitation,
    ProgressEvent,
    ResultEvent,
    Root,
    ToolCancelledError,
    ToolContext,
    current_context,
    stream_tool,
    use_caller,
)
from standard_tool._core import (
    FailureResult,
    Issue,
    PathSegment,
    StandardJSONSchemaV1,
    StandardSchemaV1,
    StandardToolError,
    StandardToolV0,
    StandardToolV0Definition,
    StandardToolValidationError,
    SuccessResult,
    ToolDefinitionError,
    ToolSchema,
    call_execute,
    input_json_schema,
    is_standard_json_schema,
    is_standard_schema,
    is_standard_tool,
    optional_member,
    output_json_schema,
    run_tool,
    run_tool_sync,
    with_formatted_output,
)
from standard_tool._fast import AsyncTool, FastPath, Tool

if _typing.TYPE_CHECKING:
    from standard_tool._function import AsyncFunctionTool, FunctionTool, Meta, Param, tool
    from standard_tool._toolkit import (
        DuplicateToolNameError,
        NotAToolError,
        Toolkit,
        ToolkitLoopError,
        ToolResult,
        UnknownToolError,
    )

#: Names loaded on first use (PEP 562), so ``import standard_tool`` does not pay for
#: function tools or the toolkit until a program touches them.
_LAZY = {
    "AsyncFunctionTool": "_function",
    "FunctionTool": "_function",
    "Meta": "_function",
    "Param": "_function",
    "tool": "_function",
    "DuplicateToolNameError": "_toolkit",
    "NotAToolError": "_toolkit",
    "Toolkit": "_toolkit",
    "ToolkitLoopError": "_toolkit",
    "ToolResult": "_toolkit",
    "UnknownToolError": "_toolkit",
}


def __getattr__(name: str) -> _typing.Any:
    where = _LAZY.get(name)
    if where == "_function":
        from standard_tool import _function

        value = getattr(_function, name)
    elif where == "_toolkit":
        from standard_tool import _toolkit

        value = getattr(_toolkit, name)
    else:
        raise AttributeError(f"module 'standard_tool' has no attribute {name!r}")
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


__version__ = "0.1.0"

__all__ = [
    "AsyncFunctionTool",
    "AsyncTool",
    "Caller",
    "CallerUnavailableError",
    "DuplicateToolNameError",
    "Elicitation",
    "FailureResult",
    "FastPath",
    "FunctionTool",
    "Issue",
    "Meta",
    "NotAToolError",
    "Param",
    "PathSegment",
    "ProgressEvent",
    "ResultEvent",
    "Root",
    "StandardJSONSchemaV1",
    "StandardSchemaV1",
    "StandardToolError",
    "StandardToolV0",
    "StandardToolV0Definition",
    "StandardToolValidationError",
    "SuccessResult",
    "Tool",
    "ToolCancelledError",
    "ToolContext",
    "ToolDefinitionError",
    "ToolResult",
    "ToolSchema",
    "Toolkit",
    "ToolkitLoopError",
    "UnknownToolError",
    "__version__",
    "call_execute",
    "current_context",
    "input_json_schema",
    "is_standard_json_schema",
    "is_standard_schema",
    "is_standard_tool",
    "optional_member",
    "output_json_schema",
    "run_tool",
    "run_tool_sync",
    "standard_tool",
    "stream_tool",
    "tool",
    "use_caller",
    "with_formatted_output",
]


_as_standard: _typing.Any = None  # ``schemas.as_standard_schema``, once first needed
_from_dict: _typing.Any = None  # ``schemas.jsonschema.JSONSchema``, once a dict comes


def _as_standard_schema(schema: _typing.Any) -> _typing.Any:
    # Lazy: the adapters (and their libraries) load only for a schema that needs them.
    # A dict's metaschema check waits for the tool's first call: building stays cheap.
    global _as_standard, _from_dict
    if schema.__class__ is dict:  # what ``as_standard_schema`` does with it, directly
        if _from_dict is None:
            from standard_tool.schemas.jsonschema import JSONSchema

            _from_dict = JSONSchema
        return _from_dict(schema, defer_check=True)
    if _as_standard is None:
        from standard_tool.schemas import as_standard_schema

        _as_standard = as_standard_schema
    return _as_standard(schema, defer_check=True)


if _typing.TYPE_CHECKING:
    from standard_tool._fast import standard_tool as standard_tool
else:

    def standard_tool(
        *,
        name=None,
        description=None,
        execute=None,
        input_schema=None,
        output_schema=None,
        title=None,
        timeout=None,
        metadata=None,
    ):
        """Build a Standard Tool (see ``standard_tool._core.standard_tool``)."""
        if execute is not None:  # straight to the builder: a layer less per tool
            return _build(
                execute,
                name=name,
                description=description,
                title=title,
                input_schema=input_schema,
                output_schema=output_schema,
                coerce=_as_standard_schema,
                classes=None,
                timeout=timeout,
                metadata=metadata,
            )
        return _build_tool(  # the decorator form
            name=name,
            description=description,
            execute=execute,
            input_schema=input_schema,
            output_schema=output_schema,
            title=title,
            coerce=_as_standard_schema,
            timeout=timeout,
            metadata=metadata,
        )

    # The one hook the core names: the package builds its tools with ``_fast``.
    from standard_tool._core import standard_tool as _core_builder
    from standard_tool._fast import _build  # pyright: ignore[reportPrivateUsage]
    from standard_tool._fast import build_tool as _build_tool

    standard_tool.__doc__ = _core_builder.__doc__
    standard_tool.__wrapped__ = _core_builder
    del _core_builder
