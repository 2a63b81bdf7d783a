"""Chat Completions replies for the scripted model, shared by this folder's tests.

Each framework here that has no test model of its own talks to the scripted model
of tests/fakes/server.py on 127.0.0.1 (through the streaming server of
tests_integration/strands/streaming.py, which answers plain and streamed requests).
"""

from __future__ import annotations

import json
from typing import Any

from tests.fakes.server import FakeModel

from standard_tool import tool
from standard_tool.content import Image, Text, ToolOutput


@tool
def tag_count(tags: dict[str, str], limit: int = 10) -> int:
    """Count the tags, at most ``limit``.

    Args:
        tags: the tags, name to value.
        limit: the largest count reported.
    """
    return min(len(tags), limit)


@tool
async def forecast(city: str, days: int) -> dict[str, Any]:
    """Forecast the weather.

    Args:
        city: the city.
        days: how many days ahead.
    """
    return {"city": city, "days": days, "sky": "clear"}


@tool
def explode(reason: str) -> str:
    """Fail with ``reason``.

    Args:
        reason: the error message.
    """
    raise RuntimeError(reason)


def completion(message: dict[str, Any], finish_reason: str) -> dict[str, Any]:
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1_700_000_000,
        "model": "fake-model",
        "choices": [
            {"index": 0, "finish_reason": finish_reason, "logprobs": None, "message": message}
        ],
        "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
    }


def calls(*made: tuple[str, str, Any]) -> dict[str, Any]:
    """A reply calling tools: ``(call_id, name, arguments)``, arguments as JSON text or a value."""
    tool_calls = [
        {
            "id": i,
            "type": "function",
            "function": {"name": n, "arguments": a if isinstance(a, str) else json.dumps(a)},
        }
        for i, n, a in made
    ]
    return completion(
        {"role": "assistant", "content": None, "tool_calls": tool_calls}, "tool_calls"
    )


def answer(text: str) -> dict[str, Any]:
    return completion({"role": "assistant", "content": text}, "stop")


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    return "".join(part["text"] for part in content)


def tool_messages(body: dict[str, Any]) -> dict[str, str]:
    """The tool results the framework sent back, by call id."""
    return {m["tool_call_id"]: _text(m["content"]) for m in body["messages"] if m["role"] == "tool"}


def sent_tools(body: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The tool declarations the framework sent, by name (``function`` objects)."""
    return {t["function"]["name"]: t["function"] for t in body.get("tools") or []}


def expect_turn(model: FakeModel, reply: dict[str, Any], check: Any = None) -> None:
    model.expect("/v1/chat/completions", reply, check)


@tool
def snapshot() -> ToolOutput:
    """Take a picture and describe it."""
    return ToolOutput([Text("The dashboard:"), Image(b"\x89PNG", "image/png")], {"rows": 3})


def snapshot_text(framework: str) -> str:
    """What a text-only framework's model reads from ``snapshot``."""
    return (
        f"The dashboard:\n[image/png image, 4 bytes: {framework} tool results cannot carry images]"
        '\n{"rows": 3}'
    )
