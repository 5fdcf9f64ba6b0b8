"""`run --baseline REPORT`: what changed since an earlier run, beside each case: after the
summary on the terminal, in a column and in each case's section of the Markdown report,
beside each case's name in the HTML report; the run's own JSON report and exit code stay
as they are without it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REPO
from tests.runner.compared_runs import run_of, without_times
from tests.runner.helpers import invoke, strip_timings
from tests.runner.test_compare import BASE_ANSWERS, BASE_CASES, HEAD_ANSWERS, HEAD_CASES
from tests.runner.test_events import events_of
from tests.runner.test_html_report import Page


@pytest.fixture
def head(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The change's suite with the scripted agent, and the main branch's report beside it."""
    monkeypatch.chdir(tmp_path)
    run_of(Path("base"), BASE_CASES, BASE_ANSWERS)
    run_of(Path("head"), HEAD_CASES, HEAD_ANSWERS)
    return Path("head/agent.yaml")


def _run(agent: Path, *args: str) -> tuple[int, str, str]:
    return invoke("run", agent, "--agent", "scripted:factory", "--no-user-config", "-q", *args)


def test_the_terminal_tells_what_changed_since_the_baseline(head: Path) -> None:
    code, out, err = _run(head, "--baseline", "base/report.json")
    assert (code, err) == (1, "")
    assert without_times(out) == (
        "8 test case(s) run (11 turn(s)): 6 passed, 2 failed (75%) in N s\n"
        "against base/report.json: turns: 1 regressed, 1 fixed, 1 still failing, "
        "5 still passing, 3 new, 2 removed\n"
        "  REGRESSED  breaks: turn 1: passed -> failed\n"
        "  mends: turn 0: failed -> passed\n"
        "  grows: turn 1: new: passed\n"
        "  new name: new\n"
        "  added: new\n"
        "  old name: removed\n"
        "  gone: removed\n"
    )


def test_the_markdown_report_has_the_deltas_beside_each_case(head: Path) -> None:
    code, _, err = _run(head, "--baseline", "base/report.json", "-o", "run.md", "-o", "run.json")
    assert code == 1, err
    lines = without_times(Path("run.md").read_text()).splitlines()
    assert lines[4:20] == [
        "Against the baseline `base/report.json` (6/8 passed): turns: 1 regressed, 1 fixed, "
        "1 still failing, 5 still passing, 3 new, 2 removed.",
        "",
        "Not in this run: `old name`, `gone`.",
        "",
        "| test case | result | turns passed | time | vs baseline |",
        "|---|---|---|---|---|",
        "| `test case 0` | PASS | single turn | N ms | no change |",
        "| `steady` | PASS | 2/2 | N ms | no change |",
        "| `breaks` | FAIL | 1/2 | N ms | **regressed** (turn 1: passed -> failed) |",
        "| `mends` | PASS | single turn | N ms | turn 0: failed -> passed |",
        "| `stuck` | FAIL | single turn | N ms | no change |",
        "| `grows` | PASS | 2/2 | N ms | turn 1: new: passed |",
        "| `new name` | PASS | single turn | N ms | new |",
        "| `added` | PASS | single turn | N ms | new |",
        "",
        "| metric | cases | mean score |",
    ]
    assert (
        "Against the baseline: **regressed** (turn 1: passed -> failed); scores: "
        "turn 1 `equality` -1.00"
    ) in lines
    # The JSON report is the run's own: the same with or without a baseline.
    with_baseline = json.loads(Path("run.json").read_text())
    _run(head, "-o", "run.json")
    without = json.loads(Path("run.json").read_text())
    assert strip_timings(with_baseline) == strip_timings(without)


def test_a_baseline_that_cannot_be_read_stops_the_run_before_it_starts(head: Path) -> None:
    assert _run(head, "--baseline", "none.json", "-o", "run.json") == (
        2,
        "",
        "error: cannot read none.json: it does not exist\n",
    )
    assert not Path("run.json").exists()


def test_the_html_report_has_the_deltas_beside_each_case(head: Path) -> None:
    code, _, err = _run(head, "--baseline", "base/report.json", "-o", "run.html")
    assert code == 1, err
    page = Page(Path("run.html").read_text(encoding="utf-8"))
    # Links within the page only; the baseline's line links each regressed case.
    assert all(a["href"].startswith("#") for _, a in page.tags if a.get("href"))
    assert "Regressed: breaks ." in " ".join(page.text)
    classes = [a.get("class") or "" for t, a in page.tags if t == "span"]
    deltas = [c for c in classes if c.startswith("delta")]
    assert deltas == ["delta"] * 2 + ["delta reg"] + ["delta"] * 5
    text = " ".join(page.text)
    assert (
        "Against the baseline base/report.json : turns: 1 regressed, 1 fixed, 1 still failing, "
        "5 still passing, 3 new, 2 removed. Regressed: breaks . Not in this run: old name, gone."
    ) in text
    assert "regressed: turn 1: passed -> failed" in page.text
    assert "turn 0: failed -> passed" in page.text


