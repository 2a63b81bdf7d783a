"""Result formatters: outputs and errors in each API's shape, bounded."""

from __future__ import annotations

import dataclasses
import datetime
import enum
from typing import Any

import jsonschema
import mcp.types
import msgspec
import pydantic
import pytest
from anthropic.types import ToolResultBlockParam
from hypothesis import given
from hypothesis import strategies as st
from pydantic import TypeAdapter

from standard_tool import StandardToolValidationError, run_tool, run_tool_sync, standard_tool
from standard_tool.providers import (
    anthropic_tool_result,
    mcp_call_tool_result,
    mcp_result_formatter,
    openai_tool_output,
    text_result,
    to_mcp,
)
from tests.example_tools import (
    ALL_TOOLS,
    PLAIN_TOOL,
    fetch_page,
    get_weather,
    lookup_user,
    tag_resource,
)


def test_text_of_outputs() -> None:
    assert text_result("plain") == "plain"
    assert text_result({"a": [1, 2.5, None, True]}) == '{"a": [1, 2.5, null, true]}'
    assert text_result("é") == "é"
    assert openai_tool_output(3) == "3"


class Model(pydantic.BaseModel):
    when: datetime.date
    n: int


@dataclasses.dataclass
class Point:
    x: int
    y: int


class Shade(enum.Enum):
    DARK = "dark"


class Struct(msgspec.Struct):
    a: int


def test_text_of_rich_outputs_is_json() -> None:
    assert (
        text_result(Model(when=datetime.date(2024, 1, 2), n=1)) == '{"when": "2024-01-02", "n": 1}'
    )
    assert text_result(Point(1, 2)) == '{"x": 1, "y": 2}'
    assert text_result([Shade.DARK, (1, 2)]) == '["dark", [1, 2]]'
    assert text_result(Struct(a=1)) == '{"a": 1}'
    assert text_result(float("nan")) == '"nan"'
    assert text_result({1: datetime.time(1, 2)}) == '{"1": "01:02:00"}'


def test_text_of_errors_is_short_and_names_the_path() -> None:
    try:
        run_tool_sync(lookup_user, {"username": "x" * 100_000})
    except StandardToolValidationError as err:
        text = text_result(err)
    assert text.startswith("Error: input validation failed: username: ")
    assert len(text) <= 2000
    assert text_result(KeyError("city")) == "Error: KeyError: 'city'"
    assert text_result(RuntimeError()) == "Error: RuntimeError"


def test_huge_values_are_truncated_with_a_marker() -> None:
    big = "y" * 300_000
    text = text_result(big)
    assert len(text) == 100_000
    assert text.endswith("... [truncated 200033 characters]")
    error = text_result(ValueError(big))
    assert len(error) == 2000
    assert error.endswith(" characters]")
    assert "... [truncated " in error
    assert len(text_result(big, max_chars=50)) == 50


def test_deeply_nested_outputs_do_not_crash() -> None:
    value: Any = 1
    for _ in range(500):
        value = [value]
    assert text_result(value).count("[") <= 70


def test_anthropic_block_validates_with_the_sdk_type() -> None:
    ok = anthropic_tool_result({"a": 1}, tool_use_id="toolu_1")
    TypeAdapter(ToolResultBlockParam).validate_python(ok, strict=True)
    assert ok == {
        "type": "tool_result",
        "tool_use_id": "toolu_1",
        "content": [{"type": "text", "text": '{"a": 1}'}],
        "is_error": False,
    }
    failed = anthropic_tool_result(ValueError("boom"), tool_use_id="toolu_2")
    TypeAdapter(ToolResultBlockParam).validate_python(failed, strict=True)
    assert failed["is_error"] is True
    assert failed["content"] == [{"type": "text", "text": "Error: ValueError: boom"}]


def test_anthropic_block_as_a_formatter_leaves_the_id_to_the_caller() -> None:
    block = get_weather.formatted(anthropic_tool_result).execute({"city": "Oslo"})
    assert "tool_use_id" not in block
    TypeAdapter(ToolResultBlockParam).validate_python({**block, "tool_use_id": "t"}, strict=True)


