"""The ``standard-tool`` command: inspect, check, diff, export, call and serve tools.

Layer: top (the command line; imports anything below, never the package root)
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import gc
import importlib
import importlib.util
import itertools
import json
import os
import shutil
import socket
import subprocess
import sys
import threading
import traceback
from collections.abc import Callable, Generator, Iterable, Sequence
from pathlib import Path
from types import FrameType, ModuleType
from typing import Any, NoReturn, cast

from standard_tool._cli_config import add_config_parser, print_config, server_name
from standard_tool._core import (
    input_json_schema,
    is_standard_tool,
    optional_member,
    output_json_schema,
    run_tool_sync,
)
from standard_tool._shared import is_validation_error
from standard_tool._toolkit import Toolkit

__all__ = ["main"]

FORMATS = (
    "openai-chat",
    "openai-responses",
    "anthropic",
    "anthropic-strict",
    "gemini",
    "gemini-json",
    "mcp",
    "bedrock",
    "jsonschema",
)
MAX_MESSAGE = 500
MAX_TOOLS = 10_000
MAX_VALUE = 60
DEFAULT_EXAMPLES = 50

# Exit codes (docs/cli.md lists them).
EXIT_OK = 0
EXIT_FAILED = 1  # check found problems; call: invalid input, the tool raised, unprintable result
EXIT_USAGE = 2  # bad usage, a bad TARGET, a missing optional dependency
EXIT_UNEXPECTED = 3  # anything else: a tool that breaks a protocol, or a bug here
EXIT_INTERRUPTED = 130  # Ctrl-C (128 + SIGINT)
EXIT_PIPE_CLOSED = 141  # the reader of stdout stopped early (128 + SIGPIPE), silently


class TargetError(Exception):
    """A TARGET that does not name tools; the CLI exits 2 with its message."""


class UsageError(Exception):
    """A command that cannot run as asked; the CLI exits 2 with its message."""


class ImportFailed(TargetError):
    """The TARGET's own code raised while it was imported; ``__cause__`` is what it raised."""


def _failed_import(spec: str, err: BaseException) -> ImportFailed:
    """Say that importing ``spec`` failed, where (file and line), and with what."""
    return ImportFailed(f"importing {spec} failed at {_where(err)}: {_describe(err)}")


def _where(err: BaseException) -> str:
    """``file:line`` where ``err`` was raised: a syntax error's own, else the deepest frame."""
    if isinstance(err, SyntaxError) and err.filename is not None:
        return f"{_path_shown(err.filename)}:{err.lineno}"
    frames = [f for f in traceback.extract_tb(err.__traceback__) if "<frozen " not in f.filename]
    if not frames:
        return "an unknown place"
    return f"{_path_shown(frames[-1].filename)}:{frames[-1].lineno}"


def _path_shown(filename: str) -> str:
    """Show a file's path relative to the working directory when it is below it."""
    try:
        return str(Path(filename).resolve().relative_to(Path.cwd()))
    except (ValueError, OSError):
        return filename


def _bound(text: str) -> str:
    """``text`` on one line of at most MAX_MESSAGE characters."""
    flat = " ".join(text.split())
    return flat if len(flat) <= MAX_MESSAGE else flat[: MAX_MESSAGE - 3] + "..."


def _describe(err: BaseException) -> str:
    """``Type: message`` of an exception, bounded, even when its ``__str__`` raises."""
    try:
        text = str(err)
    except Exception:  # a hostile exception: its type is all there is to say
        text = "(its message cannot be printed)"
    return _bound(f"{type(err).__name__}: {text}" if text else type(err).__name__)


def _shown(text: str) -> str:
    """Quote a value the user typed, cut to MAX_VALUE characters."""
    if len(text) <= MAX_VALUE:
        return repr(text)
    return f"{text[: MAX_VALUE - 3]!r}... ({len(text)} characters)"


# Loading targets
# --------------------------------------------------------------------------------------


def _import(spec: str) -> ModuleType:
    if spec.endswith(".py") or os.sep in spec or "/" in spec:
        path = Path(spec)
        if not path.is_file():
            raise TargetError(f"no such file: {spec}")
        name = f"_standard_tool_target_{path.stem}"
        module_spec = importlib.util.spec_from_file_location(name, path)
        if module_spec is None or module_spec.loader is None:
            raise TargetError(f"cannot load {spec} as a Python module")
        module = importlib.util.module_from_spec(module_spec)
        sys.modules[name] = module
        try:
            module_spec.loader.exec_module(module)
        except Exception as err:  # user code: any failure is a bad target
            raise _failed_import(spec, err) from err
        return module
    try:
        return importlib.import_module(spec)
    except ModuleNotFoundError as err:
        if err.name is not None and spec.startswith(err.name):
            raise TargetError(f"no module named {_shown(spec)} (is it on PYTHONPATH?)") from err
        raise _failed_import(spec, err) from err
    except Exception as err:  # user code: any failure is a bad target
        raise _failed_import(spec, err) from err


def _is_tool(obj: object) -> bool:
    """Tell a tool from a class whose attributes look like one (its instances are the tools)."""
    return not isinstance(obj, type) and is_standard_tool(obj)


