"""A single daemon thread that runs jobs in order, off the event loop.

Daemon, so that a long validation never holds the process at exit (the protocol
requires `exit` to end the server promptly); one thread, so validations of one
session never race each other over the core's caches.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any, TypeVar

from holodeck_lsp.server import gc_pause

T = TypeVar("T")
_STOP = object()


class Worker:
    def __init__(self, name: str) -> None:
        self._jobs: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._stopped = False
        self._thread = threading.Thread(target=self._loop, name=name, daemon=True)
        self._thread.start()

    def submit(self, fn: Callable[..., T], *args: Any) -> Future[T]:
        future: Future[T] = Future()
        if self._stopped:
            future.cancel()
        else:
            self._jobs.put((future, fn, args))
        return future

    def stop(self) -> None:
        self._stopped = True
        self._jobs.put(_STOP)

    def _loop(self) -> None:
        while True:
            item = self._jobs.get()
            if item is _STOP:
                break
            future, fn, args = item
            if self._stopped or not future.set_running_or_notify_cancel():
                continue
            try:
                with gc_pause.paused():  # jobs build large object trees: see gc_pause
                    result = fn(*args)
                future.set_result(result)
            except BaseException as exc:
                future.set_exception(exc)
        while True:  # cancel what is left
            try:
                item = self._jobs.get_nowait()
            except queue.Empty:
                return
            if item is not _STOP:
                item[0].cancel()
