"""The `holodeck-lsp` program (and `python -m holodeck_lsp`).

`serve`, the command editors run, starts the server without loading typer and click (a
tenth of a second before the worker could start): a hack (CONTRIBUTING, "Performance
hacks"). Benchmark row: server, first diagnostics. Off
(`HOLODECK_LSP_WITHOUT=serve-fast-path`): `serve` goes through `cli` as the rest does.
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

        serve()  # the collector comes on once the server has settled (server/startup.py)
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
