"""The client's first messages, read while the server is still loading lsprotocol and pygls.

An editor opening a workspace sends `initialize`, waits for the answer, then sends
`initialized` and opens the documents on screen. The protocol side takes a third of a
second to load, so a thread reads the client's pipe from the start: it answers a
well-formed first `initialize` at once (`initialization.answer`, what pygls answers),
and hands the first document the client opens to the validation worker, which has
loaded the validation code meanwhile. Everything it reads goes on to pygls unchanged
(`reader`), and only after it has been looked at: pygls reads the `initialize` (its
own answer is dropped, `protocol.py`) and the `didOpen`, whose validation the scheduler
adopts when its snapshot is the one started here (`adopt`), else it is withdrawn.

Anything unexpected (framing pygls would read otherwise, a first message that is not
`initialize`, a `didOpen` of the wrong shape) ends the looking: from there, and from
the moment the server is built (`hand_over`), bytes are only passed on.
"""

from __future__ import annotations

import json
import logging
import os
import re
import threading
from concurrent.futures import Future
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, BinaryIO, Protocol

from holodeck_lsp.nesting import MAX_FILE_DEPTH, loads
from holodeck_lsp.server import timing
from holodeck_lsp.server.framing import body_length
from holodeck_lsp.server.initialization import Start, answer, read_params

if TYPE_CHECKING:
    from holodeck_lsp.server.jobs import Outcome, Snapshot

log = logging.getLogger(__name__)
_CHUNK = 1 << 16
_MAX_HEADER = 4096
# pygls reads a header line as this pattern; any other framing is left to pygls.
_CONTENT_LENGTH = re.compile(rb"Content-Length: (\d+)")
_HEADER_END = b"\r\n\r\n"
_CONTENT_TYPE = b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n"


class Validator(Protocol):
    def submit(self, fn: Any, *args: Any, **options: Any) -> Future[Any]: ...


@dataclass(frozen=True)
class Answered:
    """The `initialize` answered here: its id, and the result sent (as JSON)."""

    id: int | str
    result: dict[str, Any]


class _Unusual(Exception):
    """Framing or a message this module leaves to pygls."""


def _frame(buffer: bytearray) -> tuple[int, bytes] | None:
    """The first whole message of ``buffer``: where it ends and its body (None: not all of
    it has arrived). Raises _Unusual for framing pygls might read another way."""
    end = buffer.find(_HEADER_END)
    if end == -1:
        if len(buffer) > _MAX_HEADER:
            raise _Unusual
        return None
    lines = bytes(buffer[:end]).split(b"\r\n")
    if any(b"\n" in line or b"\r" in line for line in lines):
        raise _Unusual
    lengths = [found for line in lines if (found := _CONTENT_LENGTH.fullmatch(line))]
    # A length we refuse (framing.py) is pygls's to drop, through the same test.
    length = body_length(lengths[0].group(1)) if lengths else None
    if not length:
        raise _Unusual
    start = end + len(_HEADER_END)
    stop = start + length
    if len(buffer) < stop:
        return None
    with memoryview(buffer) as view:  # one copy of the body, not two
        return stop, bytes(view[start:stop])


def _is_id(value: Any) -> bool:
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


def _write_all(fd: int, data: bytes | bytearray | memoryview) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


