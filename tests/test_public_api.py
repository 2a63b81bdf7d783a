"""The flat public namespace: ``__all__`` is sorted and matches what is exported."""

from __future__ import annotations

import inspect
import subprocess
import sys

import standard_tool


def test_all_is_sorted_and_unique() -> None:
    names = standard_tool.__all__

    # isort-style, as ruff keeps it: CONSTANTS, then Classes, then functions.
    def key(name: str) -> tuple[int, str]:
        return (0 if name.isupper() else 1 if name[:1].isupper() else 2, name)

    assert list(names) == sorted(names, key=key)
    assert len(set(names)) == len(names)


def test_all_matches_the_public_attributes() -> None:
    public = {
        name
        for name in dir(standard_tool)
        if not name.startswith("_") and not inspect.ismodule(getattr(standard_tool, name))
    }
    assert public == set(standard_tool.__all__) - {"__version__"}


def test_lazy_names_load_on_first_use_and_unknown_names_fail_clearly() -> None:
    code = (
        "import sys, standard_tool\n"
        "assert 'standard_tool._function' not in sys.modules\n"
        "assert 'standard_tool._toolkit' not in sys.modules\n"
        "from standard_tool import tool, Toolkit\n"
        "from standard_tool._function import tool as t2\n"
        "from standard_tool._toolkit import Toolkit as k2\n"
        "assert tool is t2 and Toolkit is k2\n"
        "try:\n"
        "    standard_tool.nope\n"
        "except AttributeError as e:\n"
        "    assert \"has no attribute 'nope'\" in str(e)\n"
        "else:\n"
        "    raise SystemExit('no AttributeError')\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_every_public_object_has_a_docstring() -> None:
    for name in standard_tool.__all__:
        value = getattr(standard_tool, name)
        if callable(value) or inspect.isclass(value):
            assert inspect.getdoc(value), name


def test_every_public_name_has_an_entry_in_the_api_reference() -> None:
    from pathlib import Path

    api = (Path(__file__).resolve().parent.parent / "docs" / "api.md").read_text(encoding="utf-8")
    missing = [
        name
        for name in standard_tool.__all__
        if name not in {"__version__"} and f"::: standard_tool.{name}\n" not in api
    ]
    assert missing == []


def test_provider_names_load_their_own_module_only() -> None:
    """An MCP server imports ``to_mcp`` without paying for the other providers."""
    code = (
        "import sys\n"
        "from standard_tool.providers import to_mcp\n"
        "others = [m for m in ('_anthropic', '_anthropic_strict', '_bedrock', '_gemini',\n"
        "    '_gemini_run', '_openai') if 'standard_tool.providers.' + m in sys.modules]\n"
        "assert others == [], others\n"
        "import standard_tool.providers as p\n"
        "assert all(getattr(p, name) is not None for name in p.__all__)\n"
        "assert sorted(dir(p)) == sorted(p.__all__)\n"
        "try:\n"
        "    p.nothing_here\n"
        "except AttributeError as err:\n"
        "    assert 'nothing_here' in str(err)\n"
        "else:\n"
        "    raise AssertionError('no AttributeError')\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
