"""This environment holds the floors pyproject states for its six extras."""

from __future__ import annotations

from importlib.metadata import version


def test_this_environment_has_the_floor_versions() -> None:
    assert version("agno") == "3.0.0"
    assert version("semantic-kernel") == "1.40.0"
    assert version("autogen-core") == version("autogen-agentchat") == "0.7.1"
    assert version("haystack-ai") == "3.2.0"
    assert version("smolagents") == "1.23.0"
    assert version("dspy") == "3.3.0"
