"""``standard-tool config``: a desktop client's MCP configuration that works as written.

A desktop client (Claude Desktop, Cursor, VS Code) starts a stdio server with its own
working directory (often ``/``) and a minimal environment: a bare ``standard-tool`` is
not on its ``PATH``, and a module is not importable from where it runs. The entry this
prints names the interpreter by its absolute path, the target by its absolute path (a
file) or its module name, and sets ``PYTHONPATH`` to the directories the import needs.

Layer: top (the command line; ``standard_tool._cli`` checks the target, then calls
``print_config``).
"""

from __future__ import annotations

import json
import os
import re
import site
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import argparse

__all__ = ["add_config_parser", "client_config", "print_config", "server_name"]

CLIENTS = ("claude", "cursor", "vscode")


def add_config_parser(sub: Any, target_help: str) -> None:
    """Add the ``config`` command to the ``standard-tool`` subparsers."""
    p = sub.add_parser(
        "config",
        help="print a desktop client's MCP configuration that serves TARGET over stdio",
    )
    p.add_argument("client", choices=CLIENTS, help="the client whose configuration to print")
    p.add_argument("target", help=target_help)
    p.add_argument("--name", help="the server's key in the configuration (default: the target's)")


def server_name(module_part: str) -> str:
    """Return the name a served TARGET goes by: its file's stem or its module's last part."""
    stem = Path(module_part).stem if module_part.endswith(".py") else module_part.split(".")[-1]
    return re.sub(r"[^A-Za-z0-9_-]", "-", stem) or "tools"


def client_config(client: str, target: str, name: str | None = None) -> dict[str, Any]:
    """Build ``client``'s configuration that starts ``standard-tool serve TARGET`` over stdio.

    Args:
        client: ``"claude"`` (``claude_desktop_config.json``), ``"cursor"``
            (``mcp.json``) or ``"vscode"`` (``.vscode/mcp.json``).
        target: ``pkg.mod[:obj]`` (importable from the current directory) or
            ``path/to/file.py[:obj]``.
        name: the server's key; defaults to the module's or file's name.
    """
    module_part, colon, attr = target.partition(":")
    paths: list[str] = []
    if module_part.endswith(".py") or os.sep in module_part or "/" in module_part:
        file = Path(module_part).resolve()
        served = f"{file}{colon}{attr}"
        paths.append(str(file.parent))  # the file's own imports of its neighbours
    else:
        served = target
        paths.append(os.getcwd())  # where the module was importable from
    package_root = str(Path(__file__).resolve().parent.parent)  # where standard_tool is
    installed = {str(Path(p).resolve()) for p in site.getsitepackages()}
    if package_root not in installed and package_root not in paths:
        paths.append(package_root)  # standard_tool itself is not installed: run it from here
    entry: dict[str, Any] = {
        "command": os.path.abspath(sys.executable),
        "args": ["-m", "standard_tool", "serve", served],
        "env": {"PYTHONPATH": os.pathsep.join(paths)},
    }
    key = name or server_name(module_part)
    if client == "vscode":
        return {"servers": {key: {"type": "stdio", **entry}}}
    return {"mcpServers": {key: entry}}


def print_config(args: argparse.Namespace) -> int:
    """Print the configuration the ``config`` command's arguments ask for."""
    config = client_config(args.client, args.target, args.name)
    print(json.dumps(config, indent=2))
    return 0
