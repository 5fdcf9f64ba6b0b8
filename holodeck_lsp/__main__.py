"""The `holodeck-lsp` program (and `python -m holodeck_lsp`).

`holodeck-lsp serve`, the command editors run, starts the language server without
loading the command line (typer and click, a tenth of a second before the validation
worker could start); everything else goes through `cli`.
"""

from __future__ import annotations

import gc
import os
import sys


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

    gc.enable()  # `check` turns it off again, for good
    cli()


if __name__ == "__main__":
    main()
