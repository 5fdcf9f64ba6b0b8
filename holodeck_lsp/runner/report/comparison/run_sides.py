"""BASE or HEAD of a comparison: one JSON report (ours, a merged one, or `holodeck test`'s
own), or a folder of shard reports merged as `merge` merges them; each test case keyed
for matching, with every attempt of a `--repeat` run."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

# How a case is found on the other side: the history matches runs the same way.
from holodeck_lsp.history.case_keys import CaseKey as CaseKey
from holodeck_lsp.history.case_keys import case_keys as case_keys
from holodeck_lsp.history.eval_run_reading import EvalRunError, read_eval_run
from holodeck_lsp.models.test_result import TestReport, TestResult
from holodeck_lsp.runner.collect.plan import case_label
from holodeck_lsp.runner.report.report_reading import ReportError, read_report, suite_positions
from holodeck_lsp.runner.report.shard_merge import merge_reports
from holodeck_lsp.runner.score.attempts import parse_pass_rule

REPORT_SUFFIX = ".json"


@dataclass(frozen=True)
class SideCase:
    key: CaseKey
    label: str
    index: int  # place in the suite
    position: int  # place in the report's results
    result: TestResult  # the case's verdict
    attempts: list[TestResult]  # every attempt (the result alone without --repeat)


@dataclass(frozen=True)
class RunSide:
    paths: list[Path]
    report: TestReport
    pass_share: float  # the pass rule of repeated attempts
    cases: list[SideCase]


def _report_files(folder: Path) -> list[Path]:
    try:
        found = sorted(p for p in folder.iterdir() if p.suffix.lower() == REPORT_SUFFIX)
    except OSError as exc:
        raise ReportError(f"cannot read {folder}: {exc.strerror or exc}") from None
    if not found:
        raise ReportError(f"{folder} is a folder without a JSON report")
    return found


def _cases(report: TestReport, where: str) -> list[SideCase]:
    try:
        indexes = suite_positions(report)
    except ValueError as exc:
        raise ReportError(f"{where}: {exc}") from None
    if report.repeats and len(report.repeats) != len(report.results):
        raise ReportError(f"{where}: repeats do not match the results")
    names = [result.test_name for result in report.results]
    cases = []
    for position, (index, result, key) in enumerate(
        zip(indexes, report.results, case_keys(names, indexes), strict=True)
    ):
        attempts = report.repeats[position].results if report.repeats else []
        label = case_label(result.test_name, index)
        cases.append(SideCase(key, label, index, position, result, attempts or [result]))
    return cases


def report_side(report: TestReport, paths: list[Path], where: str) -> RunSide:
    """The run ``report`` holds (read from ``paths``, named ``where`` in errors); raises
    ReportError."""
    try:
        share = parse_pass_rule(report.environment.get("pass_rule", "all"))
    except ValueError as exc:
        raise ReportError(f"{where}: environment.pass_rule: {exc}") from None
    return RunSide(paths, report, share, _cases(report, where))


def _one_report(path: Path) -> TestReport:
    """A report file, or a kept run's (an EvalRun of `results/<slug>/` holds its report)."""
    try:
        return read_report(path)
    except ReportError as not_a_report:
        try:
            return read_eval_run(path).report
        except EvalRunError:
            raise not_a_report from None


def read_side(path: Path) -> RunSide:
    """The run a report file (or a kept run's file), or a folder of shard reports, holds;
    raises ReportError."""
    paths = _report_files(path) if path.is_dir() else [path]
    report = _one_report(paths[0]) if len(paths) == 1 else merge_reports(paths)
    return report_side(report, paths, str(path))
