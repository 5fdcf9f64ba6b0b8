"""A lean HTTP/1.1 transport for httpx over asyncio streams: one keep-alive connection.

httpx's own transport costs 1-2 ms more CPU per request than this one on a busy 2-core
machine, more than the runner spends on everything else in a turn. It speaks only what
model APIs need (HTTP/1.1, TLS, Content-Length or chunked bodies; no HTTP/2, no proxies):
`JsonClient` uses httpx's own transport when a proxy is configured.

A hack (CONTRIBUTING, "Performance hacks"). Benchmark rows: runner, turns/s at zero
latency and at 50 ms, `-p 8`. Off (`HOLODECK_LSP_WITHOUT=lean-transport`): httpx's own.
"""

from __future__ import annotations

import asyncio
import socket
import ssl
from collections.abc import Mapping

import httpx

from holodeck_lsp.runner.services.redaction import active

PROXY_VARIABLES = ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY")
_NO_BODY_STATUSES = frozenset({204, 304})


def proxy_configured(env: Mapping[str, str]) -> bool:
    return any(env.get(v) or env.get(v.lower()) for v in PROXY_VARIABLES)


class _Stale(Exception):
    """The connection was closed by the server before the status line."""


class StaleConnection(httpx.RemoteProtocolError):
    """A reused keep-alive connection was closed before it answered: most likely an idle
    connection the server had dropped, worth one immediate attempt on a fresh one."""


class StreamTransport(httpx.AsyncBaseTransport):
    """Sends one request at a time over a single reusable connection."""

    def __init__(self, ssl_context: ssl.SSLContext | None, connect_timeout: float = 30.0):
        self._ssl = ssl_context
        self._connect_timeout = connect_timeout
        self._conn: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None
        self._key: tuple[str, str, int] | None = None

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        url = request.url
        key = (url.scheme, url.host, url.port or (443 if url.scheme == "https" else 80))
        payload = _encode(request, await request.aread())
        reused = self._conn is not None and self._key == key
        if not reused:
            await self._open(key)
        try:
            return await self._exchange(payload, request.method)
        except _Stale:
            self._drop()
            # Not re-sent here: the caller counts every request it sends as an attempt.
            error = StaleConnection if reused else httpx.RemoteProtocolError
            raise error("the server closed the connection before answering") from None
        except BaseException:
            self._drop()  # mid-exchange (error or cancellation): the connection is unusable
            raise

    async def _open(self, key: tuple[str, str, int]) -> None:
        self._drop()
        scheme, host, port = key
        tls = self._ssl if scheme == "https" else None
        try:
            reader, writer = await asyncio.wait_for(
                asyncio.open_connection(
                    host, port, ssl=tls, server_hostname=host if tls is not None else None
                ),
                self._connect_timeout,
            )
        except (OSError, asyncio.TimeoutError, ssl.SSLError) as exc:
            raise httpx.ConnectError(f"{type(exc).__name__}: {exc}") from exc
        sock = writer.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self._conn, self._key = (reader, writer), key

    async def _exchange(self, payload: bytes, method: str) -> httpx.Response:
        assert self._conn is not None
        reader, writer = self._conn
        try:
            writer.write(payload)
            await writer.drain()
            line = await reader.readline()
            if not line:
                raise _Stale
            version, status, headers = await _head(reader, line)
            while 100 <= status < 200:  # interim responses carry no body
                version, status, headers = await _head(reader, await reader.readline())
            keep = _keep_alive(version, headers)
            body, keep = await _body(reader, headers, method, status, keep)
        except (_Stale, httpx.TransportError):
            raise
        except (OSError, asyncio.IncompleteReadError, ValueError) as exc:
            raise httpx.ReadError(f"{type(exc).__name__}: {exc}") from exc
        if not keep:
            self._drop()
        return httpx.Response(
            status,
            headers=headers,
            stream=httpx.ByteStream(body),
            extensions={"http_version": b"HTTP/1.1"},
        )

    def _drop(self) -> None:
        if self._conn is not None:
            self._conn[1].close()
        self._conn = self._key = None

    async def aclose(self) -> None:
        self._drop()


def _encode(request: httpx.Request, content: bytes) -> bytes:
    lines = [b"%s %s HTTP/1.1" % (request.method.encode(), request.url.raw_path)]
    lines += [name + b": " + value for name, value in request.headers.raw]
    return b"\r\n".join(lines) + b"\r\n\r\n" + content


async def _head(
    reader: asyncio.StreamReader, status_line: bytes
) -> tuple[bytes, int, list[tuple[bytes, bytes]]]:
    """The version, the status and the headers of a response."""
    parts = status_line.split(None, 2)
    if len(parts) < 2 or not parts[0].startswith(b"HTTP/"):
        shown = active().clip(status_line.decode("latin-1"), 80, "")
        raise httpx.RemoteProtocolError(f"bad status line {shown!r}")
    headers = []
    while True:
        line = await reader.readline()
        if line in (b"\r\n", b"\n"):
            break
        if not line:
            raise httpx.RemoteProtocolError("the connection closed inside the headers")
        name, sep, value = line.partition(b":")
        if not sep:
            shown = active().clip(line.decode("latin-1"), 80, "")
            raise httpx.RemoteProtocolError(f"bad header line {shown!r}")
        headers.append((name.strip(), value.strip()))
    return parts[0], int(parts[1]), headers


def _header(headers: list[tuple[bytes, bytes]], name: bytes) -> bytes | None:
    for key, value in headers:
        if key.lower() == name:
            return value
    return None


def _keep_alive(version: bytes, headers: list[tuple[bytes, bytes]]) -> bool:
    """HTTP/1.1 keeps the connection unless told `close`; HTTP/1.0 closes it unless told
    `keep-alive` (RFC 9112, section 9.3)."""
    tokens = {t.strip() for t in (_header(headers, b"connection") or b"").lower().split(b",")}
    if version == b"HTTP/1.0":
        return b"keep-alive" in tokens
    return b"close" not in tokens


async def _body(
    reader: asyncio.StreamReader,
    headers: list[tuple[bytes, bytes]],
    method: str,
    status: int,
    keep: bool,
) -> tuple[bytes, bool]:
    if method == "HEAD" or status in _NO_BODY_STATUSES:
        return b"", keep
    if b"chunked" in (_header(headers, b"transfer-encoding") or b"").lower():
        chunks: list[bytes] = []
        while True:
            size = int((await reader.readline()).split(b";")[0].strip(), 16)
            if size == 0:
                while (await reader.readline()) not in (b"\r\n", b"\n", b""):
                    pass  # trailers
                return b"".join(chunks), keep
            chunks.append(await reader.readexactly(size))
            await reader.readexactly(2)  # the CRLF after each chunk
    length = _header(headers, b"content-length")
    if length is not None:
        return await reader.readexactly(int(length)), keep
    return await reader.read(), False  # delimited by the end of the connection
