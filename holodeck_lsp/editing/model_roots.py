"""Which model a document's paths are read against, for each kind of file."""

from __future__ import annotations

from pydantic import BaseModel

from holodeck_lsp.models.agent import Agent
from holodeck_lsp.models.project_config import GlobalConfig
from holodeck_lsp.models.test_cases_file import TestCasesFile
from holodeck_lsp.validation.file_kinds import Kind
from holodeck_lsp.validation.yaml.source_map import YamlPath

ROOTS: dict[str, type[BaseModel]] = {
    "agent": Agent,
    "test-cases": TestCasesFile,
    "config": GlobalConfig,
}


def logical_path(kind: Kind, path: YamlPath) -> YamlPath:
    """A test-case file's own path as the `test_cases[...]` path its root model uses."""
    if kind == "test-cases" and (not path or isinstance(path[0], int)):
        return ("test_cases", *path)
    return path
