"""The package's layers: every import in ``src/`` goes down a layer, never up or round.

The rule (docs/architecture.md): the core at the bottom imports nothing from the
package; above it the shared helpers, the pure dialect transforms, the schema
adapters, function tools, the toolkit, the providers, then the top layer
(testing helpers, integrations, MCP, the command line, built-in tools) and the
façade (``standard_tool`` and ``standard_tool.types``), which nothing imports.
A module may import its own layer or a lower one, and the import graph has no
cycle. Every ``import`` counts, lazy ones inside functions included; an import
whose module name is computed at run time would hide an edge, so it is refused.
"""

from __future__ import annotations

import ast
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

import standard_tool

SRC = Path(standard_tool.__file__).parent.parent

#: Lowest first. A module belongs to the layer of its longest matching prefix (the
#: package root itself matches only exactly).
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("core", ("standard_tool._core",)),
    (
        "shared helpers",
        (
            "standard_tool._shared",
            "standard_tool._context",
            "standard_tool.content",
            "standard_tool._fast",
        ),
    ),
    ("dialects", ("standard_tool.dialects",)),
    ("schema adapters", ("standard_tool.schemas",)),
    ("function tools", ("standard_tool._function",)),
    ("toolkit", ("standard_tool._toolkit",)),
    ("providers", ("standard_tool.providers",)),
    (
        "top",
        (
            "standard_tool.testing",
            "standard_tool.integrations",
            "standard_tool.mcp",
            "standard_tool.cli",
            "standard_tool._cli",
            "standard_tool._cli_init",
            "standard_tool._cli_config",
            "standard_tool.__main__",
            "standard_tool.builtins",
        ),
    ),
    ("façade", ("standard_tool", "standard_tool.types")),
]


#: Modules whose computed import loads the user's code (a command-line TARGET), never
#: the package's own: the one place a module name comes from outside.
LOADS_USER_CODE = {"standard_tool._cli"}


@dataclass(frozen=True)
class Edge:
    source: str
    target: str
    line: int

    def __str__(self) -> str:
        return f"{self.source} (line {self.line}) imports {self.target}"


