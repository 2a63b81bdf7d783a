"""The checkers name what each target would reject, with a path."""

from __future__ import annotations

from typing import Any

import pytest

from standard_tool import tool
from standard_tool.providers import (
    SchemaProblem,
    check_gemini,
    check_mcp_tool,
    check_openai_strict,
    mcp_server,
    to_mcp,
)

GOOD_STRICT = {
    "type": "object",
    "properties": {"a": {"type": "string"}},
    "required": ["a"],
    "additionalProperties": False,
}


def messages(problems: list[SchemaProblem]) -> list[str]:
    return [str(p) for p in problems]


def test_a_good_strict_schema_has_no_problems() -> None:
    assert check_openai_strict(GOOD_STRICT) == []


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ({"additionalProperties": True}, "/ an object must set additionalProperties to false"),
        ({"required": []}, "/ every property must be listed in required"),
        ({"type": "array"}, '/ the root must have "type": "object"'),
        ({"anyOf": [{"type": "object"}]}, "/ the root must not be anyOf"),
        ({"properties": {"a": {"type": "string", "default": "x"}}}, "/properties/a keyword"),
        ({"properties": {"a": {"type": "string", "minLength": 1}}}, "/properties/a keyword"),
        ({"properties": {"a": {}}}, "/properties/a has no type"),
        ({"properties": {"a": {"type": "string", "format": "uri"}}}, "/properties/a format"),
        ({"properties": {"a": {"$ref": "#/$defs/X"}}}, "/properties/a $ref"),
        ({"properties": {"a": {"type": "array"}}}, "/properties/a an array must have items"),
        (
            {"properties": {"a": {"enum": [[1]], "type": "array", "items": {"type": "integer"}}}},
            "/properties/a enum values",
        ),
    ],
)
def test_strict_checker_names_each_rule(change: dict[str, Any], expected: str) -> None:
    found = messages(check_openai_strict({**GOOD_STRICT, **change}))
    assert any(m.startswith(expected) for m in found), found


def test_strict_checker_reports_a_ref_with_siblings() -> None:
    schema = {
        **GOOD_STRICT,
        "properties": {"a": {"$ref": "#/$defs/A", "description": "x"}},
        "$defs": {"A": {"type": "string"}},
    }
    assert messages(check_openai_strict(schema)) == [
        "/properties/a $ref must not have sibling keywords"
    ]


def test_strict_checker_survives_garbage() -> None:
    assert messages(check_openai_strict([])) == ["/ is not a JSON object"]  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
    deep: dict[str, Any] = {"type": "string"}
    for _ in range(12):
        deep = {**GOOD_STRICT, "properties": {"a": deep}}
    assert any("10 levels" in m for m in messages(check_openai_strict(deep)))


def test_gemini_checker_names_each_rule() -> None:
    schema = {
        "type": "object",
        "properties": {
            "ok": {"type": "string"},
            "bad-name": {"type": "string"},
            "r": {"$ref": "#/$defs/X"},
            "t": {"type": ["string", "null"]},
            "e": {"type": "integer", "enum": [1]},
            "f": {"type": "string", "format": "uuid"},
            "o": {"type": "object", "properties": {}},
            "a": {"type": "object", "additionalProperties": {"type": "string"}},
        },
        "required": ["missing"],
    }
    found = messages(check_gemini(schema))
    for expected in (
        "/properties/bad-name a parameter name must start",
        '/properties/r keyword "$ref" is not supported by Gemini',
        "/properties/t type must be one type name",
        "/properties/e enum values must be strings",
        '/properties/f format "uuid" is not supported',
        "/properties/o properties must be a non-empty object",
        '/properties/a keyword "additionalProperties"',
        "/ required must name declared properties",
    ):
        assert any(m.startswith(expected) for m in found), (expected, found)


def test_gemini_checker_accepts_uppercase_types() -> None:
    schema = {"type": "OBJECT", "properties": {"a": {"type": "STRING"}}}
    assert check_gemini(schema) == []


def test_mcp_checker_names_each_rule() -> None:
    payload = {
        "name": "bad name",
        "title": 3,
        "description": "d",
        "inputSchema": {"type": "array"},
        "outputSchema": {"type": "string"},
        "input_schema": {},
    }
    assert messages(check_mcp_tool(payload)) == [
        "/name must be 1 to 128 characters from A-Z, a-z, 0-9, '_', '-' and '.'",
        "/title must be a string",
        '/inputSchema/type must be "object" at the root',
        '/outputSchema/type must be "object" at the root',
        "/input_schema is not a field of an MCP tool",
    ]
    assert messages(check_mcp_tool({"name": "x"})) == ["/inputSchema is required"]


def test_mcp_checker_flags_an_empty_description_and_to_mcp_leaves_it_out() -> None:
    blank = {"name": "x", "description": " ", "inputSchema": {"type": "object"}}
    assert messages(check_mcp_tool(blank)) == [
        "/description is empty: leave it out, or say what the tool does"
    ]

    @tool
    def quiet(a: int) -> int:
        return a

    declared = to_mcp(quiet)
    assert "description" not in declared
    assert check_mcp_tool(declared) == []


async def test_a_tool_without_a_description_is_listed_without_one() -> None:
    from mcp import Client

    @tool
    def quiet(a: int) -> int:
        return a

    async with Client(mcp_server([quiet])) as client:
        (listed,) = (await client.list_tools()).tools
    assert (listed.name, listed.description) == ("quiet", None)


def test_problems_are_values() -> None:
    problem = SchemaProblem(("properties", "a/b"), "bad")
    assert str(problem) == "/properties/a~1b bad"
    assert problem == SchemaProblem(("properties", "a/b"), "bad")
