"""The Google Gen AI SDK bridge refuses an SDK too old to declare its functions.

On Python 3.10 the newest google-genai is older than 2.34, so the real refusal is
tested there; on newer interpreters the installed release is read as 2.33.0.
"""

from __future__ import annotations

import importlib.metadata

import pytest

from standard_tool import tool
from standard_tool.integrations.google_genai import to_google_genai


@tool
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


def test_an_older_sdk_is_refused_saying_what_to_use(monkeypatch: pytest.MonkeyPatch) -> None:
    installed = importlib.metadata.version("google-genai")
    if tuple(int(p) for p in installed.split(".")[:2]) >= (2, 34):
        real = importlib.metadata.version
        monkeypatch.setattr(
            importlib.metadata,
            "version",
            lambda name: "2.33.0" if name == "google-genai" else real(name),
        )
    with pytest.raises(ImportError, match=r"needs google-genai 2\.34 or later") as refused:
        to_google_genai(add)
    assert "run_gemini_function_calls" in str(refused.value)
