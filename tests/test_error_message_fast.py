"""The fast layer writes a validation error's message exactly as the contract file does."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from standard_tool import Issue, PathSegment
from standard_tool._core import error_message
from standard_tool._fast import quick_error_message

TEXT = st.one_of(
    st.text(max_size=30),
    st.text(alphabet="ab.:", max_size=3),
    st.sampled_from(["", "x" * 401, "\ud800", "validation stopped after 50 issues", "é"]),
)
STEP = st.one_of(
    st.text(max_size=10),
    st.integers(),
    st.sampled_from([10**15, -(10**15), 10**20, True, "k" * 401]),
    st.builds(PathSegment, st.one_of(st.text(max_size=5), st.integers())),
)
ISSUE = st.builds(
    Issue,
    TEXT,
    st.one_of(st.none(), st.lists(STEP, max_size=4).map(tuple)),
)


@given(st.sampled_from(["input", "output"]), st.lists(ISSUE, max_size=25))
def test_the_quick_message_is_the_core_message(target: str, issues: list[Any]) -> None:
    assert quick_error_message(target, issues) == error_message(target, issues)


def test_the_common_issues_and_the_stop_note() -> None:
    issues = [Issue("expected integer", ("items", 9, "qty")), Issue("missing", None)]
    assert quick_error_message("input", issues) == error_message("input", issues)
    assert quick_error_message("input", issues) == (
        "input validation failed: items.9.qty: expected integer; missing"
    )
    stopped = [*issues, Issue("validation stopped after 50 issues", None)]
    assert quick_error_message("input", stopped) == error_message("input", stopped)
