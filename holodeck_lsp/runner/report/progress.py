"""Progress of a run: a live bar on a terminal, one line per test case otherwise, or quiet."""

from __future__ import annotations

import sys
from typing import Any, TextIO

from holodeck_lsp.hygiene.controls import visible
from holodeck_lsp.runner.collect.plan import PlannedCase
from holodeck_lsp.runner.execute.suite_execution import Progress
from holodeck_lsp.runner.report.console import header_line
from holodeck_lsp.runner.report.run_counts import RunCounts
from holodeck_lsp.runner.score.rollup import CaseOutcome


def case_line(outcome: CaseOutcome, attempt: str = "") -> str:
    """`PASS  name (3 turns, 24 ms)`; ``attempt`` (`attempt 2 of 3`) follows the name."""
    result = outcome.result
    turns = len(result.turns) if result.turns else 1
    head = f"{'PASS' if result.passed else 'FAIL'}  {outcome.case.label}"
    if attempt:
        head += f" [{attempt}]"
    tail = f"({turns} turn{'s' if turns > 1 else ''}, {result.execution_time_ms} ms)"
    if result.passed:
        return f"{head} {tail}"
    first = _first_problem(outcome)
    return f"{head} {tail}: {first}" if first else f"{head} {tail}"


def _first_problem(outcome: CaseOutcome) -> str:
    result = outcome.result
    for turn in result.turns or []:
        if turn.passed:
            continue
        if turn.errors:
            return f"[turn {turn.turn_index}] {turn.errors[0]}"
        for detail in turn.arg_match_details or []:
            if detail.get("unmatched_reason"):
                return f"[turn {turn.turn_index}] {detail['unmatched_reason']}"
        for m in turn.metric_results:
            if m.passed is False:
                return f"[turn {turn.turn_index}] {m.metric_name}: {m.error or m.reasoning}"
    if result.errors:
        return result.errors[0]
    if result.tools_matched is False:
        return "expected tools not matched"
    for m in result.metric_results:
        if m.passed is False:
            return f"{m.metric_name}: {m.error or m.reasoning}"
    return ""


class _Attempts:
    """Which attempt of its test case a finished one is (`--repeat`: they run in order)."""

    def __init__(self, counts: RunCounts) -> None:
        self.repeat = counts.repeat
        self.finished: dict[int, int] = {}

    def of(self, outcome: CaseOutcome) -> str:
        if self.repeat < 2:
            return ""
        index = outcome.case.index
        self.finished[index] = self.finished.get(index, 0) + 1
        return f"attempt {self.finished[index]} of {self.repeat}"


class QuietProgress:
    def start(self, total: int) -> None: ...

    def case_started(self, case: PlannedCase) -> None: ...

    def case_done(self, outcome: CaseOutcome) -> None: ...

    def stop(self) -> None: ...


class PlainProgress:
    """A line per finished test case (attempt), for logs and CI."""

    def __init__(self, out: TextIO, counts: RunCounts) -> None:
        self.out = out
        self.counts = counts
        self.attempts = _Attempts(counts)

    def start(self, total: int) -> None:
        self.out.write(header_line(self.counts) + "\n")

    def case_started(self, case: PlannedCase) -> None: ...

    def case_done(self, outcome: CaseOutcome) -> None:
        self.out.write(case_line(outcome, self.attempts.of(outcome)) + "\n")
        self.out.flush()

    def stop(self) -> None: ...


class RichProgress:
    """A live bar with pass/fail counts; failed cases are printed above it."""

    def __init__(self, out: TextIO, counts: RunCounts) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn
        from rich.progress import Progress as Bar

        # The bar writes escape sequences of its own: it gets the stream that masks but
        # keeps them, and the lines it prints are made visible here.
        styled = getattr(out, "styled", None)
        self.console = Console(file=styled() if styled is not None else out)
        self.bar = Bar(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[tally]}"),
            TimeElapsedColumn(),
            console=self.console,
            transient=False,
        )
        self.task: Any = None
        self.unit = "attempts" if counts.repeat > 1 else "test cases"  # what the bar counts
        self.attempts = _Attempts(counts)
        self.passed = self.failed = 0

    def start(self, total: int) -> None:
        self.bar.start()
        self.task = self.bar.add_task(self.unit, total=total, tally="")

    def case_started(self, case: PlannedCase) -> None: ...

    def case_done(self, outcome: CaseOutcome) -> None:
        attempt = self.attempts.of(outcome)
        if outcome.result.passed:
            self.passed += 1
        else:
            self.failed += 1
            line = visible(case_line(outcome, attempt))
            self.console.print(line, markup=False, highlight=False)
        tally = f"[green]{self.passed} passed[/] [red]{self.failed} failed[/]"
        self.bar.update(self.task, advance=1, tally=tally)

    def stop(self) -> None:
        self.bar.stop()


def make_progress(quiet: bool, counts: RunCounts, out: TextIO | None = None) -> Progress:
    stream = out or sys.stderr
    if quiet:
        return QuietProgress()
    if stream.isatty():
        return RichProgress(stream, counts)
    return PlainProgress(stream, counts)
