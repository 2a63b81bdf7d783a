r"""Rich results: content that is not plain data (images, audio, files, resources).

Layer: shared helpers (beside the core; imports only the standard library and
``typing_extensions``, so it needs no optional dependency).

A tool returns plain data (validated by its output schema) or a ``ToolOutput``:
content blocks plus, optionally, a structured value beside them. Each consumer
maps the blocks to its own form (MCP content blocks, an Anthropic image block,
a Gemini part...); where a consumer cannot carry a kind, ``fallback_text`` is
the one bounded text that stands in, so nothing is lost silently.

Examples:
    >>> from standard_tool.content import Image, Text, ToolOutput
    >>> out = ToolOutput([Text("A red dot:"), Image(b"\x89PNG...", "image/png")])
    >>> [type(block).__name__ for block in out.content]
    ['Text', 'Image']
"""

from __future__ import annotations

import base64
import inspect
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Generic, Union

from typing_extensions import TypeAlias, TypeVar

__all__ = [
    "Audio",
    "Content",
    "EmbeddedResource",
    "Image",
    "ResourceLink",
    "Text",
    "ToolOutput",
    "fallback_text",
    "rich_output",
    "structured_output",
]

_S = TypeVar("_S", default=Any)

#: Longest MIME type, URI or name a fallback text repeats.
_MAX_LABEL = 200


def _cut(text: str, limit: int = _MAX_LABEL) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _need(
    cls: str, name: str, value: object, kind: type | tuple[type, ...], optional: bool = False
) -> None:
    if optional and value is None:
        return
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        expected = (
            kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        )
        if optional:
            expected += " or None"
        raise TypeError(
            f"standard_tool.content: {cls}.{name} must be {expected}, not {type(value).__name__}"
        )


@dataclass(frozen=True, slots=True)
class Text:
    """A block of text.

    Attributes:
        text: the text.
    """

    text: str

    def __post_init__(self) -> None:
        _need("Text", "text", self.text, str)


@dataclass(frozen=True, slots=True)
class Image:
    """An image, as bytes with its MIME type.

    Attributes:
        data: the encoded image (PNG, JPEG, GIF, WebP...).
        mime_type: its MIME type, e.g. ``"image/png"``.
    """

    data: bytes = field(repr=False)
    mime_type: str

    def __post_init__(self) -> None:
        _need("Image", "data", self.data, bytes)
        _need("Image", "mime_type", self.mime_type, str)

    @property
    def base64(self) -> str:
        """``data`` in base64, as MCP and most model APIs carry it."""
        return base64.b64encode(self.data).decode("ascii")


@dataclass(frozen=True, slots=True)
class Audio:
    """A sound, as bytes with its MIME type.

    Attributes:
        data: the encoded audio (WAV, MP3...).
        mime_type: its MIME type, e.g. ``"audio/wav"``.
    """

    data: bytes = field(repr=False)
    mime_type: str

    def __post_init__(self) -> None:
        _need("Audio", "data", self.data, bytes)
        _need("Audio", "mime_type", self.mime_type, str)

    @property
    def base64(self) -> str:
        """``data`` in base64."""
        return base64.b64encode(self.data).decode("ascii")


@dataclass(frozen=True, slots=True)
class ResourceLink:
    """A pointer to a file or resource the caller can fetch: its URI, not its bytes.

    Attributes:
        uri: where it is (``file:///...``, ``https://...``, any scheme).
        name: a short name for it.
        mime_type: its MIME type, when known.
        title: a human-readable title.
        description: what it is.
        size: its size in bytes, when known.
    """

    uri: str
    name: str
    mime_type: str | None = None
    title: str | None = None
    description: str | None = None
    size: int | None = None

    def __post_init__(self) -> None:
        _need("ResourceLink", "uri", self.uri, str)
        _need("ResourceLink", "name", self.name, str)
        _need("ResourceLink", "mime_type", self.mime_type, str, optional=True)
        _need("ResourceLink", "title", self.title, str, optional=True)
        _need("ResourceLink", "description", self.description, str, optional=True)
        _need("ResourceLink", "size", self.size, int, optional=True)
        if self.size is not None and self.size < 0:
            raise ValueError(
                "standard_tool.content: ResourceLink.size must be 0 or more (a count of bytes)"
            )


