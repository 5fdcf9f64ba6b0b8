"""`run --events`: the run as JSON Lines while it goes, every event valid against the
documented schema, failures placed at the field path of what failed; reports unchanged."""

from __future__ import annotations

import json
import shutil
import signal
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from tests.conftest import REPO
from tests.runner.fake_model import Action, FakeModelServer, Hang, last_user_text
from tests.runner.faults import answer, cli, question, suite
from tests.runner.helpers import invoke, strip_timings

EXAMPLE = REPO / "examples" / "convfinqa"
SCHEMA = json.loads((REPO / "docs" / "run-events.schema.json").read_text())


def events_of(text: str) -> list[dict[str, Any]]:
    """Every line parsed and validated against the schema."""
    validator = jsonschema.Draft202012Validator(
        SCHEMA, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER
    )
    events = [json.loads(line) for line in text.splitlines()]
    for event in events:
        validator.validate(event)
    assert [e["seq"] for e in events] == list(range(len(events)))
    return events


def copy_example(tmp_path: Path, *edits: tuple[str, str]) -> Path:
    folder = tmp_path / "convfinqa"
    shutil.copytree(EXAMPLE, folder)
    agent = folder / "agent.yaml"
    text = agent.read_text()
    for old, new in edits:
        assert old in text
        text = text.replace(old, new, 1)
    agent.write_text(text)
    return agent


def replay(agent: Path, *args: str | Path) -> tuple[int, str, str]:
    recording = agent.parent / "replay.jsonl"
    return invoke("run", agent, "--replay", recording, "--no-user-config", "-q", *args)


def test_every_event_of_a_passing_run_is_valid_and_in_order(tmp_path: Path) -> None:
    agent = copy_example(tmp_path)
    events_file = tmp_path / "events.jsonl"
    code, _, err = replay(agent, "--events", events_file, "-o", tmp_path / "with.json")
    assert code == 0, err
    events = events_of(events_file.read_text())
    started, finished = events[0], events[-1]
    assert started["event"] == "run_started" and started["version"] == 1
    assert [(c["label"], len(c["turns"])) for c in started["cases"]] == [
        ("operating cash flow change", 4),
        ("capex share of revenue", 3),
        ("net income growth", 3),
    ]
    assert started["cases"][0]["turns"][1]["path"] == "test_cases[0].turns[1]"
    assert finished["event"] == "run_finished" and finished["exit_code"] == 0
    assert finished["summary"]["passed"] == 3
    kinds = [e["event"] for e in events]
    assert kinds.count("case_started") == kinds.count("case_finished") == 3
    assert kinds.count("turn_finished") == 10
    for case in range(3):
        mine = [e for e in events if e.get("case") == case]
        assert mine[0]["event"] == "case_started" and mine[-1]["event"] == "case_finished"
    # Each metric of each turn, at the agent-level evaluations it was configured at.
    first_turn = [e for e in events if e.get("case") == 0 and e.get("turn") == 0]
    assert [(e["event"], e["path"], e["passed"]) for e in first_turn] == [
        ("assertion", "test_cases[0].turns[0].expected_tools[0]", True),
        ("assertion", "test_cases[0].turns[0].expected_tools[0].args.metric", True),
        ("assertion", "test_cases[0].turns[0].expected_tools[0].args.year", True),
        ("metric", "evaluations.metrics[0]", True),
        ("metric", "evaluations.metrics[1]", True),
        ("metric", "evaluations.metrics[2]", True),
        ("turn_finished", "test_cases[0].turns[0]", True),
    ]
    # The report is the one a run without --events writes.
    code, _, err = replay(agent, "-o", tmp_path / "without.json")
    assert code == 0, err
    with_events, without = (
        strip_timings(json.loads((tmp_path / name).read_text()))
        for name in ("with.json", "without.json")
    )
    assert with_events == without


