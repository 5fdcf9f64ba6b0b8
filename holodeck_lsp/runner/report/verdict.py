"""A run's exit code, and why it is that when the summary does not say it all."""

from __future__ import annotations

from holodeck_lsp.exit_codes import EXIT_EXECUTION, EXIT_FAILED, EXIT_OK
from holodeck_lsp.models.test_result import TestReport
from holodeck_lsp.runner.execute.suite_execution import Execution
from holodeck_lsp.runner.report.run_counts import report_counts


def verdict(report: TestReport, done: Execution, problems: list[str]) -> tuple[int, str | None]:
    """The exit code and, unless the summary says it all, why it is that."""
    if done.stop_reason is not None and done.exit_code is not None:
        kept = report_counts(report).kept()
        return done.exit_code, f"the run stopped early ({done.stop_reason}); {kept}"
    if problems:
        return EXIT_EXECUTION, f"{len(problems)} file(s) could not be written"
    lost = sum(o.execution_errors for o in done.outcomes)
    if lost:
        return EXIT_EXECUTION, (
            f"the model service failed {lost} time(s) (a turn, a session or a judge call); "
            "the errors are in the report"
        )
    return (EXIT_OK if report.summary.failed == 0 else EXIT_FAILED), None
