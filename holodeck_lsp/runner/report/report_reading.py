"""The one way to read a JSON test report (ours, a merged one, or `holodeck test`'s own) for
`merge`, `compare`, `run --baseline` and `run --from-report`: a report is a file anyone can
edit or swap, so it is read as a named file (a regular file, size-bounded) and every
refusal is one sentence naming it. What our reports record beyond HoloDeck's fields (where
each result sits in the suite) is `history/report_environment.py`'s, named here too."""

from __future__ import annotations

from pathlib import Path

from holodeck_lsp.history.model_files import parse_model, read_file_bytes

# Where each result sits in the suite, and who made the report: facts the history reads too.
from holodeck_lsp.history.report_environment import CASE_INDEXES as CASE_INDEXES
from holodeck_lsp.history.report_environment import OUR_VERSION as OUR_VERSION
from holodeck_lsp.history.report_environment import SUITE_KEY as SUITE_KEY
from holodeck_lsp.history.report_environment import count as count
from holodeck_lsp.history.report_environment import made_by as made_by
from holodeck_lsp.history.report_environment import suite_positions as suite_positions
from holodeck_lsp.models.test_result import TestReport

# A 1,000-case x 4-turn report is 9 MB; with `--repeat 10` it holds every attempt too,
# about 100 MB. Room for that, not for a file that would take gigabytes to parse.
MAX_REPORT_BYTES = 200_000_000


class ReportError(Exception):
    """A report cannot be used; the message says why, naming the file (exit 2)."""


def read_report(path: Path) -> TestReport:
    data = read_file_bytes(path, MAX_REPORT_BYTES, ReportError)
    return parse_model(TestReport, data, path, "a test report", ReportError)
