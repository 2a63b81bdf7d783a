"""Keep the frameworks of this environment off the network, and their own warnings out.

The suite turns warnings into errors. These are the frameworks' own, raised from
their code whatever a caller does, so they are ignored here by their text:

- CrewAI's package ``__init__`` raises an ``ImportWarning`` on import (its
  ``crewai.rag`` module refuses the attribute Python sets for a child module), so
  CrewAI is imported here once with that warning ignored;
- CrewAI reads its own deprecated fields on every run (``function_calling_llm``,
  and ``allow_code_execution``, whose warning pydantic words "deprecated");
- google-genai uses aiohttp when it is installed (here it comes with litellm),
  and its session class subclasses aiohttp's, which aiohttp warns about.
"""

from __future__ import annotations

import os
import warnings

import pytest

os.environ.setdefault("CREWAI_DISABLE_TELEMETRY", "true")
os.environ.setdefault("CREWAI_TRACING_ENABLED", "false")
os.environ.setdefault("OTEL_SDK_DISABLED", "true")

IGNORED = [
    "ignore:function_calling_llm is deprecated:DeprecationWarning",
    "ignore:deprecated$:DeprecationWarning",
    "ignore:Inheritance class AiohttpClientSession:DeprecationWarning",
]


def pytest_configure(config: pytest.Config) -> None:
    for line in IGNORED:  # later lines win over the project's "error"
        config.addinivalue_line("filterwarnings", line)


with warnings.catch_warnings():
    warnings.filterwarnings("ignore", "Cannot set an attribute on 'crewai", ImportWarning)
    import crewai  # noqa: F401
