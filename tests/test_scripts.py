"""The README's commands say what they do as they go (scripts/_env.sh), run in bash."""

from __future__ import annotations

import os
import stat
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# A stand-in interpreter: ``-m venv DIR`` makes DIR/bin/python (itself); ``-m pip
# install`` prints what a real pip prints, and fails when asked for "missing-package".
FAKE_PYTHON = """#!/usr/bin/env bash
if [ "$1 $2" = "-m venv" ]; then
    mkdir -p "$3/bin" && cp "$0" "$3/bin/python" && exit 0
fi
case "$*" in
*missing-package*)
    echo "WARNING: a note pip prints here"
    echo "ERROR: No matching distribution found for missing-package"
    exit 1 ;;
esac
echo "WARNING: Location 'file:///nowhere' is ignored"
echo "Collecting alpha>=1 (from demo==0.1.0)"
echo "Requirement already satisfied: beta in ./lib"
echo "Collecting gamma"
echo "Successfully installed alpha-1.0 gamma-2.0"
"""


def _ensure_venv(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    fake = tmp_path / "python"
    fake.write_text(FAKE_PYTHON)
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
    script = 'set -euo pipefail; source scripts/_env.sh; ensure_venv "$@"'
    return subprocess.run(
        ["bash", "-c", script, "ensure_venv", str(fake), str(tmp_path / "venv"), *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ},
        timeout=60,
        check=False,
    )


def test_installing_names_each_step_and_each_package_collected(tmp_path: Path) -> None:
    done = _ensure_venv(tmp_path, "-e", ".")
    assert done.returncode == 0, done.stderr
    venv = tmp_path / "venv"
    assert done.stdout.splitlines() == [
        f"-- {venv}: creating the virtualenv (the first run installs everything: a few minutes)",
        f"-- {venv}: pip >= 25.1",
        "   Collecting alpha>=1 (from demo==0.1.0)",
        "   Collecting gamma",
        "   Successfully installed alpha-1.0 gamma-2.0",
        f"-- {venv}: installing -e .",
        "   Collecting alpha>=1 (from demo==0.1.0)",
        "   Collecting gamma",
        "   Successfully installed alpha-1.0 gamma-2.0",
    ]
    again = _ensure_venv(tmp_path, "-e", ".")
    assert again.stdout.splitlines()[0] == f"-- {venv}: pip >= 25.1"  # made once


def test_a_failed_install_shows_pips_own_output_and_fails(tmp_path: Path) -> None:
    done = _ensure_venv(tmp_path, "missing-package")
    assert done.returncode == 1
    assert "-- pip install failed (exit 1); the end of its output:" in done.stderr
    assert "ERROR: No matching distribution found for missing-package" in done.stderr
