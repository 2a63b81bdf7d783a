"""The ```py examples of docs/langchain.md run, here where `langchain` and LangGraph are installed.

They are fenced as ```py (not ```python) so that tests/test_docs.py, which runs in
the core suite's environment with langchain-core only, leaves them to this test;
they import only what the page's install line installs.
"""

from __future__ import annotations

import pytest
from tests.env_checks import DOCS, page_blocks, run_block
from tests.page_installs import unmet_imports

PAGE = "langchain.md"
BLOCKS = page_blocks([PAGE])


def test_the_page_has_an_example_for_this_environment() -> None:
    assert len(BLOCKS) >= 1


@pytest.mark.parametrize(("page", "source", "line"), BLOCKS)
def test_doc_example_runs(page: str, source: str, line: int) -> None:
    run_block(DOCS / page, source, line)


def test_the_pages_examples_import_only_what_its_install_line_installs() -> None:
    blocks = [(line, source) for _, source, line in (b.values for b in BLOCKS)]
    assert unmet_imports(DOCS / PAGE, blocks) == []
