"""The error message never under-counts the issues a validator stopped looking for (issue 9).

Function tools stop collecting at ``MAX_ISSUES`` and the JSON Schema adapter at its
bound; both end their issues with ``validation stopped after N issues``, and the
message says "at least" instead of a count that would be false.
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
    assert _message(n).endswith(f"; and at least {MAX_ISSUES - 20} more issues {stopped}")


def test_the_issues_end_with_the_stop_marker() -> None:
    result = total.input_schema.__standard__.validate({"xs": ["a"] * 1000})
    assert result.issues is not None
    assert len(result.issues) == MAX_ISSUES + 1
    assert result.issues[-1].path is None
    assert result.issues[-1].message == f"validation stopped after {MAX_ISSUES} issues"


def test_the_jsonschema_adapter_message_says_at_least_too() -> None:
    schema = from_json_schema(
        {"type": "object", "properties": {"xs": {"type": "array", "items": {"type": "integer"}}}}
    )
    checked = schema.__standard__.validate({"xs": ["a"] * 10_000})
    assert checked.issues is not None
    error = StandardToolValidationError("input", checked.issues)
    assert f"and at least {JSONSCHEMA_MAX_ISSUES - 20} more issues" in str(error)
