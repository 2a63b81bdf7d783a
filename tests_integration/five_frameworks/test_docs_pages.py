"""The examples of this folder's framework pages run, here where the frameworks are.

They are fenced as ```py (not ```python) so that tests/test_docs.py, which runs in
the core suite's environment without these frameworks, leaves them to this test.
"""

from __future__ import annotations

import re
import sys
import types
from pathlib import Path
from typing import Any

import pytest
from tests.page_installs import unmet_imports

DOCS = Path(__file__).resolve().parents[2] / "docs"
PAGES = ["agno.md", "semantic-kernel.md", "autogen.md", "haystack.md", "smolagents.md"]
FENCE = re.compile(r"^```py\n(.*?)^```", re.DOTALL | re.MULTILINE)


def _blocks() -> list[Any]:
    found = []
    for page in PAGES:
        text = (DOCS / page).read_text(encoding="utf-8")
        for m in FENCE.finditer(text):
            line = text.count("\n", 0, m.start()) + 2
            found.append(pytest.param(page, m.group(1), line, id=f"{page}:{line}"))
    return found


BLOCKS = _blocks()


@pytest.mark.parametrize("page", PAGES)
def test_the_page_has_examples_and_none_is_fenced_for_the_core_suite(page: str) -> None:
    text = (DOCS / page).read_text(encoding="utf-8")
    assert len(FENCE.findall(text)) >= 2
    assert "```python" not in text


@pytest.mark.parametrize(("page", "source", "line"), BLOCKS)
def test_doc_example_runs(page: str, source: str, line: int) -> None:
    path = DOCS / page
    code = compile("\n" * (line - 1) + source, str(path), "exec", dont_inherit=True)
    module = types.ModuleType(f"doc_example_{path.stem}_{line}")
    sys.modules[module.__name__] = module
    try:
        exec(code, module.__dict__)
    finally:
        del sys.modules[module.__name__]


@pytest.mark.parametrize("page", PAGES)
def test_a_pages_examples_import_only_what_its_install_line_installs(page: str) -> None:
    blocks = [(line, source) for p, source, line in (b.values for b in BLOCKS) if p == page]
    assert unmet_imports(DOCS / page, blocks) == []
