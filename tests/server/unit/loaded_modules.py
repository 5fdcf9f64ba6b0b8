"""Run in the validation worker by test_startup: imports nothing, so that what it reports
loaded is what the worker loaded."""

from __future__ import annotations

import sys
from typing import Any

HEAVY = ("lsprotocol", "cattrs", "typer", "click", "holodeck_lsp.editing")


def loaded_after(job: Any, *args: Any) -> list[str]:
    """Run ``job(*args)``; the heavy modules loaded in this process by then."""
    job(*args)
    return sorted(name for name in sys.modules if name.startswith(HEAVY))
