"""The fast suite's two savings in tests/support stay in use: the command line's click
command built once (`cli_runner.py`), the test modules rewritten once before the workers
start (`suite_bytecode.py`, which relies on pytest's private cache layout)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.support.suite_bytecode import rewritten_path, suite_modules

TESTS = Path(__file__).resolve().parents[1]


def test_no_test_module_builds_the_click_command_per_invocation() -> None:
    typer_runner = re.compile(r"^\s*from typer\.testing import", re.MULTILINE)
    found = sorted(
        str(path.relative_to(TESTS))
        for path in suite_modules(TESTS)
        if typer_runner.search(path.read_text("utf-8"))
    )
    assert found == []


def test_this_module_was_rewritten_before_the_workers_started(
    request: pytest.FixtureRequest,
) -> None:
    if request.config.getoption("assertmode") != "rewrite":
        pytest.skip("asserts are not rewritten in this run")
    cached = rewritten_path(Path(__file__))
    assert cached.is_file(), f"{cached} missing: suite_bytecode.py no longer fits pytest"
