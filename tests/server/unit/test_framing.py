"""The framing guard pygls reads the client through (server/framing.py): whatever the
chunks the pipe delivers, pygls reads every good message whole and none of a refused one.
(tests/security/test_client_framing.py drives the real server.)"""

from __future__ import annotations

import json
import re

from hypothesis import given
from hypothesis import strategies as st

from holodeck_lsp.server.framing import MAX_BODY, GuardedReader, body_length

_HEADER = re.compile(rb"Content-Length: (\d+)\r\n")


class _Pipe:
    """A pipe that delivers its bytes in the chunk sizes given (`read1`), or all that is
    asked (`read`)."""

    def __init__(self, data: bytes, sizes: list[int]) -> None:
        self.data = data
        self.sizes = sizes

    def read1(self, size: int) -> bytes:
        step = min(size, self.sizes.pop(0) if self.sizes else size)
        chunk, self.data = self.data[:step], self.data[step:]
        return chunk

    def read(self, size: int) -> bytes:
        chunk, self.data = self.data[:size], self.data[size:]
        return chunk


def _bodies(reader: GuardedReader) -> list[bytes]:
    """The bodies pygls reads: header lines up to a blank one, then the length it gave."""
    bodies = []
    length = 0
    while line := reader.readline():
        found = _HEADER.fullmatch(line)
        if found and not length:
            length = int(found.group(1))
        if length and not line.strip():
            bodies.append(reader.read(length))
            length = 0
    return bodies


def _frame(body: bytes, header: bytes | None = None) -> bytes:
    return (header or b"Content-Length: %d\r\n" % len(body)) + b"\r\n" + body


REFUSED = [b"Content-Length: " + b"9" * 5000 + b"\r\n", b"Content-Length: 10000000000\r\n",
           b"Content-Length: " + b"0" * 20 + b"2\r\n", b"X-Padding: " + b"x" * 70_000 + b"\r\n"]


@given(
    st.lists(st.tuples(st.booleans(), st.integers(0, 3), st.text(max_size=30)), min_size=1,
             max_size=6),
    st.lists(st.integers(1, 80_000), max_size=40),
)
def test_good_messages_arrive_whole_and_refused_ones_not_at_all(
    messages: list[tuple[bool, int, str]], sizes: list[int]
) -> None:
    stream, good = b"", []
    for refused, kind, text in messages:
        body = json.dumps({"jsonrpc": "2.0", "method": "x", "params": text}).encode()
        if refused:
            stream += _frame(body, REFUSED[kind])
        else:
            stream += _frame(body)
            good.append(body)
    assert _bodies(GuardedReader(_Pipe(stream, sizes))) == good  # type: ignore[arg-type]


def test_a_length_is_never_converted_whole() -> None:
    assert body_length(b"52") == 52
    assert body_length(str(MAX_BODY).encode()) == MAX_BODY
    assert body_length(str(MAX_BODY + 1).encode()) is None
    assert body_length(b"0" * 10 + b"52") is None  # more digits than any length we accept
    assert body_length(b"9" * 100_000) is None
