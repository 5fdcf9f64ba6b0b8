"""Run the `holodeck-lsp` of another checkout (say main before a change) with this Python,
so a benchmark can time before and after side by side (`--baseline DIR`)."""

from __future__ import annotations

import re
import sys
from pathlib import Path


def entry_command(checkout: Path, folder: Path) -> tuple[list[str], dict[str, str]]:
    """`holodeck-lsp` as the checkout's own entry point runs it, and the environment that
    puts its package first on the import path (PYTHONPATH, which the server's worker
    processes inherit too). A script in ``folder``, as pip writes one: not `-c`, since
    multiprocessing's children load the main script again."""
    found = re.search(r'^holodeck-lsp\s*=\s*"([\w.]+):(\w+)"',
                      (checkout / "pyproject.toml").read_text(), re.MULTILINE)
    if found is None:
        raise SystemExit(f"{checkout}/pyproject.toml names no holodeck-lsp entry point")
    module, function = found.groups()
    script = folder / "baseline-holodeck-lsp"
    script.write_text(f"import sys\nfrom {module} import {function}\n"
                      f"if __name__ == '__main__':\n    sys.exit({function}())\n")
    return [sys.executable, str(script)], {"PYTHONPATH": str(checkout.resolve())}
