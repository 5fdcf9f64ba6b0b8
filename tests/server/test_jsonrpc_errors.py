"""Every request gets a response, even one the server cannot read: its JSON-RPC error.

Each case drives the real server over stdio, sends one bad message, reads the error
it answers, and then checks that the server still answers an ordinary hover. The cases
share one server, each reading the answers to its own messages; the case that shuts a
server down has its own.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from tests.server.lsp_client import THREAD_WORKER_SERVER
from tests.server.shared_servers import SHARES_SERVERS
from tests.server.wire import Wire
from tests.support.suites import small_agent

pytestmark = SHARES_SERVERS
AGENT = small_agent("wire")


async def _opened(root: Path) -> Wire:
    """A server initialized on ``root``, with an agent open there."""
    server = await Wire.start(root / "home", command=THREAD_WORKER_SERVER)  # not its subject
    await server.initialize(root)
    path = root / "agent.yaml"
    path.write_text(AGENT, encoding="utf-8")
    server.notify("textDocument/didOpen", {"textDocument": {
        "uri": path.as_uri(), "languageId": "yaml", "version": 1, "text": AGENT}})
    server.document = path.as_uri()  # type: ignore[attr-defined]
    return server


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def _module_wire(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Wire]:
    server = await _opened(tmp_path_factory.mktemp("wire"))
    yield server
    assert await server.close() == 0


@pytest_asyncio.fixture(loop_scope="session")
async def wire(_module_wire: Wire) -> Wire:
    """The module's server, its earlier answers forgotten (each was awaited by its test)."""
    _module_wire.orphans.clear()
    _module_wire.responses.clear()
    return _module_wire


@pytest_asyncio.fixture(loop_scope="session")
async def own_wire(tmp_path: Path) -> AsyncIterator[Wire]:
    server = await _opened(tmp_path)
    yield server
    assert await server.close() == 0


async def still_answers(wire: Wire) -> None:
    hover = await wire.call("textDocument/hover", {
        "textDocument": {"uri": wire.document},  # type: ignore[attr-defined]
        "position": {"line": 1, "character": 3}})
    assert "model" in hover["result"]["contents"]["value"]


def _hover(position: Any) -> dict[str, Any]:
    return {"textDocument": {"uri": "file:///nowhere/agent.yaml"}, "position": position}


INVALID_PARAMS = {
    "negative position": ("textDocument/hover", _hover({"line": -1, "character": 0})),
    "position as text": ("textDocument/hover", _hover("abc")),
    "null params": ("textDocument/hover", None),
    "completion params as a list": ("textDocument/completion", []),
    "definition without a document": ("textDocument/definition", {"position": {
        "line": 0, "character": 0}}),
    "symbols of a number": ("textDocument/documentSymbol", {"textDocument": 5}),
}


@pytest.mark.parametrize("case", list(INVALID_PARAMS))
async def test_invalid_params_get_32602(wire: Wire, case: str) -> None:
    method, params = INVALID_PARAMS[case]
    answer = await wire.call(method, params)
    assert answer["error"]["code"] == -32602
    assert answer["error"]["message"] == f"Invalid params for {method}"
    assert "result" not in answer
    await still_answers(wire)


@pytest.mark.parametrize("body", [b"{not json at all", b'{"jsonrpc": "2.0", "id": 9, ',
                                  b"\xff\xfe{}"])
async def test_a_body_that_is_not_json_gets_32700_with_a_null_id(wire: Wire, body: bytes) -> None:
    wire.send(body)
    answer = await wire.until(lambda: wire.orphans and wire.orphans[0])
    assert answer["id"] is None and answer["error"]["code"] == -32700
    assert answer["error"]["message"].startswith("Parse error: ")
    await still_answers(wire)


INVALID_REQUESTS: dict[str, tuple[Any, Any]] = {
    "an id but no method": ({"jsonrpc": "2.0", "id": 41}, 41),
    "no jsonrpc member": ({"id": 42, "method": "textDocument/hover"}, 42),
    "jsonrpc 1.0": ({"jsonrpc": "1.0", "id": 43, "method": "shutdown"}, 43),
    "a method that is a number": ({"jsonrpc": "2.0", "id": 44, "method": 7}, 44),
    "an id that is an object": ({"jsonrpc": "2.0", "id": {"n": 1}, "method": "shutdown"}, None),
    "a batch": ([{"jsonrpc": "2.0", "id": 45, "method": "shutdown"}], None),
    "a bare number": (5, None),
}


@pytest.mark.parametrize("case", list(INVALID_REQUESTS))
async def test_an_invalid_request_gets_32600(wire: Wire, case: str) -> None:
    message, expected_id = INVALID_REQUESTS[case]
    wire.send(message if isinstance(message, dict) else json.dumps(message).encode())
    if expected_id is None:
        answer = await wire.until(lambda: wire.orphans and wire.orphans[0])
    else:
        answer = await wire.response(expected_id)
    assert answer["id"] == expected_id and answer["error"]["code"] == -32600
    assert answer["error"]["message"].startswith("Invalid Request: ")
    await still_answers(wire)


async def test_an_unreadable_notification_is_dropped_and_nothing_else(wire: Wire) -> None:
    wire.notify("textDocument/didOpen", {"textDocument": 7})
    wire.notify("textDocument/didChange", {"textDocument": {"uri": wire.document},  # type: ignore[attr-defined]
                                           "contentChanges": "x"})
    await still_answers(wire)
    assert wire.orphans == []


async def test_a_request_after_shutdown_gets_32600(own_wire: Wire) -> None:
    assert (await own_wire.call("shutdown", None))["result"] is None
    answer = await own_wire.call("textDocument/hover", _hover({"line": 0, "character": 0}))
    assert answer["error"] == {"code": -32600,
                               "message": "Invalid Request: the server is shutting down"}


async def test_an_initialize_pygls_cannot_read_is_answered_once_and_served(
    tmp_path: Path,
) -> None:
    # pygls cannot read these capabilities: it serves a client without any, and the session
    # reads what it can of them.
    wire = await Wire.start(tmp_path / "home", command=THREAD_WORKER_SERVER)  # not its subject
    answer = await wire.call("initialize", {
        "processId": None, "rootUri": tmp_path.as_uri(),
        "capabilities": {"textDocument": {"hover": 5}}})
    assert answer["result"]["serverInfo"]["name"] == "holodeck-lsp"
    wire.notify("initialized", {})
    path = tmp_path / "agent.yaml"
    path.write_text(AGENT, encoding="utf-8")
    wire.notify("textDocument/didOpen", {"textDocument": {
        "uri": path.as_uri(), "languageId": "yaml", "version": 1, "text": AGENT}})
    wire.document = path.as_uri()  # type: ignore[attr-defined]
    await still_answers(wire)
    assert await wire.close() == 0
    assert wire.answered.count(answer["id"]) == 1
