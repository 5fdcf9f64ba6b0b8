"""Fixtures for the differential tests: the HoloDeck 0.7.1 oracle and its verdicts."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.differential.differential_inputs import fixture_files
from tests.differential.oracle_client import Verdict, run_oracle
from tests.differential.oracle_env import IndexUnreachableError, ensure_oracle_env


@pytest.fixture(scope="session")
def oracle_python() -> Path:
    """The oracle venv's interpreter, built on first use (a few seconds, then cached)."""
    try:
        return ensure_oracle_env()
    except IndexUnreachableError as exc:
        if os.environ.get("CI"):
            pytest.fail(f"CI must build the HoloDeck oracle: {exc}")
        pytest.skip(f"HoloDeck oracle unavailable: {exc}")


@pytest.fixture(scope="session")
def fixture_verdicts(oracle_python: Path) -> dict[Path, Verdict]:
    """HoloDeck's verdict on every fixture and case, from one oracle run."""
    return run_oracle(oracle_python, fixture_files())
