"""Each test case's and turn's record over the last runs of a history: how many of them
ran it and passed it, whether it is flaky, since when it fails. The editor's hover and
Testing view, and the HTML report's turns, tell it."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from holodeck_lsp.history.case_keys import CaseKey
from holodeck_lsp.history.run_filters import RunFilter
from holodeck_lsp.history.run_history import read_history
from holodeck_lsp.history.run_records import FAILED, PASSED, display_time
from holodeck_lsp.history.turn_history import NOT_RUN, turn_histories

LAST_RUNS = 20  # the runs a record is told over


@dataclass(frozen=True)
class Standing:
    """A case's or turn's record over the last runs."""

    runs: int  # of the last runs, those that ran it
    passed: int
    flaky: bool  # it both passed and failed (in runs or attempts)
    failing_since: str | None  # the time of the run its failing streak began
    last: int  # the runs looked at (at most LAST_RUNS)

    def sentence(self) -> str:
        if self.runs == self.last:
            text = f"passed {self.passed} of the last {self.runs} run(s)"
        else:
            text = (
                f"passed {self.passed} of the {self.runs} of the last {self.last} run(s) "
                "that ran it"
            )
        if self.flaky:
            text += "; flaky"
        if self.failing_since is not None:
            text += f"; failing since {self.failing_since}"
        return text

    def as_json(self) -> dict[str, Any]:
        return {
            "runs": self.runs,
            "passed": self.passed,
            "flaky": self.flaky,
            "failingSince": self.failing_since,
            "text": self.sentence(),
        }


@dataclass(frozen=True)
class Standings:
    """The records of one agent's cases and turns."""

    turns: dict[tuple[CaseKey, int], Standing]
    cases: dict[CaseKey, Standing]

    def of(self, key: CaseKey, turn: int | None) -> Standing | None:
        """A turn's record, or with no turn its case's."""
        return self.turns.get((key, turn)) if turn is not None else self.cases.get(key)


def _failing_since(outcomes: str, times: list[str]) -> str | None:
    ran = [i for i, o in enumerate(outcomes) if o != NOT_RUN]
    if not ran or outcomes[ran[-1]] == PASSED:
        return None
    since = ran[-1]
    for index in reversed(ran):
        if outcomes[index] == PASSED:
            break
        since = index
    return times[since]


def standings(folder: Path, update_index: bool = False) -> Standings | None:
    """The records over the last runs kept in ``folder``; None when it keeps none.
    ``update_index``: add what the files read give to the folder's index."""
    history = read_history(folder, update_index=update_index)
    runs = RunFilter(last=LAST_RUNS).select(history.runs)
    if not runs:
        return None
    times = [display_time(run.timestamp) for run in runs]
    last = len(runs)
    turns = {
        (t.case_key, t.turn): Standing(
            t.runs, t.passed_runs, t.flaky, _failing_since(t.outcomes, times), last
        )
        for t in turn_histories(runs)
    }
    verdicts: dict[CaseKey, list[str]] = {}
    mixed: dict[CaseKey, bool] = {}
    for position, run in enumerate(runs):
        for case in run.cases:
            row = verdicts.setdefault(case.key, [NOT_RUN] * last)
            row[position] = PASSED if case.passed else FAILED
            tried = case.verdicts
            mixed[case.key] = mixed.get(case.key, False) or 0 < tried.count(PASSED) < len(tried)
    cases = {}
    for key, row in verdicts.items():
        outcomes = "".join(row)
        ran = last - outcomes.count(NOT_RUN)
        passed = outcomes.count(PASSED)
        flaky = mixed[key] or 0 < passed < ran
        cases[key] = Standing(ran, passed, flaky, _failing_since(outcomes, times), last)
    return Standings(turns, cases)
