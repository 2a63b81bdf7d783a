"""What every checker reports (``SchemaProblem``, ``Problems``) and the checks they share.

The shared node checks: the root, unknown keywords, type names, branch lists.

Layer: providers (imports ``_convert_common``; never the package root). Each provider
module holds its own checker (``check_openai_strict`` in ``_openai``, ``check_gemini``
in ``_gemini``, ``check_mcp_tool`` in ``_mcp``); a check joins this module only
when its rule and its message are the same for every checker that makes it.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from standard_tool.providers._convert_common import (
    is_array,
    is_object,
    path_text,
    value_text,
)

__all__ = [
    "TYPES",
    "Path",
    "Problems",
    "SchemaProblem",
    "check_branches",
    "check_keywords",
    "check_root",
    "check_type_names",
]

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


def check_keywords(
    node: dict[str, Any], path: Path, problems: Problems, allowed: Collection[str], where: str
) -> None:
    """Report each key of ``node`` not in ``allowed``: "keyword 'k' is not supported ``where``"."""
    for key in node:
        if key not in allowed:
            problems.add(path, f"keyword {value_text(key)} is not supported {where}")


def check_type_names(node: dict[str, Any], path: Path, problems: Problems) -> None:
    """Report a ``type`` that is not a type name or a list of them."""
    kind = node.get("type")
    kinds = kind if is_array(kind) else [kind]
    if kind is not None and not all(isinstance(k, str) and k in TYPES for k in kinds):
        problems.add(path, f"type must be type names, not {value_text(kind)}")


def check_branches(node: dict[str, Any], key: str, path: Path, problems: Problems) -> list[Any]:
    """Return the branches under ``key`` to check; report a value that is not a non-empty list.

    Returns:
        The list under ``key``; empty when there is none or it is not a non-empty list.
    """
    branches = node.get(key)
    if branches is None:
        return []
    if not is_array(branches) or not branches:
        problems.add(path, f"{key} must be a non-empty list")
        return []
    return branches


def check_root(schema: object, problems: Problems, what: str) -> bool:
    """Report a root that is not an object with ``"type": "object"``.

    Returns:
        Whether ``schema`` is a JSON object (its nodes can then be checked).
    """
    if not is_object(schema):
        problems.add((), "is not a JSON object")
        return False
    if schema.get("type") != "object":
        problems.add((), f'{what} must have "type": "object"')
    return True
