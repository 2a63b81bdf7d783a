"""The runners' common-case shortcuts answer exactly as the general path does."""

from __future__ import annotations

import asyncio
import math
from typing import Any

import pytest

from standard_tool import Toolkit, tool
from standard_tool.providers import run_openai_chat_tool_calls


@tool
def echo(text: str) -> str:
    """Echo the text."""
    return text


KIT = Toolkit([echo])
CALL = {"id": "c1", "type": "function", "function": {"name": "echo", "arguments": '{"text": "hi"}'}}


def _run(response: Any, timeout: Any = math.inf) -> Any:
    return asyncio.run(run_openai_chat_tool_calls(response, KIT, timeout=timeout))


class Floaty(float):
    pass


@pytest.mark.parametrize("timeout", [math.nan, 0.0, -1.0, -math.inf, True, 0, "1"])
def test_a_bad_timeout_is_still_refused(timeout: Any) -> None:
    with pytest.raises((TypeError, ValueError), match=r"^run_openai_chat_tool_calls: timeout"):
        _run({"choices": [{"message": {"tool_calls": []}}]}, timeout)


@pytest.mark.parametrize("timeout", [None, 5, 2.5, math.inf, Floaty(3.0)])
def test_a_good_timeout_runs_the_calls(timeout: Any) -> None:
    assert _run([CALL], timeout)[0]["content"] == "hi"


@pytest.mark.parametrize(
    ("response", "answer"),
    [
        ({"choices": [{"message": {"tool_calls": [CALL]}}]}, 1),
        ({"choices": [{"message": {"tool_calls": (CALL,)}}]}, 1),
        ({"choices": [{"message": {"tool_calls": None}}]}, 0),
        ({"choices": [{"message": {"role": "assistant"}}]}, 0),
        ({"choices": [{"message": None}]}, 0),
        ({"choices": []}, 0),
        ({"tool_calls": [CALL]}, 1),
        ({"choices": [{"message": {"tool_calls": CALL}}]}, TypeError),
        ({"choices": {"message": {}}}, TypeError),
        ({"function": CALL["function"], "choices": []}, TypeError),
        ({"function": None, "choices": [{"message": {"tool_calls": [CALL]}}]}, 1),
    ],
)
def test_a_decoded_response_reads_as_before(response: Any, answer: Any) -> None:
    if answer is TypeError:
        with pytest.raises(TypeError):
            _run(response)
    else:
        assert len(_run(response)) == answer
