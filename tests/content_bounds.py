"""What the tests of the one bound on a rich result's text share (issue 35).

The core suite's ``test_content_bounds.py`` gives every provider writer and the
bridges of ``[all]`` these rich results; the integration environments give them to
the bridges they hold (Agent Framework, Haystack, LlamaIndex).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from hypothesis import example, given
from hypothesis import strategies as st

from standard_tool.content import Audio, EmbeddedResource, Image, ResourceLink, Text, ToolOutput

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
    "base64",
}


def texts_of(payload: Any, key: str | None = None) -> Iterator[str]:
    """Yield the strings of JSON-like ``payload`` a model reads (not data, kinds or names)."""
    if isinstance(payload, str):
        if key not in _NOT_TEXT:
            yield payload
    elif isinstance(payload, dict):
        for k, v in payload.items():  # pyright: ignore[reportUnknownVariableType]
            yield from texts_of(v, str(k))  # pyright: ignore[reportUnknownArgumentType]
    elif isinstance(payload, list):
        for item in payload:  # pyright: ignore[reportUnknownVariableType]
            yield from texts_of(item, key)


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
RICH_OUTPUTS = st.builds(
    ToolOutput,
    st.lists(_BLOCK, max_size=6),
    st.none() | st.dictionaries(st.text(max_size=5), _TEXT, max_size=3),
)

#: A fallback line (an image, a link...) is bounded on its own: 200 characters a label.
_LABELS = 1_000


def assert_within_bound(texts: list[str], output: ToolOutput[Any], max_chars: int) -> None:
    """The texts a consumer wrote of ``output`` are sendable and within the one bound."""
    for text in texts:
        text.encode("utf-8")
    texts_in = sum(
        isinstance(b, Text) or getattr(b, "text", None) is not None for b in output.content
    )
    others = sum(not isinstance(b, Text) for b in output.content)  # a line with a label
    # the blocks' text, the structured text, a line break between blocks, the labels
    bound = 2 * max_chars + texts_in + 1 + _LABELS * others
    assert sum(map(len, texts)) <= bound


def bound_cases(test: Callable[..., None]) -> Callable[..., None]:
    """Give ``test(output, max_chars)`` generated rich results and bounds (and the known cases)."""
    for output, max_chars in BOUND_EXAMPLES:
        test = example(output=output, max_chars=max_chars)(test)
    return given(output=RICH_OUTPUTS, max_chars=st.integers(0, 2_000))(test)


#: Rich results every consumer is given besides the generated ones.
BOUND_EXAMPLES: list[tuple[ToolOutput[Any], int]] = [
    (ToolOutput([Text("x" * 1_000)]), 10),
    (ToolOutput([EmbeddedResource("u", text="y" * 1_000)]), 10),
    (ToolOutput([], {"k": "z" * 1_000}), 10),
    (ToolOutput([Text("\ud800" * 20)]), 5),
    (ToolOutput([Text("a" * 600), Text("b" * 600), EmbeddedResource("u", text="c" * 600)]), 1_000),
]


#: Rich results far past the default bound (100,000 characters), for writers that take none.
HUGE_OUTPUTS: list[ToolOutput[Any]] = [
    ToolOutput([Text("x" * 1_000_000)]),
    ToolOutput([Text(c * 90_000) for c in "abc"] + [EmbeddedResource("u", text="e" * 90_000)]),
    ToolOutput([Image(b"\x89PNG", "image/png"), Text("d" * 300_000)], {"k": "z" * 1_000_000}),
    ToolOutput([Text("\ud800" * 200_000)]),
]
