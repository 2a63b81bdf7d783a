"""What every adapter shares: the cached, per-target JSON Schema emitter, and typing aids.

Layer: schema adapters.
"""

from __future__ import annotations

import marshal
import threading
from collections.abc import Callable, Iterable, Mapping
from typing import Any, ClassVar, cast

from typing_extensions import Protocol, TypeAlias

from standard_tool._core import Issue, StandardToolError
from standard_tool._shared import Snapshot
from standard_tool.dialects import (
    SUPPORTED_TARGETS,
    UnsupportedTargetError,
    convert,
    unsupported_target_message,
)

__all__ = [
    "MAX_DEPTH",
    "DataclassInstance",
    "InvalidSchemaError",
    "JSONSchemaEmitter",
    "ObjectInput",
    "too_deep_issue",
]

#: ``emit(mode, library_options)``: the canonical draft 2020-12 schema of one side.
Emit = Callable[[str, Any], "dict[str, Any]"]


class DataclassInstance(Protocol):
    """Static typing only: an instance of a dataclass (what ``type[...]`` of one makes)."""

    __dataclass_fields__: ClassVar[dict[str, Any]]


#: Static typing only: what a schema of a record type (a model, a dataclass, a
#: Struct) accepts besides an instance: the JSON object it is validated from.
ObjectInput: TypeAlias = "Mapping[str, Any]"


class InvalidSchemaError(StandardToolError, ValueError):
    """A schema handed to an adapter is not valid; the message names where.

    For example a JSON Schema dict that its own metaschema rejects. Also a
    ``ValueError``.
    """

    __slots__ = ()


#: Held while an emitter fills its cache: one lock for all, reentrant (a lock per emitter is
#: one more object per tool for the garbage collector to walk, for a rare event).
_FILLING = threading.RLock()


class JSONSchemaEmitter:
    """A ``json_schema`` object: ``input``/``output`` for any supported target.

    The library's schema is built and converted once per (side, target) and cached;
    every call returns a fresh copy, so callers may mutate what they get. A call with
    ``library_options`` bypasses the cache, as the options may change the schema.
    """

    __slots__ = ("_cache", "_emit", "_frozen", "_native")

    def __init__(
        self, emit: Emit | None = None, *, frozen: bytes | None = None, native: bool = False
    ) -> None:
        """Emit what ``emit(side, library_options)`` returns, or else what ``frozen`` holds.

        ``frozen`` is the ``marshal`` bytes of one schema for both sides; ``native``
        says it is draft 2020-12 already (then sent as it is for that target).
        """
        self._emit = emit
        self._frozen = frozen
        self._native = native and frozen is not None
        # Made on the first conversion (a schema sent as it is never needs one).
        self._cache: dict[tuple[str, str], Snapshot[dict[str, Any]]] | None = None

    def input(self, *, target: str, library_options: Any = None) -> dict[str, Any]:
        """Return the JSON Schema of what ``validate`` accepts, for ``target``."""
        return self._get("input", target, library_options)

    def output(self, *, target: str, library_options: Any = None) -> dict[str, Any]:
        """Return the JSON Schema of what ``validate`` returns, for ``target``."""
        return self._get("output", target, library_options)

    def _get(self, side: str, target: str, library_options: Any) -> dict[str, Any]:
        if target not in SUPPORTED_TARGETS:
            raise UnsupportedTargetError(unsupported_target_message(target))
        if library_options is not None:
            return convert(self._source(side, library_options), target)
        if self._native and target == "draft-2020-12":
            return cast("dict[str, Any]", marshal.loads(cast("bytes", self._frozen)))
        key = (side, target)
        cache = self._cache
        cached = None if cache is None else cache.get(key)
        if cached is None:
            with _FILLING:
                cache = self._cache
                if cache is None:
                    cache = self._cache = {}
                cached = cache.get(key)
                if cached is None:
                    cached = cache[key] = Snapshot(convert(self._source(side, None), target))
        return cached.get()

    def _source(self, side: str, library_options: Any) -> dict[str, Any]:
        emit = self._emit
        if emit is None:
            return cast("dict[str, Any]", marshal.loads(cast("bytes", self._frozen)))
        return emit(side, library_options)


#: How deep a value may nest before the issue for a validator's ``RecursionError`` names it.
MAX_DEPTH = 100


def too_deep_issue(value: object) -> Issue:
    """Say where a value the validator could not walk loops or nests too deep.

    A depth-first walk without recursion, visiting each list or dict once: one that
    contains itself is named at the path where it repeats, else the first container
    ``MAX_DEPTH`` levels down. When neither is found (the schema's own ``$ref`` chain
    was what ran deep) the issue has no path.
    """
    open_ids: set[int] = set()  # containers on the current path
    done: set[int] = set()  # containers walked already (shared ones are walked once)
    stack: list[tuple[object, tuple[str | int, ...]] | int] = [(value, ())]
    while stack:
        entry = stack.pop()
        if isinstance(entry, int):  # leaving a container
            open_ids.discard(entry)
            done.add(entry)
            continue
        node, path = entry
        if isinstance(node, dict):
            children: Iterable[tuple[str | int, object]] = cast("dict[str, object]", node).items()
        elif isinstance(node, list):
            children = enumerate(cast("list[object]", node))
        else:
            continue
        key = id(cast(object, node))
        if key in open_ids:
            return Issue("contains itself", path, "invalid")
        if key in done:
            continue
        if len(path) >= MAX_DEPTH:
            return Issue(f"nested more than {MAX_DEPTH} levels deep", path, "invalid")
        open_ids.add(key)
        stack.append(key)
        stack.extend((child, (*path, name)) for name, child in reversed(list(children)))
    return Issue("nested too deeply to check", None, "invalid")
