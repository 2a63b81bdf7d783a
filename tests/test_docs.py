"""Every ```python block in README.md and docs/*.md runs, standalone, as a test.

Each block runs top to bottom in a fresh namespace, exactly as a script would:
top-level ``await`` is a syntax error there, so an example that awaits wraps it in
``asyncio.run(...)``. Blocks fenced as ```text or ```console are prose, not code.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.env_checks import run_block

ROOT = Path(__file__).resolve().parent.parent
FENCE = re.compile(r"^```python[^\n]*\n(.*?)^```", re.DOTALL | re.MULTILINE)


def _blocks() -> list[Any]:
    params = []
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        text = path.read_text(encoding="utf-8")
        for match in FENCE.finditer(text):
            line = text.count("\n", 0, match.start()) + 2
            rel = path.relative_to(ROOT)
            params.append(pytest.param(match.group(1), rel, line, id=f"{rel}:{line}"))
    return params


BLOCKS = _blocks()

#: Pages whose examples need a newer release of a package than some supported
#: Python gets (google-genai 2.34 needs Python 3.11); there they are skipped, and
#: the page says what to use instead.
NEEDS: dict[Path, tuple[str, tuple[int, int]]] = {
    Path("docs/google-genai.md"): ("google-genai", (2, 34)),
}


def _release(distribution: str) -> tuple[int, ...]:
    """The installed release's major and minor; a missing package raises, not skips."""
    import importlib.metadata

    found = importlib.metadata.version(distribution)
    return tuple(int(part) for part in re.findall(r"\d+", found)[:2])


def test_the_readme_has_runnable_examples() -> None:
    assert sum(1 for p in BLOCKS if p.values[1] == Path("README.md")) >= 3


@pytest.mark.parametrize(("source", "path", "line"), BLOCKS)
def test_doc_example_runs(source: str, path: Path, line: int) -> None:
    if path in NEEDS:
        distribution, release = NEEDS[path]
        if _release(distribution) < release:
            pytest.skip(f"{path} needs {distribution} {'.'.join(map(str, release))} or later")
    run_block(path, source, line)  # no top-level await: it would not compile


def test_no_example_uses_top_level_await() -> None:
    # An example pasted into a script must run: top-level await does not compile there.
    for param in BLOCKS:
        source, path, line = param.values
        try:
            compile(source, str(path), "exec", dont_inherit=True)
        except SyntaxError as err:
            pytest.fail(f"{path}:{line}: {err.msg}")
