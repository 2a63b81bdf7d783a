"""This environment holds the floor pyproject states for the google-adk extra."""

from __future__ import annotations

from importlib.metadata import version


def test_this_environment_has_the_floor_version() -> None:
    assert version("google-adk") == "1.19.0"
