"""Each turn over a history: its verdict in every run (by the run's own pass rule over
its attempts), its pass rate over every attempt, whether it is flaky (it both passed and
failed), and the run where it started failing (the first of the failing runs it ends on).
The editor's hover and `holodeck-lsp history` tell the same numbers."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from holodeck_lsp.history.case_keys import CaseKey, case_label
from holodeck_lsp.history.pass_rule import rule_passes
from holodeck_lsp.history.run_records import FAILED, PASSED, HistoryRun

NOT_RUN = "-"  # a turn's outcome in a run that did not run it


@dataclass
class TurnHistory:
    """One turn of one test case, over the runs of a history (oldest first)."""

    case_key: CaseKey
    case_name: str | None
    case_index: int  # its place in the suite in the latest run that ran it
    turn: int
    outcomes: list[str]  # per run: `p`, `f`, or `-` when the run did not run it
    attempts: int = 0
    passed_attempts: int = 0
    single: bool = True  # its case had one turn in every run (a single-turn case)

    @property
    def case(self) -> str:
        """Its test case's name, else `test_cases[i]`."""
        return case_label(self.case_name, self.case_index)

    @property
    def label(self) -> str:
        """The case, and the turn unless the case has only this one."""
        return self.case if self.single else f"{self.case}, turn {self.turn}"

    @property
    def runs(self) -> int:
        return len(self.outcomes) - self.outcomes.count(NOT_RUN)

    @property
    def passed_runs(self) -> int:
        return self.outcomes.count(PASSED)

    @property
    def pass_rate(self) -> float:
        """Passed attempts over attempts (0 when it never ran)."""
        return self.passed_attempts / self.attempts if self.attempts else 0.0

    @property
    def flaky(self) -> bool:
        """It both passed and failed (in two runs, or two attempts of one)."""
        return 0 < self.passed_attempts < self.attempts

    @property
    def failing_since(self) -> int | None:
        """The run (its index) where the failing the turn ends on began; None when it
        passed in the last run that ran it."""
        ran = [i for i, outcome in enumerate(self.outcomes) if outcome != NOT_RUN]
        if not ran or self.outcomes[ran[-1]] == PASSED:
            return None
        since = ran[-1]
        for index in reversed(ran):
            if self.outcomes[index] == PASSED:
                break
            since = index
        return since

    @property
    def last_passed(self) -> int | None:
        """The last run (its index) in which it passed."""
        for index in range(len(self.outcomes) - 1, -1, -1):
            if self.outcomes[index] == PASSED:
                return index
        return None


def turn_histories(runs: Sequence[HistoryRun]) -> list[TurnHistory]:
    """Every turn of every case of ``runs`` (oldest first), in the latest run's suite
    order, then the order turns of cases no longer run were last seen."""
    found: dict[tuple[CaseKey, int], TurnHistory] = {}
    order: dict[tuple[CaseKey, int], tuple[int, int, int]] = {}
    count = len(runs)
    for position, run in enumerate(runs):
        share = run.pass_share
        for case in run.cases:
            width = max((len(letters) for letters in case.attempts), default=0)
            for turn in range(width):
                key = (case.key, turn)
                history = found.get(key)
                if history is None:
                    history = found[key] = TurnHistory(
                        case.key, case.name, case.index, turn, [NOT_RUN] * count
                    )
                history.case_name, history.case_index = case.name, case.index
                history.single = history.single and width == 1
                ran = [letters[turn] for letters in case.attempts if turn < len(letters)]
                passed = ran.count(PASSED)
                history.attempts += len(ran)
                history.passed_attempts += passed
                history.outcomes[position] = (
                    PASSED if rule_passes(passed, len(ran), share) else FAILED
                )
                order[key] = (-position, case.index, turn)
    keys = sorted(found, key=lambda key: order[key])
    return [found[key] for key in keys]
