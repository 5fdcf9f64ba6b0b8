"""What the server starts first and what it does last.

The validation worker starts before anything else (`start.serve`). The server process
answers `initialize` before it loads the models and the editor queries: completion,
hover, fixes and definitions import them on first use. Once the first diagnostics are
out (or a few seconds after the server is built, whichever comes first), `settle` loads
them on a thread (`LATE_IMPORTS`), so the first query finds them loaded, saves the code
cache and moves start-up's objects out of the garbage collector's sight.
"""

from __future__ import annotations

import importlib
import threading

from holodeck_lsp import gc_policy
from holodeck_lsp.server import code_cache, timing
from holodeck_lsp.server.worker import ProcessWorker

VALIDATION_MEMORY = 400 * 2**20  # bytes the validation child may allocate
# What the worker's forkserver loads before it forks a worker: the validation code.
VALIDATION_PRELOAD = ("holodeck_lsp.server.preload",)
# What the editor queries need and `initialize` does not (each a quarter of a second).
LATE_IMPORTS = (
    "holodeck_lsp.editing.completion_candidates",
    "holodeck_lsp.editing.hover_text",
    "holodeck_lsp.editing.fixes",
    "holodeck_lsp.editing.navigation",
)
SETTLE_AFTER = 3.0  # seconds after the server is built, if no diagnostics came out before
_settled = threading.Event()


def settle() -> None:
    """Once, on a thread: load `LATE_IMPORTS`, save the code cache, then freeze what
    start-up built and turn the collector on (`gc_policy.settle`)."""
    if _settled.is_set():
        return
    _settled.set()

    def run() -> None:
        for name in LATE_IMPORTS:
            importlib.import_module(name)
        code_cache.save()
        gc_policy.settle()
        timing.mark("settled (editor queries imported)")

    threading.Thread(target=run, name="holodeck-settle", daemon=True).start()


def settle_soon() -> None:
    """`settle` after `SETTLE_AFTER` seconds, unless the first diagnostics come sooner (the
    collector is off until then, so it must come even if no document is ever opened)."""
    timer = threading.Timer(SETTLE_AFTER, settle)
    timer.daemon = True
    timer.start()


def start_validator() -> ProcessWorker:
    """The validation worker, already starting (see ProcessWorker and docs/editors.md)."""
    validator = ProcessWorker(
        "holodeck-validation", memory_limit=VALIDATION_MEMORY,
        recycle_bytes=VALIDATION_MEMORY // 2, preload=VALIDATION_PRELOAD)
    validator.warm_up()
    return validator
