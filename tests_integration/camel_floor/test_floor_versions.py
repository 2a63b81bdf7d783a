"""This environment holds the floor pyproject states for the camel extra."""

from __future__ import annotations

from importlib.metadata import version


def test_this_environment_has_the_floor_version() -> None:
    assert version("camel-ai") == "0.2.83"
