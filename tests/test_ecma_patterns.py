"""JSON Schema patterns mean what ECMA-262 says, wherever a pattern is checked (issue 9).

``$`` matches only at the very end (Python's ``$`` also matches before a final
newline), ``\\d`` and ``\\w`` are ASCII, ``.`` excludes every line terminator. The
function tools, the msgspec adapter, the JSON Schema adapter and the agreement
helper of ``standard_tool.testing`` give one verdict for every value below.
"""

from __future__ import annotations

import decimal
import uuid
from typing import Annotated, Any

import msgspec
import pytest

from standard_tool import Param, tool
from standard_tool.schemas.jsonschema import from_json_schema
from standard_tool.schemas.msgspec import msgspec_schema
from standard_tool.testing import check_schema_agreement

# (pattern, value, ECMA-262 verdict)
CASES: list[tuple[str, str, bool]] = [
    (r"^[a-z]+$", "abc", True),
    (r"^[a-z]+$", "abc\n", False),
    (r"^\d{3}$", "123", True),
    (r"^\d{3}$", "١٢٣", False),  # Arabic-Indic digits: \d is ASCII in ECMA-262
    (r"^\w+$", "naïve", False),
    (r"^\w+$", "naive_1", True),
    (r"^a.b$", "a\rb", False),
    (r"^a.b$", "a-b", True),
    (r"^\s$", "\u00a0", True),
    (r"b", "abc", True),  # a search, not a full match
]


def _tool(pattern: str) -> Any:
    def check(s: str) -> str:
        """Check."""
        return s

    check.__annotations__ = {"s": Annotated[str, Param(pattern=pattern)], "return": str}
    return tool(check)


@pytest.mark.parametrize(("pattern", "value", "valid"), CASES)
def test_function_tools_read_patterns_as_ecma(pattern: str, value: str, valid: bool) -> None:
    result = _tool(pattern).input_schema.__standard__.validate({"s": value})
    assert (result.issues is None) is valid
    if not valid:
        assert result.issues is not None
        assert "must match the pattern" in result.issues[0].message


@pytest.mark.parametrize(("pattern", "value", "valid"), CASES)
def test_msgspec_adapter_reads_patterns_as_ecma(pattern: str, value: str, valid: bool) -> None:
    box = msgspec.defstruct("Box", [("s", Annotated[str, msgspec.Meta(pattern=pattern)])])
    result = msgspec_schema(box).__standard__.validate({"s": value})
    assert (result.issues is None) is valid
    if not valid:
        assert result.issues is not None
        assert result.issues[0].path == ("s",)


@pytest.mark.parametrize(("pattern", "value", "valid"), CASES)
def test_jsonschema_adapter_reads_patterns_as_ecma(pattern: str, value: str, valid: bool) -> None:
    schema = from_json_schema(
        {"type": "object", "properties": {"s": {"type": "string", "pattern": pattern}}}
    )
    assert (schema.__standard__.validate({"s": value}).issues is None) is valid


class Nested(msgspec.Struct):
    code: Annotated[str, msgspec.Meta(pattern=r"^[A-Z]{2}$")]
    codes: list[Annotated[str, msgspec.Meta(pattern=r"^[A-Z]{2}$")]] = []
    by_name: dict[Annotated[str, msgspec.Meta(pattern=r"^[a-z]+$")], int] = {}
    either: Annotated[str, msgspec.Meta(pattern=r"^[A-Z]{2}$")] | int = 0


@pytest.mark.parametrize(
    ("value", "path", "message"),
    [
        ({"code": "AB\n"}, ("code",), "Expected `str` matching regex"),
        ({"code": "AB", "codes": ["CD", "EF\n"]}, ("codes", 1), "Expected `str`"),
        ({"code": "AB", "by_name": {"ok": 1, "no\n": 2}}, ("by_name",), "invalid key: "),
        ({"code": "AB", "either": "GH\n"}, ("either",), "Expected `str` matching regex"),
    ],
)
def test_msgspec_ecma_check_names_the_path(
    value: dict[str, Any], path: tuple[Any, ...], message: str
) -> None:
    result = msgspec_schema(Nested).__standard__.validate(value)
    assert result.issues is not None
    assert result.issues[0].path == path
    assert result.issues[0].message.startswith(message)


def test_msgspec_accepts_what_ecma_accepts_in_nested_places() -> None:
    value = {"code": "AB", "codes": ["CD"], "by_name": {"ok": 1}, "either": 3}
    result = msgspec_schema(Nested).__standard__.validate(value)
    assert result.issues is None


def test_the_agreement_helper_uses_ecma_patterns() -> None:
    # With Python's reading of `$` on the jsonschema side, "ab\n" would disagree.
    check_schema_agreement(_tool(r"^[a-z]+$"), max_examples=50)


def test_decimal_and_uuid_strings_end_where_their_advertised_pattern_ends() -> None:
    def f(p: decimal.Decimal, u: uuid.UUID) -> str:
        """F."""
        return "ok"

    checked = tool(f)
    good_uuid = "e3e70682-c209-4cac-629f-6fbed82c07cd"
    assert checked.execute({"p": "1.5", "u": good_uuid}) == "ok"
    bad_decimal = checked.input_schema.__standard__.validate({"p": "1.5\n", "u": good_uuid})
    assert bad_decimal.issues is not None
    assert bad_decimal.issues[0].path == ("p",)
    bad_uuid = checked.input_schema.__standard__.validate({"p": "1", "u": good_uuid + "\n"})
    assert bad_uuid.issues is not None
    assert bad_uuid.issues[0].path == ("u",)
