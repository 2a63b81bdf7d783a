"""The suite test's ``LOOSENINGS`` and the table in docs/dialects.md say the same (issue 16).

The suite test lets a converted schema accept more only where ``LOOSENINGS`` names
the keyword; the docs promise users exactly that table. Every keyword the table says
loosens (or refuses) a target is in ``LOOSENINGS`` for that target, and every keyword
``LOOSENINGS`` excuses is in the table.
"""

from __future__ import annotations

import re
from pathlib import Path

from tests.test_dialects_suite import LOOSENINGS

DOCS = Path(__file__).resolve().parent.parent / "docs" / "dialects.md"
SECTION = "## What each conversion keeps, drops and loosens"
#: Keywords the suite test lists without their being a loosening of their own.
NOT_LOOSENINGS = {"openapi-3.0": {"const"}}
#: Rows of the table that document something other than a keyword the suite excuses
#: (``1.0`` as an integer is judged by value, not by keyword).
BY_VALUE = {("openapi-3.0", "type")}


def _table() -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """Return (target -> keywords it loosens, target -> keywords it refuses) from the docs."""
    text = DOCS.read_text(encoding="utf-8")
    assert SECTION in text, f"{DOCS.name} lost its section {SECTION!r}"
    section = text.split(SECTION, 1)[1].split("\n## ", 1)[0]
    loosens: dict[str, set[str]] = {}
    refuses: dict[str, set[str]] = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 3 or cells[0] in ("target", "---"):
            continue
        targets, keywords, what = cells
        if what.startswith("refused"):
            into = refuses
        elif any(word in what for word in ("loosens", "kept only")):
            into = loosens
        else:
            continue
        subject = keywords.split(" beside ", 1)[0]  # "`$anchor` beside `$id`": about $anchor
        names = {re.split(r"[: ]", k, maxsplit=1)[0] for k in re.findall(r"`([^`]+)`", subject)}
        for target in (t.strip() for t in targets.split(",")):
            into.setdefault(target, set()).update(n for n in names if (target, n) not in BY_VALUE)
    return loosens, refuses


def test_the_docs_table_has_rows_for_every_lossy_target() -> None:
    loosens, refuses = _table()
    assert {"draft-07", "openapi-3.0"} <= loosens.keys()
    assert {"draft-07", "openapi-3.0", "inline"} <= refuses.keys()


def test_every_documented_loosening_is_excused_by_the_suite_test() -> None:
    loosens, _ = _table()
    for target, keywords in loosens.items():
        missing = keywords - LOOSENINGS[target].keys()
        assert not missing, f"{target}: documented but not in LOOSENINGS: {sorted(missing)}"


def test_every_loosening_the_suite_test_excuses_is_documented() -> None:
    loosens, refuses = _table()
    for target, keywords in LOOSENINGS.items():
        documented = loosens.get(target, set()) | refuses.get(target, set())
        extra = keywords.keys() - documented - NOT_LOOSENINGS.get(target, set())
        assert not extra, f"{target}: in LOOSENINGS but not in docs/dialects.md: {sorted(extra)}"