def module_name(root: Path, path: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules(root: Path) -> dict[str, Path]:
    return {module_name(root, p): p for p in sorted(root.glob("standard_tool/**/*.py"))}


def layer_of(name: str) -> int | None:
    best: tuple[int, int] | None = None
    for index, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            nested = prefix != "standard_tool" and name.startswith(prefix + ".")
            if (name == prefix or nested) and (best is None or len(prefix) > best[0]):
                best = (len(prefix), index)
    return None if best is None else best[1]


def _resolve(source: str, is_package: bool, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    package = source.split(".") if is_package else source.split(".")[:-1]
    base = package[: len(package) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def imports(source: str, path: Path, known: set[str]) -> Iterator[Edge | str]:
    """Yield every edge from ``source`` into the package, or a problem text."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    is_package = path.name == "__init__.py"
    for node in ast.walk(tree):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(source, is_package, node)
            for alias in node.names:
                child = f"{base}.{alias.name}"
                targets.append(child if child in known else base)
        elif isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name in ("import_module", "__import__"):
                arg = node.args[0] if node.args else None
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    targets = [arg.value]
                elif source not in LOADS_USER_CODE:
                    yield f"{source} (line {node.lineno}) imports a module whose name is computed"
        for target in targets:
            if target == "standard_tool" or target.startswith("standard_tool."):
                yield Edge(source, target, node.lineno)


def problems(root: Path) -> list[str]:
    found = modules(root)
    known = set(found)
    graph: dict[str, set[str]] = {name: set() for name in found}
    out: list[str] = []
    for name, path in found.items():
        own = layer_of(name)
        if own is None:
            out.append(
                f"{name} belongs to no layer: add it to LAYERS in tests/test_architecture.py"
            )
            continue
        for edge in imports(name, path, known):
            if isinstance(edge, str):
                out.append(edge)
                continue
            target_layer = layer_of(edge.target)
            if name == "standard_tool._core":
                out.append(f"the core must import nothing from the package: {edge}")
            elif target_layer is not None and target_layer > own:
                out.append(f"{edge}: up from {LAYERS[own][0]} to {LAYERS[target_layer][0]}")
            if edge.target in graph and edge.target != name:
                graph[name].add(edge.target)
    out.extend(f"import cycle: {' -> '.join(cycle)}" for cycle in cycles(graph))
    return out


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle per strongly connected component of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component: list[str] = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append([*sorted(component), sorted(component)[0]])

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_every_import_in_the_package_goes_down_a_layer_and_none_goes_round() -> None:
    assert problems(SRC) == []


def test_every_layer_has_a_module() -> None:
    names = set(modules(SRC))
    for layer, prefixes in LAYERS[:7]:
        assert any(layer_of(n) == LAYERS.index((layer, prefixes)) for n in names), layer


def test_every_module_states_its_layer_in_its_docstring() -> None:
    missing = []
    # The integrations package holds no code; its one-line docstring is fixed text.
    exempt = ("standard_tool._core", "standard_tool.integrations")
    for name, path in modules(SRC).items():
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
        if name not in exempt and "Layer:" not in doc:
            missing.append(name)
    assert missing == []


# --- the check itself catches what it is for --------------------------------------------


def write_tree(root: Path, files: dict[str, str]) -> Path:
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return root


MINIMAL = {
    "standard_tool/__init__.py": "from standard_tool._core import x\n",
    "standard_tool/_core.py": "x = 1\n",
    "standard_tool/_toolkit.py": "from standard_tool._core import x\n",
    "standard_tool/providers/__init__.py": "from standard_tool.providers._run import y\n",
    "standard_tool/providers/_run.py": "from standard_tool._toolkit import x\ny = x\n",
}


def test_a_clean_tree_passes(tmp_path: Path) -> None:
    assert problems(write_tree(tmp_path, MINIMAL)) == []


def test_the_old_lazy_core_import_of_the_adapters_fails(tmp_path: Path) -> None:
    tree = write_tree(
        tmp_path,
        {
            **MINIMAL,
            "standard_tool/schemas/__init__.py": "from standard_tool._core import x\n",
            "standard_tool/_core.py": """
                x = 1
                def coerce():
                    import importlib
                    return importlib.import_module("standard_tool.schemas")
            """,
        },
    )
    found = problems(tree)
    assert any("the core must import nothing" in p and "standard_tool.schemas" in p for p in found)
    assert any("import cycle: standard_tool._core -> standard_tool.schemas" in p for p in found)


def test_the_old_toolkit_provider_cycle_fails(tmp_path: Path) -> None:
    tree = write_tree(
        tmp_path,
        {
            **MINIMAL,
            "standard_tool/_toolkit.py": """
                from standard_tool._core import x
                def to_openai_chat():
                    from standard_tool.providers import y
                    return y
            """,
        },
    )
    found = problems(tree)
    assert any("up from toolkit to providers" in p for p in found)
    assert any(p.startswith("import cycle:") and "standard_tool._toolkit" in p for p in found)


@pytest.mark.parametrize(
    "text",
    [
        "import standard_tool\n",
        "from standard_tool import x\n",
        "def f():\n    from .. import x\n",
    ],
)
def test_importing_the_facade_from_inside_fails(tmp_path: Path, text: str) -> None:
    tree = write_tree(tmp_path, {**MINIMAL, "standard_tool/providers/_run.py": text})
    assert any("up from providers to façade" in p for p in problems(tree))


def test_a_computed_import_is_refused(tmp_path: Path) -> None:
    text = "import importlib\ndef f(n):\n    return importlib.import_module(f'standard_tool.{n}')\n"
    tree = write_tree(tmp_path, {**MINIMAL, "standard_tool/providers/_run.py": text})
    assert any("whose name is computed" in p for p in problems(tree))


def test_a_module_outside_every_layer_fails(tmp_path: Path) -> None:
    tree = write_tree(tmp_path, {**MINIMAL, "standard_tool/_stray.py": "z = 1\n"})
    assert any("standard_tool._stray belongs to no layer" in p for p in problems(tree))
