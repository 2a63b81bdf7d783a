"""The LangChain bridge's tests, run against the oldest langchain-core the extra allows."""

from __future__ import annotations

from importlib.metadata import version

from tests.test_integration_langchain import *  # noqa: F403  (the same tests, collected here)


def test_this_environment_has_the_floor_version() -> None:
    assert version("langchain-core") == "1.0.0"
