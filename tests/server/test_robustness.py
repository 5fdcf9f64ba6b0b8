"""Nothing the client sends stops the server; shutdown and exit are prompt."""

from __future__ import annotations

import asyncio
import json
import logging
import shutil
import time
from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcMethodNotFound

from holodeck_lsp import __version__
from holodeck_lsp.server.main import _guard
from holodeck_lsp.server.routes import Route
from tests.conftest import FIXTURES
from tests.security.processes import process_naming, wait_for
from tests.server.lsp_client import (
    SERVER,
    THREAD_WORKER_SERVER,
    Client,
    edit,
    open_doc,
    push_capabilities,
    server_env,
    start,
)
from tests.server.shared_servers import SHARES_SERVERS
from tests.server.wire import frame, read_message
from tests.support.suites import small_agent

pytestmark = SHARES_SERVERS


# A workspace whose agent validates only once its grader is imported, which takes ten
# minutes: its validation is under way whatever the machine's speed.
SLOW_GRADER = FIXTURES / "server" / "validation_time_limit"
EXIT_BOUND = 5.0  # seconds: exiting takes a tenth of one; waiting for the validation, minutes


async def test_shutdown_and_exit_are_prompt_mid_validation(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    shutil.copytree(SLOW_GRADER, workspace)
    options = {"workspaceTrusted": True, "graders": {"import": "trusted"},
               "validation": {"timeLimit": 300}}
    client = await start(workspace, push_capabilities(), options=options)
    # The server is up (its worker too) once a first document has its diagnostics.
    small = workspace / "small.agent.yaml"
    await client.diagnostics_of(open_doc(client, small, small_agent("small")))
    open_doc(client, workspace / "agent.yaml")
    importing = wait_for(lambda: process_naming(str(workspace)))  # the grader's import
    began = time.monotonic()
    await client.shutdown_async(None)
    client.exit(None)
    assert client._server is not None
    assert await asyncio.wait_for(client._server.wait(), EXIT_BOUND) == 0
    assert time.monotonic() - began < EXIT_BOUND
    assert process_naming(str(importing)) is None  # the validation's import killed with it
    await client.stop()  # type: ignore[no-untyped-call]


async def test_odd_requests_get_answers_and_the_server_keeps_working(
    push: Client, workspace: Path
) -> None:
    doc = open_doc(push, workspace / "agent.yaml")
    nowhere = types.TextDocumentIdentifier("file:///nowhere/agent.yaml")
    with pytest.raises(JsonRpcMethodNotFound):
        await push.protocol.send_request_async(  # type: ignore[no-untyped-call]
            "holodeck/unknown", {"x": 1}
        )
    assert (
        await push.text_document_hover_async(types.HoverParams(nowhere, types.Position(0, 0)))
        is None
    )
    far = await push.text_document_completion_async(
        types.CompletionParams(types.TextDocumentIdentifier(doc), types.Position(10_000, 10_000))
    )
    end = await push.text_document_completion_async(
        types.CompletionParams(types.TextDocumentIdentifier(doc), types.Position(18, 0))
    )
    assert far == end  # a position past the end stands at the end
    assert await push.text_document_document_symbol_async(types.DocumentSymbolParams(nowhere)) == []
    edit(push, "file:///nowhere/agent.yaml", 2, (0, 0), (0, 0), "x")  # never opened
    push.text_document_did_close(types.DidCloseTextDocumentParams(nowhere))
    hover = await push.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(doc), types.Position(3, 4))
    )
    assert hover is not None and hover.range == types.Range(
        types.Position(3, 2), types.Position(3, 10)
    )


async def test_malformed_messages_on_the_wire_are_survived(workspace: Path) -> None:
    home = workspace.parent / "home"
    home.mkdir(exist_ok=True)
    process = await asyncio.create_subprocess_exec(
        *THREAD_WORKER_SERVER,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
        env=server_env(home),
    )
    assert process.stdin is not None and process.stdout is not None
    initialize = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {"processId": None, "rootUri": None, "capabilities": {}},
    }
    process.stdin.write(frame(b"{not json at all"))
    process.stdin.write(
        frame(
            json.dumps(
                {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": 7}}
            ).encode()
        )
    )
    process.stdin.write(frame(json.dumps(initialize).encode()))
    await process.stdin.drain()
    while True:
        message = await asyncio.wait_for(read_message(process.stdout), 60)
        assert message is not None
        if message.get("id") == 1:
            break
    assert message["result"]["serverInfo"] == {"name": "holodeck-lsp", "version": __version__}
    process.stdin.write(
        frame(json.dumps({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}).encode())
    )
    process.stdin.write(frame(json.dumps({"jsonrpc": "2.0", "method": "exit"}).encode()))
    await process.stdin.drain()
    assert await asyncio.wait_for(process.wait(), 60) == 0


class _Session:
    def __init__(self) -> None:
        self.logged: list[tuple[str, types.MessageType]] = []

    def log(self, message: str, level: types.MessageType) -> None:
        self.logged.append((message, level))


async def test_a_failing_feature_is_logged_and_answered_with_an_empty_result(
    caplog: pytest.LogCaptureFixture,
) -> None:
    def broken(session: Any, params: Any) -> Any:
        raise KeyError("boom")

    async def broken_async(session: Any, params: Any) -> Any:
        raise ValueError("bang")

    session = _Session()
    sync = _guard(session, Route("textDocument/hover", broken))  # type: ignore[arg-type]
    later = _guard(
        session,
        Route(
            "textDocument/documentSymbol",
            broken_async,  # type: ignore[arg-type]
            empty=list,
        ),
    )
    with caplog.at_level(logging.ERROR):
        assert sync(None) is None
        assert await later(None) == []
    assert session.logged == [
        ("internal error in textDocument/hover: KeyError: 'boom'", types.MessageType.Error),
        (
            "internal error in textDocument/documentSymbol: ValueError: bang",
            types.MessageType.Error,
        ),
    ]
    assert [r.getMessage() for r in caplog.records] == [
        "textDocument/hover failed",
        "textDocument/documentSymbol failed",
    ]


async def test_the_server_also_listens_on_tcp_for_debugging(workspace: Path) -> None:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    home = workspace.parent / "home"
    home.mkdir(exist_ok=True)
    env = server_env(home)
    env["HOLODECK_LSP_LOG"] = "info"
    process = await asyncio.create_subprocess_exec(
        *SERVER,
        "--tcp",
        f"127.0.0.1:{port}",
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
        env=env,
    )
    assert process.stderr is not None
    try:
        while b"Serving on" not in await asyncio.wait_for(process.stderr.readline(), 60):
            pass
        client = Client()
        await client.start_tcp("127.0.0.1", port)
        result = await client.initialize_session(
            types.InitializeParams(capabilities=types.ClientCapabilities())
        )
        assert result.server_info == types.ServerInfo("holodeck-lsp", __version__)
        await client.shutdown_session()
        await client.stop()  # type: ignore[no-untyped-call]
        assert await asyncio.wait_for(process.wait(), 60) == 0
    finally:
        if process.returncode is None:
            process.terminate()
        await process.wait()
