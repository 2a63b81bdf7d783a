"""Emission is cached per tool, and no caller can change what the next caller gets.

Every emitter (``input_json_schema``, the ``to_*`` declarations, the strict and
Gemini views) hands out a fresh copy of a cached payload: mutating every dict and
list of what one call returned, at any depth, leaves the next call's result equal
to the first one's.
"""

from __future__ import annotations

import collections
import copy
import enum
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from standard_tool import input_json_schema, output_json_schema
from standard_tool.providers import (
    anthropic_strict,
    gemini_json_parameters,
    gemini_parameters,
    openai_strict,
    to_anthropic,
    to_bedrock,
    to_gemini,
    to_mcp,
    to_openai_chat,
    to_openai_responses,
)
from tests.example_tools import (
    PLAIN_TOOL,
    PlainSchema,
    count_nodes,
    get_weather,
    order_dataclass,
    order_pydantic,
    order_typeddict,
    paint,
    tag_resource,
)

Emit = Callable[[Any], Any]

EMITTERS: dict[str, Emit] = {
    "input_json_schema": input_json_schema,
    "output_json_schema": output_json_schema,
    "to_openai_chat": to_openai_chat,
    "to_openai_chat strict=False": lambda t: to_openai_chat(t, strict=False),
    "to_openai_responses": to_openai_responses,
    "to_anthropic": to_anthropic,
    "to_anthropic strict": lambda t: to_anthropic(t, strict=True),
    "to_gemini": to_gemini,
    "to_gemini json_schema": lambda t: to_gemini(t, json_schema=True),
    "to_mcp": to_mcp,
    "to_mcp inline_refs=False": lambda t: to_mcp(t, inline_refs=False),
    "to_bedrock": to_bedrock,
    "openai_strict().schema": lambda t: openai_strict(t).schema,
    "anthropic_strict().schema": lambda t: anthropic_strict(t).schema,
    "gemini_parameters().schema": lambda t: gemini_parameters(t).schema,
    "gemini_json_parameters().schema": lambda t: gemini_json_parameters(t).schema,
}

TOOLS = {
    "typeddict order": order_typeddict,
    "dataclass order": order_dataclass,
    "pydantic order": order_pydantic,
    "enum": paint,
    "map": tag_resource,
    "flat": get_weather,
    "plain object": PLAIN_TOOL,
}


def _wreck(value: Any) -> None:
    """Change every dict and list inside ``value`` (the deepest first), then empty them."""
    if isinstance(value, dict):
        for item in list(value.values()):
            _wreck(item)
        value["injected"] = "by the caller"
        value.pop("type", None)
    elif isinstance(value, list):
        for item in value:
            _wreck(item)
        value.append("injected")


def _assert_not_shared(emit: Emit, tool: Any) -> None:
    first = emit(tool)
    kept = copy.deepcopy(first)
    _wreck(first)
    assert first != kept or kept is None  # the wrecking did change what the caller got
    again = emit(tool)
    assert again == kept
    assert again is not first


@pytest.mark.parametrize("emit", EMITTERS.values(), ids=EMITTERS.keys())
@pytest.mark.parametrize("tool", TOOLS.values(), ids=TOOLS.keys())
def test_mutating_what_an_emitter_returned_never_changes_the_next_result(
    emit: Emit, tool: Any
) -> None:
    if tool is PLAIN_TOOL and emit in (input_json_schema, output_json_schema):
        return  # a foreign tool's own ``json_schema`` decides what it hands out
    try:
        emit(tool)
    except ValueError:  # this provider refuses this tool (e.g. strict mode): not a copy case
        return
    _assert_not_shared(emit, tool)


@pytest.mark.parametrize("emit", [to_mcp, to_openai_chat, input_json_schema, to_bedrock])
def test_a_recursive_tool_keeps_its_defs_and_its_cache_intact(emit: Emit) -> None:
    _assert_not_shared(emit, count_nodes)


def test_repeated_emission_is_equal_but_never_the_same_object() -> None:
    for emit in EMITTERS.values():
        first, second = emit(order_pydantic), emit(order_pydantic)
        assert first == second
        if first is not None:
            assert first is not second


def test_to_mcp_of_a_toolkit_list_is_fresh_per_call() -> None:
    first = to_mcp([order_typeddict, paint])
    first[0]["inputSchema"]["properties"].clear()
    first[1]["inputSchema"]["properties"]["color"]["enum"].clear()
    again = to_mcp([order_typeddict, paint])
    assert again[0]["inputSchema"]["properties"]
    assert again[1]["inputSchema"]["properties"]["color"]["enum"]


class _Shade(enum.Enum):
    DARK = "dark"


class _Tool:
    """A conforming tool whose schema holds values JSON data never has."""

    def __init__(self, name: str, schema: dict[str, Any]) -> None:
        self.name = name
        self.title = None
        self.description = "A tool."
        self.input_schema = PlainSchema(schema)
        self.input_schema.__standard__.json_schema.input = (  # a fresh copy, as promised
            lambda *, target, library_options=None: copy.deepcopy(schema)
        )
        self.output_schema = None

    def execute(self, input: Any = None, meta: Any = None) -> Any:
        return input


def test_a_schema_holding_other_objects_is_still_copied_deeply() -> None:
    """An ``OrderedDict`` or an enum member inside a schema is copied, never shared."""
    inner = collections.OrderedDict([("type", "string"), ("enum", ["dark"])])
    tool = _Tool(
        "odd",
        {
            "type": "object",
            "properties": {"shade": inner, "mark": {"type": "string", "default": _Shade.DARK}},
        },
    )
    for emit in (input_json_schema, lambda t: to_openai_chat(t, strict=False), to_mcp):
        _assert_not_shared(emit, tool)
    declared = to_mcp(tool)["inputSchema"]["properties"]
    assert declared["mark"]["default"] is _Shade.DARK  # an enum member stays itself
    assert inner == {"type": "string", "enum": ["dark"]}  # the tool's own schema untouched


_JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4)
    ),
    max_leaves=20,
)


@given(
    st.dictionaries(
        st.from_regex(r"[a-z]{1,6}", fullmatch=True),
        st.fixed_dictionaries({"type": st.just("string")}, optional={"default": _JSON}),
        min_size=1,
        max_size=4,
    )
)
def test_any_json_default_survives_a_caller_that_mutates_the_declaration(
    properties: dict[str, Any],
) -> None:
    tool = _Tool("generated", {"type": "object", "properties": properties})
    for emit in (
        input_json_schema,
        lambda t: to_openai_chat(t, strict=False),
        to_anthropic,
        to_mcp,
        to_bedrock,
    ):
        _assert_not_shared(emit, tool)
    assert input_json_schema(tool)["properties"] == properties
