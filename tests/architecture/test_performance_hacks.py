"""Every performance hack sits in one named module whose docstring names the benchmark
row it moves and its off switch, is listed in CONTRIBUTING ("Performance hacks") and in
`hack_switches.HACKS`, and can be turned off so a benchmark times the product without
it; the garbage collector is toggled in `gc_policy.py` alone."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import holodeck_lsp
from holodeck_lsp.hack_switches import HACKS, VARIABLE

PACKAGE = Path(holodeck_lsp.__file__).parent
ROOT = PACKAGE.parent
CONTRIBUTING = ROOT / "CONTRIBUTING.md"
_SWITCHED = re.compile(r'hack_on\("([\w-]+)"\)')


def _sources(*folders: Path) -> dict[Path, str]:
    return {f: f.read_text(encoding="utf-8") for folder in folders for f in folder.rglob("*.py")}


def test_each_hack_names_its_benchmark_row_and_its_switch() -> None:
    problems = []
    for name, module in HACKS.items():
        doc = ast.get_docstring(ast.parse((ROOT / module).read_text(encoding="utf-8"))) or ""
        for needed in ('"Performance hacks"', "Benchmark row", f"{VARIABLE}={name}"):
            if needed not in " ".join(doc.split()):
                problems.append(f"{module}: its docstring does not say {needed}")
    assert problems == []


def test_each_switch_is_read_and_each_one_read_is_registered() -> None:
    switched = {m for text in _sources(PACKAGE).values() for m in _SWITCHED.findall(text)}
    assert switched == set(HACKS)


def test_contributing_lists_every_hack_with_its_module() -> None:
    text = CONTRIBUTING.read_text(encoding="utf-8")
    section = text.split("## Performance hacks", 1)[1].split("\n## ", 1)[0]
    rows = {m[0]: m[1] for m in re.findall(r"^\| `([\w-]+)` \| `([\w/.]+)` \|", section, re.M)}
    assert rows == {name: module.removeprefix("holodeck_lsp/") for name, module in HACKS.items()}


def test_the_collector_is_toggled_in_the_policy_module_only() -> None:
    toggles = re.compile(r"\bgc\.(" + "|".join(["disable", "enable", "freeze"]) + r")\(")
    # The extension's bundled/libs/ is a built copy of the package and its libraries.
    launcher = ROOT / "vscode-extension" / "bundled" / "run_server.py"
    sources = {**_sources(PACKAGE, ROOT / "benchmarks", ROOT / "tests"),
               launcher: launcher.read_text(encoding="utf-8")}  # fmt: skip
    found = [str(f.relative_to(ROOT)) for f, text in sources.items() if toggles.search(text)]
    assert found == ["holodeck_lsp/gc_policy.py"]
