"""The YAML files below a folder that a `check` of folders looks at.

A walk never follows a link out of the folder it walks (a committed `tests.yaml ->
/home/runner/.aws/credentials`), and never opens a FIFO or a device found on the way:
those are reported, not read.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from holodeck_lsp.named_files import NotReadable, regular_file, resolve
from holodeck_lsp.validation.file_kinds import YAML_SUFFIXES
from holodeck_lsp.validation.project import is_outside, project_of_folder, repository_root

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


@dataclass(frozen=True)
class Found:
    """A YAML file of the walk; ``refused`` says why it must not be read."""

    path: Path
    refused: NotReadable | None = None
    outside: Path | None = None  # the project a link leads out of


def yaml_files(folder: Path) -> Iterator[Found]:
    """Every YAML file below ``folder``, skipping tool and dependency folders; a link
    leading out of ``folder`` is skipped (reported when it leaves the project)."""
    try:
        top = resolve(folder)
    except NotReadable:
        return
    project: Path | None = None
    for root, dirs, names in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if d not in _SKIP_DIRS and not d.startswith("."))
        for name in sorted(names):
            if not name.endswith(YAML_SUFFIXES):
                continue
            path = Path(root) / name
            try:
                regular_file(path)
            except NotReadable as exc:
                if exc.problem == "special":
                    yield Found(path, exc)
                continue  # a dangling link, a file that went away
            if os.path.islink(path) and not _inside(path, top):
                project = project or project_of_folder(folder)
                if is_outside(path, project):
                    yield Found(path, outside=project)
                continue
            yield Found(path)


def _inside(link: Path, top: Path) -> bool:
    try:
        return resolve(link).is_relative_to(top)
    except NotReadable:
        return False


def name_in_repository(path: Path) -> str:
    """``path`` as git names it in a diff: relative to the repository root, else to the
    current folder when below it, else absolute (links are not followed)."""
    absolute = Path(os.path.abspath(path))
    root = repository_root(absolute.parent) or Path.cwd()
    if absolute.is_relative_to(root):
        return absolute.relative_to(root).as_posix()
    return absolute.as_posix()
