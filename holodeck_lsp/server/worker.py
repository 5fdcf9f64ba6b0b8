"""Workers that run jobs off the event loop: a daemon thread, or child processes.

The thread is a daemon, so that a long job never holds the process at exit (the
protocol requires `exit` to end the server promptly); one thread, or one job per child,
so the jobs of one session never race each other over the core's caches. Only a process
can be stopped in the middle of a job: a job's time limit is kept by `ProcessWorker`.
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
from collections.abc import Callable, Hashable
from concurrent.futures import Future
from multiprocessing import forkserver
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any, TypeVar

from holodeck_lsp.isolation.children import isolate_multiprocessing_helpers
from holodeck_lsp.server import gc_pause

T = TypeVar("T")
_STOP = object()
log = logging.getLogger(__name__)


class _Jobs:
    """The queue both workers take jobs from, in order; a job not started can be cancelled."""

    def __init__(self) -> None:
        self._jobs: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._stopped = False

    def submit(self, fn: Callable[..., T], *args: Any, time_limit: float | None = None,
               key: Hashable = None) -> Future[T]:
        """``fn(*args)``, in turn. Past ``time_limit`` seconds a `ProcessWorker` abandons the
        job (`Overran`); a thread cannot be stopped, and runs it to its end. A
        `ProcessWorker` runs jobs of one ``key`` (a document) in the same child when it is
        idle: its caches hold what they read."""
        future: Future[T] = Future()
        if self._stopped:
            future.cancel()
        else:
            self._jobs.put((future, fn, args, time_limit, key))
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
            future, fn, args, _, _ = item
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


class Overran(RuntimeError):
    """A job ran past its time limit: its process was killed (the next job gets a new one)."""

    def __init__(self, limit: float) -> None:
        super().__init__(f"the job ran past its time limit of {limit:g} s")
        self.limit = limit


def _serve(conn: Connection, memory_limit: int) -> None:
    """The child's loop: a job in, its result (or error) and the memory held after it out."""
    # A group of its own: a job killed for its time is killed with what it started (a
    # grader's import child), which would otherwise outlive it.
    with contextlib.suppress(OSError):
        os.setpgid(0, 0)
    _limit_memory(memory_limit)
    while True:
        try:
            fn, args = conn.recv()
        except (EOFError, OSError):
            return
        with gc_pause.paused():  # jobs build large object trees: see gc_pause
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


def _kill(child: BaseProcess) -> None:
    """Kill a worker process by its pid, and the processes it started (its group)."""
    pid = child.pid
    if pid is None:
        return
    try:
        os.killpg(pid, signal.SIGKILL)
    except OSError:  # not a group leader yet (it has only just started), or gone
        with contextlib.suppress(Exception):
            child.kill()


# Seconds a spare worker process (any but the first) is kept idle before it ends: it
# serves bursts (a document opened while another validates), not the whole session.
SPARE_IDLE = 30.0


class _Lane:
    """One worker process, fed one job at a time by a thread of its own."""

    def __init__(self, worker: ProcessWorker, index: int) -> None:
        self.worker = worker
        self._idle_life = None if index == 0 else SPARE_IDLE
        self.idle = True  # changed under the worker's condition only
        self.keys: set[Hashable] = set()  # of the jobs its child has run
        self.restarts = 0
        self._jobs: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._child: BaseProcess | None = None
        self._conn: Connection | None = None
        self._thread = threading.Thread(target=self._loop, name=f"{worker.name}-{index}",
                                        daemon=True)
        self._thread.start()

    def give(self, item: tuple[Any, ...]) -> None:
        self._jobs.put(item)

    def stop(self) -> None:
        """No job after this one, and not even this one: its process is killed now."""
        self._jobs.put(_STOP)
        child = self._child
        if child is not None:
            _kill(child)

    def _loop(self) -> None:
        while True:
            try:
                item = self._jobs.get(timeout=self._idle_life)
            except queue.Empty:  # a spare idle long enough: its memory back
                self._end_child()
                continue
            if item is _STOP:
                break
            future, fn, args, limit, _ = item
            try:
                self._run(future, fn, args, limit)
            finally:
                self.worker._release(self)
        self._end_child()

    def _run(self, future: Future[Any], fn: Callable[..., Any], args: tuple[Any, ...],
             limit: float | None) -> None:
        try:
            conn = self._conn or self._start_child()
            conn.send((fn, args))
            if limit is not None and not conn.poll(limit):  # the reply, or the child's end
                self._replace("a job ran past its time limit of %g s; its process was killed",
                              limit)
                future.set_exception(Overran(limit))
                return
            status, value, resident = conn.recv()
        except (EOFError, OSError) as exc:  # the child died: the next job gets a new one
            self._replace("the worker process died during a job; starting another")
            future.set_exception(ChildDied(f"the worker process ended: {exc!r}"))
            return
        except BaseException as exc:  # the job itself could not be sent
            future.set_exception(exc)
            return
        if resident > self.worker.recycle_bytes:  # give the memory back: a fresh child next
            self._end_child()
            self.restarts += 1
        if status == "ok":
            future.set_result(value)
        else:
            future.set_exception(value)

    def _replace(self, message: str, *args: object) -> None:
        self._end_child()
        self.restarts += 1
        if not self.worker.stopped:
            log.warning("%s: " + message, self.worker.name, *args)

    def _start_child(self) -> Connection:
        worker = self.worker
        ours, theirs = worker.context.Pipe()
        child = worker.context.Process(target=_serve, args=(theirs, worker.memory_limit),
                                       name=worker.name, daemon=True)
        child.start()
        theirs.close()
        self._child, self._conn = child, ours
        return ours

    def _end_child(self) -> None:
        child, conn = self._child, self._conn
        self._child = self._conn = None
        self.keys = set()
        if conn is not None:
            conn.close()
        if child is not None:
            _kill(child)
            with contextlib.suppress(Exception):
                child.join(5)


