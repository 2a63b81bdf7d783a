"""The Google Gen AI SDK bridge's tests, run against the oldest google-genai the extra allows."""

from __future__ import annotations

from importlib.metadata import version

from tests.test_integration_google_genai import *  # noqa: F403  (the same tests, collected here)


def test_this_environment_has_the_floor_version() -> None:
    assert version("google-genai") == "2.34.0"
