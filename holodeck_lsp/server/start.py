"""`holodeck-lsp serve`: the validation worker starts first, then the protocol side loads.

The worker's process loads the validation code while this one loads lsprotocol and
pygls, so the two halves of start-up overlap. Only light modules are imported here,
before the worker starts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from holodeck_lsp.isolation.children import drop_working_directory
from holodeck_lsp.server import code_cache, stdio, timing
from holodeck_lsp.server.startup import start_validator

if TYPE_CHECKING:
    from holodeck_lsp.server.validation_scheduler import Validator


def tcp_address(text: str) -> tuple[str, int]:
    """`HOST:PORT` (`:PORT` listens on 127.0.0.1); ValueError says what is wrong."""
    host, sep, port = text.rpartition(":")
    if not sep or not port.isdigit():
        raise ValueError("--tcp takes HOST:PORT")
    return host or "127.0.0.1", int(port)


def serve(
    host: str | None = None, port: int | None = None, validator: Validator | None = None
) -> None:
    """Run the language server on stdio, or on TCP when a port is given. Validations run
    in the worker process `start_validator` starts, unless another ``validator`` is given
    (a thread `Worker`, for a test whose subject is not that process)."""
    timing.claim_server()
    timing.mark("started")
    # Before anything starts a process or imports lazily: see isolation/ and stdio.py.
    drop_working_directory()
    pipes = stdio.take_protocol_pipes()
    validator = validator or start_validator()
    timing.mark("validation worker launched")
    code_cache.install()  # before lsprotocol's classes are built
    from holodeck_lsp.server import main

    timing.mark("protocol side imported")
    main.serve(pipes, validator, host, port)
