"""Start-up timestamps for benchmarks: with `HOLODECK_LSP_TIMING=1` in the environment,
the first time each step happens is written to stderr as
`holodeck-lsp timing: SIDE: STEP EPOCH-SECONDS` (SIDE: the server, or its validation
worker), so that `benchmarks/lsp_first_diagnostics.py` can tell where the milliseconds
from spawn to the first diagnostics go. Off, a mark costs one set lookup.
"""

from __future__ import annotations

import os
import sys
import time

_VARIABLE = "HOLODECK_LSP_TIMING"
_enabled = os.environ.get(_VARIABLE, "") not in ("", "0")
_seen: set[str] = set()


def claim_server() -> None:
    """Called by the server process first thing: it and its children then tell their marks
    apart (the children inherit the server's pid through the environment)."""
    if _enabled:
        os.environ[_VARIABLE] = f"server:{os.getpid()}"


def mark(step: str) -> None:
    """Log ``step`` with the time now, the first time it happens in this process."""
    if not _enabled or step in _seen:
        return
    _seen.add(step)
    side = "server" if os.environ[_VARIABLE] == f"server:{os.getpid()}" else "worker"
    sys.stderr.write(f"holodeck-lsp timing: {side}: {step} {time.time():.6f}\n")
    sys.stderr.flush()
