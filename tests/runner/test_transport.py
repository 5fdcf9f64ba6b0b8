"""The lean HTTP/1.1 transport: body framings, keep-alive, a server that closes idle
connections, and httpx's own transport when a proxy is configured."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable

import httpx
import pytest

from holodeck_lsp.runner.services.http_client import JsonClient, RetryPolicy
from holodeck_lsp.runner.services.http_transport import StreamTransport, proxy_configured

Responder = Callable[[int], bytes]


@pytest.fixture
async def server() -> AsyncIterator[tuple[list[int], Callable[[Responder], str]]]:
    """A raw HTTP/1.1 server; each test says what bytes answer the n-th request of a
    connection. Yields (connections seen, set_responder -> base URL)."""
    connections: list[int] = []
    state: dict[str, Responder] = {}

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        connections.append(1)
        n = 0
        while True:
            head = await reader.readuntil(b"\r\n\r\n") if not reader.at_eof() else b""
            if not head:
                break
            length = 0
            for line in head.split(b"\r\n"):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            await reader.readexactly(length)
            reply = state["respond"](n)
            n += 1
            if not reply:
                break  # close without answering
            writer.write(reply)
            await writer.drain()
            if b"Connection: close" in reply:
                break
        writer.close()

    srv = await asyncio.start_server(handle, "127.0.0.1", 0)
    port = srv.sockets[0].getsockname()[1]

    def configure(respond: Responder) -> str:
        state["respond"] = respond
        return f"http://127.0.0.1:{port}/v1/x"

    yield connections, configure
    srv.close()


def ok(body: bytes, extra: bytes = b"") -> bytes:
    return b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n%s\r\n%s" % (len(body), extra, body)


async def post_twice(url: str) -> list[httpx.Response]:
    async with httpx.AsyncClient(transport=StreamTransport(None)) as client:
        return [await client.post(url, json={"n": i}) for i in range(2)]


async def test_content_length_bodies_over_one_kept_alive_connection(server) -> None:  # type: ignore[no-untyped-def]
    connections, configure = server
    responses = await post_twice(configure(lambda n: ok(b'{"n": %d}' % n)))
    assert [r.json() for r in responses] == [{"n": 0}, {"n": 1}]
    assert len(connections) == 1


async def test_an_http_1_0_reply_ends_its_connection_unless_told_keep_alive(server) -> None:  # type: ignore[no-untyped-def]
    connections, configure = server
    http10 = b"HTTP/1.0 200 OK\r\nContent-Length: 2\r\n%s\r\n{}"
    responses = await post_twice(configure(lambda n: http10 % b""))
    assert [r.json() for r in responses] == [{}, {}]
    assert len(connections) == 2  # a new connection for the second request
    connections.clear()
    await post_twice(configure(lambda n: http10 % b"Connection: keep-alive\r\n"))
    assert len(connections) == 1


async def test_chunked_bodies_and_interim_responses(server) -> None:  # type: ignore[no-untyped-def]
    _, configure = server
    chunked = (
        b"HTTP/1.1 100 Continue\r\n\r\n"
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
        b'4;ext=1\r\n{"a"\r\n6\r\n: [1]}\r\n0\r\nTrailer: x\r\n\r\n'
    )
    responses = await post_twice(configure(lambda n: chunked))
    assert [r.json() for r in responses] == [{"a": [1]}, {"a": [1]}]


async def test_connection_close_and_a_server_that_drops_idle_connections(server) -> None:  # type: ignore[no-untyped-def]
    connections, configure = server
    # First connection: answers once, then closes without answering the next request.
    url = configure(lambda n: ok(b"{}") if n == 0 else b"")
    client = JsonClient({}, RetryPolicy(attempts=2), max_connections=1, tls=False, env={})
    assert [await client.post(url, {}), await client.post(url, {})] == [{}, {}]
    await client.close()
    # The stale connection was replaced and the request sent again at once, as a 2nd attempt.
    assert len(connections) == 2
    connections.clear()
    await post_twice(configure(lambda n: ok(b"{}", b"Connection: close\r\n")))
    assert len(connections) == 2


async def test_transport_errors_are_httpx_errors() -> None:
    async with httpx.AsyncClient(transport=StreamTransport(None)) as client:
        with pytest.raises(httpx.ConnectError):
            await client.post("http://127.0.0.1:9/v1/x", json={})


def test_a_configured_proxy_selects_the_httpx_transport(monkeypatch: pytest.MonkeyPatch) -> None:
    assert proxy_configured({"https_proxy": "http://proxy:3128"})
    assert not proxy_configured({"HOME": "/root"})
    lean = JsonClient({}, env={})
    proxied = JsonClient({}, env={"HTTPS_PROXY": "http://proxy:3128"})
    assert (lean.lean, proxied.lean) == (True, False)
    monkeypatch.setenv("HOLODECK_LSP_WITHOUT", "lean-transport")  # how a benchmark times it
    assert not JsonClient({}, env={}).lean
