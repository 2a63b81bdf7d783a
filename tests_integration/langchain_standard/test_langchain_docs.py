"""The ```py examples of docs/langchain.md run, here where `langchain` and LangGraph are installed.

They are fenced as ```py (not ```python) so that tests/test_docs.py, which runs in
the core suite's environment with langchain-core only, leaves them to this test.
"""

from __future__ import annotations

import re
import sys
import types
from pathlib import Path
from typing import Any

import pytest

PAGE = Path(__file__).resolve().parents[2] / "docs" / "langchain.md"
FENCE = re.compile(r"^```py\n(.*?)^```", re.DOTALL | re.MULTILINE)


def _blocks() -> list[Any]:
    text = PAGE.read_text(encoding="utf-8")
    return [
        pytest.param(m.group(1), line, id=f"langchain.md:{line}")
        for m in FENCE.finditer(text)
        for line in [text.count("\n", 0, m.start()) + 2]
    ]


BLOCKS = _blocks()


def test_the_page_has_an_example_for_this_environment() -> None:
    assert len(BLOCKS) >= 1


@pytest.mark.parametrize(("source", "line"), BLOCKS)
def test_doc_example_runs(source: str, line: int) -> None:
    code = compile("\n" * (line - 1) + source, str(PAGE), "exec", dont_inherit=True)
    module = types.ModuleType(f"doc_example_langchain_{line}")
    sys.modules[module.__name__] = module
    try:
        exec(code, module.__dict__)
    finally:
        del sys.modules[module.__name__]
