"""The validation worker process: results come back, a job past the memory cap fails
alone, a child that dies costs its job only, and a job not started can be withdrawn."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from concurrent.futures import CancelledError

import pytest

from holodeck_lsp.server.worker import ChildDied, ProcessWorker

MB = 2**20


def allocate(megabytes: int) -> int:
    return len(bytearray(megabytes * MB))


def pid() -> int:
    return os.getpid()


def die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


@pytest.fixture
def worker() -> Iterator[ProcessWorker]:
    made = ProcessWorker("test-worker", memory_limit=300 * MB, recycle_bytes=150 * MB,
                         preload=("tests.server.unit.test_process_worker",))
    yield made
    made.stop()


def test_results_and_errors_come_back(worker: ProcessWorker) -> None:
    assert worker.submit(sum, [1, 2, 3]).result(60) == 6
    assert worker.submit(pid).result(60) != os.getpid()  # it ran elsewhere
    with pytest.raises(ZeroDivisionError):
        worker.submit(divmod, 1, 0).result(60)


def test_a_job_past_the_memory_cap_fails_and_the_next_one_runs(worker: ProcessWorker) -> None:
    with pytest.raises(MemoryError):
        worker.submit(allocate, 1000).result(60)
    assert worker.submit(allocate, 10).result(60) == 10 * MB


def test_a_child_grown_past_the_recycle_size_is_replaced(worker: ProcessWorker) -> None:
    first = worker.submit(pid).result(60)
    keep = worker.submit(allocate, 5).result(60)
    assert keep == 5 * MB and worker.submit(pid).result(60) == first
    worker.submit(exec, "import builtins; builtins.hoard = bytearray(200 * 2**20)").result(60)
    assert worker.restarts == 1
    assert worker.submit(pid).result(60) != first


def test_a_child_that_dies_costs_its_job_only(worker: ProcessWorker) -> None:
    first = worker.submit(pid).result(60)
    with pytest.raises(ChildDied):
        worker.submit(die).result(60)
    assert worker.submit(pid).result(60) != first
    assert worker.restarts == 1


def test_a_job_not_started_is_withdrawn(worker: ProcessWorker) -> None:
    worker.submit(pid).result(60)
    running = worker.submit(sum, range(10**7))
    queued = worker.submit(pid)
    assert queued.cancel()
    assert running.result(60) == sum(range(10**7))
    with pytest.raises(CancelledError):
        queued.result(0)
