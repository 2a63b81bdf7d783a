"""The Agent Framework bridge's tests, run against the oldest release the extra allows."""

from __future__ import annotations

from importlib.metadata import version

from tests_integration.agent_sdks.test_agent_framework import *  # noqa: F403  (the same tests, collected here)


def test_this_environment_has_the_floor_version() -> None:
    assert version("agent-framework-core") == "1.19.0"
