"""standard-tool: one neutral shape for an LLM tool.

The core (``standard_tool._core``) implements the Standard Schema / Standard JSON
Schema Python binding and the Standard Tool V0 interface; everything here is
re-exported from it. Optional layers live in submodules and are never imported
by this package: ``standard_tool.schemas``, ``standard_tool.dialects``,
``standard_tool.providers``.
"""

from standard_tool._core import (
    SUPPORTED_TARGETS,
    AsyncTool,
    ErrorEnvelope,
    FailureResult,
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

__version__ = "0.1.0"

__all__ = [
    "SUPPORTED_TARGETS",
    "AsyncTool",
    "ErrorEnvelope",
    "FailureResult",
    "Issue",
    "IssueLike",
    "JSONSchemaConverter",
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
    "ToolSchema",
    "ToolSchemaProps",
    "__version__",
    "input_json_schema",
    "is_standard_json_schema",
    "is_standard_schema",
    "is_standard_tool",
    "output_json_schema",
    "run_tool",
    "run_tool_sync",
    "standard_tool",
]
