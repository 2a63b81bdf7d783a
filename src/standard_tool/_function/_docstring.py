"""Read a function's docstring: its description and per-parameter descriptions.

Understands Google (``Args:``), NumPy (``Parameters`` underlined) and Sphinx
(``:param name:``) styles. The description keeps the summary and body and drops
the parameter, return, yield and raise sections.

Layer: function tools (imports only standard_tool._core, standard_tool._shared and this
package; pydantic/msgspec lazily).
"""

from __future__ import annotations

import inspect
import re

__all__ = ["Docstring", "parse_docstring"]

_GOOGLE_PARAMS = {"args", "arguments", "parameters", "params", "attributes", "keyword args"}
_GOOGLE_DROP = {"returns", "return", "yields", "yield", "raises", "raise", "except", "exceptions"}
_NUMPY_PARAMS = {"parameters", "attributes", "other parameters"}
_NUMPY_DROP = {"returns", "yields", "raises", "receives", "warns"}

_GOOGLE_HEADER = re.compile(r"^([A-Za-z][A-Za-z ]*):\s*$")
_GOOGLE_ITEM = re.compile(r"^\*{0,2}([A-Za-z_]\w*)\s*(?:\([^)]*\))?\s*:\s*(.*)$")
_NUMPY_ITEM = re.compile(r"^\*{0,2}([A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*)\s*(?::.*)?$")
_SPHINX_FIELD = re.compile(r"^:(\w+)(?:\s+([^:]*?))?:\s*(.*)$")


class Docstring:
    """A parsed docstring.

    Attributes:
        description: the summary and body, without parameter/return/raise sections.
        params: parameter name -> description.
    """

    __slots__ = ("description", "params")

    def __init__(self) -> None:
        self.description = ""
        self.params: dict[str, str] = {}


def parse_docstring(doc: str | None) -> Docstring:
    """Parse a docstring in Google, NumPy or Sphinx style (or none)."""
    if not doc:
        return Docstring()
    lines = inspect.cleandoc(doc).splitlines()
    out = Docstring()
    kept: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        under = lines[i + 1].strip() if i + 1 < len(lines) else ""
        if stripped and under and set(under) == {"-"} and not line.startswith(" "):
            name = stripped.lower()
            i, body = _block(lines, i + 2, numpy=True)
            if name in _NUMPY_PARAMS:
                out.params.update(_numpy_items(body))
            elif name not in _NUMPY_DROP:
                kept.extend([line, under, *body])
            continue
        header = _GOOGLE_HEADER.match(line)
        if header:
            name = header.group(1).strip().lower()
            if name in _GOOGLE_PARAMS or name in _GOOGLE_DROP:
                i, body = _block(lines, i + 1, numpy=False)
                if name in _GOOGLE_PARAMS:
                    out.params.update(_google_items(body))
                continue
        sphinx = _SPHINX_FIELD.match(stripped)
        if sphinx and not line.startswith(" "):
            kind, arg, text = sphinx.groups()
            i += 1
            while i < len(lines) and lines[i].startswith(" ") and lines[i].strip():
                text += " " + lines[i].strip()
                i += 1
            if kind in ("param", "parameter", "arg", "argument", "key", "keyword") and arg:
                name = arg.split()[-1]
                out.params[name] = text.strip()
            continue
        kept.append(line)
        i += 1
    out.description = "\n".join(kept).strip()
    out.description = re.sub(r"\n{3,}", "\n\n", out.description)
    return out


def _block(lines: list[str], start: int, *, numpy: bool) -> tuple[int, list[str]]:
    """Collect a section's body: indented lines (Google) or lines up to a blank gap (NumPy)."""
    body: list[str] = []
    i = start
    while i < len(lines):
        line = lines[i]
        if numpy:
            nxt = lines[i + 1].strip() if i + 1 < len(lines) else ""
            if line.strip() and nxt and set(nxt) == {"-"} and not line.startswith(" "):
                break
        elif line.strip() and not line.startswith((" ", "\t")):
            break
        body.append(line)
        i += 1
    while body and not body[-1].strip():
        body.pop()
    return i, body


def _google_items(body: list[str]) -> dict[str, str]:
    items: dict[str, str] = {}
    indent = min((len(b) - len(b.lstrip()) for b in body if b.strip()), default=0)
    current: str | None = None
    for line in body:
        if not line.strip():
            continue
        if len(line) - len(line.lstrip()) == indent:
            m = _GOOGLE_ITEM.match(line.strip())
            if m:
                current = str(m.group(1))
                items[current] = m.group(2).strip()
                continue
        if current is not None:
            items[current] = (items[current] + " " + line.strip()).strip()
    return items


def _numpy_items(body: list[str]) -> dict[str, str]:
    items: dict[str, str] = {}
    names: list[str] = []
    for line in body:
        if not line.strip():
            continue
        if not line.startswith((" ", "\t")):
            m = _NUMPY_ITEM.match(line.strip())
            names = [n.strip().lstrip("*") for n in m.group(1).split(",")] if m else []
            for n in names:
                items[n] = ""
        else:
            for n in names:
                items[n] = (items[n] + " " + line.strip()).strip()
    return items
