"""The validation worker processes: results come back, a job past the memory cap fails
alone, a child that dies costs its job only, a job past its time limit is abandoned with
what it started, a long job holds up none behind it, and a job not started can be
withdrawn."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import CancelledError
from pathlib import Path

import pytest

from holodeck_lsp.server import worker as worker_module
from holodeck_lsp.server.worker import ChildDied, Overran, ProcessWorker
from tests.security.processes import wait_for

MB = 2**20


def allocate(megabytes: int) -> int:
    return len(bytearray(megabytes * MB))


def pid() -> int:
    return os.getpid()


def die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def start_a_child_and_wait(pid_file: Path) -> None:
    """A job that never ends, with a child of its own (as a grader's import child)."""
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    pid_file.write_text(str(child.pid))
    time.sleep(600)


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.fixture
def worker() -> Iterator[ProcessWorker]:
    made = ProcessWorker("test-worker", memory_limit=300 * MB, recycle_bytes=150 * MB,
                         preload=("tests.server.unit.test_process_worker",))
    yield made
    made.stop()


@pytest.fixture
def short_lived_spare(monkeypatch: pytest.MonkeyPatch) -> Iterator[ProcessWorker]:
    monkeypatch.setattr(worker_module, "SPARE_IDLE", 0.2)
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
    running = [worker.submit(sum, range(10**7)) for _ in range(2)]  # one in each child
    queued = worker.submit(pid)
    assert queued.cancel()
    assert [job.result(60) for job in running] == [sum(range(10**7))] * 2
    with pytest.raises(CancelledError):
        queued.result(0)


def test_a_job_past_its_time_limit_is_abandoned_with_what_it_started(
    worker: ProcessWorker, tmp_path: Path
) -> None:
    first = worker.submit(pid).result(60)
    pid_file = tmp_path / "grandchild.pid"
    with pytest.raises(Overran, match=r"time limit of 0\.5 s"):
        worker.submit(start_a_child_and_wait, pid_file, time_limit=0.5).result(60)
    grandchild = int(pid_file.read_text())
    wait_for(lambda: True if not alive(grandchild) else None)
    assert worker.restarts == 1
    assert worker.submit(pid, time_limit=30).result(60) not in (first, grandchild)


def test_a_long_job_holds_up_no_job_behind_it(worker: ProcessWorker) -> None:
    first = worker.submit(pid).result(60)
    long = worker.submit(time.sleep, 600)
    assert worker.submit(pid).result(60) != first  # the other child took it
    assert not long.done()
    long.cancel()  # too late: it runs, and `stop` kills it


def test_the_spare_process_ends_once_idle_and_comes_back_when_needed(
    short_lived_spare: ProcessWorker,
) -> None:
    first = short_lived_spare.submit(pid).result(60)
    long = short_lived_spare.submit(time.sleep, 600)
    spare = short_lived_spare.submit(pid).result(60)
    wait_for(lambda: True if not alive(spare) else None)  # its memory given back
    assert alive(first) and not long.done()
    assert short_lived_spare.submit(pid).result(60) not in (first, spare)
    assert short_lived_spare.restarts == 0  # ended, not replaced


def test_a_documents_jobs_go_to_the_child_that_ran_its_last_one(worker: ProcessWorker) -> None:
    first = worker.submit(pid, key="a.yaml").result(60)
    busy = worker.submit(time.sleep, 1, key="slow.yaml")  # holds the first child a while
    other = worker.submit(pid, key="b.yaml").result(60)  # so the spare takes it
    busy.result(60)
    # Both idle: each document's job goes where its caches are, not to the first child.
    assert worker.submit(pid, key="b.yaml").result(60) == other != first
    assert worker.submit(pid, key="a.yaml").result(60) == first
