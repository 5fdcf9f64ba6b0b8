"""`run --case N [--up-to-turn T]` runs one test case, up to a turn; `run --from-report`
writes a report's results as the events of the suite, running nothing (what an editor
uses to show a CI failure at its line)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.runner.helpers import invoke
from tests.runner.test_events import copy_example, events_of, replay


def without_times(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    drop = {"time", "seq", "duration_ms", "summary"}
    return [{k: v for k, v in e.items() if k not in drop} for e in events]


def test_one_case_up_to_a_turn(tmp_path: Path) -> None:
    agent = copy_example(tmp_path, ('ground_truth: "181001"', 'ground_truth: "190000"'))
    code, out, err = replay(agent, "--case", "0", "--up-to-turn", "1", "--events", "-")
    assert code == 1, err
    events = events_of(out)
    assert [(c["label"], len(c["turns"])) for c in events[0]["cases"]] == [
        ("operating cash flow change", 2)
    ]
    finished = [(e["path"], e["passed"]) for e in events if e["event"] == "turn_finished"]
    assert finished == [("test_cases[0].turns[0]", True), ("test_cases[0].turns[1]", False)]
    code, out, err = replay(agent, "--case", "2", "--events", "-")
    assert code == 0, err
    assert [e["case"] for e in events_of(out) if e["event"] == "case_finished"] == [2]


def test_a_case_or_turn_that_is_not_there_is_a_usage_error(tmp_path: Path) -> None:
    agent = copy_example(tmp_path)
    for args, message in (
        (("--case", "7"), "there is no test case 7 (test_cases[7]) to run"),
        (("--case", "1", "--up-to-turn", "3"), "test case capex share of revenue has no turn 3"),
        (("--up-to-turn", "1"), "--up-to-turn needs --case"),
    ):
        code, _, err = replay(agent, *args)
        assert (code, err) == (2, f"error: {message}\n")


def test_a_report_read_back_gives_the_events_of_the_run_that_made_it(tmp_path: Path) -> None:
    agent = copy_example(
        tmp_path,
        ('ground_truth: "181001"', 'ground_truth: "190000"'),
        ('year: {regex: "2019"}', 'year: {regex: "2018"}'),
    )
    report = tmp_path / "report.json"
    code, live, err = replay(agent, "--events", "-", "-o", report, "--parallel", "1")
    assert code == 1, err
    code, read_back, err = replay(agent, "--from-report", report, "--events", "-")
    assert code == 1, err
    assert without_times(events_of(read_back)) == without_times(events_of(live))
    # Nothing runs: no recording is needed.
    (agent.parent / "replay.jsonl").unlink()
    args = ("run", agent, "--no-user-config", "-q", "--from-report", report, "--events", "-")
    code, again, err = invoke(*args)
    assert code == 1, err
    assert without_times(events_of(again)) == without_times(events_of(live))


def test_from_report_needs_events_and_a_report(tmp_path: Path) -> None:
    agent = copy_example(tmp_path)
    code, _, err = replay(agent, "--from-report", tmp_path / "none.json")
    assert (code, err) == (2, "error: --from-report writes events: give --events FILE or -\n")
    (tmp_path / "bad.json").write_text(json.dumps({"results": []}))
    code, _, err = replay(agent, "--from-report", tmp_path / "bad.json", "--events", "-")
    assert code == 2
    assert err.startswith(f"error: {tmp_path / 'bad.json'} is not a test report")
