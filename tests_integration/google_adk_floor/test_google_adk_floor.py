"""The google_adk bridge's tests, run against the oldest release its extra allows (1.19.0).

ADK 1.19 does not take media parts out of a tool's response, so the bridge's shim
writes each image as its bounded fallback line there: the newest release's rich
result test is replaced by one that checks that.
"""

from __future__ import annotations

from typing import Any

from tests.fakes.server import FakeModel
from tests_integration.adk_crewai_llama_dspy import test_google_adk
from tests_integration.adk_crewai_llama_dspy.test_google_adk import *  # noqa: F403  (the same tests, collected here)
from tests_integration.adk_crewai_llama_dspy.test_google_adk import (
    PATH,
    PNG,
    _call,  # pyright: ignore[reportPrivateUsage]
    _generated,  # pyright: ignore[reportPrivateUsage]
    _run,  # pyright: ignore[reportPrivateUsage]
)

from standard_tool import tool
from standard_tool.content import Audio, Image, Text, ToolOutput
from standard_tool.integrations.google_adk import to_google_adk

# ADK 1.19 cannot send media parts: replaced below.
del globals()["test_a_rich_result_reaches_the_model_as_function_response_parts"]
assert hasattr(test_google_adk, "test_a_rich_result_reaches_the_model_as_function_response_parts")


def test_a_rich_result_reaches_the_model_with_its_media_as_fallback_lines(
    model: FakeModel,
) -> None:
    @tool
    def snapshot() -> ToolOutput:
        """Take a picture."""
        return ToolOutput(
            [Text("The dashboard:"), Image(PNG, "image/png"), Audio(b"RIFF", "audio/wav")],
            structured={"rows": 3},
        )

    def second(body: dict[str, Any]) -> None:
        (part,) = body["contents"][-1]["parts"]
        sent = part["functionResponse"]
        assert sent["id"] == "c1"
        assert sent["response"] == {
            "output": "The dashboard:\n"
            f"[image/png image, {len(PNG)} bytes: Google ADK 1.19.0 tool results cannot "
            "carry images]\n"
            "[audio/wav audio, 4 bytes: Google ADK 1.19.0 tool results cannot carry audio]",
            "structured": {"rows": 3},
        }
        assert "parts" not in sent  # no bytes in the response's JSON either

    model.expect(PATH, _generated([_call("snapshot", {}, "c1")]))
    model.expect(PATH, _generated([{"text": "a dot"}]), second)

    assert _run(model, [to_google_adk(snapshot)]) == "a dot"
