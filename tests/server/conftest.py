"""Fixtures: a scratch copy of the fixture workspace, and push / pull clients on it."""

from __future__ import annotations

import shutil
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from tests.server.lsp_client import (
    FIXTURES,
    Client,
    pull_capabilities,
    push_capabilities,
    start,
    stop,
)


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """A copy of the fixture workspace the test may change freely."""
    root = tmp_path / "ws"
    shutil.copytree(FIXTURES / "workspace", root)
    return root.resolve()


@pytest_asyncio.fixture
async def push(workspace: Path) -> AsyncIterator[Client]:
    client = await start(workspace, push_capabilities())
    yield client
    await stop(client)


@pytest_asyncio.fixture
async def pull(workspace: Path) -> AsyncIterator[Client]:
    client = await start(workspace, pull_capabilities())
    yield client
    await stop(client)
