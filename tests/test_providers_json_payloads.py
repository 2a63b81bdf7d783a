"""A provider payload is always JSON, and the schema sent is the schema the tool enforces.

Issue 35: ``NaN`` or an infinity in a schema's ``default``, ``enum`` or ``maximum``
reached the OpenAI, Anthropic, MCP and Gemini payloads as ``NaN``/``Infinity``; a
property key that is not a string was shown to the model as a string the tool did not
check; a ``$defs`` entry that only points at itself passed OpenAI's strict mode. Every
converter refuses such a schema, naming the tool and the place, or sends valid JSON.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from standard_tool import standard_tool
from standard_tool.providers import (
    ProviderSchemaError,
    bedrock_tool_config,
    check_openai_strict,
    to_anthropic,
    to_gemini,
    to_mcp,
    to_openai_chat,
    to_openai_responses,
)

CONVERTERS: dict[str, Callable[[Any], Any]] = {
    "openai_chat": to_openai_chat,
    "openai_chat_strict": lambda t: to_openai_chat(t, strict=True),
    "openai_responses": to_openai_responses,
    "anthropic": to_anthropic,
    "anthropic_strict": lambda t: to_anthropic(t, strict=True),
    "gemini": to_gemini,
    "mcp": to_mcp,
    "bedrock": bedrock_tool_config,
}

#: Every keyword a number may stand in, with where it goes.
KEYWORDS = (
    "default",
    "enum",
    "const",
    "examples",
    "maximum",
    "minimum",
    "exclusiveMaximum",
    "exclusiveMinimum",
    "multipleOf",
    "maxLength",
    "x-custom",
)

_NOT_JSON = st.sampled_from([math.nan, math.inf, -math.inf])


def _schema(keyword: str, number: float, at_root: bool) -> dict[str, Any]:
    value: Any = [number] if keyword in ("enum", "examples") else number
    leaf: dict[str, Any] = {"type": "number", "description": "A number."}
    schema: dict[str, Any] = {"type": "object", "properties": {"x": leaf}, "required": ["x"]}
    (schema if at_root and keyword == "x-custom" else leaf)[keyword] = value
    return schema


def _refused_or_json(converter: str, schema: dict[str, Any]) -> str | None:
    """Convert a tool of ``schema``; return the refusal, or check the payload is JSON."""
    tool = standard_tool(
        name="odd_tool", description="Odd.", input_schema=schema, execute=lambda v: v
    )
    try:
        payload = CONVERTERS[converter](tool)
    except ProviderSchemaError as err:
        refused = str(err)
    else:
        json.dumps(payload, allow_nan=False, default=repr)  # raises on NaN or infinity
        return None
    assert "odd_tool" in refused
    return refused


@pytest.mark.parametrize("converter", CONVERTERS)
@given(keyword=st.sampled_from(KEYWORDS), number=_NOT_JSON, at_root=st.booleans())
@example(keyword="default", number=math.nan, at_root=False)
@example(keyword="maximum", number=math.inf, at_root=False)
@example(keyword="enum", number=-math.inf, at_root=False)
def test_a_number_json_cannot_carry_is_refused_by_every_converter(
    converter: str, keyword: str, number: float, at_root: bool
) -> None:
    refused = _refused_or_json(converter, _schema(keyword, number, at_root))
    assert refused is not None
    assert repr(number) in refused or "JSON" in refused


@pytest.mark.parametrize("converter", CONVERTERS)
@given(key=st.integers() | st.floats(allow_nan=False) | st.booleans() | st.tuples(st.integers()))
@example(key=5)
def test_a_key_that_is_not_a_string_is_refused_by_every_converter(
    converter: str, key: object
) -> None:
    """``{5: ...}`` would be shown as ``"5"`` while the tool accepts anything there."""
    schema = {"type": "object", "properties": {key: {"type": "integer"}}}
    refused = _refused_or_json(converter, schema)
    assert refused is not None
    assert "not a string" in refused or "JSON" in refused


@pytest.mark.parametrize(
    "defs",
    [
        {"A": {"$ref": "#/$defs/A"}},
        {"A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/$defs/A", "description": "B."}},
    ],
)
def test_a_def_that_only_points_at_itself_is_refused_in_strict_mode(defs: dict[str, Any]) -> None:
    schema = {
        "type": "object",
        "properties": {"x": {"$ref": "#/$defs/A"}},
        "required": ["x"],
        "additionalProperties": False,
        "$defs": defs,
    }
    assert _refused_or_json("openai_chat_strict", schema) is not None
    assert "only points at itself" in str(_refused_or_json("openai_chat_strict", schema))
    cycles = [p for p in check_openai_strict(schema) if "only points at itself" in p.message]
    assert [p.path for p in cycles] == [("$defs", name) for name in defs]
    assert all(p.message.startswith("only points at itself (#/$defs/") for p in cycles)
