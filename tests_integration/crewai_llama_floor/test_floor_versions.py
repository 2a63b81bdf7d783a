"""This environment holds the floors pyproject states for its two extras."""

from __future__ import annotations

from importlib.metadata import version


def test_this_environment_has_the_floor_versions() -> None:
    assert version("crewai") == "1.7.0"
    assert version("llama-index-core") == "0.14.12"
