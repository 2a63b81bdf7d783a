"""The errors page lists every exception class the library raises on purpose.

Read from the source (no imports, so modules whose framework is not installed
here count too): every class deriving, directly or through another, from
``StandardToolError`` must appear in the hierarchy drawn on docs/errors.md.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def error_classes() -> set[str]:
    bases: dict[str, set[str]] = {}
    for path in (ROOT / "src" / "standard_tool").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                names = {
                    b.id if isinstance(b, ast.Name) else getattr(b, "attr", "") for b in node.bases
                }
                bases.setdefault(node.name, set()).update(names)
    found = {"StandardToolError"}
    grew = True
    while grew:
        grew = False
        for name, parents in bases.items():
            if name not in found and parents & found:
                found.add(name)
                grew = True
    return {name for name in found if not name.startswith("_")}


def test_every_library_error_is_in_the_hierarchy_on_the_errors_page() -> None:
    page = (ROOT / "docs" / "errors.md").read_text(encoding="utf-8")
    tree = page.split("```text", 1)[1].split("```", 1)[0]
    drawn = {
        line.replace("│", " ").replace("├──", " ").replace("└──", " ").split()[0]
        for line in tree.splitlines()
        if line.strip() and line.strip() != "Exception"
    }
    classes = error_classes()
    assert len(classes) > 10
    assert sorted(classes - drawn) == []
    assert sorted(drawn - classes - {"Exception"}) == []
