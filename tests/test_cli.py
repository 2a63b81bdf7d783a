"""The ``standard-tool`` command line, run as a subprocess (``python -m standard_tool``)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

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
        (
            "cli_broken",
            "importing cli_broken failed at tests/cli_broken.py:3: RuntimeError: broken on purpose",
        ),
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


def test_check_reports_a_json_schema_its_metaschema_refuses_at_once(tmp_path: Path) -> None:
    """Building defers the metaschema check to the first call; ``check`` runs it now."""
    file = tmp_path / "bad_schema.py"
    file.write_text(
        "from standard_tool import standard_tool\n"
        "bad = standard_tool(name='bad', description='d', execute=lambda v: v,\n"
        "    input_schema={'type': 'object', 'properties': {'a': {'minimum': 'zero'}}})\n"
    )
    result = run("check", str(file), "--examples", "0")
    assert result.returncode == 1, result.stderr
    problems = json.loads(result.stdout)["problems"]
    assert {
        "tool": "bad",
        "provider": "schema",
        "path": "",
        "message": "InvalidSchemaError: from_json_schema: not a valid draft-2020-12 JSON "
        "Schema at properties/a/minimum: 'zero' is not of type 'number'",
    } in problems


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


_ISSUE_35_NAMES = ["my tools", "café", "a.b", "tools-", "class", "standard-tool", "x" * 300]


def _written_project_holds_together(root: Path, name: str) -> None:
    """Every Python file parses, the pyproject reads, its script names the package."""
    import ast

    for path in root.rglob("*.py"):
        ast.parse(path.read_text(encoding="utf-8"), str(path))
    text = (root / "pyproject.toml").read_text(encoding="utf-8")
    if sys.version_info >= (3, 11):
        import tomllib

        project = tomllib.loads(text)["project"]
        assert project["name"] == name
        [(script, target)] = project["scripts"].items()
        assert script == name
        package = target.split(".")[0]
        assert (root / package / "server.py").is_file()
        assert package.isidentifier()


@given(
    name=st.text(
        st.sampled_from("aZ09-_. é\"'\\") | st.characters(codec="utf-8"), min_size=1, max_size=70
    )
)
@example(name="a.b")
@example(name="class")
@example(name="standard-tool")
@example(name="Tools_2.0")
# Found by the ci profile: given after "--", a name with a leading "-" is the rule's to refuse.
@example(name="-:")
def test_init_refuses_a_name_with_the_rule_or_writes_a_project_that_holds(name: str) -> None:
    """Issue 35: names with spaces, accents, a trailing '-', keywords or ours broke the project."""
    import contextlib
    import io
    import tempfile

    with tempfile.TemporaryDirectory() as parent:
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            code = main(["init", "--directory", parent, "--", name])
        said = err.getvalue()
        if code == 2:
            assert said.startswith("standard-tool: init: ")
            assert "is not a usable project name" in said
            assert len(said) < 600  # the name is cut at 60 characters
            return
        assert code == 0, said
        _written_project_holds_together(Path(parent) / name, name)


@pytest.mark.parametrize("name", _ISSUE_35_NAMES)
def test_init_refuses_the_names_issue_35_found_or_writes_a_working_project(
    name: str, tmp_path: Path
) -> None:
    result = run("init", name, "--directory", str(tmp_path))
    if name != "a.b":
        assert result.returncode == 2
        assert "is not a usable project name" in result.stderr
        assert len(result.stderr) < 600
        return
    assert result.returncode == 0, result.stderr
    root = tmp_path / name
    _written_project_holds_together(root, name)
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


# A hostile shell: every failure is one bounded line on stderr and a documented code
# --------------------------------------------------------------------------------------


def one_line(result: subprocess.CompletedProcess[str], code: int) -> str:
    """The single stderr line of a run that ended with ``code``."""
    assert result.returncode == code, result.stderr[-2000:]
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr[-2000:]
    assert len(lines[0]) <= 700
    return lines[0]


def limit_memory() -> None:
    """Cap the child's address space, so a regression fails fast instead of eating the machine."""
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (2 * 1024**3, 2 * 1024**3))


@pytest.mark.skipif(sys.platform == "win32", reason="the memory cap uses POSIX rlimits")
def test_an_endless_iterable_target_is_refused_not_listed_for_ever() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "standard_tool", "inspect", "cli_hostile:endless"],
        capture_output=True,
        text=True,
        env=ENV,
        timeout=120,
        check=False,
        preexec_fn=limit_memory,
    )
    line = one_line(result, 2)
    assert "cli_hostile:endless holds more than 10000 items" in line


