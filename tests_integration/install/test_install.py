"""The README's install lines work as written, in fresh virtualenvs.

From a checkout, ``pip install PATH`` gives the core with ``typing-extensions`` as
its one dependency, and ``pip wheel --no-deps -w dist PATH`` builds a wheel that
installs on its own. The README's first example then runs in that environment.
"""

from __future__ import annotations

import os
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


def readme_commands(readme: str) -> str:
    match = re.search(r"```bash\n(.*?)```", readme, re.S)
    assert match is not None
    return match.group(1)


def test_the_init_scaffold_works_as_its_readme_says(tmp_path: Path) -> None:
    """A new user: install from the checkout, run init, then follow the new README.

    The README makes its own fresh virtualenv, installs standard-tool from where the
    one that ran ``init`` came from, installs the project with pytest, runs the
    project's tests and ``standard-tool check`` on its toolkit.
    """
    python = fresh_env(tmp_path / "env")
    pip(python, str(ROOT))
    subprocess.run(
        [str(python.parent / "standard-tool"), "init", "weather-tools"],
        check=True,
        cwd=tmp_path,
    )
    project = tmp_path / "weather-tools"
    commands = readme_commands((project / "README.md").read_text(encoding="utf-8"))
    assert f'pip install "{ROOT}[mcp]"' in commands
    path = f"{python.parent}{os.pathsep}{os.environ['PATH']}"
    done = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", commands],
        cwd=project,
        env={**os.environ, "PATH": path, "PIP_DISABLE_PIP_VERSION_CHECK": "1"},
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "4 passed" in done.stdout
    assert '"ok": true' in done.stdout


def test_the_testing_extra_gives_check_its_property_test(tmp_path: Path) -> None:
    """``[testing]`` installs hypothesis and jsonschema: ``check`` runs the agreement test."""
    python = fresh_env(tmp_path / "env")
    pip(python, f"{ROOT}[testing]")
    assert {"hypothesis", "jsonschema"} <= installed(python)
    (tmp_path / "tools.py").write_text(
        "from standard_tool import tool\n\n\n"
        "@tool\ndef add(a: int, b: int = 0) -> int:\n"
        '    """Add two integers."""\n    return a + b\n',
        encoding="utf-8",
    )
    done = subprocess.run(
        [str(python), "-m", "standard_tool", "check", "tools.py", "--examples", "20"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, "")
