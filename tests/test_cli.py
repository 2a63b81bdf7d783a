"""The ``standard-tool`` command line, run as a subprocess (``python -m standard_tool``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from standard_tool._cli import main

TESTS = Path(__file__).parent
SRC = TESTS.parent / "src"
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join([str(SRC), str(TESTS)])}
ENV.pop("NO_COLOR", None)


def run(
    *args: str, env: dict[str, str] | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "standard_tool", *args],
        capture_output=True,
        text=True,
        env=env or ENV,
        cwd=cwd,
        timeout=120,
        check=False,
    )


def as_json(result: subprocess.CompletedProcess[str]) -> Any:
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


# inspect
# --------------------------------------------------------------------------------------


def test_inspect_module_lists_every_top_level_tool_as_json_when_piped() -> None:
    data = as_json(run("inspect", "cli_targets"))
    assert [t["name"] for t in data["tools"]] == ["add", "shout", "explode", "counts"]
    assert data["tools"][0]["parameters"] == [
        ["a", "integer", "required"],
        ["b", "integer", "optional"],
    ]


def test_inspect_table_on_a_terminal_with_colour_forced() -> None:
    result = run("--color", "always", "inspect", "cli_targets:toolkit")
    assert result.returncode == 0
    assert "\x1b[1mNAME" in result.stdout
    assert "a: integer, b: integer?" in result.stdout


def test_inspect_color_never_is_a_plain_table() -> None:
    result = run("--color", "never", "inspect", "cli_targets:add")
    assert "\x1b[" not in result.stdout
    assert result.stdout.splitlines()[0].split() == ["NAME", "TITLE", "DESCRIPTION", "PARAMETERS"]


def test_inspect_one_format() -> None:
    data = as_json(run("inspect", "cli_targets:add", "--format", "anthropic"))
    assert data["tools"][0]["anthropic"]["name"] == "add"
    assert "input_schema" in data["tools"][0]["anthropic"]


def test_inspect_all_formats() -> None:
    data = as_json(run("inspect", "cli_targets:tool_list", "--format", "all", "--json"))
    assert set(data["tools"][0]) == {
        "name",
        "openai-chat",
        "openai-responses",
        "anthropic",
        "anthropic-strict",
        "gemini",
        "gemini-json",
        "mcp",
        "bedrock",
        "jsonschema",
    }


def test_inspect_a_file_path(tmp_path: Path) -> None:
    file = tmp_path / "my_tools.py"
    file.write_text(
        "from standard_tool import tool\n\n"
        "@tool\ndef hello(name: str) -> str:\n    '''Say hello.'''\n    return name\n"
    )
    assert [t["name"] for t in as_json(run("inspect", str(file)))["tools"]] == ["hello"]
    assert [t["name"] for t in as_json(run("inspect", f"{file}:hello"))["tools"]] == ["hello"]


# bad targets and arguments: exit 2 with one clear line
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("target", "message"),
    [
        ("no_such_module_xyz", "no module named 'no_such_module_xyz'"),
        ("cli_targets:nope", "cli_targets has no attribute 'nope'"),
        ("cli_targets:not_a_tool", "is not a tool, a Toolkit or a list of tools"),
        ("cli_broken", "importing cli_broken failed: RuntimeError: broken on purpose"),
        ("missing/file.py", "no such file: missing/file.py"),
        ("json", "json defines no tools at top level"),
    ],
)
@pytest.mark.parametrize("command", ["inspect", "check", "diff", "export", "call"])
def test_bad_target_exits_2_with_a_message(command: str, target: str, message: str) -> None:
    result = run(command, target)
    assert result.returncode == 2
    assert result.stdout == ""
    assert (
        result.stderr.strip().splitlines() == [f"standard-tool: {message}"]
        or message in result.stderr
    )


@pytest.mark.parametrize(
    "args",
    [
        [],
        ["frobnicate"],
        ["inspect"],
        ["inspect", "cli_targets", "--format", "nope"],
        ["check", "x", "--examples", "many"],
        ["call"],
    ],
)
def test_usage_errors_exit_2(args: list[str]) -> None:
    result = run(*args)
    assert result.returncode == 2
    assert "error" in result.stderr


# check
# --------------------------------------------------------------------------------------


def test_check_clean_tools_exit_0() -> None:
    data = json.loads(run("check", "cli_targets:toolkit", "--examples", "10").stdout)
    assert data == {"ok": True, "problems": []}


def test_check_reports_tool_provider_and_path_and_exits_1(tmp_path: Path) -> None:
    file = tmp_path / "bad_tools.py"
    file.write_text(
        "from standard_tool import standard_tool\n"
        "bad = standard_tool(name='bad name!', description='d', execute=lambda: 1)\n"
    )
    result = run("check", str(file), "--examples", "0")
    assert result.returncode == 1, result.stderr
    problems = json.loads(result.stdout)["problems"]
    assert {"tool": "bad name!", "provider": "mcp"} in [
        {"tool": p["tool"], "provider": p["provider"]} for p in problems
    ]
    assert all(p["path"].startswith("/") or p["path"] == "" for p in problems)
    text = run("--color", "never", "check", str(file), "--examples", "0").stdout
    assert "bad name! [mcp] /: " in text
    assert "is not accepted by MCP" in text


def test_check_flags_a_tool_without_a_description(tmp_path: Path) -> None:
    file = tmp_path / "undocumented.py"
    file.write_text(
        "from standard_tool import tool\n\n\n@tool\ndef quiet(a: int) -> int:\n    return a\n"
    )
    result = run("check", str(file), "--examples", "0")
    assert result.returncode == 1, result.stderr
    assert json.loads(result.stdout)["problems"] == [
        {
            "tool": "quiet",
            "provider": "description",
            "path": "/description",
            "message": "is empty: a model chooses a tool by its description, and MCP serves "
            "the tool without one; add a docstring or pass description=",
        }
    ]


# diff
# --------------------------------------------------------------------------------------


def test_diff_shows_what_strict_mode_rewrote() -> None:
    data = as_json(run("diff", "cli_targets:counts", "--format", "openai-strict"))
    (entry,) = data["diffs"]
    assert entry["strict"] is True
    assert {
        "op": "changed",
        "path": "/properties/words/type",
        "old": "object",
        "new": "array",
    } in entry["changes"]


def test_diff_text_marks_added_removed_changed() -> None:
    text = run("--color", "never", "diff", "cli_targets:counts", "--format", "gemini").stdout
    assert "counts -> gemini" in text
    assert "- /additionalProperties: false" in text
    assert '~ /properties/words/type: "object" -> "array"' in text


# export
# --------------------------------------------------------------------------------------


def test_export_neutral_shape() -> None:
    data = as_json(run("export", "cli_targets:toolkit"))
    assert [sorted(t) for t in data["tools"]] == [
        ["description", "input_schema", "name", "output_schema", "title"]
    ] * 2


def test_export_provider_format() -> None:
    data = as_json(run("export", "cli_targets:add", "--format", "mcp"))
    assert data["tools"][0]["name"] == "add"
    assert "inputSchema" in data["tools"][0]


# call
# --------------------------------------------------------------------------------------


def test_call_with_generated_options_coerces_types() -> None:
    result = run(
        "call",
        "cli_targets:shout",
        "--text",
        "hi",
        "--times",
        "2",
        "--loud",
        "false",
        "--tags",
        '["x"]',
    )
    assert as_json(result) == "hihi #x"


def test_call_with_json() -> None:
    assert as_json(run("call", "cli_targets:add", "--json", '{"a": 2, "b": 5}')) == 7


def test_call_help_lists_the_schema_options() -> None:
    result = run("call", "cli_targets:shout", "--help")
    assert result.returncode == 0
    for option in ("--text STRING", "--times INTEGER", "--loud BOOLEAN", "what to say."):
        assert option in result.stdout


def test_call_validation_error_exits_1() -> None:
    result = run("call", "cli_targets:add", "--json", '{"a": "z"}')
    assert result.returncode == 1
    assert result.stderr.startswith("standard-tool: input validation failed: a:")


def test_call_handler_exception_exits_1() -> None:
    result = run("call", "cli_targets:explode", "--reason", "boom")
    assert result.returncode == 1
    assert result.stderr.strip() == "standard-tool: explode failed: RuntimeError: boom"


@pytest.mark.parametrize(
    "args",
    [
        ["call", "cli_targets:add", "--a", "x"],
        ["call", "cli_targets:add", "--json", "{"],
        ["call", "cli_targets:add", "--nope", "1"],
        ["call", "cli_targets:toolkit", "--a", "1"],
    ],
)
def test_call_usage_errors_exit_2(args: list[str]) -> None:
    result = run(*args)
    assert result.returncode == 2
    assert result.stderr


# entry point, init
# --------------------------------------------------------------------------------------


def test_main_function_returns_the_exit_code(capsys: pytest.CaptureFixture[str]) -> None:
    sys.path.insert(0, str(TESTS))
    try:
        assert main(["export", "cli_targets:add"]) == 0
        assert json.loads(capsys.readouterr().out)["tools"][0]["name"] == "add"
        assert main(["inspect", "cli_targets:nope"]) == 2
    finally:
        sys.path.remove(str(TESTS))


def test_init_scaffolds_a_project_whose_tests_pass(tmp_path: Path) -> None:
    result = run("init", "weather-tools", "--directory", str(tmp_path))
    assert result.returncode == 0, result.stderr
    root = tmp_path / "weather-tools"
    for name in (
        "pyproject.toml",
        "README.md",
        "weather_tools/tools.py",
        "weather_tools/server.py",
        "tests/test_tools.py",
    ):
        assert (root / name).is_file()
    env = {**ENV, "PYTHONPATH": os.pathsep.join([str(root), str(SRC)])}
    tests = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"],
        capture_output=True,
        text=True,
        env=env,
        cwd=root,
        timeout=120,
        check=False,
    )
    assert tests.returncode == 0, tests.stdout + tests.stderr
    assert "4 passed" in tests.stdout
    assert run("init", "weather-tools", "--directory", str(tmp_path)).returncode == 2
