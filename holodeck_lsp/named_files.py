"""The one way to read a file that a YAML file names (a test-case file, a config, a
grader module, a prompt, a `files:` entry, a file a folder walk found).

Only a regular file is read, after its links are resolved: never a FIFO (it would block),
a device (`/dev/zero` never ends), a socket, or a file of the kernel's trees (`/proc`,
`/sys` files claim size 0 and hold the environment). The size is checked before reading,
and at most ``limit + 1`` bytes are read, since a file can grow. The file is opened
non-blocking, so even a FIFO swapped in after the check cannot stall the reader.
Standard library only: every layer reads through here.
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path
from typing import Literal

Problem = Literal["missing", "folder", "special", "too-large", "binary", "not-text", "unreadable"]
KERNEL_TREES = ("/proc", "/sys", "/dev")
# The path opened is the resolved one: a link swapped in after the look is refused.
_OPEN_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_NOCTTY", 0)
    | getattr(os, "O_CLOEXEC", 0)
    | getattr(os, "O_BINARY", 0)
)
_CHUNK = 1 << 20
# What a file that is not a YAML document (a prompt, a grader's source, a `files:` entry)
# may have; YAML documents have the validation's own limit.
MAX_NAMED_BYTES = 10_000_000
# UTF-8 spends at most this many bytes on a character: a text of N characters fits in
# N * UTF8_WIDEST bytes, so a limit in characters becomes one in bytes without reading.
UTF8_WIDEST = 4


class NotReadable(Exception):
    """Why a named file is not read, said so that it follows the file's name."""

    def __init__(self, problem: Problem, reason: str, offset: int | None = None) -> None:
        super().__init__(reason)
        self.problem: Problem = problem
        self.reason = reason
        self.offset = offset  # the byte that made it binary or not UTF-8


def _kind(mode: int) -> str | None:
    """What a file that is not regular is, in words; None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _kernel_devices() -> frozenset[int]:
    """The file systems of /proc and /sys (also when mounted elsewhere)."""
    found = set()
    for tree in KERNEL_TREES[:2]:
        with contextlib.suppress(OSError):
            found.add(os.stat(tree).st_dev)
    return frozenset(found)


def kernel_tree(resolved: Path) -> str | None:
    """The kernel tree (`/proc`, `/sys`, `/dev`) a resolved path lies in, if any."""
    text = resolved.as_posix()
    for tree in KERNEL_TREES:
        if text == tree or text.startswith(tree + "/"):
            return tree
    return None


def resolve(path: Path) -> Path:
    """``path`` with every link resolved (it need not exist); raises NotReadable for a
    name no file system can hold (a NUL byte, a loop of links)."""
    try:
        return Path(os.path.realpath(path))
    except (OSError, ValueError) as exc:
        raise NotReadable("unreadable", f"cannot be read ({_why(exc)})") from None


def _kernel_file(tree: str | None) -> NotReadable:
    where = tree or "the kernel's file system"
    return NotReadable("special", f"is a file of {where}, not a regular file")


def _why(exc: BaseException) -> str:
    return getattr(exc, "strerror", None) or str(exc)


def regular_file(path: Path) -> tuple[Path, int]:
    """The resolved path and size of ``path`` when it is a regular file; raises
    NotReadable otherwise. Looks only (stat): nothing is opened."""
    resolved = resolve(path)
    tree = kernel_tree(resolved)
    try:
        info = os.stat(resolved)
    except (OSError, ValueError) as exc:  # ENOENT, ENOTDIR, ENAMETOOLONG, permissions
        if tree is not None:  # /dev/stdin resolves to a pipe's pseudo-name under /proc
            raise _kernel_file(tree) from None
        if isinstance(exc, (FileNotFoundError, NotADirectoryError)):
            raise NotReadable("missing", "not found") from None
        raise NotReadable("unreadable", f"cannot be read ({_why(exc)})") from None
    kind = _kind(info.st_mode)
    if kind == "a folder":
        raise NotReadable("folder", "is a folder, not a file")
    if kind is not None:
        raise NotReadable("special", f"is {kind}, not a regular file")
    if tree is not None or info.st_dev in _kernel_devices():
        raise _kernel_file(tree)
    return resolved, info.st_size


def read_text(path: Path, limit: int) -> str:
    """The UTF-8 text of a regular file of at most ``limit`` bytes; raises NotReadable."""
    data = _read(path, limit)
    nul = data.find(0)
    if nul != -1:
        raise NotReadable("binary", f"is a binary file (a NUL byte at byte {nul})", nul)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise NotReadable(
            "not-text", f"is not UTF-8 text (byte {exc.start} cannot be decoded)", exc.start
        ) from None


def read_bytes(path: Path, limit: int) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes; raises NotReadable."""
    return bytes(_read(path, limit))


def _too_large(size: int, limit: int) -> NotReadable:
    return NotReadable("too-large", f"has {size:,} bytes, over the limit of {limit:,}")


def _read(path: Path, limit: int) -> bytearray:
    resolved, size = regular_file(path)
    if size > limit:
        raise _too_large(size, limit)
    try:
        fd = os.open(resolved, _OPEN_FLAGS)
    except OSError as exc:
        raise NotReadable("unreadable", f"cannot be read ({_why(exc)})") from None
    try:
        opened = os.fstat(fd)
        kind = _kind(opened.st_mode)
        if kind is not None:  # replaced between the look and the open
            raise NotReadable("special", f"is {kind}, not a regular file")
        if opened.st_dev in _kernel_devices():
            raise _kernel_file(None)
        data = bytearray()
        while len(data) <= limit:
            chunk = os.read(fd, min(_CHUNK, limit + 1 - len(data)))
            if not chunk:
                break
            data += chunk
    except OSError as exc:
        raise NotReadable("unreadable", f"cannot be read ({_why(exc)})") from None
    finally:
        os.close(fd)
    if len(data) > limit:  # it grew after the look
        raise _too_large(len(data), limit)
    return data
