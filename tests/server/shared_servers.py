"""One server per kind of client for the whole test session (per xdist worker): the
`push` and `pull` fixtures (tests/server/conftest.py). Starting a server costs two
interpreters (the server and its validation worker); a test that only opens documents
and asks about them does not need its own.

Each test gets the server as an editor gets it when the user opens another folder: the
test's own workspace replaces the last one (`workspace/didChangeWorkspaceFolders`), and
the documents the test opened are closed when it ends. The test's documents have paths
of their own, so nothing published for an earlier test is taken for one of its own.
What a server of its own would give that a shared one does not (a `logMessage` of start-
up, counters from zero) is read from where the test began, never from zero.

The server's pipes belong to one event loop, the session's: a module using `push` or
`pull` runs its tests there,

    pytestmark = SHARES_SERVERS

and so do its own async fixtures (`loop_scope="session"`). A test that needs a server of
its own (other capabilities or options, a user config, the server process itself as the
subject) starts one with `lsp_client.start`, with `command=THREAD_WORKER_SERVER` when the
validation worker process is not its subject.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types

from tests.server import lsp_client
from tests.server.lsp_client import Client, uri

# The mark of a module whose tests use the shared servers: the session's event loop.
SHARES_SERVERS = pytest.mark.asyncio(loop_scope="session")
# The `lend_push` fixture (tests/conftest.py): lend_push(folder, settings=None).
LendPush = Callable[..., contextlib.AbstractAsyncContextManager[Client]]


class SharedServers:
    """The session's servers, one per kind of client (started on first use), each lent to
    one test after another."""

    def __init__(self, scratch: Path) -> None:
        self._scratch = scratch  # the first workspace of each: empty, each test brings its own
        self._clients: dict[str, Client] = {}
        self._workspaces: dict[str, Path] = {}

    @contextlib.asynccontextmanager
    async def lend(
        self,
        kind: Callable[[], types.ClientCapabilities],
        test: pytest.Item,
        workspace: Path,
        settings: dict[str, Any] | None = None,
    ) -> AsyncIterator[Client]:
        """The client of ``kind``'s server, its workspace folder now ``workspace`` (as an
        editor switching folders tells it: `workspace/didChangeWorkspaceFolders`) and its
        `holodeck` settings ``settings`` (as a client without `workspace/configuration`
        changes them, back to none after the test); the documents the test opened are
        closed when it ends."""
        if "session" not in [m.kwargs.get("loop_scope") for m in test.iter_markers("asyncio")]:
            # Else the test awaits, in a loop of its own, answers that arrive in the session's.
            pytest.fail(f"{test.nodeid} uses a shared server: its module needs "
                        "`pytestmark = SHARES_SERVERS` (tests/server/shared_servers.py)",
                        pytrace=False)
        name = kind.__name__
        asked = kind().workspace
        if settings is not None and asked is not None and asked.configuration:
            pytest.fail("settings are lent to push, whose client the server cannot ask for "
                        "them (a pull client answers workspace/configuration)", pytrace=False)
        if name not in self._clients:
            self._workspaces[name] = self._scratch / name
            self._workspaces[name].mkdir()
            self._clients[name] = await lsp_client.start(self._workspaces[name], kind())
        client = self._clients[name]
        client.workspace_did_change_workspace_folders(
            types.DidChangeWorkspaceFoldersParams(
                types.WorkspaceFoldersChangeEvent(
                    added=[types.WorkspaceFolder(uri(workspace), "ws")],
                    removed=[types.WorkspaceFolder(uri(self._workspaces[name]), "ws")],
                )
            )
        )
        self._workspaces[name] = workspace
        if settings is not None:
            await _configure(client, settings)
        yield client
        for doc_uri in client.opened:  # closing one the test closed itself is a no-op
            client.text_document_did_close(
                types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(doc_uri))
            )
        client.opened.clear()
        if settings is not None:
            await _configure(client, {})

    async def stop(self) -> None:
        for client in self._clients.values():
            await lsp_client.stop(client)


async def _configure(client: Client, settings: dict[str, Any]) -> None:
    """The server's `holodeck` settings made ``settings`` (over the defaults, as it has no
    initializationOptions), as `workspace/didChangeConfiguration` carries them to a client
    that cannot be asked for them (push's: Neovim 0.7). Returns once they apply: the
    server starts its handlers in the order the messages came, and this one ends without
    waiting, before the request sent after it is answered."""
    client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"holodeck": settings})
    )
    nowhere = types.TextDocumentIdentifier("file:///nowhere/agent.yaml")
    await client.text_document_document_symbol_async(types.DocumentSymbolParams(nowhere))
