"""A persistent cache of the code that attrs and cattrs generate while the server starts.

lsprotocol defines some 550 attrs classes, and attrs writes and compiles the source of
each one's `__init__`, `__eq__` and `__repr__` when the module loads: compiling is 40%
of the 0.3 s `import lsprotocol.types` costs. cattrs does the same for each message
type the first time one is read or written. The compiled code objects are kept in one
file per Python version (``marshal``, keyed by file name and source text, so code that
changed is compiled afresh), and later starts take them from there.

The file holds code the server runs, so it is only read when this user owns it and its
folder and nobody else may write to either; anything unexpected in it means it is
ignored (and rewritten). `HOLODECK_LSP_CODE_CACHE=0` turns the cache off.

A hack (CONTRIBUTING, "Performance hacks"). Benchmark row: server, spawn -> first
diagnostics. Off: `HOLODECK_LSP_WITHOUT=code-cache` (or `HOLODECK_LSP_CODE_CACHE=0`).
"""

from __future__ import annotations

import builtins
import contextlib
import importlib
import importlib.util
import logging
import marshal
import os
import stat
import sys
import threading
from pathlib import Path
from types import CodeType
from typing import Any

from holodeck_lsp.file_writes import replace_whole
from holodeck_lsp.hack_switches import hack_on

log = logging.getLogger(__name__)
# The modules whose calls to `compile` go through the cache: attrs's class builder and
# cattrs's (un)structuring function generator.
PATCHED = ("attr._make", "cattrs.gen")
MAX_BYTES = 16 * 2**20
MAX_ENTRIES = 5_000
_Key = tuple[str, str, str]  # file name, mode, source


class CodeCache:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.stored: dict[_Key, CodeType] = _read(path)
        self.used: dict[_Key, CodeType] = {}
        self.compiled = 0  # compiled afresh in this process
        self._lock = threading.Lock()

    def compile(self, source: Any, filename: Any, mode: str, *args: Any, **kwargs: Any) -> Any:
        """`compile`, served from the cache for the plain calls the generators make."""
        if args or kwargs or not isinstance(source, str) or not isinstance(filename, str):
            return builtins.compile(source, filename, mode, *args, **kwargs)
        key = (filename, mode, source)
        code = self.stored.get(key)
        if code is None:
            code = builtins.compile(source, filename, mode)
            self.compiled += 1
        self.used[key] = code
        return code

    def save(self) -> None:
        """Write the cache if this process compiled anything new (never raises)."""
        with self._lock:
            if not self.compiled:
                return
            # A file name generated again with other source (attrs writes a hash seed into
            # some) replaces its older versions, so the file does not grow run by run.
            regenerated = {(name, mode) for name, mode, _ in self.used}
            entries = {key: code for key, code in self.stored.items()
                       if key[:2] not in regenerated}
            entries.update(self.used)
            if len(entries) > MAX_ENTRIES:  # what this process needed, and nothing older
                entries = dict(self.used)
            try:
                _write(self.path, entries)
            except (OSError, ValueError) as exc:
                log.info("could not write the code cache %s: %s", self.path, exc)
                return
            self.stored, self.compiled = entries, 0


_active: CodeCache | None = None


def default_path() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "holodeck-lsp" / f"generated-code.{sys.implementation.cache_tag}"


def install(path: Path | None = None) -> CodeCache | None:
    """Route the generators' `compile` through the cache (before lsprotocol is imported)."""
    global _active
    if not hack_on("code-cache") or os.environ.get("HOLODECK_LSP_CODE_CACHE", "1") == "0":
        return None
    if _active is None:
        try:
            _active = CodeCache(path or default_path())
        except RuntimeError:  # no home folder to keep it in
            return None
        for name in PATCHED:
            with contextlib.suppress(ImportError):
                # A module global named `compile` shadows the builtin for that module only.
                importlib.import_module(name).compile = _active.compile  # type: ignore[attr-defined]
    return _active


def save() -> None:
    if _active is not None:
        _active.save()


def _trusted(path: Path) -> bool:
    """Owned by this user, and writable by nobody else (the file and its folder)."""
    uid = getattr(os, "getuid", None)
    for each in (path.parent, path):
        info = each.lstat()
        if uid is not None and info.st_uid != uid():
            return False
        if info.st_mode & (stat.S_IWGRP | stat.S_IWOTH) or stat.S_ISLNK(info.st_mode):
            return False
    return stat.S_ISREG(path.lstat().st_mode)


def _read(path: Path) -> dict[_Key, CodeType]:
    try:
        if not _trusted(path) or path.stat().st_size > MAX_BYTES:
            return {}
        data = path.read_bytes()
        magic = importlib.util.MAGIC_NUMBER
        if not data.startswith(magic):
            return {}
        entries = marshal.loads(data[len(magic):])
    except (OSError, ValueError, EOFError, TypeError):
        return {}
    if not isinstance(entries, dict):
        return {}
    return {key: code for key, code in entries.items()
            if isinstance(key, tuple) and len(key) == 3 and all(isinstance(k, str) for k in key)
            and isinstance(code, CodeType)}


def _write(path: Path, entries: dict[_Key, CodeType]) -> None:
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    data = importlib.util.MAGIC_NUMBER + marshal.dumps(entries)
    if len(data) > MAX_BYTES:
        raise ValueError("the cache would be too large")
    replace_whole(path, data, 0o600, exact_mode=True)  # readable by us alone
