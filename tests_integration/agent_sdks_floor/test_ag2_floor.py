"""The AG2 bridge's tests, run against the oldest ag2 the extra allows."""

from __future__ import annotations

from importlib.metadata import version

from tests_integration.agent_sdks.test_ag2 import *  # noqa: F403  (the same tests, collected here)


def test_this_environment_has_the_ag2_floor() -> None:
    assert version("ag2") == "1.0.3"
