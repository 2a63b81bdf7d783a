"""MCP: the tool-name rule, the ``tools/list`` entry checker.

Layer: providers (imports the core, the shared helpers and ``_check``; never the package
root).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from standard_tool.providers._check import Problems, SchemaProblem
from standard_tool.providers._convert_common import is_object

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
