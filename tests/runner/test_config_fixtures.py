"""What stops `run` before any call, for each fixture in tests/fixtures/run: its whole
list of diagnostics, compared with the fixture's `expected.txt` as `check`'s are."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from holodeck_lsp.check.results import CheckResult, FileResult
from holodeck_lsp.runner.collect.loading import ConfigError, load_suite
from tests.conftest import FIXTURES
from tests.validation.expectations import render

CASES = sorted(p for p in (FIXTURES / "run").iterdir() if (p / "agent.yaml").exists())


@pytest.mark.parametrize("folder", CASES, ids=lambda p: p.name)
def test_run_fixture_diagnostics(folder: Path) -> None:
    with pytest.raises(ConfigError) as stopped:
        load_suite(folder / "agent.yaml", env={}, user_config=False)
    files = [FileResult(f, ds, text) for f, (ds, text) in stopped.value.diagnostics.items()]
    got = stopped.value.lines + render(CheckResult(files=files), folder)
    expected_file = folder / "expected.txt"
    if os.environ.get("HOLODECK_UPDATE_FIXTURES"):
        expected_file.write_text("\n".join(got) + "\n", encoding="utf-8")
    assert got == expected_file.read_text(encoding="utf-8").splitlines()
