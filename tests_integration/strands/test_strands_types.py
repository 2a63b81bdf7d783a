"""The Strands bridge type-checks, here where Strands is installed.

The tools venv cannot hold Strands (it pins openai<3), so pyproject.toml excludes
``integrations/strands.py`` from the main pyright and mypy runs; this test runs
both on it with the project's own settings (strict).
"""

from __future__ import annotations

from pathlib import Path

from tests.env_checks import INTEGRATIONS, mypy_failure, pyright_problems

MODULES = [
    *(INTEGRATIONS / f"{name}.py" for name in ("strands",)),
]


def test_pyright_strict_passes_on_the_strands_module(tmp_path: Path) -> None:
    problems, analysed = pyright_problems(MODULES, tmp_path)
    assert problems == []
    assert analysed == len(MODULES)


def test_mypy_strict_passes_on_the_strands_module() -> None:
    assert mypy_failure(MODULES) is None
