"""One bound on the text of a result, in every consumer, for every content type (issue 35).

The text blocks of a rich result (``Text`` and text ``EmbeddedResource``) share
``max_chars``; the structured value's JSON text is cut at ``max_chars`` too. Each
consumer that writes rich results is given generated blocks of any size; the text
it writes stays within the bound, and every string in it can be encoded.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from standard_tool import standard_tool
from standard_tool.content import Audio, EmbeddedResource, Image, ResourceLink, Text, ToolOutput
from standard_tool.providers import (
    anthropic_content,
    anthropic_tool_result,
    bedrock_content,
    bedrock_tool_result,
    gemini_function_response,
    mcp_call_tool_result,
    openai_responses_content,
    openai_tool_output,
    run_anthropic_tool_calls,
    run_bedrock_tool_calls,
    run_openai_responses_tool_calls,
    text_result,
)

#: Keys whose strings are not text a model reads: base64 data, names of kinds.
_NOT_TEXT = {
    "type",
    "status",
    "name",
    "data",
    "image_url",
    "file_data",
    "media_type",
    "format",
    "mimeType",
    "uri",
}


def _texts(payload: Any, key: str | None = None) -> Iterator[str]:
    if isinstance(payload, str):
        if key not in _NOT_TEXT:
            yield payload
    elif isinstance(payload, dict):
        for k, v in payload.items():  # pyright: ignore[reportUnknownVariableType]
            yield from _texts(v, str(k))  # pyright: ignore[reportUnknownArgumentType]
    elif isinstance(payload, list):
        for item in payload:  # pyright: ignore[reportUnknownVariableType]
            yield from _texts(item, key)


CONSUMERS: dict[str, Callable[[ToolOutput[Any], int], Any]] = {
    "anthropic_content": anthropic_content,
    "anthropic_tool_result": lambda o, n: anthropic_tool_result(o, max_chars=n),
    "openai_responses_content": openai_responses_content,
    "openai_tool_output": lambda o, n: openai_tool_output(o, max_chars=n),
    "bedrock_content": bedrock_content,
    "bedrock_tool_result": lambda o, n: bedrock_tool_result(o, max_chars=n),
    "gemini_function_response": lambda o, n: gemini_function_response(o, name="t", max_chars=n),
    "mcp_call_tool_result": lambda o, n: mcp_call_tool_result(o, max_chars=n, error_max_chars=n),
    "text_result": lambda o, n: text_result(o, max_chars=n),
}

_TEXT = st.text(max_size=300) | st.builds(
    lambda n, c: c * n, st.integers(0, 5_000), st.text(min_size=1, max_size=1)
)
_BLOCK = st.one_of(
    st.builds(Text, _TEXT),
    st.builds(lambda t: EmbeddedResource("file:///r.txt", text=t, mime_type="text/plain"), _TEXT),
    st.just(Image(b"\x89PNG", "image/png")),
    st.just(Audio(b"RIFF", "audio/wav")),
    st.just(EmbeddedResource("file:///r.pdf", blob=b"%PDF", mime_type="application/pdf")),
    st.builds(lambda d: ResourceLink("file:///l", "l", description=d), st.text(max_size=50)),
)
_OUTPUT = st.builds(
    ToolOutput,
    st.lists(_BLOCK, max_size=6),
    st.none() | st.dictionaries(st.text(max_size=5), _TEXT, max_size=3),
)

#: A fallback line (an image, a link...) is bounded on its own: 200 characters a label.
_LABELS = 1_000


@pytest.mark.parametrize("consumer", CONSUMERS)
@given(output=_OUTPUT, max_chars=st.integers(0, 2_000))
@example(output=ToolOutput([Text("x" * 1_000)]), max_chars=10)
@example(output=ToolOutput([EmbeddedResource("u", text="y" * 1_000)]), max_chars=10)
@example(output=ToolOutput([], {"k": "z" * 1_000}), max_chars=10)
@example(output=ToolOutput([Text("\ud800" * 20)]), max_chars=5)
def test_the_text_of_a_rich_result_stays_within_max_chars(
    consumer: str, output: ToolOutput[Any], max_chars: int
) -> None:
    written = CONSUMERS[consumer](output, max_chars)
    texts = list(_texts(written))
    for text in texts:
        text.encode("utf-8")
    texts_in = sum(
        isinstance(b, Text) or getattr(b, "text", None) is not None for b in output.content
    )
    others = sum(not isinstance(b, Text) for b in output.content)  # a line with a label
    # the blocks' text, the structured text, a line break between blocks, the labels
    bound = 2 * max_chars + texts_in + 1 + _LABELS * others
    assert sum(map(len, texts)) <= bound


def _huge() -> Any:
    return standard_tool(
        name="huge",
        description="A million characters.",
        execute=lambda: ToolOutput(
            [Text("x" * 500_000), EmbeddedResource("u", text="y" * 500_000)]
        ),
    )


async def test_the_runners_answer_a_million_characters_with_the_default_bound() -> None:
    block = {"type": "tool_use", "id": "a", "name": "huge", "input": {}}
    anthropic = await run_anthropic_tool_calls([block], [_huge()])
    item = {"type": "function_call", "call_id": "a", "name": "huge", "arguments": "{}"}
    responses = await run_openai_responses_tool_calls([item], [_huge()])
    converse = {
        "output": {
            "message": {"content": [{"toolUse": {"toolUseId": "a", "name": "huge", "input": {}}}]}
        }
    }
    bedrock = await run_bedrock_tool_calls(converse, [_huge()])
    for reply in (anthropic, responses, bedrock):
        assert sum(map(len, _texts(reply))) <= 100_000 + 100, json.dumps(reply)[:200]
