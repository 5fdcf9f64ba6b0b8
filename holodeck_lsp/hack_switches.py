"""Every performance hack can be turned off, so that a benchmark can time the product
without it and the hack has to earn its keep (CONTRIBUTING, "Performance hacks").

`HOLODECK_LSP_WITHOUT=NAME[,NAME...]` in a process's environment (its children inherit
it) turns those hacks off; the benchmarks' `--without NAME` times this checkout so, in
the same alternation as the rest. Standard library only: read at the bottom of the
package, and before anything heavy is imported.
"""

from __future__ import annotations

import os

VARIABLE = "HOLODECK_LSP_WITHOUT"
# Each hack's name, and the module it lives in.
HACKS = {
    "gc-policy": "holodeck_lsp/gc_policy.py",
    "quick-exit": "holodeck_lsp/quick_exit.py",
    "pydantic-plugins": "holodeck_lsp/pydantic_plugins.py",
    "lean-transport": "holodeck_lsp/runner/services/http_transport.py",
    "code-cache": "holodeck_lsp/server/code_cache.py",
    "serve-fast-path": "holodeck_lsp/__main__.py",
    "validator-warm-up": "holodeck_lsp/server/preload.py",
    "late-imports": "holodeck_lsp/server/late_imports.py",
    "incremental-parse": "holodeck_lsp/validation/yaml/incremental.py",
    "deferred-validators": "holodeck_lsp/models/_base.py",
}


def hack_on(name: str) -> bool:
    """Whether the hack ``name`` (one of HACKS) is on in this process."""
    if name not in HACKS:
        raise KeyError(f"no hack is named {name!r}")
    return name not in os.environ.get(VARIABLE, "").replace(" ", "").split(",")
