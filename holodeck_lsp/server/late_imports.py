"""What the server does once start-up is over: `settle`, once, on a thread.

The editor queries import the models on first use, after `initialize`. Once the first
diagnostics are out (or `SETTLE_AFTER` seconds after the server is built), `settle`
imports them ahead of the first query (`LATE_IMPORTS`), saves the code cache and moves
start-up's objects out of the collector's sight (`gc_policy.settle`).

The imports are a hack (CONTRIBUTING, "Performance hacks"). Benchmark row: completion /
hover p95 (`lsp_storm.py`, which storms from the first diagnostics). Off
(`HOLODECK_LSP_WITHOUT=late-imports`): the first query of each kind imports them.
"""

from __future__ import annotations

import importlib
import threading

from holodeck_lsp import gc_policy
from holodeck_lsp.hack_switches import hack_on
from holodeck_lsp.server import code_cache, timing

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
    start-up built and turn the collector on."""
    if _settled.is_set():
        return
    _settled.set()

    def run() -> None:
        if hack_on("late-imports"):
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
