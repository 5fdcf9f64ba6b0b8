"""The `holodeck-lsp` program (and `python -m holodeck_lsp`).

`holodeck-lsp serve`, the command editors run, starts the language server without
loading the command line (typer and click, a tenth of a second before the validation
worker could start); everything else goes through `cli`. `check` runs with the cyclic
collector off and ends without tearing the interpreter down (see `_leave`).
"""

from __future__ import annotations

import contextlib
import gc
import os
import sys
from typing import NoReturn


def _leave(code: object) -> NoReturn:
    """End `check` once its output is flushed, skipping the interpreter's teardown: freeing
    a large suite's objects and every module one by one is a tenth of its run, and
    nothing of it is needed (no atexit handler of `check` has work left)."""
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


def main() -> None:
    # Start-up builds many long-lived objects (modules, model classes): the cyclic
    # collector would rescan them over and over while they load (a tenth of the time).
    gc.disable()
    # Pydantic scans every installed distribution for plugins on first use (~30 ms of a
    # pre-commit hook's start-up); this tool uses none.
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    if sys.argv[1:] == ["serve"]:
        from holodeck_lsp.server.start import serve

        serve()  # the collector is back on once the server is built (gc_pause)
        return
    from holodeck_lsp.cli import main as cli

    # A check builds objects that live until it ends: reference counting frees what little
    # is garbage, and the collector stays off.
    checking = sys.argv[1:2] == ["check"]
    if not checking:
        gc.enable()
    try:
        cli()
    except SystemExit as done:
        if checking:
            _leave(done.code)
        raise
    if checking:
        _leave(0)


if __name__ == "__main__":
    main()
