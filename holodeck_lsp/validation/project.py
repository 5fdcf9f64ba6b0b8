"""The project a file belongs to, and whether a file it names lies outside it.

The project is the editor's workspace folder holding the file, else the repository
root (the nearest folder above it with a `.git`, found without running git), else the
file's own folder. A file outside it (a `test_cases_file: ../../.aws/credentials`) is
still validated, but its lines, messages and field paths are never shown by `check`
or `run`: their output lands in public CI logs.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from holodeck_lsp.named_files import NotReadable, resolve
from holodeck_lsp.validation.codes import rule
from holodeck_lsp.validation.diagnostics import Diagnostic


def repository_root(folder: Path) -> Path | None:
    for candidate in (folder, *folder.parents):
        try:
            if os.path.lexists(candidate / ".git"):  # a folder, or a worktree's file
                return candidate
        except (OSError, ValueError):
            return None
    return None


def project_root(file: Path, workspace_folders: Iterable[Path] = ()) -> Path:
    """The folder the project of ``file`` is (resolved, so a comparison is exact)."""
    return project_of_folder(file.parent, workspace_folders)


def project_of_folder(folder: Path, workspace_folders: Iterable[Path] = ()) -> Path:
    """The project of the files in ``folder``."""
    where = Path(os.path.abspath(folder))
    for workspace in workspace_folders:
        if where.is_relative_to(os.path.abspath(workspace)):
            return _resolved(workspace)
    return _resolved(repository_root(where) or where)


def _resolved(folder: Path) -> Path:
    try:
        return resolve(folder)
    except NotReadable:
        return Path(os.path.abspath(folder))


def is_outside(file: Path, project: Path) -> bool:
    """Whether ``file``, links resolved, lies outside ``project`` (a resolved folder)."""
    try:
        return not resolve(file).is_relative_to(project)
    except NotReadable:
        return False  # no file can have that name: reported as unreadable instead


def withheld(d: Diagnostic) -> Diagnostic:
    """A diagnostic of a file outside the project as `check` and `run` show it: where and
    which rule, never the message or field path (they quote the file's content)."""
    message = f"{rule(d.code).summary} (details withheld: the file is outside the project)"
    return Diagnostic(d.range, d.severity, d.code, message, "", d.related)
