"""Writing the run's artefacts (reports, recordings): checked before the run, written whole.

A file is written to a temporary sibling and renamed over the target, so a reader never sees
half a report and an earlier run's report is replaced only by a complete one.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from holodeck_lsp.file_writes import replace_whole


def atomic_write(path: Path, text: str) -> None:
    replace_whole(path, text.encode("utf-8"))


def check_writable(path: Path) -> str | None:
    """Why ``path`` cannot be written, or None: tried before the first request."""
    if path.is_dir():
        return f"{path} is a directory"
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        return f"{path}: the folder {folder} does not exist"
    if path.exists() and not os.access(path, os.W_OK):
        return f"{path}: permission denied"
    try:
        fd, probe = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".probe", dir=folder)
    except OSError as exc:
        return f"{path}: {exc.strerror or exc}"
    os.close(fd)
    os.unlink(probe)
    return None