def test_mcp_result_of_an_object_output_is_structured_as_is() -> None:
    result = mcp_call_tool_result({"a": 1})
    assert result == {
        "content": [{"type": "text", "text": '{"a": 1}'}],
        "structuredContent": {"a": 1},
        "isError": False,
    }
    assert mcp.types.CallToolResult.model_validate(result).structured_content == {"a": 1}


def test_mcp_result_wraps_non_object_outputs() -> None:
    result = mcp_call_tool_result([1, 2])
    assert result["structuredContent"] == {"result": [1, 2]}
    assert mcp_call_tool_result("hi")["content"] == [{"type": "text", "text": "hi"}]
    assert mcp_call_tool_result({"a": 1}, wrap=True)["structuredContent"] == {"result": {"a": 1}}


def test_mcp_result_of_an_error() -> None:
    result = mcp_call_tool_result(ValueError("x" * 5000))
    assert result["isError"] is True
    assert "structuredContent" not in result
    assert len(result["content"][0]["text"]) == 2000
    model = mcp.types.CallToolResult.model_validate(result)
    assert model.is_error is True


def test_mcp_result_as_the_sdk_model() -> None:
    model = mcp_call_tool_result(5, as_model=True)
    assert isinstance(model, mcp.types.CallToolResult)
    assert model.structured_content == {"result": 5}


@pytest.mark.parametrize("tool", [get_weather, tag_resource, PLAIN_TOOL], ids=lambda t: t.name)
async def test_the_formatter_matches_the_declared_output_schema(tool: Any) -> None:
    declared = to_mcp(tool)["outputSchema"]
    inputs: dict[str, Any] = {
        "get_weather": {"city": "Oslo"},
        "tag_resource": {"resource_id": "r", "tags": {"k": "v"}},
        "add_numbers": {"a": 1, "b": 2},
    }
    output = await run_tool(tool, inputs[tool.name])
    result = mcp_result_formatter(tool)(output)
    mcp.types.CallToolResult.model_validate(result)
    jsonschema.validate(result["structuredContent"], declared)


async def test_the_formatter_in_formatted_reports_errors_without_raising() -> None:
    formatted = fetch_page.formatted(mcp_result_formatter(fetch_page))
    ok = await formatted.execute({"url": "abc"})
    assert ok["structuredContent"] == {"status": 200, "bytes": 3}
    failed = await formatted.execute({"url": 1})
    assert failed["isError"] is True
    assert failed["content"][0]["text"].startswith("Error: input validation failed: url: ")


def test_every_example_tool_output_formats_for_every_target() -> None:
    for tool in ALL_TOOLS:
        if tool.output_schema is None:
            continue
        formatter = mcp_result_formatter(tool)
        for outcome in (ValueError("bad"), StandardToolValidationError("input", ())):
            mcp.types.CallToolResult.model_validate(formatter(outcome))
            assert text_result(outcome).startswith("Error: ")


def test_a_tool_without_output_schema_wraps_by_value() -> None:
    tool = standard_tool(name="n", description="d", execute=lambda: 7)
    assert tool.formatted(mcp_result_formatter(tool)).execute()["structuredContent"] == {
        "result": 7
    }


class _Str(str):
    """A string the fast path of ``mcp_call_tool_result`` does not take (not exactly ``str``)."""


class _Int(int):
    """An int the fast path does not take."""


@given(
    st.one_of(
        st.text(),
        st.text(alphabet=st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF)),
        st.integers(),
        st.integers(min_value=-(10**310), max_value=10**310),
    ),
    st.sampled_from([None, True, False]),
    st.integers(min_value=0, max_value=40),
)
def test_mcp_result_of_a_string_or_int_is_the_general_paths(
    value: str | int, wrap: bool | None, max_chars: int
) -> None:
    # Strings and ints take a shorter path; it answers what the general one answers,
    # lone surrogates, text past max_chars and huge ints included.
    odd: Any = _Str(value) if isinstance(value, str) else _Int(value)
    for as_model in (False, True):
        fast = mcp_call_tool_result(value, wrap=wrap, max_chars=max_chars, as_model=as_model)
        general = mcp_call_tool_result(odd, wrap=wrap, max_chars=max_chars, as_model=as_model)
        assert fast == general
