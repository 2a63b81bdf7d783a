"""The Pydantic AI bridge's tests, run against the oldest pydantic-ai-slim the extra allows."""

from __future__ import annotations

from importlib.metadata import version

from tests.test_integration_pydantic_ai import *  # noqa: F403  (the same tests, collected here)


def test_this_environment_has_the_floor_version() -> None:
    assert version("pydantic-ai-slim") == "2.20.0"
