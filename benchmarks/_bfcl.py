"""The Berkeley Function Calling Leaderboard's tool schemas, as JSON Schema dicts.

The corpus is read from the data files of the published ``bfcl-eval`` package,
downloaded once with ``pip download --no-deps`` into ``benchmarks/.data/`` (git
ignores it; nothing of it is committed). Every distinct function declaration of
the leaderboard's question files is kept; ``possible_answer`` files hold answers,
not declarations, and are skipped.

BFCL spells a few types its own way (Python's ``dict``, ``float``, ``tuple`` and
``any``; Java and JavaScript type names in those categories). They are mapped to
JSON Schema types as the leaderboard maps them for OpenAI-style models: ``any``
becomes a schema without ``type``.
"""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

#: The release the figures in docs/performance.md were measured on.
VERSION = "2026.3.23"
DATA = Path(__file__).parent / ".data"

_TYPES = {
    "dict": "object",
    "float": "number",
    "tuple": "array",
    "String": "string",
    "char": "string",
    "Array": "array",
    "ArrayList": "array",
    "HashMap": "object",
    "long": "integer",
    "double": "number",
    "Boolean": "boolean",
}


def _wheel() -> Path:
    DATA.mkdir(exist_ok=True)
    found = sorted(DATA.glob(f"bfcl_eval-{VERSION}-*.whl"))
    if not found:
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "--quiet",
                "--no-deps",
                "--disable-pip-version-check",
                "-d",
                str(DATA),
                f"bfcl-eval=={VERSION}",
            ],
            check=True,
        )
        found = sorted(DATA.glob(f"bfcl_eval-{VERSION}-*.whl"))
    return found[0]


def _declarations(obj: Any) -> Iterator[dict[str, Any]]:
    if isinstance(obj, dict):
        if isinstance(obj.get("name"), str) and isinstance(obj.get("parameters"), dict):
            yield obj
            return
        for value in obj.values():
            yield from _declarations(value)
    elif isinstance(obj, list):
        for value in obj:
            yield from _declarations(value)


def _json_schema(node: Any) -> Any:
    if isinstance(node, list):
        return [_json_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: _json_schema(value) for key, value in node.items()}
    kind = out.get("type")
    if isinstance(kind, str):
        if kind in ("any", ""):
            del out["type"]
        else:
            out["type"] = _TYPES.get(kind, kind)
    return out


def load() -> list[dict[str, Any]]:
    """Every distinct declaration: ``{"name", "description", "parameters"}``, in JSON Schema."""
    seen: dict[str, dict[str, Any]] = {}
    with zipfile.ZipFile(_wheel()) as wheel:
        for name in sorted(wheel.namelist()):
            if not name.endswith(".json") or "/data/" not in name or "possible_answer" in name:
                continue
            text = wheel.read(name).decode()
            try:
                documents = [json.loads(text)]
            except json.JSONDecodeError:
                documents = [json.loads(line) for line in text.splitlines() if line.strip()]
            for document in documents:
                for declaration in _declarations(document):
                    seen.setdefault(json.dumps(declaration, sort_keys=True), declaration)
    return [
        {
            "name": d["name"],
            "description": d.get("description") or d["name"],
            "parameters": _json_schema(d["parameters"]),
        }
        for d in seen.values()
    ]
