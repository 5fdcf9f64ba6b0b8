"""One server for all the tests of a module, per kind of client: the `push` and `pull`
fixtures (tests/server/conftest.py). Starting a server costs two interpreters (the server
and its validation worker); a test that only opens documents and asks about them does
not need its own.

Each test gets the server as an editor gets it when the user opens another folder: the
test's own workspace replaces the last one (`workspace/didChangeWorkspaceFolders`), and
the documents the test opened are closed when it ends. The test's documents have paths
of their own, so nothing published for an earlier test is taken for one of its own.
What a server of its own would give that a shared one does not (a `logMessage` of start-
up, counters from zero) is read from where the test began, never from zero.

A module using `push` or `pull` runs its tests in one event loop (xdist runs a module's
tests on one worker: `--dist loadscope`, pyproject.toml):

    pytestmark = SHARES_SERVERS

A test that needs a server of its own (other capabilities or options, a user config, the
server process itself as the subject) starts one with `lsp_client.start`.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types

from tests.server.lsp_client import Client, uri

# The marks of a module whose tests share its servers: their pipes belong to one event loop.
SHARES_SERVERS = pytest.mark.asyncio(loop_scope="module")


def hand_over(client: Client, workspace: Path, previous: Path) -> None:
    """The server's workspace folder becomes ``workspace`` (it was ``previous``)."""
    client.workspace_did_change_workspace_folders(
        types.DidChangeWorkspaceFoldersParams(
            types.WorkspaceFoldersChangeEvent(
                added=[types.WorkspaceFolder(uri(workspace), "ws")],
                removed=[types.WorkspaceFolder(uri(previous), "ws")],
            )
        )
    )


def close_opened(client: Client) -> None:
    """Close every document the test opened (closing one it closed already is a no-op)."""
    for doc_uri in client.opened:
        client.text_document_did_close(
            types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(doc_uri))
        )
    client.opened.clear()
