"""The README's install lines work as written, in fresh virtualenvs.

From a checkout, ``pip install PATH`` gives the core with ``typing-extensions`` as
its one dependency, and ``pip wheel --no-deps -w dist PATH`` builds a wheel that
installs on its own. The README's first example then runs in that environment.
"""

from __future__ import annotations

import re
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def first_example() -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    match = re.search(r"```python\n(.*?)```", readme, re.S)
    assert match is not None
    return match.group(1)


def fresh_env(where: Path) -> Path:
    venv.EnvBuilder(with_pip=True).create(where)
    return where / "bin" / "python"


def pip(python: Path, *args: str) -> None:
    subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", *args],
        check=True,
    )


def installed(python: Path) -> set[str]:
    out = subprocess.run(
        [str(python), "-m", "pip", "list", "--format=freeze", "--disable-pip-version-check"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return {line.split("==")[0].lower().replace("_", "-") for line in out.splitlines() if line}


def run_example(python: Path, tmp_path: Path) -> str:
    script = tmp_path / "example.py"
    script.write_text(first_example(), encoding="utf-8")
    done = subprocess.run(
        [str(python), str(script)], check=True, capture_output=True, text=True, cwd=tmp_path
    )
    return done.stdout


def test_pip_install_from_a_checkout_gives_the_core_and_the_example_runs(tmp_path: Path) -> None:
    python = fresh_env(tmp_path / "env")
    pip(python, str(ROOT))
    packages = installed(python)
    assert {"standard-tool", "typing-extensions"} <= packages
    assert not packages & {"pydantic", "msgspec", "jsonschema", "mcp", "openai"}
    assert "validation failed" in run_example(python, tmp_path)


def test_a_built_wheel_installs_on_its_own(tmp_path: Path) -> None:
    dist = tmp_path / "dist"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(dist), str(ROOT)],
        check=True,
    )
    (wheel,) = dist.glob("standard_tool-*-py3-none-any.whl")
    python = fresh_env(tmp_path / "env")
    pip(python, str(wheel))
    assert "validation failed" in run_example(python, tmp_path)
