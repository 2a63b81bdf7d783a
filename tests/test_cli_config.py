"""``standard-tool config``: a desktop client's configuration that works as written.

Each configuration is printed by the command line, then the server is started the way
the clients start it (working directory ``/``, a minimal environment plus the entry's
own ``env``) and driven with the official MCP client over stdio.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

TESTS = Path(__file__).parent
SRC = TESTS.parent / "src"


def _config(*args: str, cwd: Path) -> tuple[int, str, str]:
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    done = subprocess.run(
        [sys.executable, "-m", "standard_tool", "config", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    return done.returncode, done.stdout, done.stderr


async def _serves_the_tools(entry: dict[str, Any]) -> None:
    params = StdioServerParameters(
        command=entry["command"],
        args=entry["args"],
        env={**entry["env"], "PATH": "/usr/bin:/bin"},
        cwd="/",
    )
    with anyio.fail_after(60):
        async with stdio_client(params) as (read, write), ClientSession(read, write) as client:
            await client.initialize()
            listed = await client.list_tools()
            assert sorted(t.name for t in listed.tools) == ["add", "shout"]
            added = await client.call_tool("add", {"a": 2, "b": 3})
            assert added.is_error is False
            assert added.structured_content == {"result": 5}


@pytest.mark.parametrize(
    ("client", "target"),
    [
        ("claude", "cli_targets.py:toolkit"),
        ("cursor", "cli_targets:toolkit"),
        ("vscode", "cli_targets:toolkit"),
    ],
)
async def test_the_printed_configuration_starts_the_server_from_anywhere(
    client: str, target: str
) -> None:
    code, out, err = _config(client, target, cwd=TESTS)
    assert (code, err) == (0, "")
    config = json.loads(out)
    if client == "vscode":
        (entry,) = config["servers"].values()
        assert entry["type"] == "stdio"
    else:
        (entry,) = config["mcpServers"].values()
    assert Path(entry["command"]).is_absolute()
    assert entry["args"][:3] == ["-m", "standard_tool", "serve"]
    await _serves_the_tools(entry)


def test_the_server_key_is_the_targets_name_or_given() -> None:
    code, out, _ = _config("claude", "cli_targets:toolkit", cwd=TESTS)
    assert code == 0
    assert list(json.loads(out)["mcpServers"]) == ["cli_targets"]
    code, out, _ = _config("cursor", "cli_targets:toolkit", "--name", "maths", cwd=TESTS)
    assert list(json.loads(out)["mcpServers"]) == ["maths"]


def test_a_target_without_tools_fails_in_one_line() -> None:
    code, out, err = _config("claude", "no_such_module:toolkit", cwd=TESTS)
    assert (code, out) == (2, "")
    assert err == "standard-tool: no module named 'no_such_module' (is it on PYTHONPATH?)\n"
