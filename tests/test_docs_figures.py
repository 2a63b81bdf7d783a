"""The performance figures live on one page; the README only copies rows from it."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def table_rows(text: str) -> list[str]:
    return [
        line.strip()
        for line in text.splitlines()
        if line.startswith("| ") and not re.match(r"\| -", line) and "| case |" not in line
    ]


def test_every_performance_row_of_the_readme_is_on_the_performance_page() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Performance", 1)[1].split("\n## ", 1)[0]
    rows = table_rows(section)
    assert len(rows) >= 5
    page = set(table_rows((ROOT / "docs" / "performance.md").read_text(encoding="utf-8")))
    assert [row for row in rows if row not in page] == []


def test_no_other_docs_page_carries_its_own_ratio_table() -> None:
    # A ratio like "1.62-1.70x" in a table row belongs on the performance page only.
    ratio = re.compile(r"\|[^|\n]*\b\d+\.\d+(-\d+\.\d+)?x\b[^|\n]*\|")
    offenders = [
        page.name
        for page in (ROOT / "docs").glob("*.md")
        if page.name not in {"performance.md", "changelog.md"}
        and ratio.search(page.read_text(encoding="utf-8"))
    ]
    assert offenders == []
