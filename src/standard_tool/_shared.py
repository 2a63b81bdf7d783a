"""Small helpers shared by every layer above the core: one of each, used everywhere.

Layer: shared helpers (beside the core; imports only ``standard_tool._core``).

- ``truncate_text`` / ``safe_str`` / ``safe_repr``: the one rule for bounding text
  (the first two re-exported from the core, which needs them for its own messages).
- ``is_async_callable``: the one rule for "calling this returns a coroutine".
- ``resolve_pointer`` / ``pointer_tokens`` / ``pointer_text``: the one JSON
  Pointer reader and writer (RFC 6901 inside a URI fragment, so ``%20`` is a
  space and ``~1`` a slash).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any
from urllib.parse import quote, unquote

from standard_tool._core import is_async_callable, safe_str, truncate_text

__all__ = [
    "MISSING",
    "is_async_callable",
    "pointer_ref",
    "pointer_text",
    "pointer_tokens",
    "resolve_pointer",
    "safe_repr",
    "safe_str",
    "truncate_text",
]


def safe_repr(obj: object, limit: int = 80) -> str:
    """Return ``repr(obj)`` cut to ``limit`` characters, never raising."""
    try:
        text = repr(obj)
    except Exception:  # a hostile __repr__ must not turn a message into a crash
        text = f"<{type(obj).__name__} object: repr() failed>"
    return truncate_text(text, limit)


class _Missing:
    """The type of ``MISSING``: a pointer that resolves to nothing."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "MISSING"


#: What ``resolve_pointer`` returns for a pointer that leads nowhere.
MISSING: Any = _Missing()


def pointer_tokens(fragment: str) -> list[str]:
    """Return the reference tokens of a URI-fragment JSON Pointer (``#/a/b~1c`` or ``/a/b``).

    Percent-escapes are decoded first (the pointer sits in a URI), then ``~1`` and
    ``~0``, in that order. ``"#"`` and ``""`` (the whole document) give ``[]``.
    """
    text = fragment[1:] if fragment.startswith("#") else fragment
    text = unquote(text)
    if not text:
        return []
    return [token.replace("~1", "/").replace("~0", "~") for token in text.split("/")[1:]]


def resolve_pointer(document: Any, fragment: str) -> Any:
    """Return the value ``fragment`` (``#/...``) points to in ``document``, or ``MISSING``.

    Array tokens must be canonical decimal indices (``0``, ``12``; not ``01`` or ``-1``).
    """
    node = document
    for token in pointer_tokens(fragment):
        if isinstance(node, Mapping):
            if token not in node:
                return MISSING
            node = node[token]  # pyright: ignore[reportUnknownVariableType]
        elif isinstance(node, list):
            if not token.isdigit() or (token != "0" and token.startswith("0")):
                return MISSING
            index = int(token)
            if index >= len(node):  # pyright: ignore[reportUnknownArgumentType]
                return MISSING
            node = node[index]  # pyright: ignore[reportUnknownVariableType]
        else:
            return MISSING
    return node  # pyright: ignore[reportUnknownVariableType]


def pointer_text(path: Iterable[object]) -> str:
    """Return the JSON Pointer (``/a/0``, RFC 6901) of a path of keys and indices.

    ``"#" + pointer_ref(path)`` is the same pointer as a URI fragment.
    """
    return "".join("/" + str(part).replace("~", "~0").replace("/", "~1") for part in path)


def pointer_ref(path: Iterable[object]) -> str:
    """Return the URI-fragment form of ``pointer_text(path)``, percent-encoded (``#/a%20b``)."""
    return "#" + quote(pointer_text(path), safe="/~!$&'()*+,;=:@")