def _tools_of(obj: Any, where: str) -> list[Any]:
    if _is_tool(obj):
        return [obj]
    if isinstance(obj, Toolkit):
        return obj.list()
    if isinstance(obj, Iterable) and not isinstance(obj, (str, bytes, dict)):
        # An iterable may be endless (itertools.count()): read one past the bound, no more.
        items: list[Any] = list(itertools.islice(cast("Iterable[object]", obj), MAX_TOOLS + 1))
        if len(items) > MAX_TOOLS:
            raise TargetError(f"{where} holds more than {MAX_TOOLS} items; name fewer tools")
        if items and all(_is_tool(item) for item in items):
            return items
    raise TargetError(f"{where} is not a tool, a Toolkit or a list of tools")


def load_tools(target: str) -> list[Any]:
    """Return the tools TARGET names (``pkg.mod:obj``, ``pkg.mod`` or ``file.py[:obj]``)."""
    module_part, colon, attr = target.partition(":")
    if len(module_part) == 1 and attr[:1] in ("\\", "/"):  # a Windows drive letter
        drive_rest, colon, attr = attr.partition(":")
        module_part = f"{module_part}:{drive_rest}"
    if not module_part:
        raise TargetError(f"TARGET {_shown(target)} names no module before ':'")
    if colon and not attr:
        raise TargetError(
            f"TARGET {_shown(target)} names nothing after ':'; "
            f"add an object's name or drop the ':' to take every tool of {_shown(module_part)}"
        )
    module = _import(module_part)
    try:
        if attr:
            return _tools_of(_attribute(module, module_part, attr), target)
        return _module_tools(module, module_part)
    except TargetError:
        raise
    except Exception as err:  # user code (a property, __getattr__, __iter__) may raise anything
        raise TargetError(f"reading {_shown(target)} failed: {_describe(err)}") from err


def _attribute(module: ModuleType, module_part: str, attr: str) -> Any:
    obj: Any = module
    for part in attr.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError as err:
            raise TargetError(f"{module_part} has no attribute {_shown(attr)}") from err
    return obj


def _module_tools(module: ModuleType, module_part: str) -> list[Any]:
    tools: list[Any] = []
    seen: set[str] = set()
    namespace: dict[str, Any] = vars(module)
    for value in namespace.values():
        found: list[Any] = []
        if _is_tool(value):
            found = [value]
        elif isinstance(value, Toolkit):
            found = value.list()
        for tool in found:
            if tool.name not in seen:
                seen.add(tool.name)
                tools.append(tool)
    if not tools:
        raise TargetError(f"{module_part} defines no tools at top level")
    return tools


# Formats
# --------------------------------------------------------------------------------------


def _providers() -> Any:
    import standard_tool.providers as providers

    return providers


def render_format(tool: Any, fmt: str) -> Any:
    """Return the tool in one provider format (its neutral JSON for ``jsonschema``)."""
    p = _providers()
    if fmt == "jsonschema":
        return neutral(tool)
    convert = {
        "openai-chat": p.to_openai_chat,
        "openai-responses": p.to_openai_responses,
        "anthropic": p.to_anthropic,
        "gemini": p.to_gemini,
        "mcp": p.to_mcp,
        "bedrock": p.to_bedrock,
        "anthropic-strict": functools.partial(p.to_anthropic, strict=True),
        "gemini-json": functools.partial(p.to_gemini, json_schema=True),
    }[fmt]
    try:
        return convert(tool)
    except Exception as err:  # a provider may refuse a schema; show why
        return {"error": f"{type(err).__name__}: {_bound(str(err))}"}


def neutral(tool: Any) -> dict[str, Any]:
    """Return the neutral description: name, title, description and both schemas."""
    return {
        "name": tool.name,
        "title": optional_member(tool, "title"),
        "description": tool.description,
        "input_schema": input_json_schema(tool),
        "output_schema": output_json_schema(tool),
    }


# Output
# --------------------------------------------------------------------------------------


class Out:
    """Where and how to print: colours only on a terminal without ``NO_COLOR``."""

    def __init__(self, color: str, as_json: bool) -> None:
        tty = sys.stdout.isatty()
        self.color = color == "always" or (color == "auto" and tty and "NO_COLOR" not in os.environ)
        self.json = as_json or (color == "auto" and not tty)

    def paint(self, text: str, code: str) -> str:
        return f"\x1b[{code}m{text}\x1b[0m" if self.color else text

    def emit_json(self, value: Any) -> None:
        print(json.dumps(value, indent=2, ensure_ascii=False, default=str))


def _type_of(schema: Any) -> str:
    if not isinstance(schema, dict):
        return "any"
    node = cast("dict[str, Any]", schema)
    kind: Any = node.get("type")
    if isinstance(kind, list):
        kinds = cast("list[object]", kind)
        return "|".join(str(k) for k in kinds)
    if kind is None:
        for key in ("anyOf", "oneOf"):
            options: Any = node.get(key)
            if isinstance(options, list):
                choices = cast("list[object]", options)
                return "|".join(_type_of(s) for s in choices)
        return "any"
    return str(kind)


def _summary_rows(tool: Any) -> list[tuple[str, str, str]]:
    schema = input_json_schema(tool)
    required = set(schema.get("required", ()))
    props: dict[str, Any] = schema.get("properties", {})
    return [(n, _type_of(s), "required" if n in required else "optional") for n, s in props.items()]


