"""Workers that run jobs in order, off the event loop: a daemon thread, or a child process.

The thread is a daemon, so that a long job never holds the process at exit (the
protocol requires `exit` to end the server promptly); one thread or one child, so the
jobs of one session never race each other over the core's caches.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import queue
import resource
import threading
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any, TypeVar

from holodeck_lsp.server import gc_pause

T = TypeVar("T")
_STOP = object()
log = logging.getLogger(__name__)


class Worker:
    def __init__(self, name: str) -> None:
        self._jobs: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._stopped = False
        self.busy = False  # a job is running now
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
            self.busy = True
            try:
                with gc_pause.paused():  # jobs build large object trees: see gc_pause
                    result = fn(*args)
                future.set_result(result)
            except BaseException as exc:
                future.set_exception(exc)
            finally:
                self.busy = False
        while True:  # cancel what is left
            try:
                item = self._jobs.get_nowait()
            except queue.Empty:
                return
            if item is not _STOP:
                item[0].cancel()


def _limit_memory(limit_bytes: int) -> None:
    """In the child: an allocation past the limit raises MemoryError there, not here."""
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_DATA, (limit_bytes, limit_bytes))


def _resident_bytes() -> int:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def _call(fn: Callable[..., T], args: tuple[Any, ...]) -> tuple[T, int]:
    """In the child: one job, then how much memory the child holds after it."""
    with gc_pause.paused():  # jobs build large object trees: see gc_pause
        result = fn(*args)
    return result, _resident_bytes()


class ProcessWorker:
    """Jobs in one child process, in order: a validation there never holds this process's
    interpreter lock (a parse in C holds it for its whole length, so a thread would stall
    the event loop), its memory has a cap (past it the job fails with MemoryError, and a
    child grown past ``recycle_bytes`` is replaced), and a child that dies costs its job
    only. The child is forked from a server process that has the validation code loaded."""

    def __init__(self, name: str, memory_limit: int, recycle_bytes: int,
                 preload: tuple[str, ...] = ()) -> None:
        self.name = name
        self.memory_limit = memory_limit
        self.recycle_bytes = recycle_bytes
        self._context = multiprocessing.get_context("forkserver")
        self._context.set_forkserver_preload(list(preload))
        self._lock = threading.Lock()
        self._stopped = False
        self._pool = self._new_pool()
        self.restarts = 0  # for tests and benchmarks

    def _new_pool(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(max_workers=1, mp_context=self._context,
                                   initializer=_limit_memory, initargs=(self.memory_limit,))

    def warm_up(self) -> None:
        """Start the child now, so the first job does not wait for it."""
        self.submit(int)

    def submit(self, fn: Callable[..., T], *args: Any) -> Future[T]:
        outer: Future[T] = Future()
        if self._stopped:
            outer.cancel()
            return outer
        with self._lock:
            try:
                inner = self._pool.submit(_call, fn, args)
            except BrokenProcessPool:  # the child died: a new one for this and later jobs
                self._replace()
                inner = self._pool.submit(_call, fn, args)
        pool = self._pool

        def cancel_inner(done: Future[T]) -> None:
            if done.cancelled():
                inner.cancel()  # only takes effect while the job waits for the child

        def forward(done: Future[tuple[T, int]]) -> None:
            if done.cancelled():
                outer.cancel()
                return
            exc = done.exception()
            if isinstance(exc, BrokenProcessPool):
                self._replace_if(pool)
            if not outer.set_running_or_notify_cancel():
                return
            if exc is not None:
                outer.set_exception(exc)
                return
            result, resident = done.result()
            if resident > self.recycle_bytes:
                self._replace_if(pool)
            outer.set_result(result)

        outer.add_done_callback(cancel_inner)
        inner.add_done_callback(forward)
        return outer

    def _replace_if(self, pool: ProcessPoolExecutor) -> None:
        with self._lock:
            if self._pool is pool and not self._stopped:
                self._replace()

    def _replace(self) -> None:
        old, self._pool = self._pool, self._new_pool()
        self.restarts += 1
        log.warning("%s: a new worker process (the old one died or grew too large)", self.name)
        old.shutdown(wait=False, cancel_futures=False)  # queued jobs still run there

    def stop(self) -> None:
        self._stopped = True
        with self._lock:
            pool = self._pool
        processes = list(getattr(pool, "_processes", {}).values() or ())
        pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:  # never wait for a job at exit
            with contextlib.suppress(Exception):
                process.kill()
