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
[ -n "${FAKE_LOG:-}" ] && echo "$0 $*" >> "$FAKE_LOG"
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


def _ensure_venv(
    tmp_path: Path, *args: str, cache: Path | None = None, cwd: Path = ROOT
) -> subprocess.CompletedProcess[str]:
    fake = tmp_path / "python"
    fake.write_text(FAKE_PYTHON)
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
    script = f'set -euo pipefail; source {ROOT}/scripts/_env.sh; ensure_venv "$@"'
    env = {k: v for k, v in os.environ.items() if k != "STANDARD_TOOL_VENV_CACHE"}
    if cache is not None:
        env["STANDARD_TOOL_VENV_CACHE"] = str(cache)
    env["FAKE_LOG"] = str(tmp_path / "calls.log")
    return subprocess.run(
        ["bash", "-c", script, "ensure_venv", str(fake), str(tmp_path / "venv"), *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=env,
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


def _project(tmp_path: Path, extras: str) -> Path:
    """A project folder with a pyproject.toml and scripts/ (venv_key.py runs from it)."""
    project = tmp_path / "project"
    (project / "scripts").mkdir(parents=True, exist_ok=True)
    (project / "scripts" / "venv_key.py").write_text((ROOT / "scripts" / "venv_key.py").read_text())
    (project / "pyproject.toml").write_text(
        '[project]\nname = "demo"\ndependencies = ["alpha>=1"]\n'
        f"[project.optional-dependencies]\n{extras}\n"
        '[dependency-groups]\ntest = ["pytest"]\n'
    )
    (project / "requirements.txt").write_text("gamma\n")
    return project


def _cached(cache: Path) -> list[str]:
    return sorted(p.name for p in cache.iterdir())


def test_a_kept_virtualenv_is_reused_until_what_it_installs_changes(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    project = _project(tmp_path, 'a = ["beta"]\nb = ["delta"]')
    args = ("-e", ".[a]", "--group", "test", "-r", "requirements.txt")
    first = _ensure_venv(tmp_path, *args, cache=cache, cwd=project)
    assert first.returncode == 0, first.stderr
    assert "creating the virtualenv" in first.stdout
    (kept,) = _cached(cache)
    assert kept.startswith("venv-")
    assert (tmp_path / "venv").resolve() == cache / kept  # DIR is a link to the kept one
    assert (cache / kept / ".installed").exists()
    # pip runs by the kept one's own path: the scripts it writes must not name the link.
    pips = [c for c in (tmp_path / "calls.log").read_text().splitlines() if " -m pip " in c]
    assert pips
    assert all(c.startswith(f"{cache / kept}/bin/python ") for c in pips), pips

    again = _ensure_venv(tmp_path, *args, cache=cache, cwd=project)
    assert again.stdout.splitlines()[0] == f"-- {tmp_path / 'venv'}: reusing {cache / kept} " + (
        "(same interpreter and requirements)"
    )
    assert _cached(cache) == [kept]

    # An extra the install does not name changes nothing.
    _project(tmp_path, 'a = ["beta"]\nb = ["delta>=2"]')
    assert "reusing" in _ensure_venv(tmp_path, *args, cache=cache, cwd=project).stdout
    # The extra it names, a group it names, or a file it reads: a new one, the old gone.
    for change in (
        lambda: _project(tmp_path, 'a = ["beta>=2"]\nb = ["delta>=2"]'),
        lambda: (project / "requirements.txt").write_text("gamma>=3\n"),
        lambda: (project / "pyproject.toml").write_text(
            (project / "pyproject.toml").read_text().replace('"pytest"', '"pytest>=8"')
        ),
    ):
        before = _cached(cache)
        change()
        built = _ensure_venv(tmp_path, *args, cache=cache, cwd=project)
        assert "creating the virtualenv" in built.stdout, built.stdout
        assert len(_cached(cache)) == 1
        assert _cached(cache) != before


def test_a_virtualenv_whose_first_install_failed_is_never_reused(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    project = _project(tmp_path, 'a = ["beta"]')
    failed = _ensure_venv(tmp_path, "missing-package", cache=cache, cwd=project)
    assert failed.returncode == 1
    (kept,) = _cached(cache)
    assert not (cache / kept / ".installed").exists()
    again = _ensure_venv(tmp_path, "missing-package", cache=cache, cwd=project)
    assert "creating the virtualenv" in again.stdout
