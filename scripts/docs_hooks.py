r"""MkDocs hooks of the documentation site (mkdocs.yml names this file under ``hooks``).

- A fenced ```` ```diagram ```` block in a page is drawn as an SVG figure when the site is
  built, so a picture's source is text beside the prose it illustrates. Two kinds:

  ``layer:`` lines stack boxes in the order written (the first line is drawn on top);
  ``|`` splits one layer into boxes side by side. ``step:`` lines are drawn top to
  bottom joined by arrows, and one ``branch:`` line is drawn beside them, joined to every
  step by a dashed arrow (where any step can go instead). ``title:`` is the figure's
  caption, read by screen readers too.

- In a table, Markdown needs a ``|`` inside code written as ``\|`` (GitHub removes the
  backslash); Python-Markdown keeps it, so it is removed here from code in table cells.
"""

from __future__ import annotations

import html
import re
import textwrap
from typing import Any

FENCE = re.compile(r"^```diagram[^\n]*\n(.*?)^```[ \t]*$", re.DOTALL | re.MULTILINE)
CELL = re.compile(r"(<t[dh][^>]*>)(.*?)(</t[dh]>)", re.DOTALL)
CODE = re.compile(r"(<code[^>]*>)(.*?)(</code>)", re.DOTALL)

WIDTH = 720
CHAR = 7.2  # average width of a 13px sans-serif character, for wrapping
LINE = 17
PAD = 10
GAP = 14
FILL, STROKE, INK, NOTE = "#e8eaf6", "#3f51b5", "#1a1a1a", "#fff3e0"


class DiagramError(ValueError):
    """A diagram's source cannot be drawn; the build stops and says which line."""


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    """Draw every ``diagram`` fence of a page."""
    return FENCE.sub(lambda match: render(match.group(1)), markdown)


def on_page_content(content: str, page: Any, config: Any, files: Any) -> str:
    r"""Turn ``\|`` back into ``|`` in code inside table cells."""

    def cell(match: re.Match[str]) -> str:
        inner = CODE.sub(lambda c: f"{c.group(1)}{_unescaped(c.group(2))}{c.group(3)}", match[2])
        return match.group(1) + inner + match.group(3)

    return CELL.sub(cell, content)


def _unescaped(code: str) -> str:
    return code.replace("\\|", "|")


def render(source: str) -> str:
    """Return the SVG figure a diagram's source describes."""
    title, layers, steps, branch = "", [], [], None
    for number, raw in enumerate(source.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        kind, sep, text = line.partition(":")
        text = text.strip()
        if not sep or not text:
            raise DiagramError(f"diagram line {number}: expected 'kind: text', got {raw!r}")
        if kind == "title":
            title = text
        elif kind == "layer":
            layers.append([part.strip() for part in text.split("|")])
        elif kind == "step":
            steps.append(text)
        elif kind == "branch" and branch is None:
            branch = text
        else:
            raise DiagramError(f"diagram line {number}: unknown or repeated kind {kind!r}")
    if not title or bool(layers) == bool(steps):
        raise DiagramError("a diagram has a title and either layer: or step: lines")
    body, height = _layers(layers) if layers else _steps(steps, branch)
    label = html.escape(title)
    ident = "diagram-" + re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")[:48]
    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" '
        f'viewBox="0 0 {WIDTH} {height:.0f}" '
        f'role="img" aria-labelledby="{ident}" style="max-width:100%;height:auto" '
        'font-family="sans-serif" font-size="13">'
        f'<title id="{ident}">{label}</title>'
        f'<defs><marker id="{ident}-arrow" viewBox="0 0 10 10" refX="9" refY="5" '
        f'markerWidth="7" markerHeight="7" orient="auto"><path d="M0,0 L10,5 L0,10 z" '
        f'fill="{STROKE}"/></marker></defs>{body.replace("url(#arrow)", f"url(#{ident}-arrow)")}'
        "</svg>"
    )
    return f'\n<figure class="diagram">{svg}<figcaption>{label}</figcaption></figure>\n'


def _wrapped(text: str, w: float) -> list[str]:
    return textwrap.wrap(text, max(int((w - 2 * PAD) / CHAR), 8))


def _box(
    x: float, y: float, w: float, text: str, fill: str = FILL, dashed: bool = False, h: float = 0
) -> tuple[str, float]:
    lines = _wrapped(text, w)
    h = max(h, len(lines) * LINE + 2 * PAD)
    top = y + (h - len(lines) * LINE) / 2  # the text centred in the box
    dash = ' stroke-dasharray="5,4"' if dashed else ""
    parts = [
        f'<rect x="{x:.0f}" y="{y:.0f}" width="{w:.0f}" height="{h:.0f}" rx="6" '
        f'fill="{fill}" stroke="{STROKE}"{dash}/>'
    ]
    for index, text_line in enumerate(lines):
        ty = top + LINE * index + 13
        parts.append(
            f'<text x="{x + w / 2:.0f}" y="{ty:.0f}" text-anchor="middle" fill="{INK}">'
            f"{html.escape(text_line)}</text>"
        )
    return "".join(parts), h


def _layers(layers: list[list[str]]) -> tuple[str, float]:
    parts, y = [], 1.0
    for boxes in layers:
        w = (WIDTH - 2 - GAP * (len(boxes) - 1)) / len(boxes)
        tallest = max(len(_wrapped(text, w)) for text in boxes) * LINE + 2 * PAD
        for i, text in enumerate(boxes):  # every box of a layer has the layer's height
            parts.append(_box(1 + i * (w + GAP), y, w, text, h=tallest)[0])
        y += tallest + GAP / 2
    return "".join(parts), y + 1


def _steps(steps: list[str], branch: str | None) -> tuple[str, float]:
    main = WIDTH * 0.62 if branch else WIDTH - 2
    parts, y, middles = [], 1.0, []
    for index, text in enumerate(steps):
        svg, h = _box(1, y, main, text)
        parts.append(svg)
        middles.append(y + h / 2)
        if index < len(steps) - 1:
            parts.append(
                f'<line x1="{main / 2:.0f}" y1="{y + h:.0f}" x2="{main / 2:.0f}" '
                f'y2="{y + h + GAP * 2 - 2:.0f}" stroke="{STROKE}" marker-end="url(#arrow)"/>'
            )
        y += h + GAP * 2
    height = y - GAP * 2 + 1
    if branch:
        bx, bw = main + GAP * 3, WIDTH - main - GAP * 3 - 1
        svg, h = _box(bx, height / 2 - 40, bw, branch, fill=NOTE, dashed=True)
        parts.append(svg)
        target = height / 2 - 40 + h / 2
        for middle in middles[1:-1]:
            parts.append(
                f'<line x1="{main + 1:.0f}" y1="{middle:.0f}" x2="{bx - 2:.0f}" y2="{target:.0f}" '
                f'stroke="{STROKE}" stroke-dasharray="4,4" marker-end="url(#arrow)"/>'
            )
    return "".join(parts), height
