"""Every install line in the docs works as written: standard-tool comes from a path.

standard-tool is not on a package index, so a line such as
``pip install "standard-tool[mcp]"`` fails for every reader. A line installs it from a
checkout (a path) or a built wheel; ``tests_integration/install`` runs those forms.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def install_lines(text: str) -> list[str]:
    return re.findall(r"pip install [^`\n]+", text)


def standard_tool_arguments(line: str) -> list[str]:
    words = shlex.split(line.split("#", 1)[0])
    return [w for w in words[2:] if re.search(r"standard[-_]tool", w)]


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_install_lines_name_a_path_or_a_wheel(page: Path) -> None:
    for line in install_lines(page.read_text(encoding="utf-8")):
        for argument in standard_tool_arguments(line):
            assert argument.startswith(("/", "./", "../")) or ".whl" in argument, (
                f"{page.name}: {line!r} installs standard-tool by name; "
                "it is not on a package index"
            )


def test_the_pages_do_install_standard_tool_somewhere() -> None:
    """The check above is not vacuous: the index page and five framework pages install it."""
    pages = {
        page.name
        for page in PAGES
        for line in install_lines(page.read_text(encoding="utf-8"))
        if standard_tool_arguments(line)
    }
    assert {
        "README.md",
        "index.md",
        "mcp.md",
        "langchain.md",
        "strands.md",
        "pydantic-ai.md",
        "openai-agents.md",
    } <= pages
