"""Typing plumbing: the structural types behind the public protocols.

Layer: façade (re-exports the core; imports nothing else).

Most code never names these: they describe what an object must look like to
conform (``IssueLike``, ``StandardSchemaV1Props``...) or the shape of a default
result (``ErrorEnvelope``). Annotate with them when you write an adapter or a
framework that accepts anyone's schemas and tools.
"""

from standard_tool._core import (
    SUPPORTED_TARGETS,
    ErrorEnvelope,
    IssueLike,
    JSONSchemaConverter,
    PathSegmentLike,
    StandardJSONSchemaV1Props,
    StandardResult,
    StandardSchemaV1Props,
    ToolSchemaProps,
)

__all__ = [
    "SUPPORTED_TARGETS",
    "ErrorEnvelope",
    "IssueLike",
    "JSONSchemaConverter",
    "PathSegmentLike",
    "StandardJSONSchemaV1Props",
    "StandardResult",
    "StandardSchemaV1Props",
    "ToolSchemaProps",
]
