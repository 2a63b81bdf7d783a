"""The examples of this environment's docs pages run, here where the frameworks are installed.

They are fenced as ```py (not ```python) so that tests/test_docs.py, which runs in
the core suite's environment without these frameworks, leaves them to this test;
each page's examples import only what the page's install line installs.
"""

from __future__ import annotations

import pytest
from tests.env_checks import DOCS, FENCE, page_blocks, run_block
from tests.page_installs import unmet_imports

PAGES = ["google-adk.md", "crewai.md", "llama-index.md", "dspy.md"]
BLOCKS = page_blocks(PAGES)


@pytest.mark.parametrize("page", PAGES)
def test_the_page_has_examples_and_none_is_fenced_for_the_core_suite(page: str) -> None:
    text = (DOCS / page).read_text(encoding="utf-8")
    assert len(FENCE.findall(text)) >= 2
    assert "```python" not in text


@pytest.mark.parametrize(("page", "source", "line"), BLOCKS)
def test_doc_example_runs(page: str, source: str, line: int) -> None:
    run_block(DOCS / page, source, line)


@pytest.mark.parametrize("page", PAGES)
def test_a_pages_examples_import_only_what_its_install_line_installs(page: str) -> None:
    blocks = [(line, source) for p, source, line in (b.values for b in BLOCKS) if p == page]
    assert unmet_imports(DOCS / page, blocks) == []
