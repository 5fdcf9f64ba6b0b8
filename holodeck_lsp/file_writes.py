"""Replacing a file whole: the new bytes go to a temporary sibling, renamed over the target,
so a reader never sees half a file and an old file is replaced only by a complete one; and
creating a file whole that never replaces another (a kept run).

Standard library only: reports, `check --fix`, the server's code cache and the run history
all write so.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

# A new file's mode before the umask, as `open(path, "w")` creates it (tempfile.mkstemp's
# 0600 would keep reports from CI artefact servers and teammates whatever the umask says).
NEW_FILE_MODE = 0o666


def _sibling(path: Path, mode: int) -> tuple[int, str]:
    """A new temporary file beside ``path``, created with ``mode & ~umask``."""
    folder = path.parent if str(path.parent) else Path(".")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL
    flags |= getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
    for _ in range(100):
        temporary = str(folder / f".{path.name}.{os.urandom(4).hex()}.tmp")
        try:
            return os.open(temporary, flags, mode), temporary
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary name beside {path}")


def replace_whole(
    path: Path, data: bytes, mode: int = NEW_FILE_MODE, *, exact_mode: bool = False
) -> None:
    """Write ``data`` as the whole of ``path``: created with ``mode`` less the umask, or
    exactly ``mode`` with ``exact_mode`` (a file keeping the mode it had)."""
    fd, temporary = _sibling(path, mode)
    try:
        with os.fdopen(fd, "wb") as stream:
            if exact_mode:
                os.fchmod(stream.fileno(), mode)
            stream.write(data)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def create_whole(path: Path, data: bytes) -> bool:
    """Write ``data`` as a new file ``path``, whole and flushed to disk, never replacing a
    file: False when ``path`` exists (also when another process created it meanwhile)."""
    fd, temporary = _sibling(path, NEW_FILE_MODE)
    try:
        with os.fdopen(fd, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        try:
            os.link(temporary, path)  # fails if the name is taken: no race, no overwrite
        except FileExistsError:
            return False
        except OSError:  # a file system without hard links: the check and the rename race
            if os.path.lexists(path):
                return False
            os.replace(temporary, path)
        return True
    finally:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
