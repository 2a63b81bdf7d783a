"""The Strands bridge type-checks, here where Strands is installed.

The tools venv cannot hold Strands (it pins openai<3), so pyproject.toml excludes
``integrations/strands.py`` from the main pyright and mypy runs; this test runs
both on it with the project's own settings (strict).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import tomllib

ROOT = Path(__file__).resolve().parents[2]
MODULE = ROOT / "src" / "standard_tool" / "integrations" / "strands.py"
BIN = Path(sys.executable).parent


def test_pyright_strict_passes_on_the_strands_module(tmp_path: Path) -> None:
    settings = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pyright"]
    settings = {k: v for k, v in settings.items() if k not in ("include", "exclude")}
    config = tmp_path / "pyrightconfig.json"
    # pyright takes only paths relative to its config file.
    config.write_text(json.dumps({**settings, "include": [os.path.relpath(MODULE, tmp_path)]}))
    command = [str(BIN / "pyright"), "-p", str(config), "--pythonpath", sys.executable]
    out = subprocess.run(
        [*command, "--outputjson"], capture_output=True, text=True, timeout=600, cwd=ROOT
    )
    report = json.loads(out.stdout)
    problems = [
        f"{d['file']}:{d['range']['start']['line'] + 1}: {d['message']}"
        for d in report["generalDiagnostics"]
    ]
    assert problems == []
    assert report["summary"]["filesAnalyzed"] == 1


def test_mypy_strict_passes_on_the_strands_module() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "mypy", str(MODULE)],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=ROOT,
    )
    assert out.returncode == 0, out.stdout + out.stderr
