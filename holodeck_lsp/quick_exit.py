"""`check` ends with `os._exit` once its output is flushed: freeing a large suite's objects
and every module one by one is a tenth of its run, and it has no atexit work left.

A hack (CONTRIBUTING, "Performance hacks"). Benchmark row: `check`, 1,000-case suite,
cold. Off (`HOLODECK_LSP_WITHOUT=quick-exit`): `check` exits as any program does.
"""

from __future__ import annotations

import contextlib
import os
import sys
from typing import NoReturn

from holodeck_lsp.hack_switches import hack_on


def leave(code: object) -> NoReturn:
    """End the process with `sys.exit(code)`'s status, skipping the teardown."""
    if not hack_on("quick-exit"):
        raise SystemExit(code)
    status = code if isinstance(code, int) else 0 if code is None else 1
    if isinstance(code, str):  # as the interpreter does with sys.exit("message")
        sys.stderr.write(code + "\n")
    try:
        sys.stdout.flush()
    except (OSError, ValueError):  # the report could not be written: as the interpreter does
        status = 120
    with contextlib.suppress(OSError, ValueError):
        sys.stderr.flush()
    os._exit(status)
