"""What completion offers at an expected tool (`editing/declared_tools.py`), read from the
files it comes from, on the query worker: the agent's tools, each function's source (read,
never imported: the same in a trusted workspace or not), the suite's recording and the
editor's last run of it. Every file is a named file (regular, bounded); a recording is
read again only when it changed."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from holodeck_lsp.editing.declared_tools import (
    Call,
    ToolChoice,
    declared_tools,
    recorded_calls,
    seen_tools,
)
from holodeck_lsp.named_files import MAX_NAMED_BYTES, NotReadable, read_text

# A recording of a large suite with its judges' exchanges runs to tens of megabytes.
MAX_RECORDING_BYTES = 64_000_000
_recordings: dict[Path, tuple[tuple[int, int], list[Call]]] = {}  # by path: (mtime, size)


def _source(path: Path) -> str | None:
    try:
        return read_text(path, MAX_NAMED_BYTES)
    except NotReadable:
        return None


def _recorded(recording: Path) -> list[Call]:
    try:
        info = os.stat(recording)
    except OSError:
        return []
    stamp = (info.st_mtime_ns, info.st_size)
    cached = _recordings.get(recording)
    if cached is not None and cached[0] == stamp:
        return cached[1]
    try:
        calls = list(recorded_calls(read_text(recording, MAX_RECORDING_BYTES)))
    except NotReadable:
        calls = []
    _recordings.clear()  # one suite is edited at a time: keep the last recording only
    _recordings[recording] = (stamp, calls)
    return calls


def tool_choices(
    text: str, agent: Path, recording: Path, last_run: Iterable[Call]
) -> list[ToolChoice]:
    """The agent's tools, then those only its recording saw, then those only its last
    run from the editor saw."""
    tools = declared_tools(text, agent.parent, _source)
    tools += seen_tools(_recorded(recording), recording.name, [t.name for t in tools])
    tools += seen_tools(last_run, "the last run", [t.name for t in tools])
    return tools
