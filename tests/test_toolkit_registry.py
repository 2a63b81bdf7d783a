"""The registry shape: names, lookups with defaults, metadata, composition, formatting."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from standard_tool import (
    ToolContext,
    ToolDefinitionError,
    Toolkit,
    ToolResult,
    current_context,
    standard_tool,
    tool,
)
from standard_tool.providers import format_result, run_openai_chat_tool_calls, to_mcp


@tool(
    title="Search the docs",
    annotations={"readOnlyHint": True, "openWorldHint": False},
    metadata={"owner": "docs-team", "version": 2},
)
def search(query: str) -> list[str]:
    """Search the documentation."""
    return [query]


@tool
def delete(path: str) -> bool:
    """Delete a page."""
    return True


def test_a_toolkit_has_a_name_and_get_takes_a_default() -> None:
    kit = Toolkit([search], name="docs")
    assert kit.name == "docs"
    assert repr(kit) == "Toolkit([search], name='docs')"
    assert kit.get("search") is search
    assert kit.get("nope", None) is None
    with pytest.raises(KeyError, match="unknown tool 'nope'"):
        kit.get("nope")
    assert Toolkit([search]).name is None


def test_tool_metadata_is_read_only_and_annotations_reach_to_mcp() -> None:
    assert search.title == "Search the docs"
    assert dict(search.metadata) == {"owner": "docs-team", "version": 2}
    with pytest.raises(TypeError):
        search.metadata["owner"] = "x"  # type: ignore[index]
    entry = to_mcp(search)
    assert entry["title"] == "Search the docs"
    assert entry["annotations"] == {"readOnlyHint": True, "openWorldHint": False}
    explicit = to_mcp(search, annotations={"openWorldHint": True, "idempotentHint": True})
    assert explicit["annotations"] == {
        "readOnlyHint": True,
        "openWorldHint": True,
        "idempotentHint": True,
    }
    assert "annotations" not in to_mcp(delete)
    assert dict(delete.annotations) == {}


@pytest.mark.parametrize(
    ("annotations", "message"),
    [
        ({"readOnlyHint": "yes"}, "'readOnlyHint' must be a bool"),
        ({"readonly": True}, "unknown key(s) 'readonly'"),
        ({"title": 3}, "'title' must be a string"),
        ([("readOnlyHint", True)], "annotations must be a mapping"),
    ],
)
def test_bad_annotations_are_refused(annotations: Any, message: str) -> None:
    with pytest.raises(ToolDefinitionError, match=message.replace("(", r"\(").replace(")", r"\)")):
        tool(annotations=annotations)(search.__wrapped__)


def test_a_handler_s_result_metadata_reaches_the_tool_result() -> None:
    @tool
    def priced(n: int, ctx: ToolContext) -> int:
        """Compute and report the cost."""
        ctx.metadata["cost"] = n * 2
        if n < 0:
            raise ValueError("negative")
        return n

    kit = Toolkit([priced])
    assert kit.execute("priced", {"n": 3}).metadata == {"cost": 6}
    assert kit.execute("priced", {"n": -1}).metadata == {"cost": -2}
    assert asyncio.run(kit.aexecute("priced", {"n": 1})).metadata == {"cost": 2}
    assert Toolkit([search]).execute("search", {"query": "q"}).metadata == {}
    assert format_result(kit.execute("priced", {"n": 3})) == "3"  # never sent to the model


def test_merge_keeps_order_and_refuses_collisions() -> None:
    a = Toolkit([search])
    b = Toolkit([delete])
    merged = Toolkit.merge(a, b, [standard_tool(name="x", description="X.", execute=lambda: 1)])
    assert merged.names == ("search", "delete", "x")
    with pytest.raises(ValueError, match="'search' \\(2 times\\)"):
        Toolkit.merge(a, Toolkit([search]))


def test_a_prefix_renames_what_the_model_sees_and_calls() -> None:
    docs = Toolkit([search], timeout=9).with_prefix("docs_")
    wiki = Toolkit([search]).with_prefix("wiki_")
    both = Toolkit.merge(docs, wiki)
    assert both.names == ("docs_search", "wiki_search")
    assert docs.timeout == 9.0
    renamed = both.get("docs_search")
    assert renamed.description == search.description
    assert renamed.input_schema is search.input_schema
    assert to_mcp(renamed)["name"] == "docs_search"
    assert to_mcp(renamed)["annotations"] == {"readOnlyHint": True, "openWorldHint": False}
    assert both.execute("wiki_search", {"query": "q"}).value == ["q"]
    assert both.execute("search", {"query": "q"}).error is not None
    assert renamed.formatted().execute({"query": 1}) == {
        "error": "input validation failed: query: expected string, got integer 1"
    }
    assert renamed.formatted().name == "docs_search"
    with pytest.raises(AttributeError, match="immutable"):
        renamed.name = "x"  # type: ignore[misc]


async def test_a_prefixed_tool_sees_its_call_in_the_context() -> None:
    @tool
    def who(ctx: ToolContext) -> str:
        """Say the call."""
        assert current_context() is ctx
        return f"{ctx.tool_name}/{ctx.call_id}"

    kit = Toolkit([who]).with_prefix("p_")
    response = {
        "choices": [
            {
                "message": {
                    "tool_calls": [
                        {
                            "id": "call_9",
                            "type": "function",
                            "function": {"name": "p_who", "arguments": "{}"},
                        }
                    ]
                }
            }
        ]
    }
    (message,) = await run_openai_chat_tool_calls(response, kit)
    assert message["content"] == "p_who/call_9"


def test_format_result_for_each_target() -> None:
    ok = ToolResult("search", "c1", True, ["a"])
    failed = ToolResult("search", "c2", False, error="query: expected string")
    assert format_result(ok) == '["a"]'
    assert format_result(failed) == "Error: query: expected string"
    assert format_result(ok, "openai-chat") == {
        "role": "tool",
        "tool_call_id": "c1",
        "content": '["a"]',
    }
    assert format_result(failed, "openai-responses") == {
        "type": "function_call_output",
        "call_id": "c2",
        "output": "Error: query: expected string",
    }
    assert format_result(failed, "anthropic")["is_error"] is True
    assert format_result(failed, "mcp")["isError"] is True
    assert format_result(ok, "mcp")["isError"] is False
    with pytest.raises(ValueError, match="unknown target 'gemini'"):
        format_result(ok, "gemini")  # type: ignore[call-overload]  # pyright: ignore[reportArgumentType, reportCallIssue]
