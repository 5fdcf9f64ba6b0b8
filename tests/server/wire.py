"""The real server over stdio, spoken to frame by frame: to send what no client library
would (broken JSON, params of the wrong shape) and to see every answer it gives."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
from pathlib import Path
from typing import Any

from tests.server.lsp_client import SERVER, server_env

Message = dict[str, Any]


def frame(body: bytes) -> bytes:
    return b"Content-Length: %d\r\n\r\n%s" % (len(body), body)


async def read_message(stdout: asyncio.StreamReader) -> Message | None:
    """The next message, or None at the end of the stream."""
    length = 0
    while True:
        line = await stdout.readline()
        if line == b"":
            return None
        if line == b"\r\n":
            break
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    message: Message = json.loads(await stdout.readexactly(length))
    return message


class Wire:
    """One server process; every message it sends is kept, responses by id."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.responses: dict[Any, Message] = {}
        self.answered: list[Any] = []  # the id of every response, in order (repeats too)
        self.notifications: list[Message] = []
        self.orphans: list[Message] = []  # responses with an id of null
        self._ids = itertools.count(1)
        self._arrived = asyncio.Event()
        self._reader = asyncio.get_running_loop().create_task(self._read())

    @classmethod
    async def start(cls, home: Path, env: dict[str, str] | None = None,
                    stderr: Path | None = None, command: list[str] = SERVER) -> Wire:
        """The server (``command``), with ``env`` added to its environment and its stderr
        kept in ``stderr`` (else dropped)."""
        home.mkdir(parents=True, exist_ok=True)
        with contextlib.ExitStack() as files:
            errors = (files.enter_context(stderr.open("wb")) if stderr is not None
                      else asyncio.subprocess.DEVNULL)
            process = await asyncio.create_subprocess_exec(
                *command, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
                stderr=errors, env={**server_env(home), **(env or {})}, limit=2**26)
        return cls(process)

    async def _read(self) -> None:
        assert self.process.stdout is not None
        while True:
            message = await read_message(self.process.stdout)
            if message is None:
                self._arrived.set()
                return
            if "method" in message and "id" in message:  # a request of the server's
                self.send({"jsonrpc": "2.0", "id": message["id"], "result": None})
            elif "method" in message:
                self.notifications.append(message)
            elif message.get("id") is None:
                self.orphans.append(message)
            else:
                self.responses[message["id"]] = message
                self.answered.append(message["id"])
            self._arrived.set()

    def send(self, message: Message | bytes) -> None:
        assert self.process.stdin is not None
        body = message if isinstance(message, bytes) else json.dumps(message).encode()
        self.process.stdin.write(frame(body))

    def request(self, method: str, params: Any) -> int:
        request_id = next(self._ids)
        self.send({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params})
        return request_id

    def notify(self, method: str, params: Any) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    async def until(self, check: Any, timeout: float = 60.0) -> Any:
        """Await the first moment ``check()`` is truthy (re-checked on each message)."""

        async def wait() -> Any:
            while True:
                self._arrived.clear()
                found = check()
                if found:
                    return found
                if self._reader.done():
                    raise ConnectionError("the server closed its output")
                await self._arrived.wait()

        return await asyncio.wait_for(wait(), timeout)

    async def response(self, request_id: int, timeout: float = 60.0) -> Message:
        found: Message = await self.until(lambda: self.responses.get(request_id), timeout)
        return found

    async def call(self, method: str, params: Any, timeout: float = 60.0) -> Message:
        return await self.response(self.request(method, params), timeout)

    async def initialize(self, root: Path, capabilities: Message | None = None) -> None:
        answer = await self.call("initialize", {
            "processId": None, "rootUri": root.as_uri(), "capabilities": capabilities or {}})
        assert "result" in answer, answer
        self.notify("initialized", {})

    async def close(self) -> int:
        """shutdown, exit, and the exit code."""
        with contextlib.suppress(ConnectionError, asyncio.TimeoutError):
            await self.call("shutdown", None, timeout=30)
        with contextlib.suppress(ConnectionError):
            self.notify("exit", None)
        try:
            code = await asyncio.wait_for(self.process.wait(), 30)
        except asyncio.TimeoutError:
            self.process.kill()
            code = await self.process.wait()
        self._reader.cancel()
        return code
