"""Watching the processes a CLI under test starts (Linux /proc)."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")
LIMIT = 30.0  # seconds a watched condition may take to come true


def child_running(parent: int, script: str) -> int | None:
    """The pid of a live child of ``parent`` whose command line names ``script``."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            command = (entry / "cmdline").read_bytes()
        except OSError:  # it ended while we looked
            continue
        # The fields after the command name, which may hold spaces and parentheses.
        state, ppid = stat.rsplit(")", 1)[1].split()[:2]
        if int(ppid) == parent and state != "Z" and script.encode() in command:
            return int(entry.name)
    return None


def process_naming(text: str) -> int | None:
    """A live process whose command line holds ``text``."""
    for entry in Path("/proc").iterdir():
        try:
            command = (entry / "cmdline").read_bytes()
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue
        if entry.name.isdigit() and text.encode() in command and state != "Z":
            return int(entry.name)
    return None


def wait_for(condition: Callable[[], T | None], limit: float = LIMIT) -> T:
    """Poll ``condition`` until it gives a value (bounded)."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        value = condition()
        if value is not None:
            return value
        time.sleep(0.005)  # polling a condition, with a bound
    raise AssertionError(f"not true within {limit:g} s")
