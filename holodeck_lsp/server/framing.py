"""The client's framing, checked before pygls reads it: a `Content-Length` pygls cannot
read, or one no client sends, costs its message, never the server.

pygls reads a header line, takes `Content-Length: N` as `int(N)` and then reads N bytes:
a header of thousands of digits raises in `int` (Python refuses to convert more than
4,300), and an absurd N makes it allocate N bytes or wait for them; either ends the
server. So pygls reads the client through `GuardedReader`: a header line is handed on
only when its length is one we accept (`refusal`); a message whose length is refused is
dropped with a log line, up to the next `Content-Length` header, and the server goes on
from there. A header line longer than `MAX_HEADER_LINE` is dropped the same way.
`first_messages.py`, which reads the first messages before pygls has loaded, leaves such
framing to pygls with the same test.
"""

from __future__ import annotations

import logging
import re
from typing import BinaryIO

log = logging.getLogger(__name__)

MAX_BODY = 128 * 2**20  # bytes of one message: far past any document an editor sends
MAX_HEADER_LINE = 65_536  # bytes of one header line
_DIGITS = len(str(MAX_BODY))
_CHUNK = 1 << 16
_HEADER = b"Content-Length: "
# pygls's own reading of the header line (`pygls.io_.run_async`): other lines it ignores.
_CONTENT_LENGTH = re.compile(rb"Content-Length: (\d+)\r\n")


def body_length(digits: bytes) -> int | None:
    """The length the ``digits`` of a `Content-Length` header stand for, or None when we
    refuse it: past `MAX_BODY`, or written with more digits than that takes (leading
    zeros included: pygls converts them all). Never converts more than a few digits."""
    if len(digits) > _DIGITS or int(digits) > MAX_BODY:
        return None
    return int(digits)


def refusal(line: bytes) -> str | None:
    """Why pygls must not read the header ``line``, or None."""
    found = _CONTENT_LENGTH.fullmatch(line)
    if found is None or body_length(found.group(1)) is not None:
        return None
    digits = found.group(1)
    if len(digits.lstrip(b"0")) <= _DIGITS and int(digits.lstrip(b"0") or b"0") <= MAX_BODY:
        return f"its Content-Length is written with {len(digits):,} digits (at most {_DIGITS})"
    shown = digits.decode()
    if len(digits) > 20:
        shown = f"{shown[:12]}... ({len(digits):,} digits)"
    return f"its Content-Length is {shown}, over the {MAX_BODY:,} bytes a message may have"


class HeaderGuard:
    """The client's bytes as pygls reads them (a header line, then a body), without the
    messages whose framing is refused. No I/O: `feed` it what arrives."""

    def __init__(self) -> None:
        self._buffer = bytearray()
        self._skipping = False  # dropping a refused message, up to the next header

    def feed(self, data: bytes) -> None:
        self._buffer += data

    def line(self) -> bytes | None:
        """The next header line pygls may read, or None when more bytes are needed."""
        buffer = self._buffer
        while True:
            if self._skipping:
                at = buffer.find(_HEADER)
                if at == -1:  # keep what may be the start of the next header
                    del buffer[: max(0, len(buffer) - len(_HEADER) + 1)]
                    return None
                del buffer[:at]
                self._skipping = False
            end = buffer.find(b"\n", 0, MAX_HEADER_LINE + 1)
            if end == -1:
                if len(buffer) <= MAX_HEADER_LINE:
                    return None
                del buffer[:MAX_HEADER_LINE]  # then on to the header after it
                self._refuse(f"a header line over {MAX_HEADER_LINE:,} bytes")
                continue
            line = bytes(buffer[: end + 1])
            del buffer[: end + 1]
            reason = refusal(line)
            if reason is None:
                return line
            self._refuse(reason)

    def take(self, size: int) -> bytes:
        """Up to ``size`` bytes of a body, from what has arrived."""
        head = bytes(self._buffer[:size])
        del self._buffer[:size]
        return head

    def rest(self) -> bytes:
        """What is left at the end of the stream (nothing, when dropping a message)."""
        rest = b"" if self._skipping else bytes(self._buffer)
        self._buffer.clear()
        return rest

    def _refuse(self, reason: str) -> None:
        log.warning("dropped a message from the client: %s; reading on from the next "
                    "Content-Length header", reason)
        self._skipping = True


class GuardedReader:
    """The client's stream for pygls (`readline` and `read`, as its stdio reader calls
    them), through a `HeaderGuard`."""

    def __init__(self, raw: BinaryIO) -> None:
        self._raw = raw
        self._guard = HeaderGuard()

    def readline(self) -> bytes:
        while (line := self._guard.line()) is None:
            chunk = self._raw.read1(_CHUNK)  # type: ignore[attr-defined]
            if not chunk:
                return self._guard.rest()
            self._guard.feed(chunk)
        return line

    def read(self, size: int) -> bytes:
        head = self._guard.take(size)
        if len(head) < size:
            head += self._raw.read(size - len(head))
        return head
