"""Writing the run's artefacts (reports, recordings): checked before the run, written whole.

A file is written to a temporary sibling and renamed over the target, so a reader never sees
half a report and an earlier run's report is replaced only by a complete one.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import tempfile
from pathlib import Path

# A new file's mode before the umask, as `open(path, "w")` creates it: tempfile.mkstemp's
# 0600 would keep reports from CI artefact servers and teammates whatever the umask says.
FILE_MODE = 0o666


def _sibling(path: Path, folder: Path) -> tuple[int, str]:
    """A new temporary file beside ``path``, created with FILE_MODE & ~umask."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL
    flags |= getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
    for _ in range(100):
        temporary = str(folder / f".{path.name}.{secrets.token_hex(4)}.tmp")
        try:
            return os.open(temporary, flags, FILE_MODE), temporary
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary name beside {path}")


def atomic_write(path: Path, text: str) -> None:
    folder = path.parent if str(path.parent) else Path(".")
    fd, temporary = _sibling(path, folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as stream:
            stream.write(text)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


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
