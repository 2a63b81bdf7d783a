"""What every adapter shares: the cached, per-target JSON Schema emitter, and typing aids.

Layer: schema adapters.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from typing_extensions import Protocol, TypeAlias

from standard_tool._core import StandardToolError
from standard_tool._shared import Snapshot
from standard_tool.dialects import (
    SUPPORTED_TARGETS,
    UnsupportedTargetError,
    convert,
    unsupported_target_message,
)

__all__ = ["DataclassInstance", "InvalidSchemaError", "JSONSchemaEmitter", "ObjectInput"]

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


class JSONSchemaEmitter:
    """A ``json_schema`` object: ``input``/``output`` for any supported target.

    The library's schema is built and converted once per (side, target) and cached;
    every call returns a fresh copy, so callers may mutate what they get. A call with
    ``library_options`` bypasses the cache, as the options may change the schema.
    """

    __slots__ = ("_cache", "_emit", "_lock")

    def __init__(self, emit: Emit) -> None:
        self._emit = emit
        self._cache: dict[tuple[str, str], Snapshot[dict[str, Any]]] = {}
        self._lock = threading.Lock()

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
            return convert(self._emit(side, library_options), target)
        key = (side, target)
        cached = self._cache.get(key)
        if cached is None:
            with self._lock:
                cached = self._cache.get(key)
                if cached is None:
                    cached = Snapshot(convert(self._emit(side, None), target))
                    self._cache[key] = cached
        return cached.get()
