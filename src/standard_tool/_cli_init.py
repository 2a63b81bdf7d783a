"""``standard-tool init``: scaffold a small MCP server project.

Layer: top (the command line; imports anything below, never the package root)
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import unquote, urlparse

__all__ = ["package_name", "scaffold"]

_PYPROJECT = """\
[project]
name = "{name}"
version = "0.1.0"
description = "An MCP server built with standard-tool."
requires-python = ">=3.10"
dependencies = ["standard-tool[mcp]"]

[project.optional-dependencies]
test = ["pytest>=8"]

[project.scripts]
"{name}" = "{package}.server:main"

[build-system]
requires = ["hatchling>=1.21"]
build-backend = "hatchling.build"
"""

_TOOLS = '''\
"""The tools this server offers."""

from standard_tool import Toolkit, tool


@tool
def add(a: int, b: int = 0) -> int:
    """Add two integers.

    Args:
        a: the first number.
        b: the second number.
    """
    return a + b


@tool
def greet(name: str) -> str:
    """Say hello to someone.

    Args:
        name: who to greet.
    """
    return f"Hello, {name}!"


toolkit = Toolkit([add, greet])
'''

_SERVER = '''\
"""Serve the tools over MCP on stdio: ``python -m {package}.server``."""

import anyio
from mcp.server.stdio import stdio_server
from standard_tool.providers import mcp_server

from {package}.tools import toolkit


def main() -> None:
    """Run the server until the client closes stdin."""
    server = mcp_server(toolkit, name="{name}")

    async def run() -> None:
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())

    anyio.run(run)


if __name__ == "__main__":
    main()
'''

_TEST = '''\
"""The example tools run and validate their input."""

import pytest
from standard_tool import StandardToolValidationError, run_tool_sync

from {package}.tools import add, greet, toolkit


def test_add() -> None:
    assert run_tool_sync(add, {{"a": 2, "b": 3}}) == 5


def test_greet() -> None:
    assert run_tool_sync(greet, {{"name": "Ada"}}) == "Hello, Ada!"


def test_bad_input_is_refused() -> None:
    with pytest.raises(StandardToolValidationError):
        run_tool_sync(add, {{"a": "two"}})


def test_toolkit_lists_both() -> None:
    assert sorted(t.name for t in toolkit.list()) == ["add", "greet"]
'''

_README = """\
# {name}

An MCP server with two example tools, built with standard-tool.

```bash
python -m venv .venv
. .venv/bin/activate
pip install "{source}[mcp]"
pip install -e ".[test]"
pytest
standard-tool check {package}.tools:toolkit
```

standard-tool is not on a package index yet: the first `pip install` installs it
{where}, with the MCP SDK; the second installs this project and pytest. Then
`pytest` runs the tests and `standard-tool check` lists what any provider would
reject. Serve over stdio with `python -m {package}.server`.

Add tools in `{package}/tools.py` and list them in `toolkit`.
"""

_UNKNOWN_SOURCE = "/path/to/standard-tool"


def install_source() -> str:
    """Where this standard-tool was installed from: a checkout's folder or a wheel's path.

    standard-tool is not on a package index, so a new project installs it from
    where this copy came from, which pip records (``direct_url.json``, PEP 610).
    Without that record, a placeholder path to fill in.
    """
    from importlib.metadata import PackageNotFoundError, distribution

    try:
        record = distribution("standard-tool").read_text("direct_url.json")
    except PackageNotFoundError:
        return _UNKNOWN_SOURCE
    try:
        url: object = json.loads(record or "{}").get("url")
    except (ValueError, AttributeError):
        return _UNKNOWN_SOURCE
    if not isinstance(url, str) or not url.startswith("file://"):
        return _UNKNOWN_SOURCE
    return unquote(urlparse(url).path)


#: A project name as the packaging specifications allow it (PEP 508), ASCII only.
_PROJECT_NAME = re.compile(r"[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?")
_MAX_NAME = 64
_RULE = (
    f"a project name is 1 to {_MAX_NAME} ASCII letters, digits, '-', '_' and '.', "
    "starting and ending with a letter or digit, whose package name (lower case, each "
    "run of '-', '_' and '.' made '_') is a Python identifier that is not a keyword "
    "and shadows neither standard_tool nor a standard library module"
)


def package_name(name: str) -> str:
    """Return the importable package name of project ``name``, or refuse it.

    The package is the name normalised as packaging normalises it (PEP 503: lower
    case, each run of ``-``, ``_``, ``.`` one separator), with ``_`` as separator.

    Raises:
        ValueError: ``name`` is not a project name, or its package would not import
            (a keyword, a leading digit) or would shadow ``standard_tool`` or a module
            of the standard library; the message says the rule.
    """
    import keyword
    import sys

    from standard_tool._shared import truncate_text

    shown = truncate_text(repr(name), 60)
    if len(name) > _MAX_NAME or not name.isascii() or not _PROJECT_NAME.fullmatch(name):
        raise ValueError(f"init: {shown} is not a usable project name; {_RULE}")
    package = re.sub(r"[-_.]+", "_", name).lower()
    stdlib: frozenset[str] = getattr(sys, "stdlib_module_names", frozenset())
    if (
        not package.isidentifier()
        or keyword.iskeyword(package)
        or package in stdlib
        or package in ("standard_tool", "tests")
    ):
        raise ValueError(
            f"init: {shown} is not a usable project name: its package would be {package!r}; {_RULE}"
        )
    return package


def scaffold(name: str, parent: Path) -> Path:
    """Create ``parent/name`` with a package, a server entry, tests and a README.

    Raises:
        ValueError: ``name`` cannot become a Python package name.
        FileExistsError: the folder exists already.
    """
    package = package_name(name)
    root = parent / name
    if root.exists():
        raise FileExistsError(f"init: {root} exists already; pick another name or --directory")
    files = {
        "pyproject.toml": _PYPROJECT,
        f"{package}/__init__.py": '"""{name}: an MCP server."""\n',
        f"{package}/tools.py": _TOOLS,
        f"{package}/server.py": _SERVER,
        "tests/test_tools.py": _TEST,
        "README.md": _README,
    }
    source = install_source()
    where = (
        f"from a checkout or a wheel (put its path in place of `{_UNKNOWN_SOURCE}`)"
        if source == _UNKNOWN_SOURCE
        else "from the checkout or wheel that made this project"
    )
    for relative, template in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        text = (
            template
            if template is _TOOLS
            else template.format(name=name, package=package, source=source, where=where)
        )
        path.write_text(text, encoding="utf-8")
    return root
