"""Test-case content HoloDeck loads but cannot use: invisible text (HL205), `files:`
paths that do not exist (HL603), lie outside the project (HL607) or name a FIFO, a device
or a kernel file (HL603: HoloDeck loads the agent, and reads the file only when it runs)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from holodeck_lsp.validation.collector import Collector
from holodeck_lsp.validation.named import Project, special_file
from holodeck_lsp.validation.yaml.source_map import YamlPath

_INVISIBLE = re.compile(r"[\s\u200b\u200c\u200d\u2060\ufeff\u00ad]*")


def text_rules(path: YamlPath, exchange: dict[str, Any], collector: Collector) -> None:
    for key in ("name", "input", "ground_truth"):
        value = exchange.get(key)
        if isinstance(value, str) and value.strip() and _INVISIBLE.fullmatch(value):
            collector.emit(
                (*path, key), "HL205", f"{key} holds only invisible characters; it reads as empty"
            )


def _exists(target: Path) -> bool:
    try:
        return target.exists()
    except OSError:  # a name longer than the file system allows, say
        return False


def file_rules(
    path: YamlPath, exchange: dict[str, Any], collector: Collector, base: Path, project: Project
) -> None:
    files = exchange.get("files")
    if not isinstance(files, list):
        return
    for j, item in enumerate(files):
        local = item.get("path") if isinstance(item, dict) else None
        if isinstance(local, str) and local and "${" not in local:
            where = (*path, "files", j, "path")
            target = Path(local) if Path(local).is_absolute() else base / local
            special = special_file(target)
            if special is not None:  # `run` would read it into the model's message
                # A warning, as for a missing file: HoloDeck reads `files:` only when it runs.
                collector.emit(where, "HL603", f"file {local!r} {special.reason}: it is not read")
                continue
            project.note_outside(target, f"file {local!r}", where, collector)
            if not _exists(target):
                collector.emit(where, "HL603", f"file {local!r} not found (looked for {target})")
