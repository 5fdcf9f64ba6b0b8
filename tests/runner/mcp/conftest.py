"""What the MCP tests start: the npm servers installed by setup.sh, and the SDK server of
this folder over stdio (through launch.js), streamable HTTP or SSE on 127.0.0.1.

On a developer's machine without them the tests skip with the command to run; in CI
(CI set) a missing piece fails loudly instead.
"""

from __future__ import annotations

import importlib.util
import os
import queue
import shutil
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
NPM_SERVERS = HERE / "node_modules" / "@modelcontextprotocol"


def _missing(what: str, fix: str) -> None:
    message = f"{what} is not available: {fix}"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture(autouse=True)
def _mcp_sdk() -> None:
    if importlib.util.find_spec("mcp") is None:
        _missing("the mcp SDK", "pip install -e '.[test]'")
    if shutil.which("node") is None or shutil.which("npx") is None:
        _missing("node and npx", "install Node.js")


@pytest.fixture
def npm_servers(monkeypatch: pytest.MonkeyPatch) -> Path:
    """The folder whose node_modules holds the npm servers; the test runs from there, so
    `npx -y @modelcontextprotocol/server-...` finds the local install, never the network."""
    for name in ("server-memory", "server-filesystem"):
        if not (NPM_SERVERS / name / "package.json").is_file():
            _missing(f"@modelcontextprotocol/{name}", f"run {HERE / 'setup.sh'}")
    monkeypatch.chdir(HERE)
    return HERE


@contextmanager
def sdk_server(transport: str) -> Iterator[str]:
    """The SDK server over `http` or `sse` on an ephemeral port; yields its URL."""
    process = subprocess.Popen(
        [sys.executable, str(HERE / "sdk_server.py"), transport],
        stdout=subprocess.PIPE,
        text=True,
    )
    lines: queue.Queue[str] = queue.Queue()
    assert process.stdout is not None
    stdout = process.stdout
    threading.Thread(target=lambda: lines.put(stdout.readline()), daemon=True).start()
    try:
        try:
            first = lines.get(timeout=60)
        except queue.Empty:
            first = ""
        if not first.startswith("PORT "):
            raise RuntimeError(f"the SDK server did not start ({transport}): {first!r}")
        path = "/mcp" if transport == "http" else "/sse"
        yield f"http://127.0.0.1:{first.split()[1]}{path}"
    finally:
        os.kill(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.kill(process.pid, signal.SIGKILL)
            process.wait(timeout=10)
        stdout.close()
