"""Each turn over a history: its verdict in every run (by the run's own pass rule over
its attempts), its pass rate over every attempt, whether it is flaky (it both passed and
failed), and the run where it started failing (the first of the failing runs it ends on).
The editor's hover and `holodeck-lsp history` tell the same numbers."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from holodeck_lsp.history.case_keys import CaseKey, case_label
from holodeck_lsp.history.pass_rule import rule_passes
from holodeck_lsp.history.run_records import FAILED, PASSED, SKIPPED, CaseRecord, HistoryRun

NOT_RUN = "-"  # a turn's outcome in a run that did not run it


@dataclass
class TurnHistory:
    """One turn of one test case, over the runs of a history (oldest first)."""

    case_key: CaseKey
    case_name: str | None
    case_index: int  # its place in the suite in the latest run that ran it
    turn: int
    outcomes: str  # one letter per run: `p`, `f`, or `-` when the run did not run it
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


_SKIPPED_FAILED = str.maketrans({SKIPPED: FAILED})


def _repeated(case: CaseRecord, share: float, extra: list[list[int]]) -> str:
    """A case's turn verdicts in a run of several attempts, by the run's pass rule; the
    attempts beyond one per run are added to ``extra`` (per turn: attempts, passed)."""
    width = max((len(letters) for letters in case.attempts), default=0)
    while len(extra) < width:
        extra.append([0, 0])
    verdicts = []
    for turn in range(width):
        ran = [letters[turn] for letters in case.attempts if turn < len(letters)]
        passed = ran.count(PASSED)
        verdict = rule_passes(passed, len(ran), share)
        extra[turn][0] += len(ran) - 1
        extra[turn][1] += passed - verdict
        verdicts.append(PASSED if verdict else FAILED)
    return "".join(verdicts)


def turn_histories(runs: Sequence[HistoryRun]) -> list[TurnHistory]:
    """Every turn of every case of ``runs`` (oldest first), in the latest run's suite
    order, then the order turns of cases no longer run were last seen.

    A case's verdicts in each run (one letter per turn) are transposed into its turns'
    outcomes over the runs: string work, so a history of 200 runs of 4,000 turns is quick."""
    count = len(runs)
    rows: dict[CaseKey, list[str | None]] = {}
    last: dict[CaseKey, tuple[int, CaseRecord]] = {}
    extras: dict[CaseKey, list[list[int]]] = {}
    for position, run in enumerate(runs):
        share = run.pass_share
        for case in run.cases:
            row = rows.get(case.key)
            if row is None:
                row = rows[case.key] = [None] * count
            if len(case.attempts) == 1:
                row[position] = case.attempts[0].translate(_SKIPPED_FAILED)
            else:
                row[position] = _repeated(case, share, extras.setdefault(case.key, []))
            last[case.key] = (position, case)
    ordered = sorted(rows, key=lambda key: (-last[key][0], last[key][1].index))
    histories = []
    for key in ordered:
        row = rows[key]
        width = max(len(verdicts) for verdicts in row if verdicts is not None)
        padded = [
            NOT_RUN * width if v is None else v + NOT_RUN * (width - len(v)) for v in row
        ]
        case = last[key][1]
        extra = extras.get(key, [])
        for turn, column in enumerate(zip(*padded, strict=True)):
            outcomes = "".join(column)
            more, more_passed = extra[turn] if turn < len(extra) else (0, 0)
            history = TurnHistory(key, case.name, case.index, turn, outcomes, single=width == 1)
            history.attempts = count - outcomes.count(NOT_RUN) + more
            history.passed_attempts = outcomes.count(PASSED) + more_passed
            histories.append(history)
    return histories