@dataclass(frozen=True, slots=True)
class EmbeddedResource:
    """A file or resource carried whole: its URI and its text or its bytes.

    Exactly one of ``text`` and ``blob`` is given.

    Attributes:
        uri: the resource's URI.
        text: its content, for a text resource.
        blob: its bytes, for a binary one (a PDF, an archive...).
        mime_type: its MIME type, when known.
    """

    uri: str
    text: str | None = None
    blob: bytes | None = field(default=None, repr=False)
    mime_type: str | None = None

    def __post_init__(self) -> None:
        _need("EmbeddedResource", "uri", self.uri, str)
        _need("EmbeddedResource", "mime_type", self.mime_type, str, optional=True)
        if (self.text is None) == (self.blob is None):
            raise TypeError(
                "standard_tool.content: EmbeddedResource takes exactly one of text= and blob="
            )
        if self.text is not None:
            _need("EmbeddedResource", "text", self.text, str)
        if self.blob is not None:
            _need("EmbeddedResource", "blob", self.blob, bytes)

    @property
    def base64(self) -> str | None:
        """``blob`` in base64, or ``None`` for a text resource."""
        return None if self.blob is None else base64.b64encode(self.blob).decode("ascii")


#: One content block of a rich result.
Content: TypeAlias = Union[Text, Image, Audio, ResourceLink, EmbeddedResource]  # noqa: UP007  # 3.10 runs this at import
_KINDS = (Text, Image, Audio, ResourceLink, EmbeddedResource)


@dataclass(frozen=True, slots=True, init=False)
class ToolOutput(Generic[_S]):
    """A tool's result made of content blocks, with an optional structured value beside them.

    Return it from a handler when the result is not only data: an image, a sound,
    a file. ``structured`` is the data part (a consumer that carries structured
    results, as MCP's ``structuredContent`` does, sends it as such; the others
    send its JSON text after the blocks). A ``@tool`` function annotated
    ``-> ToolOutput[Weather]`` declares ``Weather`` as its output schema, and
    ``structured`` is validated against it on every call.

    Examples:
        >>> out = ToolOutput([Text("done")], structured={"rows": 3})
        >>> out.structured
        {'rows': 3}

    Attributes:
        content: the blocks, in order (any iterable of them is accepted; kept as a tuple).
        structured: the structured value, or ``None``.
    """

    content: tuple[Content, ...]
    structured: _S | None

    def __init__(self, content: Iterable[Content] = (), structured: _S | None = None) -> None:
        object.__setattr__(self, "content", tuple(_blocks(content)))
        object.__setattr__(self, "structured", structured)


def _blocks(content: object) -> Iterable[Content]:
    if isinstance(content, (str, bytes)) or not isinstance(content, Iterable):
        raise TypeError(
            "standard_tool.content: ToolOutput.content must be a list of content blocks "
            f"(Text, Image, Audio, ResourceLink, EmbeddedResource), not {type(content).__name__}"
        )
    for index, block in enumerate(content):  # pyright: ignore[reportUnknownVariableType,reportUnknownArgumentType]
        if not isinstance(block, _KINDS):
            raise TypeError(
                f"standard_tool.content: ToolOutput.content[{index}] must be a content block "
                f"(Text, Image, Audio, ResourceLink, EmbeddedResource), not {type(block).__name__}"  # pyright: ignore[reportUnknownArgumentType]
            )
        yield block


#: The classes of most tool outputs: plain data, never content blocks.
_NEVER_RICH: frozenset[type] = frozenset({str, int, float, bool, type(None), dict})


def rich_output(value: object) -> ToolOutput[Any] | None:
    """Return ``value`` as a ``ToolOutput`` when it is rich content, else ``None``.

    A ``ToolOutput`` is returned as is, one content block becomes a ``ToolOutput``
    of it, and a list or tuple of blocks (at least one, nothing else) a
    ``ToolOutput`` of them. Anything else is plain data: ``None``.
    """
    if value.__class__ in _NEVER_RICH:  # the common case, answered at once
        return None
    if isinstance(value, ToolOutput):
        return value  # pyright: ignore[reportUnknownVariableType]
    if isinstance(value, _KINDS):
        return ToolOutput((value,))
    if isinstance(value, (list, tuple)) and value:
        items: list[object] = list(value)  # pyright: ignore[reportUnknownArgumentType]
        blocks: list[Content] = [item for item in items if isinstance(item, _KINDS)]
        if len(blocks) == len(items):
            return ToolOutput(blocks)
    return None


