"""Fixtures: a scratch copy of the fixture workspace, and push / pull clients on it,
each one server for the test session (tests/server/shared_servers.py)."""

from __future__ import annotations

import shutil
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from tests.server.lsp_client import FIXTURES, Client, pull_capabilities, push_capabilities
from tests.server.shared_servers import SharedServer


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """A copy of the fixture workspace the test may change freely."""
    root = tmp_path / "ws"
    shutil.copytree(FIXTURES / "workspace", root)
    return root.resolve()


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def _push_server(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[SharedServer]:
    server = await SharedServer.start(tmp_path_factory.mktemp("push"), push_capabilities())
    yield server
    await server.stop()


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def _pull_server(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[SharedServer]:
    server = await SharedServer.start(tmp_path_factory.mktemp("pull"), pull_capabilities())
    yield server
    await server.stop()


@pytest_asyncio.fixture(loop_scope="session")
async def push(
    request: pytest.FixtureRequest, _push_server: SharedServer, workspace: Path
) -> AsyncIterator[Client]:
    """Neovim 0.7's capabilities (pushed diagnostics), on the session's push server."""
    yield _push_server.lend(request.node, workspace)
    _push_server.take_back()


@pytest_asyncio.fixture(loop_scope="session")
async def pull(
    request: pytest.FixtureRequest, _pull_server: SharedServer, workspace: Path
) -> AsyncIterator[Client]:
    """VS Code's capabilities (pulled diagnostics), on the session's pull server."""
    yield _pull_server.lend(request.node, workspace)
    _pull_server.take_back()
