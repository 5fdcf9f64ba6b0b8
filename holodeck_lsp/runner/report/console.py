"""What `run` and `merge` print on the terminal besides progress: configuration errors as
`check` prints them, a tool that did not start, the summary line, the reliability line of
`--repeat`."""

from __future__ import annotations

from pathlib import Path
from typing import TextIO

from holodeck_lsp.models.test_result import RepeatedCase, TestReport
from holodeck_lsp.runner.collect.loading import ConfigError, tool_line
from holodeck_lsp.runner.tools.tool_kind import ToolStartError


def print_config_error(error: ConfigError, err: TextIO) -> None:
    for line in error.lines:
        err.write(line + "\n")
    if error.diagnostics:
        from holodeck_lsp.check.formats import TextFormat
        from holodeck_lsp.check.results import CheckResult, FileResult

        files = [FileResult(f, ds, text) for f, (ds, text) in error.diagnostics.items()]
        TextFormat(colour=False).report(CheckResult(files=files), err)


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


def summary_line(report: TestReport) -> str:
    s = report.summary
    return (
        f"{s.total_tests} test case(s) run: {s.passed} passed, {s.failed} failed "
        f"({s.pass_rate:g}%) in {s.total_duration_ms / 1000:.2f} s"
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
