"""The core MCP tests, run against the lowest ``mcp`` and ``fastmcp`` that pyproject allows.

The pins in ``requirements.txt`` must equal the floors in ``pyproject.toml``, so the
range we state is the range we test.
"""

from __future__ import annotations

import re
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).parent
CORE_TESTS = [
    "tests/test_mcp_serve.py",
    "tests/test_mcp_import.py",
    "tests/test_mcp_register.py",
    "tests/test_cli_serve.py",
    "tests/test_run_mcp.py",
    "tests/test_mcp_progress.py",
    "tests/test_mcp_relay.py",
    "tests/test_mcp_concurrency.py",
    "tests/test_mcp_cancel.py",
    "tests/test_mcp_server_options.py",
    "tests/test_cli_config.py",
]


def _pins() -> dict[str, str]:
    pins: dict[str, str] = {}
    for raw in (HERE / "requirements.txt").read_text().splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        name, sep, pinned = line.partition("==")
        assert sep, f"requirements.txt pins every package exactly (==): {raw!r}"
        pins[name.strip()] = pinned.strip()
    return pins


def test_the_pins_are_the_floors_pyproject_states() -> None:
    pyproject = (ROOT / "pyproject.toml").read_text()
    for name, pinned in _pins().items():
        floors = set(re.findall(rf'"{name}>=([0-9.]+)"', pyproject))
        assert floors == {pinned}, f"pyproject says {name}>={floors}, this env pins {pinned}"
        assert version(name) == pinned


def test_the_core_mcp_tests_pass_on_the_floor() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *CORE_TESTS],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
