"""What every checker reports: ``SchemaProblem``, and the bounded list that collects them.

Layer: providers (imports ``_convert_common``; never the package root). Each provider
module holds its own checker (``check_openai_strict`` in ``_strict``, ``check_gemini``
in ``_gemini``, ``check_mcp_tool`` in ``_mcp``).
"""

from __future__ import annotations

from dataclasses import dataclass

from standard_tool.providers._convert_common import (
    path_text,
)

__all__ = ["TYPES", "Path", "Problems", "SchemaProblem"]

Path = tuple[str | int, ...]

_MAX_PROBLEMS = 200
#: The JSON Schema type names.
TYPES = frozenset({"string", "number", "integer", "boolean", "object", "array", "null"})


@dataclass(frozen=True, slots=True)
class SchemaProblem:
    """One thing a target would reject.

    Attributes:
        path: where, as a tuple of keys from the checked object's root.
        message: why, in a short sentence.

    ``str(problem)`` is ``"<JSON pointer> <message>"``.
    """

    path: tuple[str | int, ...]
    message: str

    def __str__(self) -> str:
        return f"{path_text(self.path)} {self.message}"


class Problems:
    """The problems found so far, at most ``_MAX_PROBLEMS`` of them."""

    def __init__(self) -> None:
        self.items: list[SchemaProblem] = []

    def add(self, path: Path, message: str) -> None:
        if len(self.items) < _MAX_PROBLEMS:
            self.items.append(SchemaProblem(path, message))
