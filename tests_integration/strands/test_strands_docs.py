"""The examples of docs/strands.md run, here where Strands is installed.

They are fenced as ```py (not ```python) so that tests/test_docs.py, which runs in
the core suite's environment without Strands, leaves them to this test; they import
only what the page's install line installs.
"""

from __future__ import annotations

import pytest
from tests.env_checks import DOCS, page_blocks, run_block
from tests.page_installs import unmet_imports

PAGE = "strands.md"
BLOCKS = page_blocks([PAGE])


def test_the_page_has_examples_and_none_is_fenced_for_the_core_suite() -> None:
    assert len(BLOCKS) >= 3
    assert "```python" not in (DOCS / PAGE).read_text(encoding="utf-8")


@pytest.mark.parametrize(("page", "source", "line"), BLOCKS)
def test_doc_example_runs(page: str, source: str, line: int) -> None:
    run_block(DOCS / page, source, line)


def test_the_pages_examples_import_only_what_its_install_line_installs() -> None:
    blocks = [(line, source) for _, source, line in (b.values for b in BLOCKS)]
    assert unmet_imports(DOCS / PAGE, blocks) == []
