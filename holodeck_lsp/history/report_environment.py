"""What our reports record in `environment` beyond HoloDeck's fields: where each result sits
in the suite, which suite it is, and who made the report. `merge`, `compare` and the
history read them alike."""

from __future__ import annotations

import re

from holodeck_lsp.models.test_result import TestReport

# Where each result sits in the suite file, so shard reports merge back in suite order.
CASE_INDEXES = "case_indexes"
SUITE_KEY = "suite"  # a digest of the test cases: shards of one suite share it
OUR_VERSION = "holodeck_lsp_version"  # a report of ours: our version (`holodeck test`'s: none)
# Why a run stopped early, in a kept run (HoloDeck's report has no `interrupted` field).
STOP_REASON = "stop_reason"


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
