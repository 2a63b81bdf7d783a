"""What every provider's declaration shares: one tool or many, the name check, plain parameters.

Layer: providers (imports the core, ``_convert_common`` and the toolkit; never the
package root).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any, cast

from typing_extensions import TypeAlias

from standard_tool._core import StandardToolV0Definition, input_json_schema
from standard_tool._shared import Snapshot, fresh_copy
from standard_tool._toolkit import DuplicateToolNameError, Toolkit
from standard_tool.providers._convert_common import (
    PREFIX,
    ProviderSchemaError,
    ToolCache,
    checked_json_schema,
    is_object,
    object_root,
    value_text,
)

__all__ = [
    "AnyTool",
    "ManyTools",
    "bridge_many",
    "bridge_one",
    "check_name",
    "each",
    "is_one_tool",
    "parameters",
    "plain_parameters",
]

AnyTool: TypeAlias = "StandardToolV0Definition[Any, Any, Any, Any]"
#: A ``Toolkit`` or any iterable of tools: what a converter turns into a list.
ManyTools: TypeAlias = "Toolkit | Iterable[StandardToolV0Definition[Any, Any, Any, Any]]"


def is_one_tool(tools: object) -> bool:
    return not isinstance(tools, Toolkit) and hasattr(tools, "execute") and hasattr(tools, "name")


def each(
    tools: AnyTool | ManyTools, declare: Callable[[AnyTool], dict[str, Any]]
) -> dict[str, Any] | list[dict[str, Any]]:
    """``declare(tools)`` for one tool, else a list with ``declare`` applied to each."""
    if is_one_tool(tools):
        return declare(cast("AnyTool", tools))
    return [declare(t) for t in cast("Iterable[AnyTool]", tools)]


def check_name(tool: AnyTool, pattern: re.Pattern[str], provider: str, rule: str) -> str:
    name = tool.name
    if not pattern.fullmatch(name):
        raise ProviderSchemaError(
            f"{PREFIX}tool name {value_text(name, 80)} is not accepted by {provider}: use {rule}"
        )
    return name


#: The rule every framework bridge holds a tool's name to (MCP's, quoted from its
#: specification; a framework with a stricter rule of its own checks that as well).
BRIDGE_NAME = re.compile(r"[A-Za-z0-9_.-]{1,128}")
_BRIDGE_RULE = "1 to 128 letters, digits, '_', '-' and '.'"


def bridge_one(tool: object, framework: str) -> AnyTool:
    """Return ``tool`` when the bridges accept its name; else raise ``ProviderSchemaError``."""
    one = cast("AnyTool", tool)
    name: object = getattr(one, "name", None)
    if not isinstance(name, str) or not BRIDGE_NAME.fullmatch(name):
        raise ProviderSchemaError(
            f"{PREFIX}tool name {value_text(name, 80)} is not accepted by the {framework} "
            f"bridge: use {_BRIDGE_RULE}"
        )
    return one


def bridge_many(tools: object, framework: str) -> list[AnyTool]:
    """Return the tools of a ``Toolkit`` or iterable, each name checked, none repeated.

    Raises:
        ProviderSchemaError: a name the bridges do not accept (the tool named).
        DuplicateToolNameError: two tools have the same name, which a framework
            cannot tell apart (a ``Toolkit`` refuses them too).
    """
    listed = [bridge_one(tool, framework) for tool in cast("Iterable[object]", tools)]
    seen: dict[str, int] = {}
    for tool in listed:
        seen[tool.name] = seen.get(tool.name, 0) + 1
    repeated = [
        f"{value_text(name, 80)} ({count} times)" for name, count in seen.items() if count > 1
    ]
    if repeated:
        raise DuplicateToolNameError(
            f"{PREFIX}{framework} bridge: duplicate tool names: {', '.join(repeated[:8])}; "
            "each tool needs a unique name"
        )
    return listed


_PARAMETERS: ToolCache[Snapshot[dict[str, Any]]] = ToolCache()


def parameters(tool: AnyTool) -> dict[str, Any]:
    """Return the tool's plain ``parameters`` (cached per tool; a fresh copy each time)."""
    return _PARAMETERS.get(tool, lambda: Snapshot(_parameters(tool))).get()


def _parameters(tool: AnyTool) -> dict[str, Any]:
    schema = checked_json_schema(input_json_schema(tool), tool.name)
    try:
        return plain_parameters(schema)
    except ProviderSchemaError as err:
        raise ProviderSchemaError(f"{err} [tool {tool.name!r}]") from err


def plain_parameters(schema: Mapping[str, Any]) -> dict[str, Any]:
    """Return the schema as plain (non-strict) ``parameters``: an object root, no ``$schema``."""
    root = object_root(fresh_copy(dict(schema)))
    if root is None:
        raise ProviderSchemaError(
            f"{PREFIX}the input schema must describe a JSON object at its root "
            "(give the tool an object input with named properties)"
        )
    root.pop("$schema", None)
    if "properties" not in root:
        root["properties"] = {}
    if is_object(schema.get("$defs")) and "$defs" not in root:
        root["$defs"] = fresh_copy(schema["$defs"])
    return root
