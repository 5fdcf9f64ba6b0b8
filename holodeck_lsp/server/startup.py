"""What the server starts first and what it does last.

The validation worker starts before anything else (`start.serve`). Once the first
diagnostics are out (or `SETTLE_AFTER` seconds after the server is built, whichever comes
first), `settle` saves the code cache and moves start-up's objects out of the garbage
collector's sight, turning it on (`gc_policy.settle`).
"""

from __future__ import annotations

import threading

from holodeck_lsp import gc_policy
from holodeck_lsp.server import code_cache, timing
from holodeck_lsp.server.worker import ProcessWorker

VALIDATION_MEMORY = 400 * 2**20  # bytes the validation child may allocate
# What the worker's forkserver loads before it forks a worker: the validation code.
VALIDATION_PRELOAD = ("holodeck_lsp.server.preload",)
SETTLE_AFTER = 3.0  # seconds after the server is built, if no diagnostics came out before
_settled = threading.Event()


def settle() -> None:
    """Once, on a thread (writing the cache is no work for the event loop): save the code
    cache, then freeze what start-up built and turn the collector on."""
    if _settled.is_set():
        return
    _settled.set()

    def run() -> None:
        code_cache.save()
        gc_policy.settle()
        timing.mark("settled")

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
