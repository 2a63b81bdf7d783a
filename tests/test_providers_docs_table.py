"""The provider suite test and docs/dialects.md say the same (issue 16).

The suite test excuses a difference only where ``WIDENINGS`` / ``NARROWINGS`` name a
keyword of the group; the docs promise users exactly the table "What each provider
declaration keeps, drops and loosens". Every keyword a "loosens" row names is in
``WIDENINGS`` for its target and the reverse, the same for "narrows" rows and
``NARROWINGS``; and the agreement figures in the docs are the ones the suite gives.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.test_dialects_suite import SUITE
from tests.test_providers_suite import NARROWINGS, TARGETS, WIDENINGS, table

DOCS = Path(__file__).resolve().parent.parent / "docs" / "dialects.md"
TABLE = "## What each provider declaration keeps, drops and loosens"
FIGURES = "## Provider agreement with the JSON Schema Test Suite"


def _section(title: str) -> str:
    text = DOCS.read_text(encoding="utf-8")
    assert title in text, f"{DOCS.name} lost its section {title!r}"
    return text.split(title, 1)[1].split("\n## ", 1)[0]


def _rows(word: str) -> dict[str, set[str]]:
    """Return target -> the keywords of the rows whose last cell contains ``word``."""
    found: dict[str, set[str]] = {}
    for line in _section(TABLE).splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 3 or cells[0] in ("target", "---") or f"({word}" not in cells[2]:
            continue
        names = {re.split(r"[: ]", k, maxsplit=1)[0] for k in re.findall(r"`([^`]+)`", cells[1])}
        for target in (t.strip() for t in cells[0].split(",")):
            assert target in TARGETS, f"unknown target {target!r} in the docs table"
            found.setdefault(target, set()).update(names)
    return found


@pytest.mark.parametrize(("word", "table_of"), [("loosens", WIDENINGS), ("narrows", NARROWINGS)])
def test_the_docs_rows_and_the_suite_test_name_the_same_keywords(
    word: str, table_of: dict[str, dict[str, str]]
) -> None:
    documented = _rows(word)
    for target in TARGETS:
        excused = set(table_of.get(target, {}))
        assert documented.get(target, set()) == excused, (
            f"{target} ({word}): only in the docs {sorted(documented.get(target, set()) - excused)}"
            f", only in the test {sorted(excused - documented.get(target, set()))}"
        )


def test_only_the_strict_modes_narrow() -> None:
    assert set(_rows("narrows")) == {"openai-strict", "anthropic-strict"}
    assert set(NARROWINGS) == {"openai-strict", "anthropic-strict"}


def test_the_agreement_figures_are_the_suite_s() -> None:
    if not SUITE.is_dir():
        pytest.fail(f"the JSON-Schema-Test-Suite is missing at {SUITE}")
    assert table().strip() in _section(FIGURES), (
        "docs/dialects.md has stale provider figures: paste `python -m tests.test_providers_suite`"
    )