def _print_table(out: Out, rows: list[list[str]]) -> None:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for index, row in enumerate(rows):
        line = "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip()
        print(out.paint(line, "1") if index == 0 else line)


# Subcommands
# --------------------------------------------------------------------------------------


def cmd_inspect(args: argparse.Namespace, out: Out) -> int:
    tools = load_tools(args.target)
    if args.format is None:
        if out.json:
            out.emit_json(
                {
                    "tools": [
                        {**neutral(t), "parameters": [list(r) for r in _summary_rows(t)]}
                        for t in tools
                    ]
                }
            )
            return 0
        rows = [["NAME", "TITLE", "DESCRIPTION", "PARAMETERS"]]
        for t in tools:
            first = (t.description or "").strip().splitlines()[:1]
            params = ", ".join(
                f"{n}: {k}{'' if r == 'required' else '?'}" for n, k, r in _summary_rows(t)
            )
            title = optional_member(t, "title") or ""
            rows.append([t.name, title, first[0] if first else "", params])
        _print_table(out, rows)
        return 0
    formats = FORMATS if args.format == "all" else (args.format,)
    result = {
        "tools": [{"name": t.name, **{f: render_format(t, f) for f in formats}} for t in tools]
    }
    if out.json:
        out.emit_json(result)
        return 0
    for entry in result["tools"]:
        print(out.paint(f"== {entry['name']}", "1;36"))
        for f in formats:
            print(out.paint(f"-- {f}", "33"))
            print(json.dumps(entry[f], indent=2, ensure_ascii=False, default=str))
    return 0


def check_tool(tool: Any, examples: int) -> list[dict[str, str]]:
    """Every problem any provider (or the schema-agreement check) finds in one tool."""
    p = _providers()
    problems: list[dict[str, str]] = []

    def add(provider: str, path: str, message: str) -> None:
        problems.append({"tool": tool.name, "provider": provider, "path": path, "message": message})

    def pairs(found: Iterable[Any]) -> list[tuple[str, str]]:
        return [(_pointer(problem.path), problem.message) for problem in found]

    def openai_strict() -> list[tuple[str, str]]:
        strict = p.openai_strict(tool)
        found = pairs(p.check_openai_strict(strict.schema))
        if not strict.strict:
            found.append(("", f"not strict-compatible: {strict.reason}"))
        return found

    def gemini_json() -> list[tuple[str, str]]:
        schema = p.to_gemini(tool, json_schema=True).get("parametersJsonSchema")
        return pairs(p.check_gemini_json_schema(schema or {"type": "object"}))

    checks: tuple[tuple[str, Callable[[], list[tuple[str, str]]]], ...] = (
        ("schema", lambda: _check_schemas(tool)),
        ("openai-strict", openai_strict),
        (
            "gemini",
            lambda: pairs(
                p.check_gemini(p.to_gemini(tool).get("parameters") or {"type": "object"})
            ),
        ),
        ("mcp", lambda: pairs(p.check_mcp_tool(p.to_mcp(tool)))),
        ("gemini-json", gemini_json),
        (
            "anthropic-strict",
            lambda: pairs(
                p.check_anthropic_strict(p.to_anthropic(tool, strict=True)["input_schema"])
            ),
        ),
        ("bedrock", lambda: pairs(p.check_bedrock(p.to_bedrock(tool)))),
    )
    if not tool.description.strip():
        add(
            "description",
            "/description",
            "is empty: a model chooses a tool by its description, and MCP serves the tool "
            "without one; add a docstring or pass description=",
        )
    for provider, check in checks:
        try:
            found = check()
        except Exception as err:  # report refusals as problems
            add(provider, "", f"{type(err).__name__}: {_bound(str(err))}")
            continue
        for path, message in found:
            add(provider, path, message)
    if examples > 0:
        from standard_tool.testing import check_schema_agreement

        try:
            check_schema_agreement(tool, max_examples=examples)
        except Exception as err:  # AssertionError and friends: a disagreement found
            add("schema-agreement", "", _bound(" ".join(str(err).split())))
    return problems


def _check_schemas(tool: Any) -> list[tuple[str, str]]:
    """Run the metaschema check a JSON Schema dict's tool defers to its first call."""
    # Loaded already if any tool holds a JSONSchema (a plain install may lack jsonschema).
    adapter = sys.modules.get("standard_tool.schemas.jsonschema")
    if adapter is not None:
        for member in ("input_schema", "output_schema"):
            schema = optional_member(tool, member)
            if isinstance(schema, adapter.JSONSchema):
                schema.check()
    return []


def _pointer(path: Sequence[object]) -> str:
    return "".join("/" + str(k).replace("~", "~0").replace("/", "~1") for k in path) or "/"


def _agreement_examples(requested: int | None) -> int:
    """How many property-test examples to run: none when its libraries are missing.

    The property test needs ``hypothesis`` and ``jsonschema`` (the ``testing`` extra);
    without them it is skipped (with a note), unless ``--examples`` asked for it, which
    then cannot run as asked.
    """
    if requested == 0:
        return 0
    missing = [name for name in ("hypothesis", "jsonschema") if not _importable(name)]
    if not missing:
        return DEFAULT_EXAMPLES if requested is None else requested
    if requested is not None:
        raise UsageError(
            f"--examples {requested} needs {' and '.join(missing)}: install the `testing` "
            "extra, or pass --examples 0"
        )
    print(
        f"standard-tool: note: schema agreement not checked ({' and '.join(missing)} "
        "not installed: the `testing` extra installs them)",
        file=sys.stderr,
    )
    return 0


