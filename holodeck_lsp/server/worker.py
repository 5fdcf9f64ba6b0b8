"""Workers that run jobs in order, off the event loop: a daemon thread, or a child process.

The thread is a daemon, so that a long job never holds the process at exit (the
protocol requires `exit` to end the server promptly); one thread or one child, so the
jobs of one session never race each other over the core's caches.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import queue
import resource
import signal
import threading
from collections.abc import Callable
from concurrent.futures import Future
from multiprocessing import forkserver
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any, TypeVar

from holodeck_lsp import gc_policy
from holodeck_lsp.isolation.children import isolate_multiprocessing_helpers

T = TypeVar("T")
_STOP = object()
log = logging.getLogger(__name__)


class _Jobs:
    """The queue both workers take jobs from, in order; a job not started can be cancelled."""

    def __init__(self) -> None:
        self._jobs: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._stopped = False

    def submit(self, fn: Callable[..., T], *args: Any) -> Future[T]:
        future: Future[T] = Future()
        if self._stopped:
            future.cancel()
        else:
            self._jobs.put((future, fn, args))
        return future

    def _cancel_left(self) -> None:
        while True:
            try:
                item = self._jobs.get_nowait()
            except queue.Empty:
                return
            if item is not _STOP:
                item[0].cancel()


class Worker(_Jobs):
    def __init__(self, name: str) -> None:
        super().__init__()
        self.busy = False  # a job is running now
        self._thread = threading.Thread(target=self._loop, name=name, daemon=True)
        self._thread.start()

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
                with gc_policy.paused():  # jobs build large object trees: see gc_policy
                    result = fn(*args)
                future.set_result(result)
            except BaseException as exc:
                future.set_exception(exc)
            finally:
                self.busy = False
        self._cancel_left()


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


def _start_forkserver() -> None:
    """Start the forkserver with our stdout pointing at stderr: the server's stdout is the
    protocol's channel, and nothing a worker prints may land there. It and the resource
    tracker run isolated, never importing the working directory's modules."""
    isolate_multiprocessing_helpers()
    saved = os.dup(1)
    try:
        os.dup2(2, 1)
        forkserver.ensure_running()
    finally:
        os.dup2(saved, 1)
        os.close(saved)


class ChildDied(RuntimeError):
    """The worker process ended in the middle of a job (killed, or crashed)."""


def _serve(conn: Connection, memory_limit: int) -> None:
    """The child's loop: a job in, its result (or error) and the memory held after it out."""
    _limit_memory(memory_limit)
    while True:
        try:
            fn, args = conn.recv()
        except (EOFError, OSError):
            return
        with gc_policy.paused():  # jobs build large object trees: see gc_policy
            try:
                reply: tuple[Any, ...] = ("ok", fn(*args))
            except BaseException as exc:  # sent back to the caller's future
                reply = ("error", exc)
            # Answered before the collector resumes: its first pass over what a large job
            # built (a fifth of a second after a 1,000-case suite's first parse) is idle time.
            try:
                conn.send((*reply, _resident_bytes()))
            except Exception as exc:  # a result that cannot be pickled
                conn.send(("error", RuntimeError(f"{type(exc).__name__}: {exc}"), 0))


class ProcessWorker(_Jobs):
    """Jobs in one child process, in order: a validation there never holds this process's
    interpreter lock (a parse in C holds it for its whole length, so a thread would stall
    the event loop), its memory has a cap (past it the job fails with MemoryError, and a
    child grown past ``recycle_bytes`` is replaced), and a child that dies costs its job
    only. Children are forked from a server process that has the ``preload`` modules
    loaded, so a new one starts in milliseconds. A job not started yet can be cancelled."""

    def __init__(self, name: str, memory_limit: int, recycle_bytes: int,
                 preload: tuple[str, ...] = ()) -> None:
        super().__init__()
        self.name = name
        self.memory_limit = memory_limit
        self.recycle_bytes = recycle_bytes
        self.restarts = 0  # for tests and benchmarks
        self._context = multiprocessing.get_context("forkserver")
        self._context.set_forkserver_preload(list(preload))
        _start_forkserver()
        self._child: BaseProcess | None = None
        self._conn: Connection | None = None
        self._thread = threading.Thread(target=self._loop, name=name, daemon=True)
        self._thread.start()

    def warm_up(self) -> None:
        """Start the child now, so the first job does not wait for it."""
        self.submit(int)

    def _start_child(self) -> Connection:
        ours, theirs = self._context.Pipe()
        child = self._context.Process(target=_serve, args=(theirs, self.memory_limit),
                                      name=self.name, daemon=True)
        child.start()
        theirs.close()
        self._child, self._conn = child, ours
        return ours

    def _end_child(self) -> None:
        child, conn = self._child, self._conn
        self._child = self._conn = None
        if conn is not None:
            conn.close()
        if child is not None:
            with contextlib.suppress(Exception):
                child.kill()
                child.join(5)

    def _loop(self) -> None:
        while True:
            item = self._jobs.get()
            if item is _STOP or self._stopped:
                break
            future, fn, args = item
            if not future.set_running_or_notify_cancel():
                continue
            try:
                conn = self._conn or self._start_child()
                conn.send((fn, args))
                status, value, resident = conn.recv()
            except (EOFError, OSError) as exc:  # the child died: the next job gets a new one
                self._end_child()
                self.restarts += 1
                log.warning("%s: the worker process died during a job; starting another",
                            self.name)
                future.set_exception(ChildDied(f"the worker process ended: {exc!r}"))
                continue
            except BaseException as exc:  # the job itself could not be sent
                future.set_exception(exc)
                continue
            if resident > self.recycle_bytes:  # give the memory back: a fresh child next
                self._end_child()
                self.restarts += 1
            if status == "ok":
                future.set_result(value)
            else:
                future.set_exception(value)
        self._end_child()
        self._cancel_left()

    def stop(self) -> None:
        self._stopped = True
        self._jobs.put(_STOP)
        child = self._child
        if child is not None:  # never wait for a job at exit
            with contextlib.suppress(Exception):
                child.kill()
        # The forkserver would take a second to unload the validation code after we exit,
        # holding the client's pipes open meanwhile; a new one starts when needed.
        server = forkserver._forkserver
        pid = getattr(server, "_forkserver_pid", None)
        if isinstance(pid, int):
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
            with contextlib.suppress(Exception):  # reap and forget it: the next one is new
                getattr(server, "_stop")()  # noqa: B009 - private, absent from the stubs
