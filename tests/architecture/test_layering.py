"""The package's arrows point one way: {named_files, isolation} <- models <- validation <-
{editing, history} <- {check, schema, server, runner} <- cli <- __main__, with no import
cycle and no arrow between siblings. Inside the runner the stages point one way too:
services <- tools <- backends <- collect <- score <- execute <- report <- command. No
package has a cycle among its parts (a part: a module of it, or a subpackage with
everything below it).

Read from the source (every import, including those inside functions and under
TYPE_CHECKING), so a lazy import cannot hide an arrow.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import holodeck_lsp

PACKAGE = Path(holodeck_lsp.__file__).parent
LAYERS = [
    # hack_switches: every performance hack's off switch (standard library only)
    {"hack_switches"},
    # named_files: the one way to read a file a YAML file names (standard library only);
    # file_writes: the one way to replace a file whole;
    # isolation: keeping the workspace's modules off the import path (child interpreters,
    # the standard-library guard), under everything that starts Python or imports user code;
    # nesting: the one way to read nested JSON and values from outside, depth-bounded
    # gc_policy, pydantic_plugins, quick_exit: performance hacks the program applies
    # first thing (CONTRIBUTING, "Performance hacks")
    {"named_files", "file_writes", "isolation", "nesting", "gc_policy", "pydantic_plugins",
     "quick_exit"},
    # graders: static resolution and the isolated import; exit_codes and run_defaults: one
    # table each, no imports;
    # install_hints: how to install an extra, one sentence; hygiene: text shown safely
    # (control characters, Markdown code, cuts)
    {"models", "graders", "exit_codes", "run_defaults", "install_hints", "hygiene"},
    {"validation"},
    # editing: editor queries on one document; history: the runs kept in results/<slug>/,
    # read by the runner and the server alike
    {"editing", "history"},
    {"check", "schema", "server", "runner"},
    {"cli"},
    # the program: `serve` straight to the server (no typer to load), the rest to cli
    {"__main__"},
]
RANK = {part: rank for rank, parts in enumerate(LAYERS) for part in parts}
# The runner's stages, bottom first (CONTRIBUTING.md names every module of each).
RUNNER_STAGES = [
    "services",  # HTTP client, retries, transport, service targets, failures, secrets, user code
    "tools",  # tool kinds, the tool box, retrieval
    "backends",  # model backends and Python agents
    "collect",  # agent file -> planned, selected test cases
    "score",  # matchers, tool assertions, metrics, roll-ups
    "execute",  # sessions, turns, time limit, record/replay/resume, judge calls
    "report",  # the report, its formats, events, progress, console lines
    "command",  # options and wiring
]
STAGE_RANK = {stage: rank for rank, stage in enumerate(RUNNER_STAGES)}
RUNNER = "holodeck_lsp.runner"
MAX_RUNNER_TOP_MODULES = 8
# Sibling arrows allowed only into these shared modules: `run` prints its configuration
# errors as `check` prints diagnostics.
SHARED = frozenset({"holodeck_lsp.check.results", "holodeck_lsp.check.formats"})


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


def _wrong_arrows(
    part_of: Callable[[str], str | None], rank: dict[str, int], shared: frozenset[str]
) -> list[str]:
    """Imports from a part to one ranked above it, or to a sibling (unless into ``shared``)."""
    wrong = []
    for module, targets in _graph().items():
        source = part_of(module)
        for target in targets:
            part = part_of(target)
            if source is None or part is None or part == source:
                continue
            if rank[part] > rank[source]:
                wrong.append(f"{module} -> {target} (upward)")
            elif rank[part] == rank[source] and target not in shared:
                wrong.append(f"{module} -> {target} (between siblings)")
    return sorted(wrong)


def test_no_arrow_points_up_or_sideways() -> None:
    assert _wrong_arrows(_part, RANK, SHARED) == []


def _cycles(arrows: dict[str, set[str]], skip: Callable[[str, str], bool]) -> list[str]:
    """Every cycle a depth-first walk of ``arrows`` meets, as `a -> b -> a`."""
    cycles: list[str] = []
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        path.append(node)
        for into in sorted(arrows.get(node, ())):
            if skip(node, into):
                continue
            if state.get(into) == 1:
                cycles.append(" -> ".join([*path[path.index(into) :], into]))
            elif into not in state:
                visit(into)
        path.pop()
        state[node] = 2

    for node in sorted(arrows):
        if node not in state:
            visit(node)
    return cycles


def test_no_import_cycle() -> None:
    # A package's __init__ importing its own modules is not a cycle of theirs.
    def own(module: str, target: str) -> bool:
        return module == target.rpartition(".")[0]

    assert _cycles(_graph(), own) == []


def _stage(module: str) -> str | None:
    """The runner stage a module belongs to (None: outside the runner, or its __init__)."""
    if not module.startswith(RUNNER + "."):
        return None
    return module[len(RUNNER) + 1 :].split(".")[0]


def test_every_module_of_the_runner_has_a_stage() -> None:
    stages = {_stage(m) for m in _modules()} - {None}
    assert stages - set(STAGE_RANK) == set()


def test_the_runner_has_at_most_8_modules_at_its_top() -> None:
    top = sorted(f.name for f in (PACKAGE / "runner").glob("*.py"))
    assert len(top) <= MAX_RUNNER_TOP_MODULES, top


def test_no_arrow_between_the_runner_stages_points_up_or_sideways() -> None:
    assert _wrong_arrows(_stage, STAGE_RANK, frozenset()) == []


def _package_cycles(graph: dict[str, set[str]], package: str) -> list[str]:
    """Cycles among the parts of ``package``: each module of it, and each subpackage taken
    whole (its modules and everything below), joined by the imports between them."""

    def part(module: str) -> str | None:
        if module == package:
            return "__init__"
        if not module.startswith(package + "."):
            return None
        return module[len(package) + 1 :].split(".")[0]

    arrows: dict[str, set[str]] = {}
    for module, targets in graph.items():
        source = part(module)
        if source is None:
            continue
        for target in targets:
            into = part(target)
            if into is not None and into != source:
                arrows.setdefault(source, set()).add(into)
    return [f"{package}: {cycle}" for cycle in _cycles(arrows, lambda _a, _b: False)]


def test_no_package_has_a_cycle_among_its_parts() -> None:
    graph = _graph()
    packages = sorted(m for m, f in _modules().items() if f.name == "__init__.py")
    assert [c for package in packages for c in _package_cycles(graph, package)] == []


def test_a_cycle_between_two_subpackages_is_found() -> None:
    graph = {
        "p.a.one": {"p.b.two"},
        "p.b.two": {"p.b.three"},
        "p.b.three": {"p.a.four"},
        "p.a.four": set(),
    }
    assert _package_cycles(graph, "p") == ["p: a -> b -> a"]
    assert _package_cycles(graph, "p.a") == []


def test_hover_imports_neither_lints_nor_graders() -> None:
    probe = (
        "import sys, holodeck_lsp.editing.hover_text\n"
        "print('\\n'.join(m for m in sys.modules if m.startswith('holodeck_lsp')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout.split()
    assert "holodeck_lsp.editing.hover_text" in out
    assert [m for m in out if ".lints" in m or m.startswith("holodeck_lsp.graders")] == []
