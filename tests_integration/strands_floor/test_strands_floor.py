"""The Strands bridge's tests, run against the oldest strands-agents the extra allows."""

from __future__ import annotations

from importlib.metadata import version

from tests_integration.strands.test_strands import *  # noqa: F403  (the same tests, collected here)


def test_this_environment_has_the_floor_version() -> None:
    assert version("strands-agents") == "1.10.0"