def fallback_text(block: Content, consumer: str) -> str:
    """Return the text that stands in for ``block`` where ``consumer`` cannot carry its kind.

    A ``Text`` is its own text and an ``EmbeddedResource`` with text is that text
    (headed by its URI); every other kind is one bounded line naming the kind, the
    MIME type, the size or URI, and the consumer that could not carry it, so a
    model knows something was there.

    Examples:
        >>> fallback_text(Image(b"1234", "image/png"), "OpenAI Chat")
        '[image/png image, 4 bytes: OpenAI Chat tool results cannot carry images]'
    """
    if isinstance(block, Text):
        return block.text
    if isinstance(block, EmbeddedResource) and block.text is not None:
        return f"[resource {_cut(block.uri)}]\n{block.text}"
    where = f"{consumer} tool results cannot carry"
    if isinstance(block, Image):
        return f"[{_cut(block.mime_type)} image, {len(block.data)} bytes: {where} images]"
    if isinstance(block, Audio):
        return f"[{_cut(block.mime_type)} audio, {len(block.data)} bytes: {where} audio]"
    if isinstance(block, ResourceLink):
        kind = f" ({_cut(block.mime_type)})" if block.mime_type else ""
        return f"[resource link {_cut(block.name)}{kind}: {_cut(block.uri)}]"
    blob = block.blob or b""
    kind = f"{_cut(block.mime_type)} " if block.mime_type else ""
    return f"[{kind}resource {_cut(block.uri)}, {len(blob)} bytes: {where} files]"


class _Success:
    __slots__ = ("value",)
    issues = None

    def __init__(self, value: Any) -> None:
        self.value = value


class _StructuredProps:
    __slots__ = ("_inner", "json_schema", "vendor", "version")

    def __init__(self, inner: Any) -> None:
        self._inner = inner
        self.version = 1
        self.vendor = getattr(inner, "vendor", "standard-tool")
        self.json_schema = getattr(inner, "json_schema", None)

    def validate(self, value: Any) -> Any:
        if not isinstance(value, ToolOutput):
            return self._inner.validate(value)
        rich: ToolOutput[Any] = value  # pyright: ignore[reportUnknownVariableType]
        result = self._inner.validate(rich.structured)
        if inspect.isawaitable(result):
            return _rewrap_later(rich, result)
        return _rewrap(rich, result)


def _rewrap(rich: ToolOutput[Any], result: Any) -> Any:
    if result.issues is not None:
        return result
    return _Success(ToolOutput(rich.content, result.value))


async def _rewrap_later(rich: ToolOutput[Any], pending: Any) -> Any:
    return _rewrap(rich, await pending)


class _StructuredSchema:
    __slots__ = ("__standard__",)

    def __init__(self, inner: Any) -> None:
        self.__standard__ = _StructuredProps(inner)

    def __repr__(self) -> str:
        return f"structured_output({self.__standard__._inner!r})"  # pyright: ignore[reportPrivateUsage]


def structured_output(schema: Any) -> Any:
    """Wrap an output schema so that it validates a ``ToolOutput``'s ``structured`` value.

    The wrapped schema shows the same JSON Schema; ``validate`` checks a
    ``ToolOutput``'s ``structured`` value with ``schema`` and returns the
    ``ToolOutput`` with the validated value (its blocks unchanged), and checks
    plain data as ``schema`` does. A ``@tool`` function annotated
    ``-> ToolOutput[T]`` gets this for ``T`` by itself; pass it to
    ``standard_tool(output_schema=...)`` for a handler that returns ``ToolOutput``.

    Args:
        schema: any Standard Schema (``schema.__standard__``), e.g. from
            ``standard_tool.schemas.pydantic``.
    """
    return _StructuredSchema(schema.__standard__)
