"""CONTRIBUTING.md names every module of the runner, so a newcomer finds each one's stage
there: a module added without a line in its stage fails here."""

from __future__ import annotations

import re
from pathlib import Path

import holodeck_lsp

RUNNER = Path(holodeck_lsp.__file__).parent / "runner"
CONTRIBUTING = Path(__file__).resolve().parents[2] / "CONTRIBUTING.md"


def test_contributing_names_every_runner_module() -> None:
    text = CONTRIBUTING.read_text(encoding="utf-8")
    modules = sorted(f.name for f in RUNNER.rglob("*.py") if f.name != "__init__.py")
    assert [name for name in modules if f"`{name}`" not in text] == []


def test_contributing_names_every_runner_package() -> None:
    text = CONTRIBUTING.read_text(encoding="utf-8")
    packages = sorted(f.parent.name for f in RUNNER.rglob("__init__.py") if f.parent != RUNNER)
    named = set(re.findall(r"`(?:[\w/]+/)?(\w+)/`", text))
    assert [name for name in packages if name not in named] == []
