"""Blocking user code (a plain `send`, a tool, a grader) run off the event loop, in daemon
threads.

Not `asyncio.to_thread`: its pool is joined when the loop closes, so one hung call would
hold the process for as long as it hangs, long after its turn timed out. A thread cannot be
killed: a call that overruns its limit is abandoned, not stopped (see docs/runner.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import threading
from collections.abc import Callable
from typing import Any


class UserCodeExit(Exception):
    """User code raised SystemExit or KeyboardInterrupt: contained, reported as an error."""

    def __init__(self, original: BaseException) -> None:
        super().__init__(str(original))
        self.original = original


def exception_line(exc: BaseException) -> str:
    """`ExcType: message`, naming what the user's code raised."""
    shown = exc.original if isinstance(exc, UserCodeExit) else exc
    return f"{type(shown).__name__}: {shown}"


def contained(exc: BaseException) -> BaseException:
    """An exception the run can carry: SystemExit/KeyboardInterrupt become UserCodeExit."""
    if isinstance(exc, (SystemExit, KeyboardInterrupt)):
        return UserCodeExit(exc)
    return exc


async def _drive(awaitable: Any) -> Any:
    return await awaitable


async def in_thread(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """``fn(*args, **kwargs)`` in a daemon thread; an awaitable it returns is run there too,
    on a loop of its own, so async user code that blocks cannot stall the run either."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[Any] = loop.create_future()

    def settle(value: Any, error: BaseException | None) -> None:
        if future.done():
            return  # the caller timed out or was cancelled and stopped waiting
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(value)

    def work() -> None:
        error: BaseException | None = None
        value: Any = None
        try:
            value = fn(*args, **kwargs)
            if inspect.isawaitable(value):
                value = asyncio.run(_drive(value))
        except BaseException as exc:  # user code: whatever it raises is reported, not raised
            error = contained(exc)
        # RuntimeError: the loop is gone, nobody waits for this result any more.
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(settle, value, error)

    threading.Thread(target=work, daemon=True, name="holodeck-user-code").start()
    return await future
