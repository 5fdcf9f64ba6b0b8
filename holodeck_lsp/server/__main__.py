"""`python -m holodeck_lsp.server [--tcp HOST:PORT]`: the same server as `holodeck-lsp serve`.

`-m` puts the working directory first on `sys.path` before this runs: started in a
project folder, use `holodeck-lsp serve` (or `python -I -m`), as docs/editors.md says."""

import argparse

from holodeck_lsp.server.start import serve, tcp_address

parser = argparse.ArgumentParser(prog="python -m holodeck_lsp.server")
parser.add_argument("--tcp", metavar="HOST:PORT", help="listen on HOST:PORT instead of stdio")
tcp = parser.parse_args().tcp
if tcp is None:
    serve()
else:
    try:
        host, port = tcp_address(tcp)
    except ValueError as exc:
        parser.error(str(exc))
    serve(host=host, port=port)
