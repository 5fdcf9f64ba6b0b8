"""How much a run holds, in its three units, named as such wherever a count is shown (the
header, the summary line, the stop message, every report format): test cases (what the
verdict counts), attempts (`--repeat K`: K per test case) and turns."""

from __future__ import annotations

from dataclasses import dataclass

from holodeck_lsp.models.test_result import TestReport, TestResult
from holodeck_lsp.runner.collect.plan import PlannedCase


@dataclass(frozen=True)
class RunCounts:
    test_cases: int  # with a result: every attempt of them finished, or some did
    not_run: int  # test cases none of whose attempts finished
    repeat: int  # attempts asked for each test case (1 without --repeat)
    attempts: int  # attempts that finished (one per test case without --repeat)
    turns: int  # turns of those attempts

    @property
    def selected(self) -> int:
        return self.test_cases + self.not_run

    def units(self) -> str:
        """`10 turn(s)`, or with --repeat `100 attempt(s), 340 turn(s)`."""
        attempts = f"{self.attempts} attempt(s), " if self.repeat > 1 else ""
        return f"{attempts}{self.turns} turn(s)"

    def kept(self) -> str:
        """What a run that stopped early kept: `2 of 5 test case(s) kept, 3 did not run`,
        with --repeat `(34 of 100 attempt(s) finished)` after it."""
        line = f"{self.test_cases} of {self.selected} test case(s) kept, {self.not_run} did not run"
        if self.repeat > 1:
            line += f" ({self.attempts} of {self.selected * self.repeat} attempt(s) finished)"
        return line


def pass_rate_text(rate: float) -> str:
    """A pass rate (0-100) as every line and format shows it: `66.7%`, `100%`, `0%`, one
    decimal at most (as `holodeck test`'s summary), never rounded to 100% or 0% unless it
    is."""
    text = f"{rate:.1f}"
    if text == "100.0" and rate < 100:
        text = "99.9"
    elif text == "0.0" and rate > 0:
        text = "0.1"
    return text.removesuffix(".0") + "%"


def _turns(result: TestResult) -> int:
    return len(result.turns) if result.turns else 1


def planned_counts(cases: list[PlannedCase], repeat: int) -> RunCounts:
    """What a run is about to do."""
    turns = sum(len(case.turns) for case in cases) * repeat
    return RunCounts(len(cases), 0, repeat, len(cases) * repeat, turns)


def report_counts(report: TestReport) -> RunCounts:
    """What a report holds (ours, a merged one or HoloDeck's)."""
    attempts = [a for r in report.repeats for a in r.results] or report.results
    try:
        repeat = int(report.environment.get("repeat", "1"))
    except ValueError:  # a report from elsewhere: what its attempts say
        repeat = max((r.attempts for r in report.repeats), default=1)
    return RunCounts(
        len(report.results),
        len(report.not_run),
        max(repeat, 1),
        len(attempts),
        sum(_turns(a) for a in attempts),
    )
