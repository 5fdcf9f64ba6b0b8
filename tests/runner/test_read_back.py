"""A report read back (by `merge` and `--from-report`) says what the run scored: for each
turn of generated suites (tool assertions of every shape, graders that raise, metrics that
cannot be computed, single-turn cases) and of a Python agent that raises, the verdict of
each expected tool, the turn's failure and its error lines read back from the JSON report
are what the run's events said; and the HTML and JUnit reports the run rendered from its
own records are byte for byte those rendered from the JSON report read back."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from holodeck_lsp.models.test_result import TestReport
from holodeck_lsp.runner.report.formats import render_html, render_junit
from holodeck_lsp.runner.score.read_back import read_case, read_records
from holodeck_lsp.runner.score.rollup import result_turns
from tests.differential.runner import suites as differential
from tests.runner.fake_model import FakeModelServer
from tests.runner.helpers import invoke, write
from tests.support.capture_outputs import PYTHON_AGENT, PYTHON_SUITE


def _run(agent: Path, *args: str) -> tuple[TestReport, list[dict[str, Any]]]:
    """The run's JSON report and events; its HTML and JUnit reports, rendered from the
    records the run built, are checked against those rendered from the JSON read back."""
    folder = agent.parent
    report, events = folder / "report.json", folder / "events.jsonl"
    html, junit = folder / "report.html", folder / "report.xml"
    code, _, err = invoke("run", agent, "-p", "1", "-q", "-o", report, "-o", html, "-o", junit,
                          "--events", events, *args)  # fmt: skip
    assert code in (0, 1), err
    lines = events.read_text(encoding="utf-8").splitlines()
    read = TestReport.model_validate_json(report.read_text())
    records = read_records(read)
    assert render_html(read, records) == html.read_text(encoding="utf-8")
    assert render_junit(read, records) == junit.read_text(encoding="utf-8")
    return read, [json.loads(x) for x in lines]


def _compare(report: TestReport, events: list[dict[str, Any]]) -> int:
    """Each turn read back against its events; the number of turns compared."""
    finished = {(e["case"], e["turn"]): e for e in events if e["event"] == "turn_finished"}
    tools: dict[tuple[int, int], list[bool]] = {}
    for event in events:
        if event["event"] == "assertion" and event["kind"] == "tool":
            tools.setdefault((event["case"], event["turn"]), []).append(event["passed"])
    indexes = [int(i) for i in report.environment["case_indexes"].split(",")]
    compared = 0
    for index, result in zip(indexes, report.results, strict=True):
        for turn, score in zip(result_turns(result), read_case(result, index), strict=True):
            event = finished[(index, turn.turn_index)]
            ran = [f["message"] for f in event["failures"] if f["path"].endswith(".input")]
            assert ([score.failure] if score.failure is not None else []) == ran, event
            assert score.errors == turn.errors
            read = [c.passed for c in score.checks]
            said = tools.get((index, turn.turn_index), [])
            assert read == [None if r is None else s for r, s in zip(read, said, strict=True)]
            compared += 1
    return compared


@pytest.mark.parametrize("seed", [0, 3, 5])
def test_a_generated_suite_read_back(
    seed: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    suite = differential.generated_suite(seed, 10)
    agent = suite.write(tmp_path / suite.name)
    with FakeModelServer(suite.service_script()) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.url)
        monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
        report, events = _run(agent)
    assert _compare(report, events) >= 10


def test_an_agent_that_raises_read_back(tmp_path: Path) -> None:
    agent = write(tmp_path, {"agent.yaml": PYTHON_SUITE, "my_agent.py": PYTHON_AGENT})
    report, events = _run(agent, "--agent", "my_agent:factory", "--no-user-config")
    assert _compare(report, events) == 3
    (lost,) = [e for e in events if e["event"] == "turn_finished" and e["errors"]]
    assert lost["failures"] == [
        {
            "path": "test_cases[0].turns[1].input",
            "message": "Agent error: ValueError: the agent broke",
            "expected": None,
            "actual": None,
        }
    ]
