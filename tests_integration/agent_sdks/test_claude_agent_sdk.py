"""Claude Agent SDK bridge: our tools as an SDK MCP server, in Claude Code's own agent loop.

``query()`` starts the Claude Code CLI the SDK bundles, with the server from
``to_claude_agent_sdk`` among its ``mcp_servers``, pointed (``ANTHROPIC_BASE_URL``)
at the scripted Messages API of messages_server.py on 127.0.0.1. The scripted
model asks for a good call, a refused call and a failing tool in one turn, then
answers; the test checks the tools Claude Code declared and the results it sent.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from claude_agent_sdk import (
    AssistantMessage,
    ClaudeAgentOptions,
    ResultMessage,
    TextBlock,
    create_sdk_mcp_server,
    query,
)
from claude_agent_sdk import tool as sdk_tool
from tests.context_tools import whoami
from tests_integration.agent_sdks.messages_server import ScriptedClaude, serve_scripted_claude

from standard_tool import tool
from standard_tool.integrations.claude_agent_sdk import allowed_tools, to_claude_agent_sdk
from standard_tool.mcp import tools_list_entries


@tool
def tag_count(tags: dict[str, str], limit: int = 10) -> int:
    """Count the tags, at most ``limit``."""
    return min(len(tags), limit)


@tool
async def forecast(city: str, days: int) -> str:
    """Forecast the weather."""
    await asyncio.sleep(0)
    return f"clear in {city} for {days} days"


@tool
def explode(reason: str) -> str:
    """Fail with ``reason``."""
    raise RuntimeError(reason)


TOOLS = [tag_count, forecast, explode, whoami]


def _use(call_id: str, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    return {"type": "tool_use", "id": call_id, "name": f"mcp__kit__{name}", "input": arguments}


def _run(model: ScriptedClaude, home: Path, servers: Any = None, allowed: Any = None) -> list[Any]:
    options = ClaudeAgentOptions(
        mcp_servers=servers or {"kit": to_claude_agent_sdk(TOOLS, name="kit")},
        allowed_tools=allowed or allowed_tools(TOOLS, name="kit"),
        model="claude-scripted",
        max_turns=3,
        cwd=str(home),
        env={
            "ANTHROPIC_BASE_URL": model.base_url,
            "ANTHROPIC_API_KEY": "test-key",
            "HOME": str(home),
            # Offline: no update checks, telemetry or other traffic beside the model's.
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
            "DISABLE_TELEMETRY": "1",
            "DISABLE_AUTOUPDATER": "1",
            # Declare MCP tools up front rather than behind Claude Code's tool search.
            "ENABLE_TOOL_SEARCH": "false",
        },
    )

    async def main() -> list[Any]:
        return [message async for message in query(prompt="Count and forecast.", options=options)]

    return asyncio.run(main())


def _text(block: dict[str, Any]) -> str:
    content = block["content"]
    if isinstance(content, str):
        return content
    return "".join(part["text"] for part in content if part["type"] == "text")


def test_claude_code_runs_a_good_a_refused_and_a_failing_call_and_goes_on(
    tmp_path: Path,
) -> None:
    turn = [
        _use("toolu_1", "tag_count", {"tags": {"a": "1", "b": "2"}}),
        _use("toolu_2", "tag_count", {"tags": {}, "limit": "three"}),
        _use("toolu_3", "explode", {"reason": "no such luck"}),
        _use("toolu_4", "forecast", {"city": "Oslo", "days": 2}),
        _use("toolu_5", "whoami", {"sku": "A1"}),
        _use("toolu_6", "tag_count", {"tags": {}, "limit": "3"}),
    ]
    with serve_scripted_claude(turn, [{"type": "text", "text": "Two tags."}]) as model:
        messages = _run(model, tmp_path)

    declared = model.tools()
    for entry in tools_list_entries(TOOLS):
        assert declared[f"mcp__kit__{entry['name']}"]["input_schema"] == entry["inputSchema"]
    results = model.tool_results()
    assert json.loads(_text(results["toolu_1"])) == {"result": 2}
    assert results["toolu_2"]["is_error"] is True
    assert _text(results["toolu_2"]) == (
        "Error: input validation failed: limit: expected integer, got string 'three'"
    )
    assert results["toolu_3"]["is_error"] is True
    assert _text(results["toolu_3"]) == "Error: RuntimeError: no such luck"
    # Claude Code hands the model a result's structuredContent when there is one.
    assert json.loads(_text(results["toolu_4"])) == {"result": "clear in Oslo for 2 days"}
    # Claude Code turns "3" into the integer the schema asks for before the server sees it.
    assert json.loads(_text(results["toolu_6"])) == {"result": 0}
    said = json.loads(_text(results["toolu_5"]))
    assert (said["tool"], said["raw"]) == ("whoami", {"sku": "A1"})
    # The call id is the MCP request's: Claude Code's request does not carry the tool use id.
    assert said["call"]
    assert not said["call"].startswith("toolu_")
    texts = [
        block.text
        for message in messages
        if isinstance(message, AssistantMessage)
        for block in message.content
        if isinstance(block, TextBlock)
    ]
    assert texts == ["Two tags."]
    assert isinstance(messages[-1], ResultMessage)
    assert not messages[-1].is_error
    assert (len(model.requests), model.replies) == (2, [])


def test_the_readme_cell_the_sdks_own_tool_checks_the_arguments_before_its_handler(
    tmp_path: Path,
) -> None:
    """README's comparison table: Claude Code hands an SDK ``@tool`` ``"3"`` as ``3``."""
    seen: list[Any] = []

    @sdk_tool("add", "Add two integers.", {"a": int, "b": int})
    async def add(args: dict[str, Any]) -> dict[str, Any]:
        seen.append(args)
        return {"content": [{"type": "text", "text": str(args["a"] + args["b"])}]}

    server = create_sdk_mcp_server("sdk", tools=[add])
    turn = [
        {"type": "tool_use", "id": "toolu_1", "name": "mcp__sdk__add", "input": {"a": "3", "b": 4}}
    ]
    with serve_scripted_claude(turn, [{"type": "text", "text": "no"}]) as model:
        _run(model, tmp_path, {"sdk": server}, ["mcp__sdk__add"])

    assert "is_error" not in model.tool_results()["toolu_1"]
    assert seen == [{"a": 3, "b": 4}]
