"""Print a hash of what one ``pip install`` of scripts/_env.sh's ensure_venv installs.

Usage: python scripts/venv_key.py TARGET_PYTHON [pip install args...]

The hash covers the target interpreter (version and path), the pip arguments, the
contents of every file named after ``-r``, every file named in ``VENV_KEY_FILES``,
and, from ``pyproject.toml``, only the tables those arguments install: the project's
``dependencies``, the extras named in ``.[extra,...]`` and the dependency groups
named by ``--group``. Adding an extra for another framework therefore leaves the
other environments' keys alone. Runs on Python 3.11 or later (``tomllib``).
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import tomllib  # Python 3.11 or later: scripts/_env.sh picks such an interpreter


def _extras(args: list[str]) -> list[str]:
    """Return the extras of the project's own requirement (``.[all]``, ``-e .[a,b]``)."""
    found: list[str] = []
    for arg in args:
        match = re.fullmatch(r"\.\[([^\]]*)\]", arg)
        if match:
            found += [name.strip() for name in match.group(1).split(",") if name.strip()]
    return sorted(found)


def _following(args: list[str], flag: str) -> list[str]:
    """Return every value given after ``flag``."""
    return [value for option, value in itertools.pairwise(args) if option == flag]


def key(target: str, args: list[str]) -> str:
    """Return the hash, 16 hex digits, for installing ``args`` with ``target``."""
    project = tomllib.loads(Path("pyproject.toml").read_text(encoding="utf-8"))
    described = subprocess.run(
        [target, "-c", "import sys; print(sys.version, sys.executable)"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    optional = project["project"].get("optional-dependencies", {})
    groups = project.get("dependency-groups", {})
    files = _following(args, "-r") + os.environ.get("VENV_KEY_FILES", "").split()
    parts = {
        # The layout of a kept virtualenv; a new one sets every key apart from the old.
        "layout": 2,
        "python": described,
        "args": args,
        "dependencies": project["project"].get("dependencies", []),
        "extras": {name: optional.get(name) for name in _extras(args)},
        "groups": {name: groups.get(name) for name in _following(args, "--group")},
        "files": {name: Path(name).read_text(encoding="utf-8") for name in files},
    }
    encoded = json.dumps(parts, sort_keys=True).encode()
    return hashlib.sha256(encoded).hexdigest()[:16]


if __name__ == "__main__":
    print(key(sys.argv[1], sys.argv[2:]))
