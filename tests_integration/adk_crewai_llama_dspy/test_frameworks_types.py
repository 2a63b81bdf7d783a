"""The bridges of this environment type-check, here where their frameworks are installed.

The tools venv does not hold these frameworks, so pyproject.toml excludes their
modules from the main pyright and mypy runs; this test runs both on them with the
project's own settings (strict).
"""

from __future__ import annotations

from pathlib import Path

from tests.env_checks import INTEGRATIONS, mypy_failure, pyright_problems

MODULES = [
    *(INTEGRATIONS / f"{name}.py" for name in ("google_adk", "crewai", "llama_index", "dspy")),
]


def test_pyright_strict_passes_on_the_bridges(tmp_path: Path) -> None:
    problems, analysed = pyright_problems(MODULES, tmp_path)
    assert problems == []
    assert analysed == len(MODULES)


def test_mypy_strict_passes_on_the_bridges() -> None:
    assert mypy_failure(MODULES) is None
