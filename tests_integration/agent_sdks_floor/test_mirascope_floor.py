"""The Mirascope bridge's tests, run against the oldest mirascope the extra allows."""

from __future__ import annotations

from importlib.metadata import version

from tests_integration.agent_sdks.test_mirascope import *  # noqa: F403  (the same tests, collected here)


def test_this_environment_has_the_mirascope_floor() -> None:
    assert version("mirascope") == "2.0.0"
