"""The documentation site's own machinery: its pictures, its tables, its home page."""

from __future__ import annotations

import importlib.util
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = sorted((ROOT / "docs").glob("*.md"))


def _hooks() -> Any:
    spec = importlib.util.spec_from_file_location("docs_hooks", ROOT / "scripts" / "docs_hooks.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


HOOKS = _hooks()


def test_the_site_draws_the_layers_and_a_calls_way_from_sources_in_the_pages() -> None:
    sources = {page.name: HOOKS.FENCE.findall(page.read_text(encoding="utf-8")) for page in PAGES}
    drawn = {name: found for name, found in sources.items() if found}
    assert set(drawn) >= {"architecture.md", "toolkit.md"}
    for found in drawn.values():
        for source in found:
            figure = HOOKS.render(source)
            svg = ET.fromstring(re.search(r"<svg.*</svg>", figure, re.DOTALL)[0])  # type: ignore[index]
            assert svg.find("{http://www.w3.org/2000/svg}title") is not None
            assert len(svg.findall("{http://www.w3.org/2000/svg}rect")) >= 4


def test_a_page_of_the_site_has_its_diagram_in_place_of_the_source() -> None:
    page = "Before.\n\n```diagram\ntitle: Two steps\nstep: one\nstep: two\n```\n\nAfter.\n"
    out = HOOKS.on_page_markdown(page, None, None, None)
    assert "```" not in out
    assert '<figure class="diagram">' in out
    assert "<figcaption>Two steps</figcaption>" in out


@pytest.mark.parametrize(
    "source",
    ["title: t\nlayer: a\nstep: b", "layer: a", "title: t\nbox: a", "title: t\nstep"],
    ids=["both kinds", "no title", "unknown kind", "no text"],
)
def test_a_diagram_that_cannot_be_drawn_stops_the_build(source: str) -> None:
    with pytest.raises(HOOKS.DiagramError):
        HOOKS.render(source)


def test_a_pipe_in_table_code_shows_without_its_backslash() -> None:
    html = (
        "<table><tr><td><code>X \\| Y</code></td></tr></table>"
        "<pre><code>re.compile(r'a\\|b')</code></pre>"
    )
    out = HOOKS.on_page_content(html, None, None, None)
    assert "<td><code>X | Y</code></td>" in out
    assert "<pre><code>re.compile(r'a\\|b')</code></pre>" in out  # code outside tables kept


def test_the_home_pages_code_fits_without_scrolling() -> None:
    text = (ROOT / "docs" / "index.md").read_text(encoding="utf-8")
    code = re.findall(r"^```python\n(.*?)^```", text, re.DOTALL | re.MULTILINE)
    assert code
    assert [line for block in code for line in block.splitlines() if len(line) > 80] == []
