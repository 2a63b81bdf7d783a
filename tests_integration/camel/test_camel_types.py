"""The CAMEL bridge type-checks, and its overloads infer, here.

The core suite does not install CAMEL, so pyproject.toml excludes the module from
the main pyright and mypy runs; this test runs both on it with the project's own
settings (strict).
"""

from __future__ import annotations

from pathlib import Path

from tests.env_checks import INTEGRATIONS, mypy_failure, pyright_problems

MODULES = [INTEGRATIONS / "camel.py", Path(__file__).with_name("typing_camel.py")]


def test_pyright_strict_passes_on_the_module(tmp_path: Path) -> None:
    problems, analysed = pyright_problems(MODULES, tmp_path)
    assert problems == []
    assert analysed == len(MODULES)


def test_mypy_strict_passes_on_the_module() -> None:
    assert mypy_failure(MODULES) is None
