"""A `Content-Length` the server cannot read, or one no client sends, costs its message,
never the server (issue 29 item 5): a header with thousands of digits made pygls's `int`
raise and ended the server; an absurd length made it allocate or wait for that many
bytes. The message is dropped with a log line, and the server answers the next one.

Over the real server's stdio: the bad header first (read while the server loads,
`server/first_messages.py`), or once it serves (read by pygls, `server/framing.py`).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from tests.server.lsp_client import THREAD_WORKER_SERVER
from tests.server.shared_servers import SHARES_SERVERS
from tests.server.wire import Wire

pytestmark = SHARES_SERVERS
DROPPED = "dropped a message from the client: "
GOING_ON = "; reading on from the next Content-Length header"
# The message behind each bad header: a `shutdown` that must never be acted on (the
# server would then refuse every later request).
SHUTDOWN = json.dumps({"jsonrpc": "2.0", "id": 999, "method": "shutdown"}).encode()
OVER = ", over the 134,217,728 bytes a message may have"
HEADERS = {
    "5,000 digits": (b"Content-Length: " + b"9" * 5000 + b"\r\n\r\n",
                     "its Content-Length is 999999999999... (5,000 digits)" + OVER),
    "its own length after 5,000 zeros": (
        b"Content-Length: " + b"0" * 5000 + str(len(SHUTDOWN)).encode() + b"\r\n\r\n",
        "its Content-Length is written with 5,002 digits (at most 9)"),
    "a petabyte": (b"Content-Length: 1000000000000000\r\n\r\n",
                   "its Content-Length is 1000000000000000" + OVER),
    "just past the limit, with a Content-Type": (
        b"Content-Length: 134217729\r\nContent-Type: application/vscode-jsonrpc\r\n\r\n",
        "its Content-Length is 134217729" + OVER),
    "a header line of 100,000 bytes": (b"X-Padding: " + b"x" * 100_000 + b"\r\n",
                                       "a header line over 65,536 bytes"),
}


def _log(path: Path) -> list[str]:
    """Why each message was dropped, as the server's log says."""
    return [line.split(DROPPED, 1)[1].removesuffix(GOING_ON)
            for line in path.read_text().splitlines() if DROPPED in line]


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def serving(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[tuple[Wire, Path]]:
    root = tmp_path_factory.mktemp("framing")
    log = root / "server.log"
    wire = await Wire.start(root / "home", stderr=log, command=THREAD_WORKER_SERVER)
    await wire.initialize(root)
    yield wire, log
    assert await wire.close() == 0


@pytest.mark.parametrize("case", list(HEADERS))
async def test_a_refused_length_drops_its_message_and_the_next_is_answered(
    serving: tuple[Wire, Path], case: str
) -> None:
    wire, log = serving
    header, logged = HEADERS[case]
    before = _log(log)
    assert wire.process.stdin is not None
    wire.process.stdin.write(header + SHUTDOWN)  # the body has no newline: read on past it
    answer = await wire.call("textDocument/hover", {
        "textDocument": {"uri": (log.parent / "none.yaml").as_uri()},
        "position": {"line": 0, "character": 0}})
    assert answer.get("error") is None and 999 not in wire.answered
    assert _log(log) == [*before, logged]


async def test_a_refused_length_as_the_first_message_leaves_the_server_serving(
    tmp_path: Path,
) -> None:
    log = tmp_path / "server.log"
    wire = await Wire.start(tmp_path / "home", stderr=log, command=THREAD_WORKER_SERVER)
    assert wire.process.stdin is not None
    wire.process.stdin.write(HEADERS["5,000 digits"][0] + SHUTDOWN)
    await wire.initialize(tmp_path)
    assert await wire.close() == 0
    assert _log(log) == [HEADERS["5,000 digits"][1]]