def _importable(name: str) -> bool:
    try:
        importlib.import_module(name)
    except ImportError:
        return False
    return True


def cmd_check(args: argparse.Namespace, out: Out) -> int:
    tools = load_tools(args.target)
    examples = _agreement_examples(args.examples)
    problems = [problem for t in tools for problem in check_tool(t, examples)]
    if out.json:
        out.emit_json({"ok": not problems, "problems": problems})
    else:
        for pr in problems:
            print(
                f"{out.paint(pr['tool'], '1')} [{pr['provider']}] "
                f"{pr['path'] or '/'}: {pr['message']}"
            )
        verdict = (
            f"{len(problems)} problem(s) in {len(tools)} tool(s)"
            if problems
            else f"{len(tools)} tool(s) OK"
        )
        print(out.paint(verdict, "31" if problems else "32"))
    return 1 if problems else 0


def json_diff(old: Any, new: Any, path: str = "") -> list[dict[str, Any]]:
    """JSON-pointer changes from ``old`` to ``new``: added, removed or changed."""
    if isinstance(old, dict) and isinstance(new, dict):
        before = cast("dict[object, object]", old)
        after = cast("dict[object, object]", new)
        changes: list[dict[str, Any]] = []
        for key in [*before, *(k for k in after if k not in before)]:
            sub = f"{path}/{str(key).replace('~', '~0').replace('/', '~1')}"
            if key not in after:
                changes.append({"op": "removed", "path": sub, "old": before[key]})
            elif key not in before:
                changes.append({"op": "added", "path": sub, "new": after[key]})
            else:
                changes.extend(json_diff(before[key], after[key], sub))
        return changes
    if isinstance(old, list) and isinstance(new, list):
        first = cast("list[object]", old)
        second = cast("list[object]", new)
        if len(first) == len(second):
            return [
                change
                for i, (a, b) in enumerate(zip(first, second, strict=True))
                for change in json_diff(a, b, f"{path}/{i}")
            ]
    if old == new:
        return []
    return [{"op": "changed", "path": path or "/", "old": old, "new": new}]


def _provider_schema(tool: Any, fmt: str) -> Any:
    p = _providers()
    if fmt == "openai-strict":
        return p.openai_strict(tool).schema
    payload = render_format(tool, fmt)
    if fmt == "openai-chat":
        return payload.get("function", {}).get("parameters", payload)
    if fmt == "openai-responses":
        return payload.get("parameters", payload)
    if fmt in ("anthropic", "anthropic-strict"):
        return payload.get("input_schema", payload)
    if fmt == "gemini":
        return payload.get("parameters", payload)
    if fmt == "gemini-json":
        return payload.get("parametersJsonSchema", payload)
    if fmt == "bedrock":
        return payload.get("toolSpec", {}).get("inputSchema", {}).get("json", payload)
    return payload.get("inputSchema", payload)


def cmd_diff(args: argparse.Namespace, out: Out) -> int:
    tools = load_tools(args.target)
    formats = ("openai-strict", *FORMATS[:-1]) if args.format in (None, "all") else (args.format,)
    p = _providers()
    report: list[dict[str, Any]] = []
    for t in tools:
        base = input_json_schema(t)
        for fmt in formats:
            entry: dict[str, Any] = {"tool": t.name, "format": fmt}
            try:
                entry["changes"] = json_diff(base, _provider_schema(t, fmt))
            except Exception as err:  # a provider may refuse the schema
                entry["error"] = f"{type(err).__name__}: {_bound(str(err))}"
            if fmt == "openai-strict":
                strict = p.openai_strict(t)
                entry["strict"] = strict.strict
                entry["reason"] = strict.reason
            report.append(entry)
    if out.json:
        out.emit_json({"diffs": report})
        return 0
    for entry in report:
        print(out.paint(f"{entry['tool']} -> {entry['format']}", "1"))
        if "error" in entry:
            print(f"  error: {entry['error']}")
        if entry.get("strict") is False:
            print(f"  not strict: {entry['reason']}")
        changes: list[dict[str, Any]] = entry.get("changes", [])
        if not changes and "error" not in entry:
            print("  (no changes)")
        for change in changes:
            print(f"  {_change_text(change, out)}")
    return 0


def _change_text(change: dict[str, Any], out: Out) -> str:
    def show(value: Any) -> str:
        return json.dumps(value, default=str, ensure_ascii=False)

    if change["op"] == "added":
        return f"{out.paint('+', '32')} {change['path']}: {_bound(show(change['new']))}"
    if change["op"] == "removed":
        return f"{out.paint('-', '31')} {change['path']}: {_bound(show(change['old']))}"
    detail = f"{show(change['old'])} -> {show(change['new'])}"
    return f"{out.paint('~', '33')} {change['path']}: {_bound(detail)}"


