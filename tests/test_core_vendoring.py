"""CONTRACT.md section 5: the core is one file that can be vendored."""

from __future__ import annotations

import ast
import importlib.util
import json
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
import typing_extensions

import standard_tool._core as core
import standard_tool.types

CORE = Path(core.__file__)
ALLOWED = {"typing_extensions", "__future__"} | set(sys.stdlib_module_names)


def test_core_imports_only_stdlib_and_typing_extensions() -> None:
    tree = ast.parse(CORE.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            assert node.level == 0, "no relative imports in the core"
            assert node.module is not None
            assert node.module.split(".")[0] in ALLOWED, node.module
        elif isinstance(node, ast.Import):
            for alias in node.names:
                assert alias.name.split(".")[0] in ALLOWED, alias.name


def test_copied_core_works_under_another_name_in_isolation(tmp_path: Path) -> None:
    shutil.copy(CORE, tmp_path / "my_vendored_tools.py")
    shutil.copy(typing_extensions.__file__, tmp_path / "typing_extensions.py")
    script = textwrap.dedent(
        """
        import asyncio, json, sys
        sys.path.insert(0, ".")
        import my_vendored_tools as st

        class Props:
            version = 1
            vendor = "vendored"
            def validate(self, value):
                if isinstance(value, int):
                    return st.SuccessResult(value)
                return st.FailureResult((st.Issue("expected an integer", ("n",)),))
            class json_schema:
                @staticmethod
                def input(*, target, library_options=None):
                    return {"type": "integer"}
                output = input

        class Int:
            __standard__ = Props()

        tool = st.standard_tool(name="inc", description="Add one.", input_schema=Int(),
                                execute=lambda n: n + 1)

        async def ahandler(n):
            return n * 10

        atool = st.standard_tool(name="times", description="d", input_schema=Int(),
                                 execute=ahandler)
        loaded = sorted(m for m in ("standard_tool", "pydantic", "msgspec", "jsonschema")
                        if m in sys.modules)
        print(json.dumps({
            "sync": tool.execute(1),
            "formatted": tool.formatted().execute("x"),
            "async": st.run_tool_sync(atool, 2),
            "schema": st.input_json_schema(tool),
            "is_tool": st.is_standard_tool(tool),
            "loaded": loaded,
        }))
        """
    )
    out = subprocess.run(
        [sys.executable, "-I", "-S", "-c", script],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(out.stdout) == {
        "sync": 2,
        "formatted": {"error": "input validation failed: n: expected an integer"},
        "async": 20,
        "schema": {"type": "integer"},
        "is_tool": True,
        "loaded": [],
    }


def test_vendored_core_without_the_package_explains_non_standard_schemas(tmp_path: Path) -> None:
    shutil.copy(CORE, tmp_path / "vendored.py")
    shutil.copy(typing_extensions.__file__, tmp_path / "typing_extensions.py")
    script = (
        "import sys\n"
        "sys.path.insert(0, '.')\n"
        "import vendored\n"
        "try:\n"
        "    vendored.standard_tool(name='a', description='d', input_schema={'type': 'object'},"
        " execute=lambda: 1)\n"
        "except TypeError as err:\n"
        "    print(err)\n"
    )
    out = subprocess.run(
        [sys.executable, "-I", "-S", "-c", script],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert out.returncode == 0, out.stderr
    assert "input_schema: dict is not a Standard Schema" in out.stdout


def test_importing_the_package_loads_no_optional_dependency() -> None:
    script = (
        "import sys, standard_tool\n"
        "heavy = ('pydantic', 'msgspec', 'jsonschema', 'mcp', 'openai', 'anthropic', 'google')\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in heavy))\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_importing_the_package_loads_no_event_loop_machinery() -> None:
    """``import standard_tool`` stays cheap (issue 25): asyncio and friends load when used."""
    script = (
        "import sys, standard_tool\n"
        "slow = ('asyncio', 'concurrent.futures', 'urllib.parse')\n"
        "print(sorted(m for m in slow if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_package_reexports_the_core() -> None:
    """Every core name is public: in the façade, or in ``standard_tool.types`` for plumbing.

    The façade's ``standard_tool`` is the core builder plus schema coercion, and its
    ``Tool`` / ``AsyncTool`` are the package's subclasses of the core's (they add
    ``timeout``, ``metadata`` and ``stream``).
    """

    for name in core.__all__:
        if name == "standard_tool":
            assert standard_tool.standard_tool.__wrapped__ is core.standard_tool
            continue
        if name in ("Tool", "AsyncTool"):
            package_class = getattr(standard_tool, name)
            assert package_class is not getattr(core, name)
            assert issubclass(package_class, getattr(core, name)), name
            continue
        home = standard_tool if name in standard_tool.__all__ else standard_tool.types
        assert getattr(home, name) is getattr(core, name), name


def test_a_vendored_core_runs_the_installed_adapters_through_validate(tmp_path: Path) -> None:
    """The copy knows nothing of the package's fast paths: it calls ``validate``, same results."""
    shutil.copy(CORE, tmp_path / "vendored_core.py")
    script = textwrap.dedent(
        """
        import json, sys
        sys.path.insert(0, ".")
        import vendored_core
        from standard_tool.schemas.msgspec import msgspec_schema

        schema = msgspec_schema(int)
        props = schema.__standard__
        calls = []
        real_validate = props.validate

        class Spy:
            version, vendor = props.version, props.vendor
            json_schema, fast_path = props.json_schema, props.fast_path

            def validate(self, value):
                calls.append(value)
                return real_validate(value)

        class Spied:
            __standard__ = Spy()

        tool = vendored_core.standard_tool(
            name="inc", description="d", input_schema=Spied(), execute=lambda n: n + 1
        )
        try:
            tool.execute("x")
        except vendored_core.StandardToolValidationError as err:
            error = str(err)
        print(json.dumps({"ok": tool.execute(1), "error": error, "validate_calls": calls}))
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, check=True
    )
    assert json.loads(out.stdout) == {
        "ok": 2,
        "error": "input validation failed: Expected `int`, got `str`",
        "validate_calls": ["x", 1],
    }


def test_the_contract_reads_in_the_proposals_order() -> None:
    """Protocols, results, the error, the builder, formatting, helpers, then typing only."""
    banners = [line for line in CORE.read_text().splitlines() if line.startswith("# -- ")]
    words = ["Protocols", "Results", "Errors", "builder", "with_formatted_output", "helpers"]
    assert len(banners) == len(words) + 1
    for banner, word in zip(banners, [*words, "Typing only"], strict=True):
        assert word in banner


def test_the_contract_is_at_most_400_lines_before_the_typing_only_section() -> None:
    """CONTRACT.md section 5: what a reader reads top to bottom stays short."""
    lines = CORE.read_text(encoding="utf-8").splitlines()
    banner = next(i for i, line in enumerate(lines) if line.startswith("# -- Typing only"))
    assert banner <= 400, f"{banner} lines before the typing-only section"


def _vendored_core(tmp_path: Path) -> Any:
    """A copy of the core loaded in this process under another name, as a project vendors it."""
    shutil.copy(CORE, tmp_path / "their_core.py")
    spec = importlib.util.spec_from_file_location("their_core", tmp_path / "their_core.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["their_core"] = module  # dataclasses look their module up
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules["their_core"]
    return module


def test_a_vendored_cores_validation_error_reads_as_the_packages(tmp_path: Path) -> None:
    """Toolkit, format_result, text and MCP results give the message alone, no class name."""
    from standard_tool import Toolkit
    from standard_tool.providers import format_result, mcp_call_tool_result, text_result
    from standard_tool.schemas.jsonschema import from_json_schema

    theirs = _vendored_core(tmp_path)
    tool = theirs.standard_tool(
        name="inc",
        description="Add one.",
        input_schema=from_json_schema({"type": "integer"}),
        execute=lambda n: n + 1,
    )
    with pytest.raises(ValueError, match="input validation failed") as caught:
        tool.execute("x")
    assert type(caught.value) is not core.StandardToolValidationError
    message = str(caught.value)
    assert message.startswith("input validation failed: ")

    result = Toolkit([tool]).execute("inc", "x")
    assert result.error == message
    assert format_result(result) == f"Error: {message}"
    assert format_result(result, "mcp")["content"][0]["text"] == f"Error: {message}"
    assert text_result(caught.value) == f"Error: {message}"
    assert mcp_call_tool_result(caught.value)["content"][0]["text"] == f"Error: {message}"


def test_a_value_error_with_other_attributes_keeps_its_class_name() -> None:
    """Only the error's shape (target input/output, a tuple of issues) makes it one."""
    from standard_tool import Toolkit, standard_tool

    class Lookalike(ValueError):
        target = "elsewhere"
        issues = ()

    def fail() -> None:
        raise Lookalike("no")

    result = Toolkit([standard_tool(name="f", description="d", execute=fail)]).execute("f")
    assert result.error == "Lookalike: no"
