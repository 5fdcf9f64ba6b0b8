"""The YAML files below a folder that a `check` of folders looks at."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from holodeck_lsp.validation.documents import YAML_SUFFIXES

_SKIP_DIRS = {
    ".git",
    ".hg",
    ".svn",
    "node_modules",
    ".venv",
    "venv",
    "__pycache__",
    ".tox",
    ".mypy_cache",
    ".pytest_cache",
    ".ruff_cache",
    "dist",
    "build",
    ".cache",
}


def yaml_files(folder: Path) -> Iterator[Path]:
    """Every YAML file below ``folder``, skipping tool and dependency folders."""
    for root, dirs, names in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if d not in _SKIP_DIRS and not d.startswith("."))
        for name in sorted(names):
            if name.endswith(YAML_SUFFIXES):
                yield Path(root) / name


def repository_root(path: Path) -> Path | None:
    """The nearest folder at or above ``path`` (absolute) that holds `.git`, if any."""
    for folder in (path, *path.parents):
        if (folder / ".git").exists():
            return folder
    return None


def name_in_repository(path: Path) -> str:
    """``path`` as git names it in a diff: relative to the repository root, else to the
    current folder when below it, else absolute (links are not followed)."""
    absolute = Path(os.path.abspath(path))
    root = repository_root(absolute.parent) or Path.cwd()
    if absolute.is_relative_to(root):
        return absolute.relative_to(root).as_posix()
    return absolute.as_posix()
