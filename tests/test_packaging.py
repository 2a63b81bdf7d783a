"""What a package index and an installer read: metadata, extras, the README, the changelog."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
CHANGELOG = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
LINK = re.compile(r"\]\(([^)\s]+)\)|^\[[^\]]+\]:\s*(\S+)", re.MULTILINE)


def test_every_readme_link_is_absolute() -> None:
    """A package index shows the README alone: a relative link or an anchor would break."""
    targets = [a or b for a, b in LINK.findall(README)]
    assert targets, "the README has links"
    assert [t for t in targets if not t.startswith(("https://", "http://"))] == []


def test_the_changelog_has_unreleased_first_then_the_release_of_this_version() -> None:
    version = re.search(r'^version = "([^"]+)"', (ROOT / "pyproject.toml").read_text(), re.M)
    assert version is not None
    headings = re.findall(r"^## (.+)$", CHANGELOG, re.MULTILINE)
    assert headings[0] == "[Unreleased]"
    assert re.fullmatch(
        rf"\[{re.escape(version.group(1))}\] - \d{{4}}-\d{{2}}-\d{{2}}", headings[1]
    )


def test_the_testing_extra_holds_what_check_and_the_property_tests_need() -> None:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    line = re.search(r"^testing = \[(.*)\]$", text, re.MULTILINE)
    assert line is not None
    names = {re.split(r"[<>=\[]", item.strip().strip('"'))[0] for item in line.group(1).split(",")}
    assert {"hypothesis", "jsonschema"} <= names
