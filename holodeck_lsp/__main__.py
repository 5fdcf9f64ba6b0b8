"""The `holodeck-lsp` program (and `python -m holodeck_lsp`).

`holodeck-lsp serve`, the command editors run, starts the language server without
loading the command line (typer and click, a tenth of a second before the validation
worker could start); everything else goes through `cli`. The garbage collector follows
`gc_policy.py`; `check` and `serve` look for no pydantic plugin (`pydantic_plugins.py`),
and `check` ends without tearing the interpreter down (`quick_exit.py`).
"""

from __future__ import annotations

import sys

from holodeck_lsp import gc_policy, pydantic_plugins, quick_exit


def main() -> None:
    gc_policy.loading()
    if sys.argv[1:] == ["serve"]:
        pydantic_plugins.disable_plugins()
        from holodeck_lsp.server.start import serve

        serve()  # the collector comes on once the server has settled (server/startup.py)
        return
    checking = sys.argv[1:2] == ["check"]
    if checking:
        pydantic_plugins.disable_plugins()
    from holodeck_lsp.cli import main as cli

    if not checking:
        gc_policy.resume()
    try:
        cli()
    except SystemExit as done:
        if checking:
            quick_exit.leave(done.code)
        raise
    if checking:
        quick_exit.leave(0)


if __name__ == "__main__":
    main()
