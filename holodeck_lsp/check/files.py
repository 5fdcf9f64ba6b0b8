"""Which files a `check` of folders (or a workspace scan) validates."""

from __future__ import annotations

import fnmatch
import os
from collections.abc import Iterable, Iterator
from pathlib import Path

DEFAULT_PATTERNS = ("agent.yaml", "agent.yml", "*.agent.yaml", "*.agent.yml")
YAML_SUFFIXES = (".yaml", ".yml")
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


def matches_patterns(path: Path, patterns: Iterable[str]) -> bool:
    """A name pattern (`agent.yaml`) matches the file name; a path pattern the whole path."""
    text = path.as_posix()
    for pattern in patterns:
        bare = pattern.removeprefix("**/")
        if "/" in bare:
            if fnmatch.fnmatch(text, pattern) or fnmatch.fnmatch(text, "*/" + bare):
                return True
        elif fnmatch.fnmatch(path.name, bare):
            return True
    return False


def yaml_files(folder: Path) -> Iterator[Path]:
    """Every YAML file below ``folder``, skipping tool and dependency folders."""
    for root, dirs, names in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if d not in _SKIP_DIRS and not d.startswith("."))
        for name in sorted(names):
            if name.endswith(YAML_SUFFIXES):
                yield Path(root) / name


def looks_like_suite(data: object) -> bool:
    """Content recognition: an agent or a test-case file, whatever its name."""
    if isinstance(data, dict):
        if "test_cases" in data or "test_cases_file" in data:
            return True
        return {"name", "model", "instructions"} <= set(data)
    if isinstance(data, list) and data:
        return all(isinstance(x, dict) and ("input" in x or "turns" in x) for x in data)
    return False
