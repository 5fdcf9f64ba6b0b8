"""Progress of a run: a live bar on a terminal, one line per test case otherwise, or quiet."""

from __future__ import annotations

import sys
from typing import Any, TextIO

from holodeck_lsp.hygiene.controls import visible
from holodeck_lsp.models.test_result import MetricResult, TestResult
from holodeck_lsp.runner.collect.plan import PlannedCase
from holodeck_lsp.runner.execute.suite_execution import Progress
from holodeck_lsp.runner.report.console import header_line
from holodeck_lsp.runner.report.failure_reasons import turn_problems
from holodeck_lsp.runner.report.run_counts import RunCounts
from holodeck_lsp.runner.score.rollup import CaseOutcome
from holodeck_lsp.runner.score.turn_scores import Failure, metric_reason
from holodeck_lsp.runner.services.redaction import active

_SIDE = 60  # characters of each side of a failed comparison on a progress line


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
    """The case's first failure in the words of its turn's record (`TurnScore.failures`,
    as the events and the editor give it): a score with its threshold, or the reason."""
    multi = bool(outcome.result.turns)
    for index, score in enumerate(outcome.scores):
        if score.passed:
            continue
        where = f"[turn {index}] " if multi else ""
        failures = score.failures()
        if failures:
            return where + _with_sides(failures[0])
        if score.errors:
            return where + score.errors[0]
    return _first_reported_problem(outcome.result)


def _with_sides(failure: Failure) -> str:
    """A failure's words; a comparison with the ground truth shows both sides, cut."""
    if failure.expected is None:
        return failure.message
    # Masked before it is cut or quoted: a reply may hold a secret, and repr's escapes
    # would hide it from the terminal stream's mask.
    secrets = active()
    expected = secrets.clip(failure.expected, _SIDE)
    actual = secrets.clip(failure.actual or "", _SIDE)
    return f"{failure.message} (expected {expected!r}, got {actual!r})"


def _first_reported_problem(result: TestResult) -> str:
    """From the report alone (a case without its turns' records)."""
    for turn in result.turns or []:
        if turn.passed:
            continue
        problems = turn_problems(turn)
        if problems:
            return f"[turn {turn.turn_index}] {problems[0]}"
    if result.errors:
        return result.errors[0]
    if result.tools_matched is False:
        return "expected tools not matched"
    for m in result.metric_results:
        if m.passed is False:
            return f"metric {m.metric_name} failed: {metric_reason(m)}"
    return ""


def case_details(outcome: CaseOutcome) -> list[str]:
    """`-v`: under a case's line, each turn's verdict, tool assertions and metrics, each
    with its score and threshold, or why it failed."""
    lines = []
    multi = bool(outcome.result.turns)
    for index, score in enumerate(outcome.scores):
        head = f"  turn {index}" if multi else " "
        verdict = "SKIP" if score.skipped is not None else ("PASS" if score.passed else "FAIL")
        lines.append(f"{head} {verdict}")
        lines += [f"    {error}" for error in score.errors if error not in score.tools.errors]
        for check in score.checks:
            held = {True: "held", False: check.message or "did not hold", None: "-"}
            lines.append(f"    tool {check.expected}: {held[check.passed]}")
        for metric in score.metrics:
            lines.append(f"    {metric_line(metric.result)}")
    return lines


def metric_line(result: MetricResult) -> str:
    """`equality PASS: score 1`, `bleu FAIL: score 0.2 below threshold 0.5`, or the reason
    it failed with its score."""
    mark = f" / threshold {result.threshold:g}" if result.threshold is not None else ""
    score = f"score {result.score:g}{mark}"
    if result.passed is False:
        reason = metric_reason(result)
        return f"{result.metric_name} FAIL: " + (
            reason if reason.startswith("score ") else f"{reason} ({score})"
        )
    verdict = "PASS" if result.passed else "not judged"
    return f"{result.metric_name} {verdict}: {score}"


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

    def __init__(self, out: TextIO, counts: RunCounts, verbose: bool = False) -> None:
        self.out = out
        self.counts = counts
        self.attempts = _Attempts(counts)
        self.verbose = verbose

    def start(self, total: int) -> None:
        self.out.write(header_line(self.counts) + "\n")

    def case_started(self, case: PlannedCase) -> None: ...

    def case_done(self, outcome: CaseOutcome) -> None:
        lines = [case_line(outcome, self.attempts.of(outcome))]
        if self.verbose:
            lines += case_details(outcome)
        self.out.write("".join(line + "\n" for line in lines))
        self.out.flush()

    def stop(self) -> None: ...


class RichProgress:
    """A live bar with pass/fail counts; failed cases are printed above it."""

    def __init__(self, out: TextIO, counts: RunCounts, verbose: bool = False) -> None:
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
        self.verbose = verbose  # every case printed, with its turns; else the failed ones

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
        if self.verbose or not outcome.result.passed:
            lines = [case_line(outcome, attempt), *(case_details(outcome) if self.verbose else [])]
            for line in lines:
                self.console.print(visible(line), markup=False, highlight=False)
        tally = f"[green]{self.passed} passed[/] [red]{self.failed} failed[/]"
        self.bar.update(self.task, advance=1, tally=tally)

    def stop(self) -> None:
        self.bar.stop()


def make_progress(
    quiet: bool, counts: RunCounts, out: TextIO | None = None, verbose: bool = False
) -> Progress:
    """`-q` prints nothing here; `-v` every case with its turns, and beats `-q` (as
    `holodeck test`'s "effective quiet" is `-q` without `-v`)."""
    stream = out or sys.stderr
    if quiet and not verbose:
        return QuietProgress()
    if stream.isatty():
        return RichProgress(stream, counts, verbose)
    return PlainProgress(stream, counts, verbose)
