"""The documented code table is the code list, row for row."""

from __future__ import annotations

import re

from holodeck_lsp.validation.codes import RULES
from holodeck_lsp.validation.pydantic_errors import _CUSTOM_CODES
from tests.conftest import FIXTURES, REPO

ROW = re.compile(r"^\| (HL\d{3}) \| ([a-z0-9-]+) \| (error|warning|information|hint) \| (.+) \|$")


def test_doc_table_matches_rules() -> None:
    text = (REPO / "docs" / "diagnostic-codes.md").read_text(encoding="utf-8")
    documented = [m.groups() for line in text.splitlines() if (m := ROW.match(line))]
    expected = [(r.code, r.name, r.severity.label, r.summary) for r in RULES.values()]
    assert documented == expected


def test_every_custom_error_has_a_known_code() -> None:
    assert set(_CUSTOM_CODES.values()) <= set(RULES)


def test_every_documented_code_is_emitted_by_a_fixture() -> None:
    """Each code is shown happening: `check` fixtures (tests/fixtures/invalid) and `run`
    fixtures (tests/fixtures/run), whose expectations their own tests compare whole."""
    expectations = [*FIXTURES.rglob("*.expected"), *FIXTURES.rglob("expected.txt")]
    text = "\n".join(f.read_text(encoding="utf-8") for f in expectations)
    emitted = set(re.findall(r" (HL\d{3})$", text, re.M))
    assert sorted(set(RULES) - emitted) == []
