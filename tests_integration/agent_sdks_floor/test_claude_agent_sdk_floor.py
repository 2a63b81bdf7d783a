"""The Claude Agent SDK bridge's tests, run against the oldest claude-agent-sdk the extra allows."""

from __future__ import annotations

from importlib.metadata import version

from tests_integration.agent_sdks.test_claude_agent_sdk import *  # noqa: F403  (the same tests, collected here)


def test_this_environment_has_the_claude_agent_sdk_floor() -> None:
    assert version("claude-agent-sdk") == "0.2.140"
