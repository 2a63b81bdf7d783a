"""What a docs page's install line installs, and whether its examples import only that.

A page's examples run where the suite runs them: the core suite's environment for
the ```` ```python ```` pages, an integration environment for a framework's page.
Those environments hold more than a reader gets from the page's install line, so an
example could import what the line never installs and still pass there.
``unmet_imports`` closes that gap in the environment that runs the page: it runs the
page's examples in a fresh interpreter, recording every module they import and
every module standard-tool imports for them (``standard_tool.testing`` imports
hypothesis only when called), then follows the page's install line through the
installed distributions' own requirements (standard-tool's extras, then each
dependency's, transitively) and names every recorded module that none of those
distributions provides. What a dependency imports for itself is its own business.

A page without an install line is read with the README's ``[all]`` line.
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

INSTALL = re.compile(r"pip install [^`\n]+")

# Run in a fresh interpreter: the examples one after another, each as its own module
# (as tests/test_docs.py runs them), recording the top-level modules imported by an
# example or by standard-tool's own code.
RUNNER = """
import builtins, json, sys, types
seen = set()
real = builtins.__import__
def record(name, globals=None, locals=None, fromlist=(), level=0):
    importer = (globals or {}).get("__name__") or ""
    if level == 0 and importer.startswith(("standard_tool", "doc_example_")):
        seen.add(name.partition(".")[0])
    return real(name, globals, locals, fromlist, level)
builtins.__import__ = record
for path, line, source in json.load(sys.stdin):
    module = types.ModuleType(f"doc_example_{line}")
    sys.modules[module.__name__] = module
    exec(compile("\\n" * (line - 1) + source, path, "exec", dont_inherit=True), module.__dict__)
print(json.dumps(sorted(seen)))
"""
ROOT = Path(__file__).resolve().parent.parent
PROJECT = re.compile(r"standard[-_]tool(?:\[([^\]]*)\])?$")


def requested(text: str) -> list[Requirement]:
    """The requirements a page's install lines name, standard-tool's under its own name."""
    found: list[Requirement] = []
    for line in INSTALL.findall(text):
        for word in shlex.split(line.split("#", 1)[0])[2:]:
            if word.startswith("-"):
                continue
            project = PROJECT.search(word)
            if project:
                found.append(Requirement(f"standard-tool[{project.group(1) or ''}]"))
            elif not word.startswith((".", "/")):
                found.append(Requirement(word))
    if not any(canonicalize_name(r.name) == "standard-tool" for r in found):
        found.append(Requirement("standard-tool[all]"))
    return found


def _project_requires() -> list[str]:
    """standard-tool's requirements as pyproject.toml states them now, extras marked.

    An editable install's metadata is as old as the install; the file is current.
    """
    import tomllib

    project = tomllib.loads(ROOT.joinpath("pyproject.toml").read_text(encoding="utf-8"))["project"]
    lines = list(project["dependencies"])
    for extra, reqs in project["optional-dependencies"].items():
        lines += [f'{req}; extra == "{extra}"' for req in reqs]
    return lines


def installed_by(requirements: list[Requirement]) -> tuple[set[str], list[str]]:
    """The distributions these requirements install here, and those this environment lacks."""
    names: set[str] = set()
    lacking: list[str] = []
    todo = [(r.name, frozenset(r.extras)) for r in requirements]
    done: set[tuple[str, frozenset[str]]] = set()
    while todo:
        name, extras = todo.pop()
        key = (canonicalize_name(name), extras)
        if key in done:
            continue
        done.add(key)
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            lacking.append(name)
            continue
        names.add(canonicalize_name(name))
        requires = dist.requires or []
        if canonicalize_name(name) == "standard-tool":
            requires = _project_requires()
        for line in requires:
            req = Requirement(line)
            wanted = req.marker is None or any(
                req.marker.evaluate({"extra": extra}) for extra in (extras or {""})
            )
            if wanted:
                todo.append((req.name, frozenset(req.extras)))
    return names, lacking


def imported_by_running(page: Path, blocks: list[tuple[int, str]]) -> set[str]:
    """The top-level modules a page's examples (and standard-tool for them) import."""
    done = subprocess.run(
        [sys.executable, "-c", RUNNER],
        input=json.dumps([[str(page), line, source] for line, source in blocks]),
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, f"{page.name}: its examples failed:\n{done.stderr[-3000:]}"
    return set(json.loads(done.stdout.splitlines()[-1]))


def unmet_imports(page: Path, blocks: list[tuple[int, str]]) -> list[str]:
    """What the examples import that the page's install line does not install, in words."""
    # A distribution of the line this environment lacks shows below, if an example needs it.
    names, _ = installed_by(requested(page.read_text(encoding="utf-8")))
    problems: list[str] = []
    providers = metadata.packages_distributions()
    modules = imported_by_running(page, blocks)
    for module in sorted(modules - set(sys.stdlib_module_names) - {"standard_tool"}):
        dists = {canonicalize_name(d) for d in providers.get(module, [])}
        if not dists & names:
            problems.append(
                f"{page.name}: the examples import {module} "
                f"({', '.join(sorted(dists)) or 'not installed'}), "
                "which the page's install line does not install"
            )
    return problems


def python_blocks(page: Path) -> list[tuple[int, str]]:
    """A page's ```` ```python ```` examples, the ones the core suite runs, by first line."""
    text = page.read_text(encoding="utf-8")
    fence = re.compile(r"^```python[^\n]*\n(.*?)^```", re.DOTALL | re.MULTILINE)
    return [(text.count("\n", 0, m.start()) + 2, m.group(1)) for m in fence.finditer(text)]


def main() -> int:
    """Check every page the core suite runs, once, in the environment CI's tools use.

    ``.ci/run`` calls this (``python -m tests.page_installs``) in its ``[all]``
    environment; the framework pages are checked in their integration environments.
    """
    problems: list[str] = []
    checked = 0
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        blocks = python_blocks(page)
        if blocks:
            checked += 1
            problems += unmet_imports(page, blocks)
    print("\n".join(problems) or f"{checked} pages: every import is installed by the page's line")
    return 1 if problems or checked < 10 else 0


if __name__ == "__main__":
    raise SystemExit(main())