def test_failures_are_placed_at_the_failing_argument_and_ground_truth(tmp_path: Path) -> None:
    agent = copy_example(
        tmp_path,
        ('year: {regex: "2019"}', 'year: {regex: "2018"}'),
        ('ground_truth: "181001"', 'ground_truth: "190000"'),
    )
    code, out, err = replay(agent, "--events", "-")
    assert code == 1, err
    events = events_of(out)  # stdout holds the events alone
    assert "2 passed, 1 failed" in err
    failed = [e for e in events if e["event"] in ("assertion", "metric") and not e["passed"]]
    assert [
        {k: e[k] for k in ("event", "path", "message", "expected", "actual") if k in e}
        for e in failed
    ] == [
        {
            "event": "assertion",
            "path": "test_cases[0].turns[0].expected_tools[0]",
            "message": "arg 'year' mismatch: expected regex '2018', got '2019'",
            "expected": "lookup",
            "actual": ["lookup"],
        },
        {
            "event": "assertion",
            "path": "test_cases[0].turns[0].expected_tools[0].args.year",
            "message": "expected regex '2018', got '2019'",
            "expected": {"regex": "2018"},
            "actual": "2019",
        },
        {
            "event": "metric",
            "path": "evaluations.metrics[0]",
            "expected": "190000",
            "actual": "181,001",
        },
    ]
    assert failed[2]["ground_truth_path"] == "test_cases[0].turns[1].ground_truth"
    turns = {(e["case"], e["turn"]): e["passed"] for e in events if e["event"] == "turn_finished"}
    assert [key for key, passed in turns.items() if not passed] == [(0, 0), (0, 1)]
    # What an editor shows, where: the failed argument (its expected tool says no more), the
    # failed comparison at the ground truth with both sides; the case lists its turns'.
    year = {
        "path": "test_cases[0].turns[0].expected_tools[0].args.year",
        "message": "expected regex '2018', got '2019'",
        "expected": None,
        "actual": None,
    }
    truth = {
        "path": "test_cases[0].turns[1].ground_truth",
        "message": "metric numeric failed: score 0: not the ground truth within tolerance",
        "expected": "190000",
        "actual": "181,001",
    }
    shown = {
        (e["event"], e["path"]): e["failures"]
        for e in events
        if e["event"] in ("turn_finished", "case_finished") and e["case"] == 0
    }
    assert shown == {
        ("turn_finished", "test_cases[0].turns[0]"): [year],
        ("turn_finished", "test_cases[0].turns[1]"): [truth],
        ("turn_finished", "test_cases[0].turns[2]"): [],
        ("turn_finished", "test_cases[0].turns[3]"): [],
        ("case_finished", "test_cases[0]"): [year, truth],
    }
    assert events[-1]["event"] == "run_finished" and events[-1]["exit_code"] == 1


def test_a_run_that_stops_early_ends_with_run_interrupted(tmp_path: Path) -> None:
    agent = copy_example(tmp_path, ("parallel_test_cases: 3", "parallel_test_cases: 1"))
    recording = agent.parent / "replay.jsonl"
    kept = [
        line
        for line in recording.read_text().splitlines()
        if json.loads(line)["test_case"] == "operating cash flow change"
    ]
    recording.write_text("\n".join(kept) + "\n")
    events_file = tmp_path / "events.jsonl"
    code, _, err = replay(agent, "--events", events_file, "-o", tmp_path / "partial.json")
    assert code == 3, err
    events = events_of(events_file.read_text())
    last = events[-1]
    assert last["event"] == "run_interrupted"
    assert last["reason"].startswith("replay: ")
    # The second case missed its first turn: no turn of it finished, so it did not run.
    assert last["not_run"] == ["capex share of revenue", "net income growth"]
    assert last["exit_code"] == 3
    finished = [e["label"] for e in events if e["event"] == "case_finished"]
    assert finished == ["operating cash flow change"]
    partial = json.loads((tmp_path / "partial.json").read_text())
    assert partial["interrupted"] is True and partial["not_run"] == last["not_run"]


@pytest.mark.parametrize("target", ["missing-folder/events.jsonl"])
def test_an_unwritable_events_file_is_refused_before_the_run(tmp_path: Path, target: str) -> None:
    agent = copy_example(tmp_path)
    code, _, err = replay(agent, "--events", tmp_path / target)
    assert code == 2
    assert "does not exist (checked before any request)" in err


def test_each_attempt_of_a_repeated_case_has_its_own_events(tmp_path: Path) -> None:
    agent = copy_example(tmp_path)
    code, out, err = replay(agent, "--repeat", "2", "--events", "-")
    assert code == 0, err
    events = events_of(out)
    assert events[0]["repeat"] == 2 and len(events[0]["cases"]) == 3
    started = [e["case"] for e in events if e["event"] == "case_started"]
    finished = [e["case"] for e in events if e["event"] == "case_finished"]
    assert sorted(started) == sorted(finished) == [0, 0, 1, 1, 2, 2]
    assert sum(e["event"] == "turn_finished" for e in events) == 20


def test_ctrl_c_ends_the_events_with_run_interrupted(tmp_path: Path) -> None:
    def hanging(path: str, body: dict[str, Any]) -> Action:
        return Hang() if last_user_text(body) == question(3, 1) else answer(path, body)

    with FakeModelServer(hanging) as server:
        agent = suite(tmp_path, server.url)
        events_file = tmp_path / "events.jsonl"
        process = cli("run", agent, "-q", "--events", events_file, "-o", tmp_path / "r.json")
        server.wait_for_requests(11)  # cases 0-2 and case 3's turn 0 done, turn 1 hangs
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=10)
    assert process.returncode == 130, err
    events = events_of(events_file.read_text())
    last = events[-1]
    assert {k: last[k] for k in ("event", "reason", "not_run", "exit_code")} == {
        "event": "run_interrupted",
        "reason": "interrupted by Ctrl-C (SIGINT)",
        "not_run": ["case 3", "case 4"],  # case 3 did not finish: not run, not failed
        "exit_code": 130,
    }
    finished = [e["label"] for e in events if e["event"] == "case_finished"]
    assert finished == ["case 0", "case 1", "case 2"]
    # Case 3's finished turn was reported as it finished.
    assert [e["path"] for e in events if e["event"] == "turn_finished" and e["case"] == 3] == [
        "test_cases[3].turns[0]"
    ]
