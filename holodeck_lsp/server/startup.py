"""What the server starts first and what it loads last.

The validation worker starts before anything else (`start.serve`). The server process
answers `initialize` before it loads the models and the editor queries: completion,
hover, fixes and definitions import them on first use, and once the first diagnostics
are out a thread loads them (`LATE_IMPORTS`), so the first query finds them loaded.
"""

from __future__ import annotations

import importlib
import threading

from holodeck_lsp.server import timing
from holodeck_lsp.server.worker import ProcessWorker

VALIDATION_MEMORY = 400 * 2**20  # bytes the validation child may allocate
# What the worker's forkserver loads before it forks a worker: the validation code.
VALIDATION_PRELOAD = ("holodeck_lsp.validation.validate", "holodeck_lsp.server.jobs")
# What the editor queries need and `initialize` does not (each a quarter of a second).
LATE_IMPORTS = (
    "holodeck_lsp.editing.completion",
    "holodeck_lsp.editing.hover",
    "holodeck_lsp.editing.fixes",
    "holodeck_lsp.editing.navigation",
)
_late = threading.Event()


def import_late() -> None:
    """Load `LATE_IMPORTS` on a thread, once (the first query then finds them loaded)."""
    if _late.is_set():
        return
    _late.set()

    def load() -> None:
        for name in LATE_IMPORTS:
            importlib.import_module(name)
        timing.mark("editor queries imported")

    threading.Thread(target=load, name="holodeck-late-imports", daemon=True).start()


def start_validator() -> ProcessWorker:
    """The validation worker, already starting (see ProcessWorker and docs/editors.md)."""
    validator = ProcessWorker(
        "holodeck-validation", memory_limit=VALIDATION_MEMORY,
        recycle_bytes=VALIDATION_MEMORY // 2, preload=VALIDATION_PRELOAD)
    validator.warm_up()
    return validator
