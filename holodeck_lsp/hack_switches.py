"""Every performance hack's off switch (CONTRIBUTING, "Performance hacks"):
`HOLODECK_LSP_WITHOUT=NAME[,NAME]` in the environment (children inherit it), as the
benchmarks' `--without NAME` sets it. Standard library only."""

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
    "newline-starts": "holodeck_lsp/server/newline_starts.py",
    "regex-verdicts": "holodeck_lsp/validation/lints/regex_verdicts.py",
    "incremental-parse": "holodeck_lsp/validation/yaml/incremental.py",
    "event-loader": "holodeck_lsp/validation/yaml/event_loader.py",
    "deferred-validators": "holodeck_lsp/models/_base.py",
}


def hack_on(name: str) -> bool:
    """Whether the hack ``name`` (one of HACKS) is on in this process."""
    if name not in HACKS:
        raise KeyError(f"no hack is named {name!r}")
    return name not in os.environ.get(VARIABLE, "").replace(" ", "").split(",")
