"""The `holodeck-lsp` program (and `python -m holodeck_lsp`).

`holodeck-lsp serve`, the command editors run, starts the language server without
loading the command line: typer and click are a tenth of a second before the validation
worker could start. Hack rule (CONTRIBUTING, "Performance hacks"). Benchmark row: server,
spawn -> first diagnostics. Off (`HOLODECK_LSP_WITHOUT=serve-fast-path`): `serve` goes
through `cli` as every other command does.

The garbage collector follows `gc_policy.py`; `check` and `serve` look for no pydantic
plugin (`pydantic_plugins.py`); `check` ends without tearing the interpreter down
(`quick_exit.py`).
"""

from __future__ import annotations

import sys

from holodeck_lsp import gc_policy, pydantic_plugins, quick_exit
from holodeck_lsp.hack_switches import hack_on


def main() -> None:
    gc_policy.loading()
    command = sys.argv[1:2]
    if command in (["check"], ["serve"]):
        pydantic_plugins.disable_plugins()
    if sys.argv[1:] == ["serve"] and hack_on("serve-fast-path"):
        from holodeck_lsp.server.start import serve

        serve()  # the collector comes on once the server has settled (server/late_imports.py)
        return
    from holodeck_lsp.cli import main as cli

    checking = command == ["check"]
    if command != ["serve"] and not checking:
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
