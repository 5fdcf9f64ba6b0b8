"""A regex cannot hang a run (issue 19, item 5): `{regex: "(a+)+b"}` against a model
argument of 25 or more `a` and `!` backtracks for hours in Python's `re`. A regex gets 1 s
of matching per turn, however many calls the model makes: past it the assertion fails
naming the pattern, where it is written and the limit, and the run goes on; Ctrl-C in the
middle of a match stops the run at once with what finished.

The clock is read only where a defect would cost far more than a busy machine does: the
model makes 40 such calls, so a limit per call would make one turn last 40 s."""

from __future__ import annotations

import json
import signal
import time
from pathlib import Path
from typing import NamedTuple

import pytest

from holodeck_lsp.runner.score.regex_limit import REGEX_LIMIT
from tests.runner.faults import cli, report
from tests.runner.helpers import write
from tests.security.processes import child_running, wait_for

CALLS = 40  # the model's calls of `lookup` in a hostile turn, each a match of hours
HOSTILE = "a" * (24 + CALLS) + "!"  # the last of them
RUN_BOUND = CALLS * REGEX_LIMIT / 2  # seconds: a run takes a few, a limit per call CALLS
HANG_GUARD = 60  # seconds: only a hang takes this long
LLM_TIMEOUT = 5  # execution.llm_timeout of the suite
AGENT = f"""
name: hostile
model:
  provider: openai
  name: unused
instructions:
  inline: unused
execution:
  llm_timeout: {LLM_TIMEOUT}
test_cases:
  - name: plain
    input: plain
    expected_tools:
      - name: lookup
        args:
          q: 1
  - name: catastrophic
    turns:
      - input: catastrophic
        expected_tools:
          - name: lookup
            args:
              q:
                regex: "(a+)+b"
  - name: after
    input: after
    expected_tools:
      - name: lookup
        args:
          q:
            regex: "a+!"
"""
# The model's side: it calls `lookup` with the hostile argument (1 for the plain case).
MODULE = f"""
import sys

CALLS = {CALLS}
""" + """
def factory():
    class Hostile:
        def send(self, message):
            print("replied to " + message, file=sys.stderr, flush=True)
            if message == "plain":
                calls = [{"name": "lookup", "args": {"q": 1}}]
            else:  # CALLS calls, each a match of hours
                calls = [{"name": "lookup", "args": {"q": "a" * n + "!"}}
                         for n in range(25, 25 + CALLS)]
            return {"text": "done", "tool_calls": calls}
    return Hostile()
"""
TIMED_OUT = (
    "expected lookup(q~(a+)+b): arg 'q' mismatch: regex '(a+)+b' "
    "(test_cases[1].turns[0].expected_tools[0].args.q.regex) timed out "
    f"(a regex gets 1 s of matching per turn), got '{HOSTILE}'"
)


def _suite(folder: Path) -> Path:
    write(folder, {"hostile.py": MODULE})
    return write(folder, {"agent.yaml": AGENT})


class Run(NamedTuple):
    folder: Path
    agent: Path
    returncode: int
    elapsed: float  # seconds, from start to exit
    err: str


@pytest.fixture(scope="module")
def hostile_run(tmp_path_factory: pytest.TempPathFactory) -> Run:
    """One run of the hostile suite, with its report and events: a second of matching."""
    folder = tmp_path_factory.mktemp("hostile")
    agent = _suite(folder)
    start = time.monotonic()
    process = cli("run", agent, "-q", "--agent", "hostile:factory",
                  "-o", folder / "report.json", "--events", folder / "events.jsonl")
    try:
        _, err = process.communicate(timeout=HANG_GUARD)
    finally:
        process.kill()
    return Run(folder, agent, process.returncode, time.monotonic() - start, err)