def cmd_export(args: argparse.Namespace, out: Out) -> int:
    tools = load_tools(args.target)
    if args.format in (None, "jsonschema"):
        out.emit_json({"tools": [neutral(t) for t in tools]})
    else:
        out.emit_json({"tools": [render_format(t, args.format) for t in tools]})
    return 0


def _integer(text: str) -> int:
    try:
        return int(text)
    except ValueError as err:  # not digits, or more digits than int() converts
        raise argparse.ArgumentTypeError(f"expected an integer, got {_shown(text)}") from err


def _number(text: str) -> float:
    try:
        return float(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(f"expected a number, got {_shown(text)}") from err


def _count(text: str) -> int:
    value = _integer(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected 0 or more, got {_shown(text)}")
    return value


def _port(text: str) -> int:
    value = _integer(text)
    if not 1 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"expected a TCP port from 1 to 65535, got {_shown(text)}")
    return value


def _boolean(text: str) -> bool:
    lowered = text.lower()
    if lowered in ("true", "1", "yes", "on"):
        return True
    if lowered in ("false", "0", "no", "off"):
        return False
    raise argparse.ArgumentTypeError(f"expected true or false, got {_shown(text)}")


def _parse_json(text: str) -> Any:
    """``json.loads``, with every way it can fail turned into one bounded ValueError."""
    try:
        return json.loads(text)
    except RecursionError as err:
        raise ValueError("invalid JSON: nested too deeply") from err
    except ValueError as err:  # JSONDecodeError, or an integer past int()'s digit limit
        raise ValueError(f"invalid JSON: {_bound(str(err))}") from err


def _json_value(text: str) -> Any:
    try:
        return _parse_json(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(f"{err} in {_shown(text)}") from err


def _json_value_or_text(text: str) -> Any:
    try:
        return _parse_json(text)
    except ValueError:
        return text


_COERCE: dict[str, Any] = {"integer": _integer, "number": _number, "string": str}


def _converter(schema: Any) -> Any:
    kind = _type_of(schema)
    if kind == "boolean":
        return _boolean
    if kind in _COERCE:
        return _COERCE[kind]
    if kind in ("array", "object") or "|" in kind:
        return _json_value
    return _json_value_or_text


class _Parser(argparse.ArgumentParser):
    """argparse, with every usage error as one bounded line (exit 2)."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {_bound(message)} (see --help)\n")


def _call_parser(target: str, tool: Any, schema: dict[str, Any]) -> tuple[_Parser, dict[str, str]]:
    """Build the parser of ``call TARGET``: ``--json`` and an option per top-level property.

    A property whose name no option can carry (``json`` and ``help`` are ``call``'s
    own) is given inside ``--json``, as the help's last line says.
    """
    props: Any = schema.get("properties", {})
    props = cast("dict[str, Any]", props) if isinstance(props, dict) else {}
    required = set(schema.get("required", ()))
    parser = _Parser(
        prog=f"standard-tool call {_bound(target)}",
        description=(tool.description or "").strip() or None,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        allow_abbrev=False,
    )
    parser.add_argument(
        "--json", dest="json_input", metavar="JSON", help="the whole input as JSON text"
    )
    dests: dict[str, str] = {}
    only_in_json: list[str] = []
    for index, (name, sub) in enumerate(props.items()):
        dest = f"param_{index}"
        description: Any = (
            cast("dict[str, Any]", sub).get("description") if isinstance(sub, dict) else None
        )
        help_text = description if isinstance(description, str) else ""
        note = f"({_type_of(sub)}{', required' if name in required else ''})"
        try:
            parser.add_argument(
                f"--{name}",
                dest=dest,
                metavar=_type_of(sub).upper().replace("|", "_"),
                type=_converter(sub),
                default=argparse.SUPPRESS,
                # argparse formats help with %: a literal % must be doubled.
                help=f"{help_text} {note}".strip().replace("%", "%%"),
            )
        except (argparse.ArgumentError, ValueError):  # taken by call, or no option name
            only_in_json.append(name)
            continue
        dests[dest] = name
    if only_in_json:
        names = ", ".join(_shown(n) for n in only_in_json)
        parser.epilog = f"give {_bound(names)} inside --json: no option can carry that name"
    return parser, dests


def cmd_call(argv: list[str], out_opts: argparse.Namespace) -> int:
    pre = _Parser(prog="standard-tool call", add_help=False, allow_abbrev=False)
    pre.add_argument("target")
    known, rest = pre.parse_known_args(argv)
    tools = load_tools(known.target)
    if len(tools) != 1:
        names = ", ".join(t.name for t in tools)
        raise TargetError(
            f"{known.target} names {len(tools)} tools ({_bound(names)}); pick one with MODULE:NAME"
        )
    tool = tools[0]
    parser, dests = _call_parser(known.target, tool, input_json_schema(tool))
    args = parser.parse_args(rest)
    if args.json_input is not None:
        try:
            payload: Any = _parse_json(args.json_input)
        except ValueError as err:
            parser.error(f"--json: {err}")
        if not isinstance(payload, dict) and any(d in vars(args) for d in dests):
            parser.error("--json must be an object to combine with --<param> options")
    else:
        payload = {} if optional_member(tool, "input_schema") is not None else None
    for dest, name in dests.items():
        if dest in vars(args):
            payload[name] = getattr(args, dest)
    try:
        result = run_tool_sync(tool, payload)
    except Exception as err:
        if is_validation_error(err):
            print(f"standard-tool: {_bound(str(err))}", file=sys.stderr)
            return EXIT_FAILED  # the tool's own failure: report it, exit 1
        print(f"standard-tool: {tool.name} failed: {_describe(err)}", file=sys.stderr)
        return EXIT_FAILED
    try:
        text = _result_text(result, compact=out_opts.json)
    except Exception as err:  # a value neither JSON nor str() can print
        print(
            f"standard-tool: {tool.name} returned a value that cannot be printed: {_describe(err)}",
            file=sys.stderr,
        )
        return EXIT_FAILED
    print(text)
    return EXIT_OK


def _result_text(result: Any, *, compact: bool) -> str:
    try:
        return json.dumps(result, indent=None if compact else 2, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        return str(result)


@contextlib.contextmanager
def _collector_paused() -> Generator[None, None, None]:
    """Pause the cyclic garbage collector while the MCP SDK loads, then freeze what it made.

    The SDK's import makes about a hundred thousand objects that live as long as the
    process (modules, classes, pydantic schemas), and the collector's full passes
    over them while they load free almost nothing (under a thousand objects).
    Paused, then frozen (``gc.freeze``: left out of every later pass, which also
    makes a serving process's full collections cheaper), ``serve`` answers its first
    ``tools/list`` with 3% fewer instructions (callgrind, CPython 3.11). The target
    loads before, with the collector on: its own garbage is collected as usual.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.freeze()
            gc.enable()


def _version() -> str:
    """Return standard-tool's version, as installed."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("standard-tool")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "(version unknown: not installed)"


def _target_version(target: str) -> str:
    """Return the version a served TARGET announces: its module's, its package's, or ours.

    The module's ``__version__`` when it is a string, else the version of the installed
    distribution its top-level package belongs to, else standard-tool's own.
    """
    module_part = target.partition(":")[0]
    if module_part.endswith(".py") or os.sep in module_part or "/" in module_part:
        module = sys.modules.get(f"_standard_tool_target_{Path(module_part).stem}")
        top = None
    else:
        module = sys.modules.get(module_part)
        top = module_part.split(".")[0]
    found = getattr(module, "__version__", None)
    if isinstance(found, str) and found:
        return found
    if top is not None:
        from importlib.metadata import PackageNotFoundError, version

        try:
            return version(top)
        except (PackageNotFoundError, ValueError):
            pass
    return _version()


def cmd_serve(args: argparse.Namespace, out: Out) -> int:
    tools = load_tools(args.target)
    name = args.name if args.name is not None else server_name(args.target.partition(":")[0])
    version = (
        args.server_version if args.server_version is not None else _target_version(args.target)
    )
    with _collector_paused():
        if not _importable("mcp"):
            raise UsageError(
                "serve needs the MCP SDK, which the `mcp` extra installs "
                "(pip install the `mcp` package into this environment)"
            )
        from standard_tool.mcp import serve

    if args.transport == "http":
        try:  # say a taken port in one line here, not in the HTTP server's own log
            socket.create_server((args.host, args.port)).close()
        except OSError as err:
            print(
                f"standard-tool: cannot listen on {_bound(args.host)}:{args.port}: "
                f"{_describe(err)}",
                file=sys.stderr,
            )
            return EXIT_FAILED
        where = f"Streamable HTTP at http://{_url_host(args.host)}:{args.port}{args.path}"
    else:
        where = "stdio (an MCP client talks on stdin and stdout)"
    count = f"{len(tools)} tool{'s' * (len(tools) != 1)}"
    # stderr only: over stdio, stdout carries the protocol.
    print(
        f"standard-tool: serving {count} as MCP server {_shown(name)} {version} over {where}; "
        "Ctrl-C stops",
        file=sys.stderr,
        flush=True,
    )
    noted: contextlib.AbstractContextManager[list[int]] = (
        _noting_interrupts() if args.transport == "http" else contextlib.nullcontext([])
    )
    try:
        with noted as interrupts:
            serve(
                tools,
                transport=args.transport,
                host=args.host,
                port=args.port,
                path=args.path,
                stateless=args.stateless,
                name=name,
                version=version,
            )
    except OSError as err:  # the address is taken, or the host cannot be bound
        print(f"standard-tool: serving failed: {_describe(err)}", file=sys.stderr)
        return EXIT_FAILED
    if interrupts:
        raise KeyboardInterrupt  # the server shut down on Ctrl-C: exit as interrupted
    return EXIT_OK


@contextlib.contextmanager
def _noting_interrupts() -> Generator[list[int], None, None]:
    """Note each SIGINT in the list yielded, where the HTTP server would swallow it.

    uvicorn handles Ctrl-C itself (a graceful shutdown), then passes the signal on to
    the handler it found: Python's default there would be asyncio's, which ignores a
    signal that arrives after its task ended, and ``serve`` would return as if done.
    """
    import signal

    interrupts: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield interrupts
        return

    def note(signum: int, frame: FrameType | None) -> None:
        interrupts.append(signum)

    previous = signal.signal(signal.SIGINT, note)
    try:
        yield interrupts
    finally:
        signal.signal(signal.SIGINT, previous)


def _url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def cmd_dev(args: argparse.Namespace, out: Out) -> int:
    """Run the MCP Inspector (through npx) against TARGET's tools, served over stdio."""
    tools = load_tools(args.target)  # a bad TARGET is said here, not inside the Inspector
    npx = shutil.which("npx")
    if npx is None:
        raise UsageError(
            "dev runs the MCP Inspector with npx, which comes with Node.js: install Node.js "
            "(which provides npx) and try again, or serve the tools without the Inspector: "
            f"standard-tool serve {_bound(args.target)}"
        )
    if not _importable("mcp"):
        raise UsageError(
            "dev serves the tools with the MCP SDK, which the `mcp` extra installs "
            "(pip install the `mcp` package into this environment)"
        )
    module_part, colon, attr = args.target.partition(":")
    target = args.target
    if module_part.endswith(".py") or os.sep in module_part or "/" in module_part:
        target = f"{Path(module_part).resolve()}{colon}{attr}"
    server = [sys.executable, "-m", "standard_tool", "serve", target]
    command = [npx, "--yes", args.inspector, *args.inspector_args, "--", *server]
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (os.getcwd(), env.get("PYTHONPATH")) if p)
    print(
        f"standard-tool: starting the MCP Inspector ({args.inspector}, through npx) on "
        f"{len(tools)} tool{'s' * (len(tools) != 1)} of {_shown(args.target)}; Ctrl-C stops",
        file=sys.stderr,
        flush=True,
    )
    return subprocess.call(command, env=env)


_interrupt_said = threading.Event()


def _say_interrupted() -> None:
    if not _interrupt_said.is_set():
        _interrupt_said.set()
        print("standard-tool: interrupted", file=sys.stderr, flush=True)


def cmd_config(args: argparse.Namespace, out: Out) -> int:
    load_tools(args.target)  # TARGET must name tools before a client is told to serve it
    return print_config(args)


def cmd_init(args: argparse.Namespace, out: Out) -> int:
    from standard_tool._cli_init import scaffold

    try:
        where = scaffold(args.name, Path(args.directory))
    except (FileExistsError, ValueError) as err:
        print(f"standard-tool: {err}", file=sys.stderr)
        return 2
    print(f"created {where}")
    return 0


# Entry point
# --------------------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    """Build the argument parser of ``standard-tool``."""
    parser = _Parser(prog="standard-tool", description="Inspect, check, call and serve LLM tools.")
    parser.add_argument(
        "--color",
        choices=("auto", "always", "never"),
        default="auto",
        help="terminal output with colours (always), plain text (never), or decided by "
        "stdout (auto: "
        "a terminal gets tables, a pipe gets JSON)",
    )
    parser.add_argument("--json", action="store_true", help="print plain JSON")
    parser.add_argument(
        "--traceback",
        action="store_true",
        help="when importing TARGET fails, print the whole traceback, not only where",
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"standard-tool {_version()}",
        help="print the version",
    )
    common = _Parser(add_help=False)
    common.add_argument(
        "--json", action="store_true", default=argparse.SUPPRESS, help="print plain JSON"
    )
    sub = parser.add_subparsers(
        dest="command", required=True, metavar="COMMAND", parser_class=_Parser
    )
    target_help = "pkg.mod:obj, pkg.mod or path/to/file.py[:obj]"
    formats = (*FORMATS, "all")

    p = sub.add_parser(
        "inspect", parents=[common], help="show each tool (a summary, or a provider format)"
    )
    p.add_argument("target", help=target_help)
    p.add_argument(
        "--format", choices=formats, help="one provider's declaration, or all (default: a summary)"
    )
    p = sub.add_parser(
        "check", parents=[common], help="list what providers would reject; exit 1 on any problem"
    )
    p.add_argument("target", help=target_help)
    p.add_argument(
        "--examples",
        type=_count,
        default=None,
        help=f"hypothesis examples for schema agreement (default {DEFAULT_EXAMPLES}, "
        "skipped with a note when hypothesis or jsonschema is missing; 0 skips)",
    )
    p = sub.add_parser(
        "diff", parents=[common], help="what each provider format changes in the input schema"
    )
    p.add_argument("target", help=target_help)
    p.add_argument(
        "--format",
        choices=("openai-strict", *formats),
        help="one provider format (default: all of them)",
    )
    p = sub.add_parser("export", parents=[common], help="every tool as JSON")
    p.add_argument("target", help=target_help)
    p.add_argument(
        "--format",
        choices=FORMATS,
        help="the provider format to write (default: jsonschema, the neutral description)",
    )
    sub.add_parser(
        "call", help="run one tool: call TARGET --json '{...}' or --<param> value", add_help=False
    )
    p = sub.add_parser("serve", help="serve the tools over MCP")
    p.add_argument("target", help=target_help)
    p.add_argument(
        "--transport",
        choices=("stdio", "http"),
        default="stdio",
        help="stdio (default: a client starts this process) or http (Streamable HTTP)",
    )
    p.add_argument("--host", default="127.0.0.1", help="HTTP: the address to listen on")
    p.add_argument("--port", type=_port, default=8000, help="HTTP: the port (default 8000)")
    p.add_argument("--path", default="/mcp", help="HTTP: the endpoint's path")
    p.add_argument("--stateless", action="store_true", help="HTTP: no session between requests")
    p.add_argument(
        "--name",
        default=None,
        help="the server name announced to clients (default: the file's or module's name)",
    )
    p.add_argument(
        "--server-version",
        default=None,
        help="the server version announced to clients (default: the module's __version__, "
        "its distribution's version, else standard-tool's)",
    )
    p = sub.add_parser(
        "dev",
        help="open the MCP Inspector on the tools (needs Node.js: runs it with npx)",
        description="Serve TARGET over stdio under the MCP Inspector, run with npx. "
        "Arguments after TARGET go to the Inspector (for example --cli --method tools/list).",
    )
    p.add_argument("target", help=target_help)
    p.add_argument(
        "--inspector",
        default="@modelcontextprotocol/inspector",
        help="before TARGET: the npm package npx runs (default: "
        "@modelcontextprotocol/inspector; pin a version with "
        "@modelcontextprotocol/inspector@X.Y.Z)",
    )
    p.add_argument(
        "inspector_args",
        nargs=argparse.REMAINDER,
        metavar="INSPECTOR_ARG",
        help="passed to the Inspector as they are",
    )
    add_config_parser(sub, target_help)
    p = sub.add_parser("init", help="scaffold a small MCP server project")
    p.add_argument("name", help="the project name (a Python identifier after - becomes _)")
    p.add_argument("--directory", default=".", help="where to create the project folder")
    return parser


def _command_index(args: list[str]) -> int | None:
    index = 0
    while index < len(args):
        if args[index] == "--color":
            index += 2
        elif args[index].startswith("-"):
            index += 1
        else:
            return index
    return None


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line and return its exit code.

    0: done; 1: ``check`` found problems, ``call`` failed or ``serve`` could not listen;
    2: bad usage, a bad TARGET or a missing optional dependency; 3: any other error
    (a tool that breaks the protocol, or a bug in standard-tool); 130: interrupted
    (Ctrl-C); 141: stdout's reader stopped early.
    Every failure prints one line on stderr (a closed stdout prints nothing).
    """
    args_list = list(sys.argv[1:] if argv is None else argv)
    # --traceback is taken anywhere before a "--" (after the command too, as people type it).
    end = args_list.index("--") if "--" in args_list else len(args_list)
    traced = "--traceback" in args_list[:end]
    args_list = [a for a in args_list[:end] if a != "--traceback"] + args_list[end:]
    try:
        try:
            code = _run(args_list)
        finally:
            sys.stdout.flush()  # a reader that stopped early shows here, inside the guard
    except SystemExit as stop:  # argparse's --help and usage errors
        return stop.code if isinstance(stop.code, int) else EXIT_USAGE
    except ImportFailed as err:
        cause = err.__cause__
        if traced and cause is not None:
            tb = cause.__traceback__  # from the target's own first frame: ours and importlib's
            while tb is not None and tb.tb_next is not None and _machinery(tb.tb_frame):
                tb = tb.tb_next
            traceback.print_exception(type(cause), cause, tb, file=sys.stderr)
            print(f"standard-tool: {_bound(str(err))}", file=sys.stderr)
        else:
            hint = "(--traceback shows it whole)"
            print(f"standard-tool: {_bound(str(err))} {hint}", file=sys.stderr)
        return EXIT_USAGE
    except (TargetError, UsageError) as err:
        print(f"standard-tool: {_bound(str(err))}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        _say_interrupted()
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_PIPE_CLOSED
    except Exception as err:  # the CLI's own boundary: anything else, said in one line
        print(f"standard-tool: unexpected error: {_describe(err)}", file=sys.stderr)
        return EXIT_UNEXPECTED
    return code


def _machinery(frame: FrameType) -> bool:
    """Whether a frame is this module's or the import system's, not a target's."""
    filename = frame.f_code.co_filename
    return filename == __file__ or filename.startswith("<frozen ") or "importlib" in filename


def _silence_stdout() -> None:
    """Point stdout at the null device, so the interpreter's last flush cannot fail."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # stdout is no real file (a test's capture): nothing to do
        pass


def _run(args_list: list[str]) -> int:
    parser = build_parser()
    at = _command_index(args_list)
    if at is not None and args_list[at] == "call":
        head = parser.parse_args([*args_list[:at], "call"])
        rest = args_list[at + 1 :]
        if not rest or rest[0].startswith("-"):
            if rest[:1] in (["-h"], ["--help"]):
                print("usage: standard-tool call TARGET [--json JSON] [--<param> VALUE ...]")
                print("  run TARGET --help to list the options its input schema gives")
                return EXIT_OK
            _Parser(prog="standard-tool call").error("the TARGET is required")
        if os.getcwd() not in sys.path:
            sys.path.insert(0, os.getcwd())
        return cmd_call(rest, head)
    args = parser.parse_args(args_list)
    out = Out(args.color, args.json)
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    handler = {
        "inspect": cmd_inspect,
        "check": cmd_check,
        "diff": cmd_diff,
        "export": cmd_export,
        "serve": cmd_serve,
        "dev": cmd_dev,
        "config": cmd_config,
        "init": cmd_init,
    }[args.command]
    return handler(args, out)


def console_main() -> None:
    """Run the ``standard-tool`` console script and exit with its code."""
    sys.exit(main())
