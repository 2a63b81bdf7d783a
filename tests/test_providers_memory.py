"""Per-tool caches never keep a tool or a toolkit alive."""

from __future__ import annotations

import asyncio
import gc
import weakref
from typing import Any

from standard_tool import Toolkit, standard_tool
from standard_tool.providers import (
    gemini_parameters,
    mcp_tool_handlers,
    openai_strict,
    run_anthropic_tool_calls,
    run_openai_chat_tool_calls,
    to_anthropic,
    to_gemini,
    to_mcp,
    to_openai_chat,
    to_openai_responses,
)
from tests.fakes.tools import JSONSchema


def _make() -> Any:
    schema = JSONSchema(
        {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]}
    )
    return standard_tool(
        name="double", description="Double.", input_schema=schema, execute=lambda p: p["a"] * 2
    )


def _use(tools: Any) -> None:
    to_openai_chat(tools)
    to_openai_chat(tools, strict=False)
    to_openai_responses(tools)
    to_anthropic(tools)
    to_gemini(tools)
    to_mcp(tools)
    mcp_tool_handlers(tools)
    call = {"id": "c1", "type": "function", "function": {"name": "double", "arguments": '{"a": 2}'}}
    messages = asyncio.run(run_openai_chat_tool_calls({"tool_calls": [call]}, tools))
    assert messages[0]["content"] == "4"
    block = {"type": "tool_use", "id": "u1", "name": "double", "input": {"a": 3}}
    reply = asyncio.run(run_anthropic_tool_calls([block], tools))
    assert reply is not None
    assert reply["content"][0]["content"] == "6"


def test_a_converted_and_run_tool_is_collected_once_dropped() -> None:
    tool = _make()
    _use([tool])
    for convert in (to_openai_chat, to_openai_responses, to_anthropic, to_gemini, to_mcp):
        convert(tool)
    openai_strict(tool)
    gemini_parameters(tool)
    ref = weakref.ref(tool)
    del tool
    gc.collect()
    assert ref() is None


def test_a_converted_and_run_toolkit_and_its_tools_are_collected_once_dropped() -> None:
    kit = Toolkit([_make()])
    _use(kit)
    assert kit.execute("double", {"a": 5}).value == 10
    kit_ref = weakref.ref(kit)
    tool_ref = weakref.ref(kit.get("double"))
    del kit
    gc.collect()
    assert kit_ref() is None
    assert tool_ref() is None


def test_a_tool_that_cannot_be_weakly_referenced_still_converts_every_time() -> None:
    class Slotted:
        __slots__ = ()
        name = "slotted"
        title = None
        description = "A slotted tool."
        input_schema = None
        output_schema = None

        def execute(self, input: Any = None, meta: Any = None) -> str:
            return "ok"

    tool: Any = Slotted()
    first = to_openai_chat(tool)
    assert to_openai_chat(tool) == first
    assert to_gemini(tool) == to_gemini(tool)
