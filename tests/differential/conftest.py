"""Fixtures for the differential tests: the HoloDeck 0.7.1 oracle and its verdicts."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

# The helpers next to this file are plain modules, not a package: make them importable
# whatever import mode pytest runs in.
_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)

from differential_inputs import fixture_files  # noqa: E402
from oracle_client import Verdict, run_oracle  # noqa: E402
from oracle_env import IndexUnreachableError, ensure_oracle_env  # noqa: E402


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
