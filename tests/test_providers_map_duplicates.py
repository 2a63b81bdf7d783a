"""A strict or Gemini map sent as key/value entries must not repeat a key: as a dict
the entries would silently collapse to the last one. The decoders refuse it, naming
the entry, and the runners answer the model with that error."""

from __future__ import annotations

import asyncio
import json

import pytest
from typing_extensions import TypedDict

from standard_tool import StandardToolValidationError, Toolkit, tool
from standard_tool.providers import gemini_parameters, openai_strict, run_openai_chat_tool_calls


class Box(TypedDict):
    labels: dict[str, int]


@tool
def tag(tags: dict[str, int]) -> int:
    """Count tags."""
    return len(tags)


@tool
def pack(boxes: list[Box]) -> int:
    """Count labels in boxes."""
    return sum(len(b["labels"]) for b in boxes)


def entries(*pairs: tuple[str, int]) -> list[dict[str, object]]:
    return [{"key": k, "value": v} for k, v in pairs]


def test_distinct_keys_decode_to_a_dict() -> None:
    assert openai_strict(tag).decode({"tags": entries(("a", 1), ("b", 2))}) == {
        "tags": {"a": 1, "b": 2}
    }


def test_a_repeated_key_is_refused_with_the_entry_s_path() -> None:
    with pytest.raises(StandardToolValidationError) as caught:
        openai_strict(tag).decode({"tags": entries(("a", 1), ("a", 2))})
    assert str(caught.value) == (
        "input validation failed: tags.1.key: duplicate key 'a' (each key may appear once)"
    )
    assert caught.value.issues[0].code == "constraint"


def test_a_repeated_key_deep_inside_lists_and_objects_names_the_whole_path() -> None:
    boxes = [{"labels": entries(("x", 1))}, {"labels": entries(("y", 1), ("z", 2), ("y", 3))}]
    with pytest.raises(StandardToolValidationError, match=r"boxes\.1\.labels\.2\.key: duplicate"):
        openai_strict(pack).decode({"boxes": boxes})


def test_gemini_decoding_refuses_it_too() -> None:
    with pytest.raises(StandardToolValidationError, match=r"tags\.1\.key: duplicate key 'a'"):
        gemini_parameters(tag).decode({"tags": entries(("a", 1), ("a", 2))})


def test_the_runner_answers_the_model_and_runs_the_other_calls() -> None:
    calls = [
        {
            "id": "c1",
            "type": "function",
            "function": {
                "name": "tag",
                "arguments": json.dumps({"tags": entries(("a", 1), ("a", 2))}),
            },
        },
        {
            "id": "c2",
            "type": "function",
            "function": {
                "name": "tag",
                "arguments": json.dumps({"tags": entries(("a", 1), ("b", 2))}),
            },
        },
    ]
    out = asyncio.run(
        run_openai_chat_tool_calls({"tool_calls": calls}, Toolkit([tag]), strict=True)
    )
    assert out[0]["content"] == (
        "Error: input validation failed: tags.1.key: duplicate key 'a' (each key may appear once)"
    )
    assert out[1]["content"] == "2"
