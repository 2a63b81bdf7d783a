"""Our stdio server driven by the official MCP Inspector CLI (``--cli`` mode)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
TARGETS = HERE.parent.parent / "tests" / "mcp_targets.py"


def inspector(tmp_path: Path, *args: str) -> tuple[int, Any]:
    env = {**os.environ, "HOME": str(tmp_path)}  # the CLI keeps its catalog under HOME
    done = subprocess.run(
        [
            "npx",
            "--no-install",
            "mcp-inspector",
            "--cli",
            *args,
            "--",
            sys.executable,
            str(TARGETS),
        ],
        cwd=HERE,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    return done.returncode, json.loads(done.stdout)


def test_tools_list(tmp_path: Path) -> None:
    code, listed = inspector(tmp_path, "--method", "tools/list")
    assert code == 0
    tools = {t["name"]: t for t in listed["tools"]}
    assert sorted(tools) == ["add", "code", "crash", "explode", "index", "move", "nap", "steps"]
    assert tools["move"]["title"] == "Move a point"
    assert tools["move"]["outputSchema"]["type"] == "object"


def test_a_good_call_with_a_model_typed_object_argument(tmp_path: Path) -> None:
    code, result = inspector(
        tmp_path,
        "--method",
        "tools/call",
        "--tool-name",
        "move",
        "--tool-arg",
        'point={"x": 1, "y": 2}',
        "dx=3",
    )
    assert code == 0
    assert result["isError"] is False
    assert (result["structuredContent"]["x"], result["structuredContent"]["y"]) == (4, 2)


def test_bad_calls_are_error_results(tmp_path: Path) -> None:
    code, result = inspector(
        tmp_path, "--method", "tools/call", "--tool-name", "move", "--tool-arg", 'point={"x": -1}'
    )
    assert code != 0
    assert result["isError"] is True
    text = result["content"][0]["text"]
    assert text.startswith("Error: input validation failed: point.x")
    assert "point.y" in text

    code, result = inspector(
        tmp_path, "--method", "tools/call", "--tool-name", "code", "--tool-arg", "value=ab-1"
    )
    assert result["isError"] is True
    assert result["content"][0]["text"].startswith("Error: input validation failed: value")

    code, result = inspector(
        tmp_path, "--method", "tools/call", "--tool-name", "explode", "--tool-arg", "reason=boom"
    )
    assert result["isError"] is True
    assert "boom" in result["content"][0]["text"]


def test_standard_tool_dev_runs_the_inspector_on_a_file(tmp_path: Path) -> None:
    """``standard-tool dev FILE --cli ...``: the real Inspector (the one npm installed here)."""
    env = {**os.environ, "HOME": str(tmp_path), "npm_config_offline": "true"}  # no fetch
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "standard_tool",
            "dev",
            str(TARGETS),
            "--cli",
            "--method",
            "tools/list",
        ],
        cwd=HERE,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr.startswith(
        "standard-tool: starting the MCP Inspector (@modelcontextprotocol/inspector, through "
        f"npx) on 8 tools of {str(TARGETS)!r}; Ctrl-C stops\n"
    )
    listed = json.loads(done.stdout)
    assert sorted(t["name"] for t in listed["tools"]) == [
        "add",
        "code",
        "crash",
        "explode",
        "index",
        "move",
        "nap",
        "steps",
    ]
