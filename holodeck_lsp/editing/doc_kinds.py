"""Which model a document's paths are read against, for each kind of file."""

from __future__ import annotations

from pathlib import PurePath

from pydantic import BaseModel

from holodeck_lsp.models.agent import Agent
from holodeck_lsp.models.project_config import GlobalConfig
from holodeck_lsp.validation.validate import Kind, TestCasesFile
from holodeck_lsp.validation.yaml.source_map import Path

ROOTS: dict[str, type[BaseModel]] = {
    "agent": Agent,
    "test-cases": TestCasesFile,
    "config": GlobalConfig,
}


def logical_path(kind: Kind, path: Path) -> Path:
    """A test-case file's own path as the `test_cases[...]` path its root model uses."""
    if kind == "test-cases" and (not path or isinstance(path[0], int)):
        return ("test_cases", *path)
    return path


def guess_kind(path: PurePath, text: str) -> Kind:
    """The kind of a document that may not parse: config by name, test cases by shape."""
    if path.name in ("config.yaml", "config.yml"):
        return "config"
    top_keys = set()
    for line in text.split("\n"):
        if not line.strip() or line.lstrip().startswith(("#", "%", "---")):
            continue
        if line.startswith("- ") or line.rstrip() == "-":
            return "test-cases"
        if not line[0].isspace() and ":" in line:
            top_keys.add(line.split(":", 1)[0].strip())
    return "test-cases" if top_keys == {"test_cases"} else "agent"
