"""`run --baseline`: the baseline cut to what the run runs (a case not selected did not
go away, nor did the turns after `--up-to-turn`), and, while the run goes, each finished
turn and test case told against the baseline's for `--events` (an editor marks a regressed
turn as it comes)."""

from __future__ import annotations

from dataclasses import replace

from holodeck_lsp.models.comparison import Change, TurnChange, TurnOutcome
from holodeck_lsp.models.test_result import TestResult, TurnResult
from holodeck_lsp.runner.collect.plan import PlannedCase
from holodeck_lsp.runner.report.comparison.change_groups import change_text, outcome_text
from holodeck_lsp.runner.report.comparison.run_sides import CaseKey, RunSide, SideCase, case_keys
from holodeck_lsp.runner.report.comparison.side_outcomes import side_turns, turn_outcome
from holodeck_lsp.runner.report.comparison.turn_changes import turn_change, verdict_change

ONE_ATTEMPT = 1.0  # the pass rule of a single attempt: it passed or it did not


def _cut(case: SideCase, turns: int) -> SideCase:
    """The case's attempts up to its first ``turns`` turns."""

    def cut(result: TestResult) -> TestResult:
        if result.turns is None:
            return result
        kept = result.turns[:turns]
        return result.model_copy(update={"turns": kept, "passed": all(t.passed for t in kept)})

    return replace(case, result=cut(case.result), attempts=[cut(r) for r in case.attempts])


def ran_part(baseline: RunSide, suite: list[PlannedCase], ran: list[PlannedCase]) -> RunSide:
    """The baseline as this run can be compared with it: its cases this run selected (cut
    to the turns it runs) and those the suite no longer has."""
    keys = dict(zip((c.index for c in suite), suite_keys(suite), strict=True))
    in_suite = set(keys.values())
    turns = {keys[c.index]: len(c.turns) for c in ran}
    kept = [
        _cut(case, turns[case.key]) if case.key in turns else case
        for case in baseline.cases
        if case.key in turns or case.key not in in_suite
    ]
    return replace(baseline, cases=kept)


def suite_keys(suite: list[PlannedCase]) -> list[CaseKey]:
    return case_keys([c.name for c in suite], [c.index for c in suite])


class BaselineMarks:
    """The baseline's outcome of each case of the suite, to tell each finished turn (one
    attempt) and case against it as the run goes."""

    def __init__(self, baseline: RunSide, suite: list[PlannedCase]) -> None:
        self._cases = {case.key: case for case in baseline.cases}
        keys = suite_keys(suite)
        self._keys: dict[int, CaseKey] = {c.index: key for c, key in zip(suite, keys, strict=True)}
        self._share = baseline.pass_share
        self._turns: dict[CaseKey, dict[int, TurnOutcome]] = {}

    def _before(self, case: PlannedCase) -> dict[int, TurnOutcome]:
        key = self._keys[case.index]
        if key not in self._turns:
            found = self._cases.get(key)
            self._turns[key] = side_turns(found, self._share) if found is not None else {}
        return self._turns[key]

    def turn(self, case: PlannedCase, result: TurnResult) -> dict[str, object]:
        """A finished turn (one attempt) against the baseline's, as an event's field."""
        before = self._before(case).get(result.turn_index)
        change: TurnChange = turn_change(
            result.turn_index, before, turn_outcome([result], ONE_ATTEMPT)
        )
        return {
            "change": change.change,
            "regression": change.regression,
            "before": outcome_text(before) if before is not None else None,
            "text": change_text(change),
        }

    def case(self, case: PlannedCase, result: TestResult) -> dict[str, object]:
        """A finished test case's verdict against the baseline's, as an event's field."""
        found = self._cases.get(self._keys[case.index])
        change: Change = verdict_change(
            found.result.passed if found is not None else None, result.passed
        )
        return {"change": change}
