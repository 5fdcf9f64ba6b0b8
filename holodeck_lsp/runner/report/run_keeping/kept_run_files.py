"""A kept run's file, named as HoloDeck names it (`holodeck/lib/eval_run/writer.py`): the
report's timestamp, `:` made `-`, `.json`; on a collision a suffix. Unlike HoloDeck's random
suffix, ours comes from the run's content, and a file is only ever added:

- the same run kept again (a retried `merge` of the same shards, the same report written
  twice) finds its own file and adds nothing;
- another run with the same timestamp gets `-` and the first hex digits of its report's
  SHA-256, as many as make the name free;
- no file is ever replaced or deleted (created through a hard link, which fails on a
  taken name even when another process takes it meanwhile).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from holodeck_lsp.file_writes import create_whole
from holodeck_lsp.history.eval_run_reading import EvalRunError, read_run_bytes
from holodeck_lsp.nesting import MAX_FILE_DEPTH, loads

_SUFFIXES = (4, 8, 16, 64)  # hex digits of the report's hash, tried in turn


def _report_of(text: str | bytes) -> Any:
    try:
        data = loads(text, MAX_FILE_DEPTH)
    except (ValueError, RecursionError):
        return None
    return data.get("report") if isinstance(data, dict) else None


def _same_run(path: Path, report: Any) -> bool:
    try:
        return bool(_report_of(read_run_bytes(path)) == report)
    except EvalRunError:
        return False


def file_names(timestamp: str, report_digest: str) -> list[str]:
    """The names a run may take, in the order tried."""
    stem = timestamp.replace(":", "-")
    return [f"{stem}.json"] + [f"{stem}-{report_digest[:n]}.json" for n in _SUFFIXES]


def keep_file(folder: Path, timestamp: str, text: str) -> tuple[Path, bool]:
    """Add the kept run ``text`` to ``folder`` (created if needed): its path, and whether
    it was written now (False: the same run was there already). Raises OSError."""
    folder.mkdir(parents=True, exist_ok=True)
    report = _report_of(text)
    digest = hashlib.sha256(json.dumps(report, sort_keys=True).encode()).hexdigest()
    data = text.encode("utf-8")
    for name in file_names(timestamp, digest):
        target = folder / name
        if create_whole(target, data):
            return target, True
        if _same_run(target, report):
            return target, False
    raise FileExistsError(f"every name for the run is taken in {folder}")
