"""Typing plumbing: the structural types behind the public protocols.

Layer: façade (re-exports the core, and ``SUPPORTED_TARGETS`` from the dialects).

Most code never names these: they describe what an object must look like to
conform (``IssueLike``, ``StandardSchemaV1Props``...) or the shape of a default
result (``ErrorEnvelope``). Annotate with them when you write an adapter or a
framework that accepts anyone's schemas and tools.
"""

from standard_tool._core import (
    ErrorEnvelope,
    IssueLike,
    JSONSchemaConverter,
    PathSegmentLike,
    StandardJSONSchemaV1Props,
    StandardResult,
    StandardSchemaV1Props,
    ToolSchemaProps,
)
from standard_tool.dialects import SUPPORTED_TARGETS

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
