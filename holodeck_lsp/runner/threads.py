"""Blocking user code (a plain `send`, a tool) run off the event loop, in daemon threads.

Not `asyncio.to_thread`: its pool is joined when the loop closes, so one hung call would
hold the process for as long as it hangs, long after its turn timed out.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable
from typing import Any


async def in_thread(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    loop = asyncio.get_running_loop()
    future: asyncio.Future[Any] = loop.create_future()

    def settle(value: Any, error: BaseException | None) -> None:
        if future.done():
            return  # the turn timed out and stopped waiting
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(value)

    def work() -> None:
        try:
            value = fn(*args, **kwargs)
        except BaseException as exc:
            error: BaseException | None = exc
            value = None
        else:
            error = None
        # RuntimeError: the loop is gone, nobody waits for this result any more.
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(settle, value, error)

    threading.Thread(target=work, daemon=True, name="holodeck-user-code").start()
    return await future
