"""A run the client cancels stops (SIGINT, as Ctrl-C; killed if it ignores it) and leaves
no child process behind."""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path
from typing import Any

import pytest

from holodeck_lsp.server.features import runs

# Says it is ready (a file in its folder), then waits; "stubborn" ignores SIGINT. The polite
# one sets Python's own Ctrl-C handler: a child of a shell's background job inherits SIGINT
# ignored, and Python then installs no handler of its own (as a real `run` does install).
CHILD = """
import pathlib, signal, sys, time
if "stubborn" in sys.argv:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
else:
    signal.signal(signal.SIGINT, signal.default_int_handler)
pathlib.Path("ready").write_text("")
print('{"event": "run_started"}', flush=True)
time.sleep(60)
"""


class _Progress:
    def __init__(self) -> None:
        self.ended: list[str] = []

    def report(self, message: str) -> None: ...

    def end(self, message: str) -> None:
        self.ended.append(message)


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    status = Path(f"/proc/{pid}/stat")
    return not (status.exists() and status.read_text().split()[2] == "Z")


@pytest.mark.parametrize("mode", ["polite", "stubborn"])
async def test_a_cancelled_run_leaves_no_child(
    mode: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(runs, "CLI_CODE", CHILD)
    # The polite child gets all the time it needs to end on SIGINT (under load, Python's
    # teardown after a KeyboardInterrupt took over half a second); the stubborn one is killed.
    monkeypatch.setattr(runs, "STOP_GRACE", 30.0 if mode == "polite" else 0.5)
    spawned: list[asyncio.subprocess.Process] = []
    real = asyncio.create_subprocess_exec

    async def spawn(*args: Any, **kwargs: Any) -> asyncio.subprocess.Process:
        process = await real(*args, **kwargs)
        spawned.append(process)
        return process

    monkeypatch.setattr(asyncio, "create_subprocess_exec", spawn)
    progress = _Progress()
    task = asyncio.ensure_future(
        runs._events(None, [mode], tmp_path, progress)  # type: ignore[arg-type]
    )
    for _ in range(1000):  # the child is up, its signal handling set (bounded wait)
        if (tmp_path / "ready").exists():
            break
        await asyncio.sleep(0.01)
    assert (tmp_path / "ready").exists()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    (process,) = spawned
    assert process.returncode is not None
    assert not alive(process.pid)
    assert progress.ended == ["cancelled"]
    # Polite: ended by the SIGINT (as Python reports an uncaught Ctrl-C); stubborn: killed.
    expected = signal.SIGINT if mode == "polite" else signal.SIGKILL
    assert process.returncode == -expected


async def test_a_run_cancelled_while_it_starts_is_stopped_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The child is up before the server has its pipes (under load this takes a while): a
    # cancel then must still reach it.
    monkeypatch.setattr(runs, "CLI_CODE", CHILD)
    monkeypatch.setattr(runs, "STOP_GRACE", 30.0)
    started = asyncio.Event()
    go_on = asyncio.Event()
    spawned: list[asyncio.subprocess.Process] = []
    real = asyncio.create_subprocess_exec

    async def slow_spawn(*args: Any, **kwargs: Any) -> asyncio.subprocess.Process:
        process = await real(*args, **kwargs)
        spawned.append(process)
        started.set()
        await go_on.wait()
        return process

    monkeypatch.setattr(asyncio, "create_subprocess_exec", slow_spawn)
    progress = _Progress()
    task = asyncio.ensure_future(
        runs._events(None, ["polite"], tmp_path, progress)  # type: ignore[arg-type]
    )
    await started.wait()
    for _ in range(1000):  # the child has set its Ctrl-C handler (bounded wait)
        if (tmp_path / "ready").exists():
            break
        await asyncio.sleep(0.01)
    task.cancel()  # while the process is still "starting"
    go_on.set()
    with pytest.raises(asyncio.CancelledError):
        await task
    (process,) = spawned
    assert process.returncode == -signal.SIGINT
    assert not alive(process.pid)
    assert progress.ended == ["cancelled"]
