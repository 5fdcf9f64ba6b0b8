"""The client's pipes, kept for the protocol alone.

Every process the server starts inherits file descriptors 0 and 1: a child reading its
stdin would swallow the client's messages, and one printing would corrupt the answers. So
the server moves the client's pipes to descriptors of its own (not inherited) and points 0
at /dev/null and 1 at stderr before it starts anything; a stray `print` lands in the log.
"""

from __future__ import annotations

import os
from typing import BinaryIO


def take_protocol_pipes() -> tuple[BinaryIO, BinaryIO]:
    """The client's stdin and stdout, now off descriptors 0 and 1."""
    reader = os.fdopen(os.dup(0), "rb")  # os.dup: not inherited by children (PEP 446)
    writer = os.fdopen(os.dup(1), "wb")
    null = os.open(os.devnull, os.O_RDONLY)
    try:
        os.dup2(null, 0)
    finally:
        os.close(null)
    os.dup2(2, 1)
    return reader, writer
