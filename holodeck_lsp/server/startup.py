"""What the server starts first: the validation worker, before anything else
(`start.serve`); `late_imports.py` holds what it does last."""

from __future__ import annotations

from holodeck_lsp.server.worker import ProcessWorker

VALIDATION_MEMORY = 400 * 2**20  # bytes the validation child may allocate
# What the worker's forkserver loads before it forks a worker: the validation code.
VALIDATION_PRELOAD = ("holodeck_lsp.server.preload",)


def start_validator() -> ProcessWorker:
    """The validation worker, already starting (see ProcessWorker and docs/editors.md)."""
    validator = ProcessWorker(
        "holodeck-validation", memory_limit=VALIDATION_MEMORY,
        recycle_bytes=VALIDATION_MEMORY // 2, preload=VALIDATION_PRELOAD)
    validator.warm_up()
    return validator
