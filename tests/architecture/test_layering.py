"""The package's arrows point one way: {named_files, isolation} <- models <- validation <-
editing <- {check, schema, server, runner} <- cli <- __main__, with no import cycle and no
arrow between siblings.

Read from the source (every import, including those inside functions and under
TYPE_CHECKING), so a lazy import cannot hide an arrow.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import holodeck_lsp

PACKAGE = Path(holodeck_lsp.__file__).parent
LAYERS = [
    # named_files: the one way to read a file a YAML file names (standard library only);
    # isolation: keeping the workspace's modules off the import path (child interpreters,
    # the standard-library guard), under everything that starts Python or imports user code
    {"named_files", "isolation"},
    # graders: static resolution and the isolated import; exit_codes: one table, no imports;
    # install_hints: how to install an extra, one sentence; hygiene: text shown safely
    # (control characters, Markdown code, cuts)
    {"models", "graders", "exit_codes", "install_hints", "hygiene"},
    {"validation"},
    {"editing"},
    {"check", "schema", "server", "runner"},
    {"cli"},
    # the program: `serve` straight to the server (no typer to load), the rest to cli
    {"__main__"},
]
RANK = {part: rank for rank, parts in enumerate(LAYERS) for part in parts}
# Sibling arrows allowed only into these shared modules: `run` prints its configuration
# errors as `check` prints diagnostics.
SHARED = {"holodeck_lsp.check.results", "holodeck_lsp.check.formats"}


def _module_name(file: Path) -> str:
    parts = list(file.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {_module_name(f): f for f in sorted(PACKAGE.rglob("*.py"))}


def _imports(file: Path, known: dict[str, Path]) -> set[str]:
    """Every module of the package that ``file`` imports."""
    found = set()
    for node in ast.walk(ast.parse(file.read_text(encoding="utf-8"))):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module]
            names += [f"{node.module}.{alias.name}" for alias in node.names]
        for name in names:
            if name in known and name.startswith("holodeck_lsp"):
                found.add(name)
    return found


def _graph() -> dict[str, set[str]]:
    known = _modules()
    return {name: _imports(file, known) - {name} for name, file in known.items()}


def _part(module: str) -> str | None:
    """The top-level part of the package a module belongs to (None: the package root)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else None


def test_every_part_of_the_package_has_a_layer() -> None:
    parts = {_part(m) for m in _modules()} - {None}
    assert parts - set(RANK) == set()


def test_no_arrow_points_up_or_sideways() -> None:
    wrong = []
    for module, targets in _graph().items():
        source = _part(module)
        for target in targets:
            part = _part(target)
            if source is None or part is None or part == source:
                continue
            if RANK[part] > RANK[source]:
                wrong.append(f"{module} -> {target} (upward)")
            elif RANK[part] == RANK[source] and target not in SHARED:
                wrong.append(f"{module} -> {target} (between siblings)")
    assert sorted(wrong) == []


def test_no_import_cycle() -> None:
    graph = _graph()
    cycles: list[list[str]] = []
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    stack: list[str] = []

    def visit(module: str) -> None:
        state[module] = 1
        stack.append(module)
        for target in sorted(graph[module]):
            # A package's __init__ importing its own modules is not a cycle of theirs.
            if module == target.rpartition(".")[0]:
                continue
            if state.get(target) == 1:
                cycles.append([*stack[stack.index(target):], target])
            elif target not in state:
                visit(target)
        stack.pop()
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module)
    assert [" -> ".join(c) for c in cycles] == []


def test_hover_imports_neither_lints_nor_graders() -> None:
    probe = (
        "import sys, holodeck_lsp.editing.hover\n"
        "print('\\n'.join(m for m in sys.modules if m.startswith('holodeck_lsp')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout.split()
    assert "holodeck_lsp.editing.hover" in out
    assert [m for m in out if ".lints" in m or m.startswith("holodeck_lsp.graders")] == []
