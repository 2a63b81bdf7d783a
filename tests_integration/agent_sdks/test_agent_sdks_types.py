"""This environment's bridges type-check, and their overloads infer, here.

The core suite installs neither framework, so pyproject.toml excludes the
modules from the main pyright and mypy runs; this test runs both on them with the
project's own settings (strict).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import tomllib

ROOT = Path(__file__).resolve().parents[2]
INTEGRATIONS = ROOT / "src" / "standard_tool" / "integrations"
NAMES = ("agent_framework", "ag2", "claude_agent_sdk", "mirascope")
#: The bridges, and the file of inference promises about them (typing_agent_sdks.py).
MODULES = [
    *(INTEGRATIONS / f"{name}.py" for name in NAMES),
    Path(__file__).with_name("typing_agent_sdks.py"),
]
BIN = Path(sys.executable).parent


def test_pyright_strict_passes_on_the_modules(tmp_path: Path) -> None:
    settings = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pyright"]
    settings = {k: v for k, v in settings.items() if k not in ("include", "exclude")}
    config = tmp_path / "pyrightconfig.json"
    # pyright takes only paths relative to its config file.
    include = [os.path.relpath(module, tmp_path) for module in MODULES]
    config.write_text(json.dumps({**settings, "include": include}))
    command = [str(BIN / "pyright"), "-p", str(config), "--pythonpath", sys.executable]
    out = subprocess.run(
        [*command, "--outputjson"], capture_output=True, text=True, timeout=900, cwd=ROOT
    )
    report = json.loads(out.stdout)
    problems = [
        f"{d['file']}:{d['range']['start']['line'] + 1}: {d['message']}"
        for d in report["generalDiagnostics"]
    ]
    assert problems == []
    assert report["summary"]["filesAnalyzed"] == len(MODULES)


def test_mypy_strict_passes_on_the_modules() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "mypy", *map(str, MODULES)],
        capture_output=True,
        text=True,
        timeout=900,
        cwd=ROOT,
    )
    assert out.returncode == 0, out.stdout + out.stderr
