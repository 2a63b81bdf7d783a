"""Checks every integration environment runs on what it alone installs.

- ``pyright_problems`` and ``mypy_failure``: strict type checks of bridge modules
  that ``pyproject.toml`` keeps out of the main pyright and mypy runs (the tools venv
  cannot hold their frameworks), with the project's own settings.
- ``page_blocks`` and ``run_block``: the examples of docs pages fenced as ```` ```py ````
  (which ``tests/test_docs.py``, in the core suite's environment, leaves alone), run
  as scripts where their frameworks are installed.

Imported by the test modules of ``tests_integration/*/`` (``python -m pytest`` puts
the checkout on ``sys.path``).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import types
from collections.abc import Iterable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
INTEGRATIONS = ROOT / "src" / "standard_tool" / "integrations"
#: Examples run by an environment, not by the core suite.
FENCE = re.compile(r"^```py\n(.*?)^```", re.DOTALL | re.MULTILINE)


def pyright_problems(modules: Iterable[Path], workdir: Path) -> tuple[list[str], int]:
    """Run pyright (strict, the project's settings) on ``modules``.

    Returns its diagnostics as ``file:line: message`` and how many files it analysed.
    """
    import tomllib

    listed = list(modules)
    settings = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pyright"]
    settings = {k: v for k, v in settings.items() if k not in ("include", "exclude")}
    config = workdir / "pyrightconfig.json"
    # pyright takes only paths relative to its config file.
    include = [os.path.relpath(module, workdir) for module in listed]
    config.write_text(json.dumps({**settings, "include": include}))
    pyright = Path(sys.executable).parent / "pyright"
    command = [str(pyright), "-p", str(config), "--pythonpath", sys.executable, "--outputjson"]
    out = subprocess.run(command, capture_output=True, text=True, timeout=900, cwd=ROOT)
    report = json.loads(out.stdout)
    problems = [
        f"{d['file']}:{d['range']['start']['line'] + 1}: {d['message']}"
        for d in report["generalDiagnostics"]
    ]
    return problems, int(report["summary"]["filesAnalyzed"])


def mypy_failure(modules: Iterable[Path]) -> str | None:
    """Run mypy (strict, the project's settings) on ``modules``: its report, or ``None``."""
    command = [sys.executable, "-m", "mypy", *map(str, modules)]
    out = subprocess.run(command, capture_output=True, text=True, timeout=900, cwd=ROOT)
    return None if out.returncode == 0 else out.stdout + out.stderr


def page_blocks(pages: Iterable[str]) -> list[Any]:
    """Return a ``pytest.param(page, source, line)`` per ```` ```py ```` block of ``pages``."""
    import pytest

    found: list[Any] = []
    for page in pages:
        text = (DOCS / page).read_text(encoding="utf-8")
        for match in FENCE.finditer(text):
            line = text.count("\n", 0, match.start()) + 2
            found.append(pytest.param(page, match.group(1), line, id=f"{page}:{line}"))
    return found


def run_block(path: Path, source: str, line: int) -> None:
    """Run one example as a script would: a fresh module, tracebacks at the page's lines."""
    code = compile("\n" * (line - 1) + source, str(path), "exec", dont_inherit=True)
    # A real module, so dataclasses, pydantic and typing can resolve names in it.
    module = types.ModuleType(f"doc_example_{path.stem.replace('-', '_')}_{line}")
    sys.modules[module.__name__] = module
    try:
        exec(code, module.__dict__)
    finally:
        del sys.modules[module.__name__]


def page_tests(pages: list[str], *, least: int = 2, only_here: bool = True) -> dict[str, Any]:
    """Return the three tests of an environment's pages by name, for its module's globals.

    ``test_the_page_has_examples`` (at least ``least`` ```` ```py ```` blocks, and,
    with ``only_here``, no ```` ```python ```` block for the core suite),
    ``test_doc_example_runs`` (each block, as a script) and
    ``test_a_pages_examples_import_only_what_its_install_line_installs``.
    """
    import pytest

    from tests.page_installs import unmet_imports

    blocks = page_blocks(pages)

    @pytest.mark.parametrize("page", pages)
    def test_the_page_has_examples(page: str) -> None:
        text = (DOCS / page).read_text(encoding="utf-8")
        assert len(FENCE.findall(text)) >= least
        assert not only_here or "```python" not in text

    @pytest.mark.parametrize(("page", "source", "line"), blocks)
    def test_doc_example_runs(page: str, source: str, line: int) -> None:
        run_block(DOCS / page, source, line)

    @pytest.mark.parametrize("page", pages)
    def test_a_pages_examples_import_only_what_its_install_line_installs(page: str) -> None:
        own = [(line, source) for p, source, line in (b.values for b in blocks) if p == page]
        assert unmet_imports(DOCS / page, own) == []

    made = (
        test_the_page_has_examples,
        test_doc_example_runs,
        test_a_pages_examples_import_only_what_its_install_line_installs,
    )
    return {test.__name__: test for test in made}


#: A tool schema that is no JSON Schema (its ``pattern`` is no regular expression).
BROKEN_PROPERTIES: dict[str, Any] = {"x": {"type": "string", "pattern": "("}}
BROKEN_SCHEMA: dict[str, Any] = {"type": "object", "properties": BROKEN_PROPERTIES}


def check_refused_naming(bridge: str, convert: Any, native: Any) -> None:
    """``convert(native)`` refuses a broken schema naming ``bridge``, tool ``odd_one``, the path."""
    import pytest

    from standard_tool.schemas import InvalidSchemaError

    with pytest.raises(InvalidSchemaError) as refused:
        convert(native)
    message = str(refused.value)
    assert message.startswith(f"{bridge}: tool 'odd_one': "), message
    assert "properties/x/pattern" in message
    assert len(message) < 500
