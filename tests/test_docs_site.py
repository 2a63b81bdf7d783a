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


def _script(name: str) -> Any:
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


CHECK = _script("check_site")


def test_the_browser_check_counts_console_errors_exceptions_and_failed_loads() -> None:
    """What scripts/check_site.py, run in CI on the built site, reports from Chromium's events."""
    mine, other = "S1", "S2"
    events = [
        {"sessionId": mine, "method": "Runtime.exceptionThrown",
         "params": {"exceptionDetails": {"exception": {"description": "Error: kaput"}}}},
        {"sessionId": mine, "method": "Runtime.consoleAPICalled",
         "params": {"type": "error", "args": [{"value": "boom"}]}},
        {"sessionId": mine, "method": "Runtime.consoleAPICalled",
         "params": {"type": "log", "args": [{"value": "fine"}]}},
        {"sessionId": mine, "method": "Log.entryAdded",
         "params": {"entry": {"level": "error", "text": "Failed to load", "url": "/x.png"}}},
        {"sessionId": mine, "method": "Network.responseReceived",
         "params": {"response": {"status": 404, "url": "/x.png"}}},
        {"sessionId": mine, "method": "Network.loadingFailed",
         "params": {"errorText": "net::ERR_FAILED", "canceled": False}},
        {"sessionId": other, "method": "Runtime.consoleAPICalled",
         "params": {"type": "error", "args": [{"value": "another page"}]}},
    ]  # fmt: skip
    assert CHECK.problems_of(events, mine) == [
        "uncaught exception: Error: kaput",
        "console.error: boom",
        "console error: Failed to load (/x.png)",
        "HTTP 404 for /x.png",
        "failed to load a resource: net::ERR_FAILED",
    ]


def test_the_browser_check_finds_broken_links_to_pages_and_anchors(tmp_path: Path) -> None:
    (tmp_path / "guide").mkdir()
    (tmp_path / "guide" / "index.html").write_text("")
    (tmp_path / "index.html").write_text("")
    (tmp_path / "objects.inv").write_text("")
    assert CHECK.pages_of(tmp_path) == ["/", "/guide/"]
    origin = "http://127.0.0.1:1"
    seen = {"/": ([], {"top"}), "/guide/": ([], {"usage"})}
    assert CHECK.broken(f"{origin}/guide/#usage", origin, tmp_path, seen) == []
    assert CHECK.broken(f"{origin}/objects.inv", origin, tmp_path, seen) == []
    assert CHECK.broken("https://example.org/", origin, tmp_path, seen) == []
    assert CHECK.broken(f"{origin}/guide/#gone", origin, tmp_path, seen) == [
        "broken link to /guide/#gone (no such anchor)"
    ]
    assert CHECK.broken(f"{origin}/nowhere/", origin, tmp_path, seen) == [
        "broken link to /nowhere/ (no such page)"
    ]


def test_every_page_is_in_the_sidebar_under_a_group() -> None:
    """The sidebar groups pages the way a reader looks for them; none is left out."""
    text = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    nav = text.split("\nnav:\n", 1)[1].split("\nmarkdown_extensions:", 1)[0]
    groups = re.findall(r"^  - ([^:\n]+):\s*$", nav, re.MULTILINE)
    assert groups == [
        "Get started",
        "Concepts",
        "Providers",
        "MCP",
        "Frameworks",
        "CLI and built-ins",
        "Reference",
        "Performance",
    ]
    assert re.findall(r"^  - [^:\n]+: \S+\.md$", nav, re.MULTILINE) == []  # no page outside
    listed = set(re.findall(r"^      - [^\n]+: (\S+\.md)$", nav, re.MULTILINE))
    assert listed == {page.name for page in PAGES}


def test_the_docs_group_installs_a_formatter_for_api_signatures() -> None:
    """mkdocstrings formats signatures only when Black or Ruff is installed beside it."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    docs = re.search(r"^docs = \[(.*)\]$", text, re.MULTILINE)
    assert docs is not None
    assert re.search(r'"(ruff|black)[<>=]', docs.group(1))