def test_an_attribute_that_raises_is_one_line() -> None:
    line = one_line(run("inspect", "cli_hostile:raising"), 2)
    assert line == (
        "standard-tool: reading 'cli_hostile:raising' failed: "
        "RuntimeError: reading this attribute fails"
    )


def test_an_import_with_a_huge_error_is_one_bounded_line() -> None:
    line = one_line(run("inspect", "cli_broken_big"), 2)
    assert line.startswith(
        "standard-tool: importing cli_broken_big failed at tests/cli_broken_big.py:"
    )
    assert line.endswith("... (--traceback shows it whole)")


@pytest.mark.parametrize(
    ("target", "message"),
    [
        ("cli_targets:", "TARGET 'cli_targets:' names nothing after ':'"),
        (":add", "TARGET ':add' names no module before ':'"),
    ],
)
def test_a_target_with_an_empty_side_of_the_colon_is_refused(target: str, message: str) -> None:
    assert one_line(run("inspect", target), 2).startswith(f"standard-tool: {message}")


def test_call_a_tool_with_parameters_named_json_and_help() -> None:
    result = run("call", "cli_hostile:settings", "--json", '{"json": "a", "help": "b"}')
    assert as_json(result) == "a/b"
    helped = run("call", "cli_hostile:settings", "--help")
    assert helped.returncode == 0
    assert "give 'json', 'help' inside --json" in helped.stdout


@pytest.mark.parametrize(
    ("target", "reason"),
    [
        ("cli_hostile:huge", "ValueError: Exceeds the limit"),
        ("cli_hostile:unprintable", "RuntimeError: no text for you"),
    ],
)
def test_call_with_an_output_it_cannot_print_exits_1(target: str, reason: str) -> None:
    line = one_line(run("call", target), 1)
    assert line.startswith(
        f"standard-tool: {target.split(':')[1]} returned a value that cannot be printed: {reason}"
    )


@pytest.mark.parametrize(
    "args",
    [
        ["call", "cli_targets:counts", "--json", "[" * 30_000],
        ["call", "cli_targets:counts", "--words", "[" * 30_000],
        ["call", "cli_targets:add", "--a", "7" * 5000],
        ["call", "cli_targets:add", "--a", "x" * 5000],
        ["call", "cli_targets:shout", "--text", "a", "--loud", "y" * 5000],
        ["inspect", "cli_targets", "--format", "f" * 5000],
        ["check", "cli_targets", "--examples", "9" * 5000],
        ["serve", "cli_targets:toolkit", "--port", "99999"],
        ["serve", "cli_targets:toolkit", "--port", "-5"],
        ["inspect", "m" * 5000],
    ],
    ids=lambda args: " ".join(a[:12] for a in args),
)
def test_bad_arguments_are_one_bounded_line_and_exit_2(args: list[str]) -> None:
    line = one_line(run(*args), 2)
    assert "Traceback" not in line


def test_a_port_out_of_range_names_the_range() -> None:
    line = one_line(run("serve", "cli_targets:toolkit", "--port", "99999"), 2)
    assert "expected a TCP port from 1 to 65535, got '99999'" in line


def test_output_piped_into_a_reader_that_stops_early_ends_quietly() -> None:
    reader = subprocess.run(
        f"{sys.executable} -m standard_tool export cli_hostile:many | head -c 100",
        shell=True,
        capture_output=True,
        text=True,
        env=ENV,
        timeout=120,
        check=False,
    )
    assert len(reader.stdout) == 100
    assert reader.stderr == ""