class FirstMessages:
    """Reads the client's pipe from the server's first moment (see the module's doc)."""

    def __init__(self, client: BinaryIO, writer: BinaryIO, validator: Validator) -> None:
        # Read with os.read only: the buffered reader's own buffer must stay empty.
        self._client = client
        self._writer = writer
        self._validator = validator
        read_end, self._pipe = os.pipe()  # not inherited by children (PEP 446)
        self.reader: BinaryIO = os.fdopen(read_end, "rb")
        self.answered: Answered | None = None
        self._start: Start | None = None
        self._early: tuple[Snapshot, Future[Outcome]] | None = None
        self._lock = threading.Lock()
        self._handed_over = False
        self._thread = threading.Thread(target=self._run, name="holodeck-first-messages",
                                        daemon=True)

    def begin(self) -> None:
        self._thread.start()

    def hand_over(self) -> None:
        """The server is built: from the next message on, pygls alone reads them."""
        self._handed_over = True

    def adopt(self, snapshot: Snapshot) -> Future[Outcome] | None:
        """The validation started here, if it is of ``snapshot`` (once; any other is
        withdrawn if it has not started)."""
        with self._lock:
            early, self._early = self._early, None
        if early is None:
            return None
        started, job = early
        if started == snapshot:
            timing.mark("first validation adopted")
            return job
        job.cancel()
        return None

    # -- the thread ----------------------------------------------------------------------

    def _run(self) -> None:
        fd = self._client.fileno()
        try:
            _write_all(self._pipe, self._look(fd))
            while chunk := os.read(fd, _CHUNK):
                _write_all(self._pipe, chunk)
        except OSError:  # the client's pipe or pygls's end is closed: the server is ending
            pass
        finally:
            os.close(self._pipe)  # pygls reads the end of the stream

    def _look(self, fd: int) -> bytearray:
        """Reads and looks at messages while that may help; passes each on once looked at.
        Returns what it read and has not passed on."""
        buffer = bytearray()
        first = True
        while not self._handed_over:
            chunk = os.read(fd, _CHUNK)
            if not chunk:
                break
            buffer += chunk
            while True:
                try:
                    found = _frame(buffer)
                except _Unusual:
                    return buffer
                if found is None:
                    break
                end, body = found
                going_on = not self._handed_over and self._look_at(body, first)
                first = False
                with memoryview(buffer) as view:
                    _write_all(self._pipe, view[:end])
                del buffer[:end]
                if not going_on:
                    return buffer
        return buffer

    def _look_at(self, body: bytes, first: bool) -> bool:
        """Acts on one message; whether to look at the next one."""
        try:
            message = loads(body, MAX_FILE_DEPTH)
        except ValueError:  # not JSON, not UTF-8, nested too deep: pygls answers it
            return False
        if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
            return False
        method, params = message.get("method"), message.get("params")
        if first:
            if method != "initialize" or not _is_id(message.get("id")):
                return False
            return self._answer(message["id"], params)
        if method == "textDocument/didOpen":
            self._validate(params)
            return False
        return method in ("initialized", "workspace/didChangeConfiguration", "$/setTrace")

    def _answer(self, request_id: int | str, params: Any) -> bool:
        if not isinstance(params, dict) or not isinstance(params.get("capabilities"), dict):
            return False
        try:
            start = read_params(params)
            result = answer(params, start)
            body = json.dumps({"id": request_id, "jsonrpc": "2.0", "result": result}).encode()
        except Exception:  # a bug here must cost the early answer only: pygls answers
            log.exception("could not answer initialize early")
            return False
        self._writer.write(b"Content-Length: %d\r\n%s%s" % (len(body), _CONTENT_TYPE, body))
        self._writer.flush()
        self.answered, self._start = Answered(request_id, result), start
        timing.mark("initialize answered")
        return True

    def _validate(self, params: Any) -> None:
        """The validation the scheduler will ask for, started now (see Session.snapshot)."""
        item = params.get("textDocument") if isinstance(params, dict) else None
        start = self._start
        if start is None or not isinstance(item, dict):
            return
        uri, text, version = item.get("uri"), item.get("text"), item.get("version")
        language = item.get("languageId")
        if not (isinstance(uri, str) and isinstance(text, str) and isinstance(language, str)
                and isinstance(version, int) and not isinstance(version, bool)):
            return
        try:
            from holodeck_lsp.server import jobs
            from holodeck_lsp.server.open_documents import uri_path
            from holodeck_lsp.validation.context import user_config_dir

            path = uri_path(uri)
            snapshot = jobs.Snapshot(
                uri=uri, path=path, text=text, version=version, language_id=language,
                others={}, versions={path: version}, settings=start.settings,
                roots=start.roots, encoding=start.encoding,
                related_information=start.features.related_information, known=False,
                user_config_dir=user_config_dir(), generation=0)
            job = self._validator.submit(jobs.run, snapshot, time_limit=start.settings.time_limit)
        except Exception:  # the scheduler validates it as usual
            log.exception("could not start the first validation early")
            return
        with self._lock:
            self._early = (snapshot, job)
        timing.mark("first document submitted")