class ProcessWorker(_Jobs):
    """Jobs in child processes: a validation there never holds this process's interpreter
    lock (a parse in C holds it for its whole length, so a thread would stall the event
    loop), its memory has a cap (past it the job fails with MemoryError, and a child grown
    past ``recycle_bytes`` is replaced), and a child that dies costs its job only.

    Jobs are taken in order, each by an idle one of ``lanes`` children (one that has run
    jobs of the same key if there is one, so a document's validations find its caches
    warm, else the first): a job that runs long holds up no job behind it. A job past the
    ``time_limit`` it was submitted with is abandoned: its child is killed by its pid,
    with the processes it started, and the job fails with `Overran`; the next job gets a
    new child. Children are forked from a server process that has the ``preload`` modules
    loaded, so a new one starts in milliseconds. A job not started yet can be cancelled."""

    def __init__(self, name: str, memory_limit: int, recycle_bytes: int,
                 preload: tuple[str, ...] = (), lanes: int = 2) -> None:
        super().__init__()
        self.name = name
        self.memory_limit = memory_limit
        self.recycle_bytes = recycle_bytes
        self.context = multiprocessing.get_context("forkserver")
        self.context.set_forkserver_preload(list(preload))
        _start_forkserver()
        self._idle = threading.Condition()
        self._lanes = [_Lane(self, index) for index in range(lanes)]
        self._thread = threading.Thread(target=self._dispatch, name=name, daemon=True)
        self._thread.start()

    @property
    def stopped(self) -> bool:
        return self._stopped

    @property
    def restarts(self) -> int:
        """Children replaced (killed for their time, dead, or grown too large): for tests
        and benchmarks."""
        return sum(lane.restarts for lane in self._lanes)

    def warm_up(self) -> None:
        """Start the first child now, so the first job does not wait for it."""
        self.submit(int)

    def _dispatch(self) -> None:
        while True:
            item = self._jobs.get()
            if item is _STOP or self._stopped:
                break
            lane = self._idle_lane(item[4])  # the job stays cancellable while it waits
            if self._stopped:
                item[0].cancel()
                break
            if item[0].set_running_or_notify_cancel():
                lane.give(item)
            else:
                self._release(lane)
        for lane in self._lanes:
            lane.stop()
        self._cancel_left()

    def _idle_lane(self, key: Hashable) -> _Lane:
        """An idle lane, once there is one: one that has run ``key``'s jobs, else the first."""
        with self._idle:
            while True:
                idle = [lane for lane in self._lanes if lane.idle]
                if idle:
                    known = [lane for lane in idle if key is not None and key in lane.keys]
                    lane = (known or idle)[0]
                    lane.idle = False
                    lane.keys.add(key)
                    return lane
                self._idle.wait()

    def _release(self, lane: _Lane) -> None:
        with self._idle:
            lane.idle = True
            self._idle.notify()

    def stop(self) -> None:
        self._stopped = True
        self._jobs.put(_STOP)
        for lane in self._lanes:  # never wait for a job at exit
            lane.stop()
        # The forkserver would take a second to unload the validation code after we exit,
        # holding the client's pipes open meanwhile; a new one starts when needed.
        server = forkserver._forkserver
        pid = getattr(server, "_forkserver_pid", None)
        if isinstance(pid, int):
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
            with contextlib.suppress(Exception):  # reap and forget it: the next one is new
                getattr(server, "_stop")()  # noqa: B009 - private, absent from the stubs
