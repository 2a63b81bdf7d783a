"""The warning filters this environment needs (the newest one's conftest imports CrewAI).

- ADK 1.19 reads its own deprecated ``RunConfig.save_input_blobs_as_artifacts`` on
  every run (pydantic words the warning "deprecated");
- google-genai's session class subclasses aiohttp's, which aiohttp warns about.
"""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("OTEL_SDK_DISABLED", "true")

IGNORED = [
    "ignore:deprecated$:DeprecationWarning",
    "ignore:Inheritance class AiohttpClientSession:DeprecationWarning",
]


def pytest_configure(config: pytest.Config) -> None:
    for line in IGNORED:  # later lines win over the project's "error"
        config.addinivalue_line("filterwarnings", line)
