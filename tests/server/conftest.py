"""Fixtures: a scratch copy of the fixture workspace, and push / pull clients on it,
each one server for the test session (tests/server/shared_servers.py; the session's
servers are `_shared_servers` in tests/conftest.py)."""

from __future__ import annotations

import shutil
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from lsprotocol import types

from tests.server.lsp_client import FIXTURES, Client, pull_capabilities, push_capabilities
from tests.server.shared_servers import SharedServers


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """A copy of the fixture workspace the test may change freely."""
    root = tmp_path / "ws"
    shutil.copytree(FIXTURES / "workspace", root)
    return root.resolve()


def _lent(kind: Callable[[], types.ClientCapabilities], name: str) -> Any:
    """The fixture ``name``: a client with ``kind``'s capabilities, on the session's server."""

    @pytest_asyncio.fixture(name=name, loop_scope="session")
    async def client(
        request: pytest.FixtureRequest, _shared_servers: SharedServers, workspace: Path
    ) -> AsyncIterator[Client]:
        async with _shared_servers.lend(kind, request.node, workspace) as lent:
            yield lent

    return client


push = _lent(push_capabilities, "push")  # Neovim 0.7's capabilities: pushed diagnostics
pull = _lent(pull_capabilities, "pull")  # VS Code's: pulled diagnostics
