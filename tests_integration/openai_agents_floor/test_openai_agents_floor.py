"""The OpenAI Agents bridge's tests, run against the oldest openai-agents the extra allows."""

from __future__ import annotations

from importlib.metadata import version

from tests.test_integration_openai_agents import *  # noqa: F403  (the same tests, collected here)


def test_this_environment_has_the_floor_version() -> None:
    assert version("openai-agents") == "0.4.0"
