"""Fixtures of the runner differential: HoloDeck's runner, and the generated suites run by
both runners once per session (several tests read the same reports)."""

from __future__ import annotations

import fcntl
import json
import os
from dataclasses import asdict
from pathlib import Path

import pytest

from tests.differential.oracle_env import IndexUnreachableError
from tests.differential.runner.harness import RunPair, Suite, run_pairs
from tests.differential.runner.runner_env import ensure_runner_env
from tests.differential.runner.suites import generated_suite

SEEDS = (1, 2, 3, 4, 5)
CASES_PER_SUITE = 110  # 550 generated test cases in all


@pytest.fixture(scope="session")
def holodeck_cli() -> Path:
    """HoloDeck's `holodeck` in its own venv, built on first use (a few minutes, then cached)."""
    try:
        return ensure_runner_env()
    except IndexUnreachableError as exc:
        if os.environ.get("CI"):
            pytest.fail(f"CI must build HoloDeck's runner: {exc}")
        pytest.skip(f"HoloDeck's runner unavailable: {exc}")


def _parallel(suite: Suite, n: int = 4) -> Suite:
    suite.agent["execution"]["parallel_test_cases"] = n
    return suite


@pytest.fixture(scope="session")
def generated(
    holodeck_cli: Path, tmp_path_factory: pytest.TempPathFactory, worker_id: str
) -> list[tuple[Suite, RunPair]]:
    """The generated suites and both runners' reports, run once for the whole session: the
    first xdist worker to ask runs them (about a minute and a half), the others read its
    results (the suites are generated again: they are the same for the same seeds)."""
    suites = [_parallel(generated_suite(seed, CASES_PER_SUITE)) for seed in SEEDS]
    # The session's folder: the workers' base folders are inside it (xdist's `worker_id`).
    session = tmp_path_factory.getbasetemp()
    shared = (session if worker_id == "master" else session.parent) / "generated-run-pairs.json"
    with open(shared.with_suffix(".lock"), "w", encoding="utf-8") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if shared.exists():
            pairs = [RunPair(**raw) for raw in json.loads(shared.read_text(encoding="utf-8"))]
        else:
            pairs = run_pairs(suites, holodeck_cli)
            shared.write_text(json.dumps([asdict(p) for p in pairs]), encoding="utf-8")
    return list(zip(suites, pairs, strict=True))
