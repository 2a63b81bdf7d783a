"""Anthropic: the Messages API tool declaration.

Layer: providers (imports the core and the shared declaration helpers; never the
package root).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any, cast

from typing_extensions import overload

from standard_tool.providers._declare import (
    AnyTool,
    ManyTools,
    check_name,
    is_one_tool,
    parameters,
)

__all__ = ["to_anthropic"]

_ANTHROPIC_NAME = re.compile(r"[A-Za-z0-9_-]{1,128}")


@overload
def to_anthropic(
    tool: AnyTool, *, cache_control: Mapping[str, Any] | None = None
) -> dict[str, Any]: ...
@overload
def to_anthropic(
    tool: ManyTools, *, cache_control: Mapping[str, Any] | None = None
) -> list[dict[str, Any]]: ...
def to_anthropic(
    tool: AnyTool | ManyTools, *, cache_control: Mapping[str, Any] | None = None
) -> dict[str, Any] | list[dict[str, Any]]:
    """Declare ``tool`` for the Anthropic Messages API.

    Args:
        tool: any conforming tool, or a ``Toolkit`` or iterable of tools (then
            the result is a list of declarations, in order).
        cache_control: an optional prompt-caching breakpoint, for example
            ``{"type": "ephemeral"}``, set on the tool (on the last one of a list,
            so the whole list is cached). Provider options belong here, never on
            the tool.

    Returns:
        ``{"name", "description", "input_schema"}`` (plus ``cache_control``), the
        input schema being the tool's draft 2020-12 JSON Schema.

    Raises:
        ProviderSchemaError: the name is not ``[A-Za-z0-9_-]{1,128}`` or the input
            is not an object.
    """
    if is_one_tool(tool):
        return _anthropic(cast("AnyTool", tool), cache_control)
    listed = list(cast("Iterable[AnyTool]", tool))
    last = len(listed) - 1
    return [_anthropic(t, cache_control if i == last else None) for i, t in enumerate(listed)]


def _anthropic(tool: AnyTool, cache_control: Mapping[str, Any] | None) -> dict[str, Any]:
    name = check_name(tool, _ANTHROPIC_NAME, "Anthropic", "1 to 128 of A-Z, a-z, 0-9, '_' and '-'")
    out: dict[str, Any] = {"name": name}
    if tool.description:
        out["description"] = tool.description
    out["input_schema"] = parameters(tool)
    if cache_control is not None:
        out["cache_control"] = dict(cache_control)
    return out
