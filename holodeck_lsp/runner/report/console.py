"""What `run` and `merge` print on the terminal: configuration errors as `check` prints
them, the differences from `holodeck test` a suite meets, a tool that did not start, the
header line, the summary line, the reliability line of `--repeat`, what changed since
`--baseline`."""

from __future__ import annotations

from pathlib import Path
from typing import TextIO

from holodeck_lsp.models.comparison import Comparison
from holodeck_lsp.models.test_result import RepeatedCase, TestReport
from holodeck_lsp.runner.collect.deviations import Shown, as_errors, closing_line
from holodeck_lsp.runner.collect.dotenv_files import DotenvLoad
from holodeck_lsp.runner.collect.loading import ConfigError, tool_line
from holodeck_lsp.runner.report.comparison.change_groups import NO_CHANGE, case_delta, runner_note
from holodeck_lsp.runner.report.comparison.comparison_text import counts_line
from holodeck_lsp.runner.report.run_counts import RunCounts, pass_rate_text, report_counts
from holodeck_lsp.runner.tools.tool_kind import ToolStartError


def print_config_error(error: ConfigError, err: TextIO) -> None:
    for line in error.lines:
        err.write(line + "\n")
    if error.diagnostics:
        _print_diagnostics(error.diagnostics, err)


def _print_diagnostics(by_file: Shown, err: TextIO, tally: bool = True) -> None:
    from holodeck_lsp.check.formats import TextFormat
    from holodeck_lsp.check.results import CheckResult, FileResult

    files = [FileResult(f, ds, text) for f, (ds, text) in by_file.items()]
    TextFormat(colour=False, tally=tally).report(CheckResult(files=files), err)


def print_start_notes(
    load: DotenvLoad, notes: list[str | None], verbose: bool, err: TextIO
) -> None:
    """What went wrong reading `.env` files, then ``notes`` (None: nothing to say); with
    `-v`, the names each `.env` file set."""
    for warning in load.warnings:
        err.write(f"warning: {warning}\n")
    for note in notes:
        if note is not None:
            err.write(f"note: {note}\n")
    summary = load.summary()
    if verbose and summary is not None:
        err.write(summary + "\n")


def print_deviations(found: Shown, strict: bool, err: TextIO) -> None:
    """The suite's differences from `holodeck test`, as `check` prints them; then, as a
    warning, how many and where they are documented. With `--strict-parity` they are
    errors, and that line is the error the run stops with (`command.py`)."""
    _print_diagnostics(as_errors(found) if strict else found, err, tally=False)
    if not strict:
        err.write(f"warning: {closing_line(found, strict)}\n")


def print_start_failure(path: Path, failure: ToolStartError, err: TextIO) -> None:
    line = tool_line(path, failure.tool)
    where = f"{path}:{line}" if line is not None else str(path)
    err.write(f"{where}: error: tool '{failure.tool}' did not start: {failure.message}\n")
    if failure.stderr_tail:
        err.write("  its stderr ended with:\n")
        for text in failure.stderr_tail.splitlines():
            err.write(f"    {text}\n")
    for note in failure.notes:
        err.write(f"  {note}\n")


def header_line(counts: RunCounts) -> str:
    """The first line of a run's progress: what it is about to run."""
    each = f", {counts.repeat} attempt(s) each" if counts.repeat > 1 else ""
    return f"running {counts.test_cases} test case(s){each} ({counts.units()})"


def summary_line(report: TestReport) -> str:
    """`3 test case(s) run (10 turn(s)): 3 passed, 0 failed (100%) in 0.02 s`; a run that
    stopped early starts with `interrupted:` and says how many test cases did not run."""
    s = report.summary
    counts = report_counts(report)
    if report.interrupted:
        head = f"interrupted: {counts.test_cases} of {counts.selected} test case(s) run"
        not_run = f", {counts.not_run} not run"
    else:
        head, not_run = f"{counts.test_cases} test case(s) run", ""
    return (
        f"{head} ({counts.units()}): {s.passed} passed, {s.failed} failed "
        f"({pass_rate_text(s.pass_rate)}){not_run} in {s.total_duration_ms / 1000:.2f} s"
    )


def repeat_line(repeats: list[RepeatedCase]) -> str:
    """The reliability line printed after the summary."""
    k = max((r.attempts for r in repeats), default=0)
    every = sum(r.passed_attempts == r.attempts for r in repeats)
    some = sum(r.passed_attempts > 0 for r in repeats)
    flaky = [r.test_name or "?" for r in repeats if r.flaky]
    line = (
        f"repeat {k}: {every} of {len(repeats)} test case(s) passed every attempt, "
        f"{some} at least once; {len(flaky)} flaky"
    )
    return line + (f": {', '.join(flaky)}" if flaky else "")


def baseline_lines(comparison: Comparison) -> list[str]:
    """After the summary with `--baseline`: the turns counted by change, then each test
    case that changed (a regression marked so)."""
    lines = [f"against {', '.join(comparison.base.reports)}: {counts_line(comparison)}"]
    note = runner_note(comparison)
    if note is not None:
        lines.append(f"  note: {note}")
    for case in comparison.cases:
        delta = case_delta(case)
        if delta != NO_CHANGE:
            mark = "REGRESSED  " if case.regression else ""
            lines.append(f"  {mark}{case.case}: {delta}")
    return lines