def test_events_tell_each_turn_and_case_against_the_baseline(head: Path) -> None:
    code, out, err = _run(head, "--baseline", "base/report.json", "--events", "-")
    assert code == 1, err
    events = events_of(out)
    turns = {(e["case"], e["turn"]): e["baseline"] for e in events if e["event"] == "turn_finished"}
    assert turns[(2, 1)] == {
        "change": "regressed",
        "regression": True,
        "before": "passed",
        "text": "passed -> failed",
    }
    assert turns[(3, 0)] == {
        "change": "fixed",
        "regression": False,
        "before": "failed",
        "text": "failed -> passed",
    }
    assert turns[(5, 1)]["change"] == "new" and turns[(5, 1)]["before"] is None
    cases = [(e["label"], e["baseline"]["change"]) for e in events if e["event"] == "case_finished"]
    assert sorted(cases) == [
        ("added", "new"),
        ("breaks", "regressed"),
        ("grows", "still_passing"),
        ("mends", "fixed"),
        ("new name", "new"),
        ("steady", "still_passing"),
        ("stuck", "still_failing"),
        ("test_cases[0]", "still_passing"),
    ]


def test_a_case_run_alone_is_compared_with_its_baseline_alone(head: Path) -> None:
    """The cases "Run case" leaves out did not go away, nor did the turns after
    --up-to-turn: only the cases the suite no longer has are removed."""
    code, out, _ = _run(head, "--baseline", "base/report.json", "--case", "2")
    assert code == 1
    assert out.splitlines()[1:] == [
        "against base/report.json: turns: 1 regressed, 0 fixed, 0 still failing, "
        "1 still passing, 0 new, 2 removed",
        "  REGRESSED  breaks: turn 1: passed -> failed",
        "  old name: removed",
        "  gone: removed",
    ]
    code, out, _ = _run(head, "--baseline", "base/report.json", "--case", "2", "--up-to-turn", "0")
    assert code == 0
    assert out.splitlines()[1] == (
        "against base/report.json: turns: 0 regressed, 0 fixed, 0 still failing, "
        "1 still passing, 0 new, 2 removed"
    )


def test_a_report_shown_from_ci_is_told_against_the_baseline(head: Path) -> None:
    """`run --from-report` (the editor's "show a CI report") marks regressions too."""
    args = ("--from-report", "head/report.json", "--baseline", "base/report.json")
    code, out, _ = _run(head, *args, "--events", "-")
    assert code == 1
    regressed = [
        (e["case"], e["turn"])
        for e in events_of(out)
        if e["event"] == "turn_finished" and e["baseline"]["regression"]
    ]
    assert regressed == [(2, 1)]


def _timeless(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return strip_timings(
        [{k: v for k, v in e.items() if k not in ("time", "duration_ms")} for e in events]
    )


def test_the_extensions_fixture_of_a_regressed_turn_is_what_run_writes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """vscode-extension/test/fixtures/events/regressed-turn.jsonl: "Run turn" of the example
    with turn 1 broken, against the report of the example as it is."""
    for side in ("main", "pr"):
        shutil.copytree(REPO / "examples" / "convfinqa", tmp_path / side)
    monkeypatch.chdir(tmp_path / "main")
    assert (
        invoke("run", "agent.yaml", "--replay", "replay.jsonl", "-q", "-o", "../main.json")[0] == 0
    )
    monkeypatch.chdir(tmp_path / "pr")
    agent = Path("agent.yaml")
    text = agent.read_text().replace('ground_truth: "181001"', 'ground_truth: "190000"', 1)
    agent.write_text(text.replace('year: {regex: "2020"}', 'year: {regex: "2021"}', 1))
    code, out, _ = invoke(
        "run", agent, "--case", "0", "--up-to-turn", "1", "--replay", "replay.jsonl", "-q",
        "--baseline", "../main.json", "--events", "-",
    )  # fmt: skip
    assert code == 1
    fixture = REPO / "vscode-extension" / "test" / "fixtures" / "events" / "regressed-turn.jsonl"
    assert _timeless(events_of(out)) == _timeless(events_of(fixture.read_text()))
