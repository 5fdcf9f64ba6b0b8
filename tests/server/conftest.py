"""Fixtures: a scratch copy of the fixture workspace, and push / pull clients on it,
each one server per module (tests/server/shared_servers.py)."""

from __future__ import annotations

import shutil
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio
from lsprotocol import types

from tests.server.lsp_client import (
    FIXTURES,
    Client,
    pull_capabilities,
    push_capabilities,
    start,
    stop,
)
from tests.server.shared_servers import close_opened, hand_over


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """A copy of the fixture workspace the test may change freely."""
    root = tmp_path / "ws"
    shutil.copytree(FIXTURES / "workspace", root)
    return root.resolve()


class _Shared:
    """A module's server for one kind of client, and the workspace it was last given."""

    def __init__(self, client: Client, workspace: Path) -> None:
        self.client, self.workspace = client, workspace

    def lend(self, workspace: Path) -> Client:
        hand_over(self.client, workspace, self.workspace)
        self.workspace = workspace
        return self.client


async def _module_server(
    factory: pytest.TempPathFactory, capabilities: types.ClientCapabilities
) -> AsyncIterator[_Shared]:
    first = factory.mktemp("shared") / "ws"
    first.mkdir()
    client = await start(first, capabilities)
    yield _Shared(client, first)
    await stop(client)


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def _push_server(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[_Shared]:
    async for shared in _module_server(tmp_path_factory, push_capabilities()):
        yield shared


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def _pull_server(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[_Shared]:
    async for shared in _module_server(tmp_path_factory, pull_capabilities()):
        yield shared


@pytest_asyncio.fixture(loop_scope="module")
async def push(_push_server: _Shared, workspace: Path) -> AsyncIterator[Client]:
    """Neovim 0.7's capabilities (pushed diagnostics), on the module's server."""
    client = _push_server.lend(workspace)
    yield client
    close_opened(client)


@pytest_asyncio.fixture(loop_scope="module")
async def pull(_pull_server: _Shared, workspace: Path) -> AsyncIterator[Client]:
    """VS Code's capabilities (pulled diagnostics), on the module's server."""
    client = _pull_server.lend(workspace)
    yield client
    close_opened(client)
