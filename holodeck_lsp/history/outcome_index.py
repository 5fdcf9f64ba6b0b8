"""The history's index: what reading each run file gave (its record, or why it is not a
run), in SQLite under `.holodeck/cache/` beside the agent, so a history of hundreds of runs
is told without parsing hundreds of megabytes of JSON. Benchmark row: `history_bench`'s
warm `history`.

The files stay the truth; the index is derived data that can be thrown away:
- a run's record is keyed on its file's content (the SHA-256 of its bytes: its `id`);
- a file's entry is used only while the file is exactly the one that was read: same
  device, inode, size, modification and change times (the change time is the kernel's: no
  one sets it, and a file written again or put back gets a new one), so a changed file is
  read again, and an index copied from elsewhere (a clone, an artefact) matches nothing;
- a file the index has not seen is read; a file gone from the folder loses its entry;
- several processes may read and write it at once (WAL, a busy timeout; every write is
  an idempotent upsert of what a file holds); an index that cannot be opened, written or
  read is left alone and the files are read instead; one that is not a database at all is
  made again; one reached through a link is not used (it would write where the link
  points);
- a reader that must not write (the language server) opens it read-only, or not at all.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from holodeck_lsp.history.results_folder import agent_folder_of
from holodeck_lsp.history.run_records import HistoryRun
from holodeck_lsp.nesting import MAX_FILE_DEPTH, loads

SCHEMA = "2"
INDEX_NAME = "history-index.sqlite3"
_BUSY_MS = 5_000
_TABLES = (
    "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS files (path TEXT PRIMARY KEY, stamp TEXT NOT NULL, "
    "run_id TEXT, refusal TEXT)",
    "CREATE TABLE IF NOT EXISTS runs (run_id TEXT PRIMARY KEY, record TEXT NOT NULL)",
)


def index_path(folder: Path) -> Path:
    """Where the index of a results folder is: `.holodeck/cache/` in the agent's folder for
    `results/<slug>/`, else in the folder's parent (never inside it: the folder holds only
    run files, as HoloDeck's dashboard reads every `*.json` of it)."""
    resolved = folder.resolve()
    home = agent_folder_of(resolved) or resolved.parent
    return home / ".holodeck" / "cache" / INDEX_NAME


def stamp(info: os.stat_result) -> str:
    """What says a file is the one read: device, inode, size, modification and change
    times in nanoseconds."""
    return f"{info.st_dev}:{info.st_ino}:{info.st_size}:{info.st_mtime_ns}:{info.st_ctime_ns}"


@dataclass(frozen=True)
class Known:
    """What the index knows of a file read before: its run, or why it is not one."""

    run: HistoryRun | None
    refusal: str | None


def _linked(path: Path) -> bool:
    """Whether the index file or a folder above it up to `.holodeck` is a link."""
    for part in (path, path.parent, path.parent.parent):
        with contextlib.suppress(OSError):
            if os.path.islink(part):
                return True
    return False


