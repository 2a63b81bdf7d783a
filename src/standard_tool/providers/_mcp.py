"""MCP: the tool-name rule, the ``tools/list`` entry checker and the declaration.

Layer: providers (imports the core, the shared helpers and ``_check``; never the package
root).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping
from typing import Any

from typing_extensions import overload

from standard_tool._core import output_json_schema
from standard_tool.providers._check import Problems, SchemaProblem
from standard_tool.providers._convert_common import is_object, object_root
from standard_tool.providers._declare import (
    AnyTool,
    ManyTools,
    check_name,
    each,
    parameters,
)

__all__ = ["MCP_NAME", "MCP_NAME_RULE", "check_mcp_tool"]

#: The MCP tool-name rule (specification 2025-11-25, "Tool names", from SEP-986):
#: "Tool names SHOULD be between 1 and 128 characters in length (inclusive)" and
#: "The following SHOULD be the only allowed characters: uppercase and lowercase ASCII
#: letters (A-Z, a-z), digits (0-9), underscore (_), hyphen (-), and dot (.)".
MCP_NAME = re.compile(r"[A-Za-z0-9_.-]{1,128}")
#: ``MCP_NAME`` in words, for messages.
MCP_NAME_RULE = "1 to 128 characters from A-Z, a-z, 0-9, '_', '-' and '.'"


# --------------------------------------------------------------------------------------
# MCP
# --------------------------------------------------------------------------------------


def check_mcp_tool(payload: Mapping[str, Any]) -> list[SchemaProblem]:
    """List what an MCP client would reject in a ``tools/list`` entry.

    Checks: ``name`` of 1 to 128 characters from ``A-Z a-z 0-9 _ - .``
    (SEP-986); ``title`` and ``description`` strings when present;
    ``inputSchema`` an object schema with ``"type": "object"`` at its root;
    ``outputSchema``, when present, the same (protocol versions up to
    2025-11-25 require an object root; structured results must be objects).

    Returns:
        The problems found, empty when the entry is acceptable.
    """
    problems = Problems()
    if not is_object(payload):
        problems.add((), "is not a JSON object")
        return problems.items
    name = payload.get("name")
    if not isinstance(name, str) or not MCP_NAME.fullmatch(name):
        problems.add(
            ("name",),
            f"must be {MCP_NAME_RULE}",
        )
    for key in ("title", "description"):
        if key in payload and payload[key] is not None and not isinstance(payload[key], str):
            problems.add((key,), "must be a string")
    for key, required in (("inputSchema", True), ("outputSchema", False)):
        if key not in payload or payload[key] is None:
            if required:
                problems.add((key,), "is required")
            continue
        schema = payload[key]
        if not is_object(schema):
            problems.add((key,), "must be a JSON Schema object")
        elif schema.get("type") != "object":
            problems.add((key, "type"), 'must be "object" at the root')
    unknown = set(payload) - {
        "name",
        "title",
        "description",
        "inputSchema",
        "outputSchema",
        "annotations",
        "icons",
        "execution",
        "_meta",
    }
    for key in sorted(unknown):
        problems.add((key,), "is not a field of an MCP tool")
    return problems.items


def _mcp_output(tool: AnyTool) -> tuple[dict[str, Any] | None, bool]:
    schema = output_json_schema(tool)
    if schema is None:
        return None, False
    root = object_root(schema)
    if root is not None and root.get("type") == "object":
        root.pop("$schema", None)
        return root, False
    inner = copy.deepcopy(schema)
    wrapped: dict[str, Any] = {"type": "object"}
    for key in ("$defs", "definitions"):
        if is_object(inner.get(key)):
            wrapped[key] = inner.pop(key)
    inner.pop("$schema", None)
    wrapped["properties"] = {"result": inner}
    wrapped["required"] = ["result"]
    return wrapped, True


def mcp_output_wrapped(tool: AnyTool) -> bool:
    """Tell whether MCP sees ``tool``'s output wrapped as ``{"result": value}``.

    MCP requires an object at the root of ``outputSchema`` and of
    ``structuredContent``. A tool whose output schema is not an object is
    declared by ``to_mcp`` with ``{"result": <its schema>}``, and
    ``mcp_call_tool_result`` must wrap its values the same way.
    """
    return _mcp_output(tool)[1]


@overload
def to_mcp(tool: AnyTool, *, annotations: Mapping[str, Any] | None = None) -> dict[str, Any]: ...
@overload
def to_mcp(
    tool: ManyTools, *, annotations: Mapping[str, Any] | None = None
) -> list[dict[str, Any]]: ...
def to_mcp(
    tool: AnyTool | ManyTools, *, annotations: Mapping[str, Any] | None = None
) -> dict[str, Any] | list[dict[str, Any]]:
    """Describe ``tool`` as an MCP ``tools/list`` entry.

    Args:
        tool: any conforming tool, or a ``Toolkit`` or iterable of tools (then
            the result is a list of entries, in order).
        annotations: optional MCP tool annotations (``readOnlyHint``,
            ``destructiveHint``, ``idempotentHint``, ``openWorldHint``, ``title``).

    Returns:
        ``{"name", "title", "description", "inputSchema", "outputSchema"}``
        (``title`` and ``outputSchema`` only when the tool has them). Schemas are
        draft 2020-12. An output schema whose root is not an object is wrapped as
        ``{"result": ...}`` (see ``mcp_output_wrapped``).

    Raises:
        ProviderSchemaError: the name breaks MCP's rule (1 to 128 of
            ``A-Z a-z 0-9 _ - .``) or the input is not an object.
    """
    return each(tool, lambda t: _mcp(t, annotations))


def _mcp(tool: AnyTool, annotations: Mapping[str, Any] | None) -> dict[str, Any]:
    name = check_name(tool, MCP_NAME, "MCP", "1 to 128 of A-Z, a-z, 0-9, '_', '-' and '.'")
    out: dict[str, Any] = {"name": name}
    if tool.title is not None:
        out["title"] = tool.title
    out["description"] = tool.description
    out["inputSchema"] = parameters(tool)
    output, _ = _mcp_output(tool)
    if output is not None:
        out["outputSchema"] = output
    if annotations is not None:
        out["annotations"] = dict(annotations)
    return out