def test_a_catastrophic_regex_fails_its_assertion_and_the_run_goes_on(hostile_run: Run) -> None:
    data = report(hostile_run.folder / "report.json")
    # 1 s of matching for the turn, not 1 s for each of the model's CALLS calls.
    assert (hostile_run.returncode, hostile_run.elapsed < RUN_BOUND) == (1, True), hostile_run
    assert [(r["test_name"], r["passed"], r["errors"]) for r in data["results"]] == [
        ("plain", True, []),
        ("catastrophic", False, [f"[turn 0] {TIMED_OUT}"]),
        ("after", True, []),
    ]
    # The events tell the same verdict, at the argument's path, without matching again.
    events = (hostile_run.folder / "events.jsonl").read_text().splitlines()
    arguments = [
        (e["path"], e["passed"], e["message"])
        for e in map(json.loads, events)
        if e["event"] == "assertion" and e["kind"] == "arg"
    ]
    assert arguments == [
        ("test_cases[0].expected_tools[0].args.q", True, None),
        ("test_cases[1].turns[0].expected_tools[0].args.q", False, TIMED_OUT.split(": ", 2)[2]),
        ("test_cases[2].expected_tools[0].args.q", True, None),
    ]


def test_ctrl_c_in_the_middle_of_a_match_stops_the_run_at_once(tmp_path: Path) -> None:
    path = _suite(tmp_path)
    out = tmp_path / "report.json"
    process = cli("run", path, "-q", "--agent", "hostile:factory", "-o", out)
    try:
        assert process.stderr is not None
        assert process.stderr.readline() == "replied to plain\n"
        assert process.stderr.readline() == "replied to catastrophic\n"
        matcher = wait_for(lambda: child_running(process.pid, "regex_child.py"))
        sent = time.monotonic()
        process.send_signal(signal.SIGINT)
        # Killed at once, not left to match out the second its limit gives it (which a
        # run waiting for the match would do): a kill takes milliseconds, even when busy.
        wait_for(lambda: _ended(matcher) or None, limit=REGEX_LIMIT / 2)
        _, err = process.communicate(timeout=HANG_GUARD)
        stopped = time.monotonic() - sent
    finally:
        process.kill()
    data = report(out)
    # Nor does the run wait for the turn's own time limit.
    assert (process.returncode, stopped < LLM_TIMEOUT) == (130, True), err
    assert data["stop_reason"] == "interrupted by Ctrl-C (SIGINT)"
    assert [(r["test_name"], r["passed"]) for r in data["results"]] == [("plain", True)]
    assert data["not_run"] == ["catastrophic", "after"]
    assert child_running(process.pid, "regex_child.py") is None
    assert not Path(f"/proc/{matcher}").exists()  # killed and reaped, not left matching


def test_events_from_a_report_are_bounded_too(hostile_run: Run) -> None:
    # A report from elsewhere (CI) holds the model's calls: placing it on the suite matches
    # the suite's regexes against them again, under the same limit (its message says so).
    report_path = hostile_run.folder / "report.json"
    process = cli("run", hostile_run.agent, "--from-report", report_path, "--events", "-")
    try:
        stdout, err = process.communicate(timeout=HANG_GUARD)
    finally:
        process.kill()
    assert process.returncode == 1, err
    argument = "test_cases[1].turns[0].expected_tools[0].args.q"
    messages = [
        e["message"]
        for e in map(json.loads, stdout.splitlines())
        if e["event"] == "assertion" and e["path"] == argument
    ]
    assert messages == [TIMED_OUT.split(": ", 2)[2]]


def test_a_run_killed_mid_match_leaves_no_matcher_behind(tmp_path: Path) -> None:
    # The matcher watches its parent: once the run is gone (kill -9, a second Ctrl-C's
    # immediate exit), it ends too, instead of backtracking for hours.
    path = _suite(tmp_path)
    process = cli("run", path, "-q", "--agent", "hostile:factory")
    try:
        assert process.stderr is not None
        assert process.stderr.readline() == "replied to plain\n"
        assert process.stderr.readline() == "replied to catastrophic\n"
        matcher = wait_for(lambda: child_running(process.pid, "regex_child.py"))
    finally:
        process.kill()
        process.communicate()
    wait_for(lambda: _ended(matcher) or None, limit=5)


def _ended(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True
