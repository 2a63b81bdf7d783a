"""The error message never under-counts the issues a validator stopped looking for (issue 9).

Function tools and every adapter stop at ``MAX_ISSUES`` (50) issues, the last of
them ``validation stopped after 50 issues`` (issue 26: never 51), and the message
says "at least" instead of a count that would be false.
"""

from __future__ import annotations

import pytest

from standard_tool import StandardToolValidationError, tool
from standard_tool._function import MAX_ISSUES
from standard_tool.schemas.jsonschema import MAX_ISSUES as JSONSCHEMA_MAX_ISSUES
from standard_tool.schemas.jsonschema import from_json_schema


@tool
def total(xs: list[int]) -> int:
    """Add the numbers."""
    return sum(xs)


def _message(n: int) -> str:
    with pytest.raises(StandardToolValidationError) as info:
        total.execute({"xs": ["a"] * n})
    return str(info.value)


def test_a_count_below_the_bound_is_exact() -> None:
    assert _message(25).endswith("; and 5 more issues")
    assert _message(21).endswith("; and 1 more issue")


@pytest.mark.parametrize("n", [MAX_ISSUES, 10_000])
def test_past_the_bound_the_message_says_at_least(n: int) -> None:
    stopped = f"(validation stopped after {MAX_ISSUES} issues)"
    shown = MAX_ISSUES - 1  # the first 49, then the marker
    assert _message(n).endswith(f"; and at least {shown - 20} more issues {stopped}")


def test_the_issues_end_with_the_stop_marker() -> None:
    result = total.input_schema.__standard__.validate({"xs": ["a"] * 1000})
    assert result.issues is not None
    assert len(result.issues) == MAX_ISSUES
    assert result.issues[-1].path is None
    assert result.issues[-1].message == f"validation stopped after {MAX_ISSUES} issues"


def test_the_jsonschema_adapter_message_says_at_least_too() -> None:
    schema = from_json_schema(
        {"type": "object", "properties": {"xs": {"type": "array", "items": {"type": "integer"}}}}
    )
    checked = schema.__standard__.validate({"xs": ["a"] * 10_000})
    assert checked.issues is not None
    error = StandardToolValidationError("input", checked.issues)
    assert f"and at least {JSONSCHEMA_MAX_ISSUES - 1 - 20} more issues" in str(error)


# -- issue 26: "at most 50 issues" holds everywhere, the stop marker included ----------


def test_the_bound_is_fifty_and_holds_for_function_tools_and_every_adapter() -> None:
    import msgspec
    import pydantic

    from standard_tool.schemas.msgspec import MsgspecSchema
    from standard_tool.schemas.pydantic import PydanticSchema

    assert MAX_ISSUES == JSONSCHEMA_MAX_ISSUES == 50
    bad = {"xs": ["a"] * 10_000}
    model = pydantic.create_model("Numbers", xs=(list[int], ...))

    class Numbers(msgspec.Struct):
        xs: list[int]

    schemas = {
        "function tool": total.input_schema,
        "jsonschema": from_json_schema(
            {
                "type": "object",
                "properties": {"xs": {"type": "array", "items": {"type": "integer"}}},
            }
        ),
        "pydantic": PydanticSchema(model),
        "msgspec": MsgspecSchema(Numbers),
    }
    for label, schema in schemas.items():
        issues = schema.__standard__.validate(bad).issues
        assert issues is not None, label
        assert 1 <= len(issues) <= MAX_ISSUES, (label, len(issues))
        if len(issues) == MAX_ISSUES:
            assert issues[-1].message == "validation stopped after 50 issues", label
            assert issues[-1].path is None, label
