"""`python -m holodeck_lsp.server [--tcp HOST:PORT]`: the same server as `holodeck-lsp serve`."""

import sys

from holodeck_lsp.cli import app

app(["serve", *sys.argv[1:]])
