"""This folder's bridges type-check, and their overloads infer, here where the frameworks are.

The tools venv cannot hold these frameworks (Semantic Kernel pins mcp<2), so
pyproject.toml excludes their modules from the main pyright and mypy runs; this test
runs both on them with the project's own settings (strict).
"""

from __future__ import annotations

from pathlib import Path

from tests.env_checks import INTEGRATIONS, mypy_failure, pyright_problems

MODULES = [
    *(
        INTEGRATIONS / f"{name}.py"
        for name in ("agno", "semantic_kernel", "autogen", "haystack", "smolagents")
    ),
    # the inference promises about them
    Path(__file__).with_name("typing_bridges.py"),
]


def test_pyright_strict_passes_on_the_modules(tmp_path: Path) -> None:
    problems, analysed = pyright_problems(MODULES, tmp_path)
    assert problems == []
    assert analysed == len(MODULES)


def test_mypy_strict_passes_on_the_modules() -> None:
    assert mypy_failure(MODULES) is None