def test_a_closed_stdout_exits_141() -> None:
    writer = subprocess.Popen(
        [sys.executable, "-m", "standard_tool", "export", "cli_hostile:many"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=ENV,
    )
    assert writer.stdout is not None
    assert writer.stderr is not None
    try:
        writer.stdout.read(100)
        writer.stdout.close()
        assert writer.wait(timeout=120) == 141
        assert writer.stderr.read() == b""
    finally:
        writer.kill()
        writer.wait()
        writer.stdout.close()
        writer.stderr.close()


def interrupted(args: list[str], ready: str) -> tuple[int, str]:
    """Run the CLI, send it Ctrl-C once it wrote ``ready`` on stderr; its code and stderr."""
    process = subprocess.Popen(
        [sys.executable, "-m", "standard_tool", *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=ENV,
        # A suite started as a background job of a script inherits SIGINT ignored, and
        # Python then never raises KeyboardInterrupt: give the command line the default
        # disposition a terminal's Ctrl-C meets.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert process.stderr is not None
    try:
        assert ready in process.stderr.readline()
        process.send_signal(signal.SIGINT)
        code = process.wait(timeout=60)
        return code, process.stderr.read()
    finally:
        process.kill()
        process.wait()
        for stream in (process.stdin, process.stdout, process.stderr):
            if stream is not None:
                stream.close()


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT is a POSIX signal")
def test_ctrl_c_during_call_exits_130_with_one_line() -> None:
    code, stderr = interrupted(["call", "cli_hostile:wait"], "ready")
    assert (code, stderr) == (130, "standard-tool: interrupted\n")


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT is a POSIX signal")
def test_ctrl_c_while_serving_before_a_client_connects_exits_130() -> None:
    # cli_hostile prints nothing at import; a target that says ready once imported:
    code, stderr = interrupted(["serve", "cli_ready:toolkit"], "ready")
    assert (code, stderr) == (130, "standard-tool: interrupted\n")


BLOCK = """
import sys
class Block:
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in {blocked!r}:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
sys.meta_path.insert(0, Block())
from standard_tool._cli import main
sys.exit(main(sys.argv[1:]))
"""


def run_without(blocked: set[str], *args: str) -> subprocess.CompletedProcess[str]:
    """Run the CLI in an interpreter where the ``blocked`` packages cannot be imported."""
    return subprocess.run(
        [sys.executable, "-c", BLOCK.format(blocked=blocked), *args],
        capture_output=True,
        text=True,
        env=ENV,
        timeout=120,
        check=False,
    )


#: What a plain install (``pip install`` without extras) lacks, among what tests have.
NOT_IN_A_PLAIN_INSTALL = {"hypothesis", "jsonschema", "pydantic", "msgspec", "mcp", "anyio"}


def test_check_passes_clean_tools_on_a_plain_install_without_hypothesis() -> None:
    result = run_without({"hypothesis"}, "check", "cli_targets:toolkit")
    assert result.returncode == 0, result.stdout + result.stderr
    assert json.loads(result.stdout) == {"ok": True, "problems": []}
    assert result.stderr == (
        "standard-tool: note: schema agreement not checked (hypothesis not installed: "
        "the `testing` extra installs them)\n"
    )
    plain = run_without(NOT_IN_A_PLAIN_INSTALL, "check", "cli_targets:toolkit")
    assert plain.returncode == 0, plain.stdout + plain.stderr
    assert json.loads(plain.stdout) == {"ok": True, "problems": []}
    assert "(hypothesis and jsonschema not installed: the `testing` extra" in plain.stderr


def test_check_asked_for_examples_without_hypothesis_exits_2() -> None:
    line = one_line(run_without({"hypothesis"}, "check", "cli_targets:add", "--examples", "5"), 2)
    assert line == (
        "standard-tool: --examples 5 needs hypothesis: install the `testing` extra, "
        "or pass --examples 0"
    )


def test_serve_without_the_mcp_sdk_says_what_to_install() -> None:
    line = one_line(run_without({"mcp"}, "serve", "cli_targets:toolkit"), 2)
    assert line.startswith("standard-tool: serve needs the MCP SDK, which the `mcp` extra")


def test_export_inspect_and_call_accept_the_same_targets() -> None:
    for target in ("cli_targets:add", "cli_targets:toolkit", "cli_targets:tool_list"):
        exported = [t["name"] for t in as_json(run("export", target))["tools"]]
        inspected = [t["name"] for t in as_json(run("inspect", target))["tools"]]
        assert exported == inspected


def test_a_tool_that_breaks_the_protocol_is_exit_3_in_one_line() -> None:
    line = one_line(run("inspect", "cli_hostile:broken_schema"), 3)
    assert line == ("standard-tool: unexpected error: RuntimeError: this schema cannot be exported")


def test_the_docs_list_exactly_the_exit_codes_these_tests_show() -> None:
    """docs/cli.md's table: 0 and 1 above, 2 and 3 here, 130 and 141 by Ctrl-C and a pipe."""
    text = (TESTS.parent / "docs" / "cli.md").read_text(encoding="utf-8")
    table = text.split("## Exit codes", 1)[1].split("\n## ", 1)[0]
    codes = [line.split("|")[1].strip() for line in table.splitlines() if line.startswith("| ")]
    assert codes[2:] == ["0", "1", "2", "3", "130", "141"]


def test_init_readme_installs_standard_tool_from_a_path_not_the_package_index(
    tmp_path: Path,
) -> None:
    """standard-tool is not on a package index: the scaffold installs it from a path."""
    assert run("init", "demo", "--directory", str(tmp_path)).returncode == 0
    readme = (tmp_path / "demo" / "README.md").read_text(encoding="utf-8")
    installs = [line for line in readme.splitlines() if line.startswith("pip install")]
    assert len(installs) == 2
    source = installs[0].split('"')[1].removesuffix("[mcp]")
    assert source.startswith("/") or source.endswith(".whl")
    assert installs[1] == 'pip install -e ".[test]"'
    pyproject = (tmp_path / "demo" / "pyproject.toml").read_text(encoding="utf-8")
    assert 'test = ["pytest>=8"]' in pyproject


# a newcomer's answers: the version, help on every option, where an import failed
# --------------------------------------------------------------------------------------


def test_version_prints_the_package_version() -> None:
    import standard_tool

    result = run("--version")
    assert (result.returncode, result.stdout) == (0, f"standard-tool {standard_tool.__version__}\n")


def test_every_option_of_every_command_has_help() -> None:
    import argparse

    from standard_tool._cli import build_parser

    parser = build_parser()
    parsers = {"standard-tool": parser}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            parsers.update(action.choices)
    missing = [
        f"{name} {action.dest}"
        for name, sub in parsers.items()
        for action in sub._actions
        if not action.help
        and not isinstance(action, argparse._SubParsersAction)
        and name != "call"  # call's options come from the tool's schema (its own --help)
    ]
    assert missing == []
    assert {"inspect", "check", "diff", "export", "call", "serve", "dev", "config", "init"} <= set(
        parsers
    )


def test_an_import_failure_names_the_file_and_line_and_offers_traceback(tmp_path: Path) -> None:
    (tmp_path / "helper.py").write_text(
        "def connect():\n    raise RuntimeError('db not reachable')\n"
    )
    (tmp_path / "tools.py").write_text("import helper\n\nhelper.connect()\n")
    env = {**ENV, "PYTHONPATH": os.pathsep.join([str(SRC), str(tmp_path)])}
    line = one_line(run("inspect", "tools.py", env=env, cwd=tmp_path), 2)
    assert line == (
        "standard-tool: importing tools.py failed at helper.py:2: "
        "RuntimeError: db not reachable (--traceback shows it whole)"
    )

    traced = run("inspect", "tools.py", "--traceback", env=env, cwd=tmp_path)
    assert traced.returncode == 2
    lines = traced.stderr.splitlines()
    assert lines[0] == "Traceback (most recent call last):"
    assert 'tools.py", line 3, in <module>' in lines[1]  # from the target's own frame
    assert any('helper.py", line 2, in connect' in each for each in lines)
    assert lines[-2] == "RuntimeError: db not reachable"
    assert lines[-1] == "standard-tool: importing tools.py failed at helper.py:2: " + (
        "RuntimeError: db not reachable"
    )
    assert run("--traceback", "inspect", "tools.py", env=env, cwd=tmp_path).stderr == (
        traced.stderr
    )


def test_a_syntax_error_names_its_own_file_and_line(tmp_path: Path) -> None:
    (tmp_path / "tools.py").write_text("x = 1\ndef broken(:\n")
    line = one_line(run("inspect", str(tmp_path / "tools.py"), cwd=tmp_path), 2)
    assert line.startswith("standard-tool: importing ")
    assert " failed at tools.py:2: SyntaxError: " in line


def test_dev_without_node_says_what_to_install(tmp_path: Path) -> None:
    """No npx on PATH: one line naming Node.js and the serve command, exit 2."""
    env = {**ENV, "PATH": str(tmp_path)}  # an empty folder: no npx, no node
    line = one_line(run("dev", "cli_targets:toolkit", env=env), 2)
    assert "install Node.js" in line
    assert "standard-tool serve cli_targets:toolkit" in line
