"""Every fixture in, its whole list of diagnostics out."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.conftest import FIXTURES
from tests.validation.expectations import invalid_cases, render, validate_fixture

VALID = sorted(p for p in (FIXTURES / "valid").rglob("*.yaml") if p.name != "config.yaml")
INVALID = invalid_cases(FIXTURES / "invalid")


@pytest.mark.parametrize("path", VALID, ids=lambda p: str(p.relative_to(FIXTURES)))
def test_valid_fixture_has_no_diagnostics(path: Path) -> None:
    result = validate_fixture(path)
    assert {f.file: [d.message for d in f.diagnostics] for f in result.files if f.diagnostics} == {}


@pytest.mark.parametrize(("name", "path", "expected_file"), INVALID, ids=[c[0] for c in INVALID])
def test_invalid_fixture_diagnostics(name: str, path: Path, expected_file: Path) -> None:
    got = render(validate_fixture(path), path.parent)
    if os.environ.get("HOLODECK_UPDATE_FIXTURES"):
        expected_file.write_text("\n".join(got) + "\n", encoding="utf-8")
    expected = expected_file.read_text(encoding="utf-8").splitlines()
    assert got == expected


def test_every_invalid_fixture_reports_something() -> None:
    for _name, path, _expected in INVALID:
        assert render(validate_fixture(path), path.parent), path
