"""standard-tool: one neutral shape for an LLM tool.

The core (``standard_tool._core``) implements the Standard Schema / Standard JSON
Schema Python binding and the Standard Tool V0 interface. This namespace
re-exports it, plus two layers that need nothing beyond ``typing-extensions``:
function tools (``tool``, ``Param``, ``Meta``) and ``Toolkit``. The optional
layers live in submodules and are never imported here: ``standard_tool.schemas``,
``standard_tool.dialects``, ``standard_tool.providers``.
"""

from standard_tool._core import (
    SUPPORTED_TARGETS,
    AsyncTool,
    ErrorEnvelope,
    FailureResult,
    FastPath,
    Issue,
    IssueLike,
    JSONSchemaConverter,
    PathSegment,
    PathSegmentLike,
    StandardJSONSchemaV1,
    StandardJSONSchemaV1Props,
    StandardResult,
    StandardSchemaV1,
    StandardSchemaV1Props,
    StandardToolV0,
    StandardToolV0Definition,
    StandardToolValidationError,
    SuccessResult,
    Tool,
    ToolSchema,
    ToolSchemaProps,
    input_json_schema,
    is_standard_json_schema,
    is_standard_schema,
    is_standard_tool,
    output_json_schema,
    run_tool,
    run_tool_sync,
    standard_tool,
)
from standard_tool._function import Meta, Param, ToolDefinitionError, tool
from standard_tool._toolkit import Toolkit, ToolResult

__version__ = "0.1.0"

__all__ = [
    "SUPPORTED_TARGETS",
    "AsyncTool",
    "ErrorEnvelope",
    "FailureResult",
    "FastPath",
    "Issue",
    "IssueLike",
    "JSONSchemaConverter",
    "Meta",
    "Param",
    "PathSegment",
    "PathSegmentLike",
    "StandardJSONSchemaV1",
    "StandardJSONSchemaV1Props",
    "StandardResult",
    "StandardSchemaV1",
    "StandardSchemaV1Props",
    "StandardToolV0",
    "StandardToolV0Definition",
    "StandardToolValidationError",
    "SuccessResult",
    "Tool",
    "ToolDefinitionError",
    "ToolResult",
    "ToolSchema",
    "ToolSchemaProps",
    "Toolkit",
    "__version__",
    "input_json_schema",
    "is_standard_json_schema",
    "is_standard_schema",
    "is_standard_tool",
    "output_json_schema",
    "run_tool",
    "run_tool_sync",
    "standard_tool",
    "tool",
]