class OutcomeIndex:
    """One open index; use as a context manager. Every method swallows the index's own
    failures (then it knows nothing and stores nothing). ``writable=False`` never creates
    or changes it."""

    def __init__(self, path: Path, writable: bool = True) -> None:
        self.path = path
        self.writable = writable
        self._db: sqlite3.Connection | None = None

    def __enter__(self) -> OutcomeIndex:
        if _linked(self.path):
            return self
        try:
            self._db = self._open() if self.writable else self._open_read_only()
        except sqlite3.DatabaseError as exc:
            if type(exc) is sqlite3.DatabaseError and self.writable:  # not a database
                with contextlib.suppress(OSError, sqlite3.Error):
                    self.path.unlink()
                    self._db = self._open()
        except (OSError, sqlite3.Error):
            self._db = None
        return self

    def _open_read_only(self) -> sqlite3.Connection | None:
        if not self.path.is_file():
            return None
        uri = self.path.resolve().as_uri() + "?mode=ro"
        db = sqlite3.connect(uri, uri=True, timeout=_BUSY_MS / 1000, isolation_level=None)
        try:
            row = db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        except sqlite3.Error:
            db.close()
            raise
        if row is None or row[0] != SCHEMA:
            db.close()
            return None
        return db

    def __exit__(self, *exc: object) -> None:
        if self._db is not None:
            with contextlib.suppress(sqlite3.Error):
                self._db.close()
            self._db = None

    def _open(self) -> sqlite3.Connection:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(self.path, timeout=_BUSY_MS / 1000, isolation_level=None)
        try:
            db.execute(f"PRAGMA busy_timeout = {_BUSY_MS}")
            db.execute("PRAGMA journal_mode = WAL")
            db.execute("PRAGMA synchronous = NORMAL")
            for table in _TABLES:
                db.execute(table)
            row = db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
            if row is None or row[0] != SCHEMA:
                with self._writing(db):
                    db.execute("DELETE FROM files")
                    db.execute("DELETE FROM runs")
                    db.execute("INSERT OR REPLACE INTO meta VALUES ('schema', ?)", (SCHEMA,))
        except sqlite3.Error:
            db.close()
            raise
        return db

    @staticmethod
    @contextlib.contextmanager
    def _writing(db: sqlite3.Connection) -> Iterator[None]:
        db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")

    def known(self, paths: dict[str, str]) -> dict[str, Known]:
        """What the index knows of the files ``paths`` (path -> its stamp now), for those
        whose stamp it has."""
        if self._db is None or not paths:
            return {}
        found: dict[str, Known] = {}
        try:
            rows = self._db.execute(
                "SELECT files.path, files.stamp, files.refusal, runs.record FROM files "
                "LEFT JOIN runs ON runs.run_id = files.run_id"
            ).fetchall()
        except sqlite3.Error:
            return {}
        for path, stamped, refusal, record in rows:
            if paths.get(path) != stamped:
                continue
            if record is None:
                if isinstance(refusal, str):
                    found[path] = Known(None, refusal)
                continue
            try:
                data = loads(record, MAX_FILE_DEPTH)
                found[path] = Known(HistoryRun.from_data(data, Path(path)), None)
            except (ValueError, TypeError, KeyError, RecursionError):
                continue  # an entry it cannot read: the file is read again
        return found

    def store(
        self, read: dict[str, tuple[str, HistoryRun | None, str | None]], gone: list[str]
    ) -> None:
        """Keep what reading files gave (path -> its stamp, its run or why it is not one)
        and forget files no longer there."""
        if self._db is None or not self.writable or not (read or gone):
            return
        with contextlib.suppress(sqlite3.Error), self._writing(self._db):
            for path in gone:
                self._db.execute("DELETE FROM files WHERE path = ?", (path,))
            for path, (stamped, run, refusal) in read.items():
                run_id = run.run_id if run is not None else None
                if run is not None:
                    data = run.to_data()
                    del data["path"]  # the same run may be at two paths
                    self._db.execute(
                        "INSERT OR REPLACE INTO runs VALUES (?, ?)",
                        (run.run_id, json.dumps(data, separators=(",", ":"))),
                    )
                self._db.execute(
                    "INSERT OR REPLACE INTO files VALUES (?, ?, ?, ?)",
                    (path, stamped, run_id, refusal),
                )
            self._db.execute(
                "DELETE FROM runs WHERE run_id NOT IN "
                "(SELECT run_id FROM files WHERE run_id IS NOT NULL)"
            )

    def paths_under(self, folder: Path) -> list[str]:
        """The files of ``folder`` the index has entries for."""
        if self._db is None:
            return []
        prefix = str(folder) + os.sep
        try:
            rows = self._db.execute("SELECT path FROM files").fetchall()
        except sqlite3.Error:
            return []
        return [p for (p,) in rows if p.startswith(prefix) and os.sep not in p[len(prefix) :]]
