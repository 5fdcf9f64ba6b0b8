"""A HoloDeck user gets JUnit and our Markdown from `holodeck test`'s own JSON report."""

from __future__ import annotations

import json
from pathlib import Path

from junitparser import Failure, JUnitXml

from tests.conftest import REPO
from tests.runner.helpers import invoke

HOLODECK_REPORT = REPO / "tests" / "data" / "holodeck" / "holodeck-report.json"


def test_merge_turns_a_holodeck_report_into_junit_markdown_and_json(tmp_path: Path) -> None:
    xml, md, merged = tmp_path / "report.xml", tmp_path / "report.md", tmp_path / "all.json"
    code, out, err = invoke("merge", HOLODECK_REPORT, "-o", xml, "-o", md, "-o", merged)
    assert code == 1, err  # one of its two test cases failed
    assert out.startswith("2 test case(s) run (3 turn(s)): 1 passed, 1 failed (50%)")
    suites = list(JUnitXml.fromfile(str(xml)))
    assert [(s.name, s.tests, s.failures, s.errors) for s in suites] == [
        ("cash change", 2, 1, 0),
        ("capital", 1, 0, 0),
    ]
    failure = list(suites[0])[1].result[0]
    assert isinstance(failure, Failure)
    assert (
        failure.message
        == "expected lookup(year=2020): arg 'year' mismatch: expected '2020', got '2021'"
    )
    text = md.read_text()
    assert "| `cash change` | FAIL | 1/2 |" in text
    assert "- turn 1: `expected lookup(year=2020): arg 'year' mismatch" in text
    # The results come through unchanged.
    original = json.loads(HOLODECK_REPORT.read_text())
    assert json.loads(merged.read_text())["results"] == original["results"]
