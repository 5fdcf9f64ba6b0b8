"""The one way to read a JSON test report (ours, a merged one, or `holodeck test`'s own) for
`merge`, `compare`, `run --baseline` and `run --from-report`: a report is a file anyone can
edit or swap, so it is read as a named file (a regular file, size-bounded) and every
refusal is one sentence naming it. Also what our reports record beyond HoloDeck's fields:
where each result sits in the suite."""

from __future__ import annotations

import re
from pathlib import Path

from pydantic import ValidationError

from holodeck_lsp.models.test_result import TestReport
from holodeck_lsp.named_files import NotReadable, read_bytes
from holodeck_lsp.validation.yaml.path_text import format_path

# A 1,000-case x 4-turn report is 9 MB; with `--repeat 10` it holds every attempt too,
# about 100 MB. Room for that, not for a file that would take gigabytes to parse.
MAX_REPORT_BYTES = 200_000_000


# Where each result sits in the suite file, so shard reports merge back in suite order.
CASE_INDEXES = "case_indexes"
SUITE_KEY = "suite"  # a digest of the test cases: shards of one suite share it
OUR_VERSION = "holodeck_lsp_version"  # a report of ours: our version (`holodeck test`'s: none)


def made_by(report: TestReport) -> str:
    """Who made the report: `holodeck-lsp 0.5.0 (HoloDeck 0.7.1)`, or HoloDeck alone."""
    ours = report.environment.get(OUR_VERSION)
    holodeck = f"HoloDeck {report.holodeck_version}"
    return f"holodeck-lsp {ours} ({holodeck})" if ours else holodeck


def suite_positions(report: TestReport) -> list[int]:
    """Where each result's case sits in the suite (0-based); raises ValueError when the
    report's record of it is not one count per result. A report without it (`holodeck
    test`'s own) holds the whole suite, in order."""
    raw = report.environment.get(CASE_INDEXES)
    if raw is None:
        return list(range(len(report.results)))
    values = [count(CASE_INDEXES, v) for v in raw.split(",") if v]
    if len(values) != len(report.results):
        raise ValueError(f"{CASE_INDEXES} does not match the results")
    return values


_COUNT = re.compile(r"[0-9]{1,18}")  # a case index or a count: ASCII digits, not too many


def count(key: str, raw: str) -> int:
    """A count the report's environment holds; raises ValueError for anything else."""
    if not _COUNT.fullmatch(raw):
        raise ValueError(f"environment.{key} is not a count: {raw[:40]!r}")
    return int(raw)


class ReportError(Exception):
    """A report cannot be used; the message says why, naming the file (exit 2)."""


def read_report(path: Path) -> TestReport:
    try:
        data = read_bytes(path, MAX_REPORT_BYTES)
    except NotReadable as exc:
        why = "does not exist" if exc.problem == "missing" else exc.reason
        raise ReportError(f"cannot read {path}: it {why}") from None
    try:
        return TestReport.model_validate_json(data)
    except ValidationError as exc:
        first = exc.errors(include_url=False, include_input=False)[0]
        where = format_path(first["loc"]) or "the document"
        raise ReportError(f"{path} is not a test report: {where}: {first['msg']}") from None
