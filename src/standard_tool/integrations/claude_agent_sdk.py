"""Claude Agent SDK: standard tools as an in-process SDK MCP server for Claude.

Layer: top (imports the toolkit, the providers and ``standard_tool.mcp``; never the
package root). It imports ``claude-agent-sdk`` at the top: only code that uses the
SDK imports this module, and ``import standard_tool`` never does.

The Claude Agent SDK gives Claude in-process tools through SDK MCP servers: an
``McpSdkServerConfig`` whose ``instance`` is an MCP ``Server`` the SDK serves to
Claude Code over an in-memory transport. ``to_claude_agent_sdk(tools)`` gives such
a config around the package's own MCP server (``standard_tool.mcp.server``), so
the tools keep everything MCP serving gives them: the schema listed is the schema
enforced (the SDK's own ``@tool`` validation never runs), ``isError`` results with
``Error: ...`` naming the failing path, images as MCP image content, the output
schema and ``structuredContent``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from claude_agent_sdk import McpSdkServerConfig

from standard_tool.mcp import server
from standard_tool.providers._runner import Tools, toolkit

__all__ = ["allowed_tools", "to_claude_agent_sdk"]


def to_claude_agent_sdk(
    tools: Tools,
    *,
    name: str = "tools",
    annotations: Mapping[str, Mapping[str, Any]] | None = None,
    meta: Any = None,
    timeout: float | None = None,
) -> McpSdkServerConfig:
    """Make an SDK MCP server of ``tools``, for ``ClaudeAgentOptions(mcp_servers=...)``.

    Examples:
        >>> from standard_tool import tool
        >>> @tool
        ... def add(a: int, b: int) -> int:
        ...     '''Add two integers.'''
        ...     return a + b
        >>> config = to_claude_agent_sdk([add], name="calc")
        >>> config["type"], config["name"]
        ('sdk', 'calc')
        >>> allowed_tools([add], name="calc")
        ['mcp__calc__add']

    Args:
        tools: a ``Toolkit`` or any iterable of tools (sync or async).
        name: the server's name: Claude sees each tool as ``mcp__<name>__<tool>``.
        annotations: MCP tool annotations by tool name (``readOnlyHint``...).
        meta: passed verbatim to every tool.
        timeout: seconds each call may take (else the tool's own, else 60 s).

    Returns:
        An ``McpSdkServerConfig`` (``type="sdk"``) whose ``instance`` is the
        package's MCP ``Server`` for ``tools``.

    Raises:
        ProviderSchemaError: a tool cannot be described for MCP.
        DuplicateToolNameError: two tools share a name.
    """
    kit = toolkit(tools)
    instance = server(kit, name=name, annotations=annotations, meta=meta, timeout=timeout)
    return McpSdkServerConfig(type="sdk", name=name, instance=instance)


def allowed_tools(tools: Tools, *, name: str = "tools") -> list[str]:
    """Return the names Claude Code gives ``tools`` on the server ``name``, for ``allowed_tools``.

    Claude Code names a tool of an MCP server ``mcp__<server>__<tool>``; listing
    them in ``ClaudeAgentOptions(allowed_tools=...)`` lets Claude call them without
    asking for permission.
    """
    return [f"mcp__{name}__{tool}" for tool in toolkit(tools).names]
