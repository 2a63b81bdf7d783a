"""The MCP conformance suite's tools (tests_integration/mcp_conformance) answer as expected.

Driven by the official SDK client, as the suite's own client drives them.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, types

from standard_tool.mcp import server

_PATH = Path(__file__).parent.parent / "tests_integration/mcp_conformance/conformance_tools.py"
_SPEC = importlib.util.spec_from_file_location("conformance_tools", _PATH)
assert _SPEC is not None
assert _SPEC.loader is not None
conformance = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(conformance)


async def _sample(context: Any, params: types.CreateMessageRequestParams) -> Any:
    assert params.max_tokens == 100
    text = types.TextContent(type="text", text="This is a test response from the client")
    return types.CreateMessageResult(role="assistant", content=text, model="test-model")


asked: list[dict[str, Any]] = []


async def _elicit(context: Any, params: Any) -> types.ElicitResult:
    asked.append(params.requested_schema)
    return types.ElicitResult(action="accept", content={"username": "testuser"})


@pytest.mark.filterwarnings("ignore::mcp.shared.exceptions.MCPDeprecationWarning")
async def test_each_scenario_tool_answers_as_the_suite_expects() -> None:
    logs: list[Any] = []
    progress: list[tuple[float, float | None]] = []

    async def on_log(params: types.LoggingMessageNotificationParams) -> None:
        logs.append((params.level, params.data))

    async def on_progress(value: float, total: float | None, message: str | None) -> None:
        progress.append((value, total))

    results: dict[str, Any] = {}
    with anyio.fail_after(60):
        async with Client(
            server(conformance.TOOLS),
            mode="legacy",
            logging_callback=on_log,
            sampling_callback=_sample,
            elicitation_callback=_elicit,
        ) as client:
            await client.set_logging_level("debug")
            for made in conformance.TOOLS:
                args = {"prompt": "Test prompt"} if made.name == "test_sampling" else {}
                if made.name == "test_elicitation":
                    args = {"message": "Please provide your information"}
                results[made.name] = await client.call_tool(
                    made.name, args, progress_callback=on_progress
                )

    def kinds(name: str) -> list[str]:
        return [block.type for block in results[name].content]

    assert kinds("test_image_content") == ["image"]
    assert results["test_image_content"].content[0].mime_type == "image/png"
    assert results["test_audio_content"].content[0].mime_type == "audio/wav"
    assert kinds("test_embedded_resource") == ["resource"]
    assert kinds("test_multiple_content_types") == ["text", "image", "resource"]
    assert results["test_error_handling"].is_error is True
    assert progress == [(0, 100), (50, 100), (100, 100)]
    assert logs == [
        ("info", "Tool execution started"),
        ("info", "Tool processing data"),
        ("info", "Tool execution completed"),
    ]
    sampled = results["test_sampling"].content[0].text
    assert sampled == "LLM response: This is a test response from the client"
    assert results["test_elicitation"].content[0].text == (
        'User response: <action: accept, content: {"username": "testuser"}>'
    )
    defaults, enums = asked[1]["properties"], asked[2]["properties"]
    assert {k: v["default"] for k, v in defaults.items()} == {
        "name": "John Doe",
        "age": 30,
        "score": 95.5,
        "status": "active",
        "verified": True,
    }
    assert enums["titledMulti"]["items"]["anyOf"][0] == {"const": "value1", "title": "First Choice"}
    assert json.loads(
        results["test_elicitation_sep1330_enums"].content[0].text.split("content=")[1]
    )
