"""Fixtures of the runner differential: HoloDeck's runner, and the generated suites run by
both runners once per session (several tests read the same reports)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.differential.oracle_env import IndexUnreachableError
from tests.differential.runner.harness import RunPair, Suite, run_pair
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
def generated(holodeck_cli: Path) -> list[tuple[Suite, RunPair]]:
    suites = [_parallel(generated_suite(seed, CASES_PER_SUITE)) for seed in SEEDS]
    return [(suite, run_pair(suite, holodeck_cli)) for suite in suites]
