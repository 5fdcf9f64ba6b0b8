"""No two modules of the package share a name: a name says what one module holds, so an
import, a traceback or a search for `engine.py` finds one file."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import holodeck_lsp

PACKAGE = Path(holodeck_lsp.__file__).parent
# Names every package may have: its own initialisation, and `python -m` entry points.
SHARED_NAMES = {"__init__.py", "__main__.py"}


def test_no_two_modules_share_a_name() -> None:
    homes: dict[str, list[str]] = defaultdict(list)
    for file in sorted(PACKAGE.rglob("*.py")):
        if file.name not in SHARED_NAMES:
            homes[file.name].append(str(file.parent.relative_to(PACKAGE.parent)))
    assert {name: where for name, where in homes.items() if len(where) > 1} == {}
