"""What the validation worker's forkserver loads before it forks a worker (importing this
module is its whole job): the validation code, loaded with the collector off, then frozen
out of its sight (`gc_policy.py`). Each worker forked from there starts with it loaded.
"""

from __future__ import annotations

from holodeck_lsp import gc_policy

gc_policy.loading()

from holodeck_lsp.server import jobs, timing  # noqa: E402, F401 - loaded with the collector off
from holodeck_lsp.validation import validate  # noqa: E402, F401

gc_policy.settle()
timing.mark("validation code loaded")
