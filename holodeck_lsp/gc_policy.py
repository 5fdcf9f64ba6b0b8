"""The one policy for Python's cyclic garbage collector: every toggle goes through here.

Our processes build many objects that live as long as they do (modules, model classes, a
large suite's parse tree) and little cyclic garbage, which reference counting does not
free: the collector's passes rescan the survivors for nothing. So it is off while such
objects are built, and on otherwise:

- `loading()`: off from a process's first moment while it imports (`__main__.main` for
  the program, `server/preload.py` for the validation worker's forkserver).
- `check` keeps it off to the end: a short process, whose objects live until it exits
  (it then ends without tearing them down, `quick_exit.py`).
- `settle()`: what start-up built is moved out of the collector's sight (`gc.freeze`,
  so no pass ever rescans it) and the collector comes on. The server does so once its
  first diagnostics are out (`server/startup.py`, with a timer in case no document is
  ever opened); the worker's forkserver once its preload is done; a test process once
  pytest has collected (`tests/conftest.py`).
- `resume()`: every other command (`run`, `merge`, `compare`, `schema`) turns it on
  once its command line is loaded: a run lasts, and runs user code.
- `paused()`: off while a validation job runs (the worker's, the thread worker's), on
  again when the last running job ends; the job's objects are freed when it ends.

A hack (CONTRIBUTING, "Performance hacks"). Benchmark rows: `check`, 1,000 cases, cold;
server, first diagnostics and edit -> diagnostics. Off (`HOLODECK_LSP_WITHOUT=gc-policy`):
nothing here touches the collector.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from holodeck_lsp.hack_switches import hack_on

_lock = threading.Lock()
_holders = 0


def _on() -> bool:
    return hack_on("gc-policy")


def loading() -> None:
    """The collector off while a process loads its code (see the module's doc)."""
    if _on():
        gc.disable()


def settle() -> None:
    """What the process built so far out of the collector's sight, and the collector on.
    No full collection first: it would hold the interpreter lock for a tenth of a second
    or more while the editor is already at work, and start-up leaves little garbage."""
    if _on():
        gc.freeze()
        gc.enable()


def resume() -> None:
    """The collector on again, for a command that lasts (see the module's doc)."""
    if _on():
        gc.enable()


@contextmanager
def paused() -> Iterator[None]:
    """No collector pass inside this block (re-entrant across threads)."""
    global _holders
    if not _on():
        yield
        return
    with _lock:
        _holders += 1
        if _holders == 1:
            gc.disable()
    try:
        yield
    finally:
        with _lock:
            _holders -= 1
            if _holders == 0:
                gc.enable()
