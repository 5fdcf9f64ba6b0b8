"""Building the `TestReport` of a run (`shard_merge.py` joins those of shards)."""

from __future__ import annotations

import hashlib
import json
import platform

from holodeck_lsp import __version__
from holodeck_lsp.models.test_result import TestReport
from holodeck_lsp.runner.collect.plan import PlannedCase
from holodeck_lsp.runner.score.rollup import CaseOutcome, now_iso, summarize

# Where each result sits in the suite file, so shard reports merge back in suite order.
CASE_INDEXES = "case_indexes"
SUITE_KEY = "suite"  # a digest of the test cases: shards of one suite share it


def suite_digest(cases: list[PlannedCase]) -> str:
    """Names, inputs and expected answers of every test case (not just the selected ones):
    cheap to compute, and different for different suites."""
    shape = [[c.name, [[t.input, t.ground_truth] for t in c.turns]] for c in cases]
    return hashlib.sha256(json.dumps(shape).encode()).hexdigest()[:16]


def build_report(
    agent_name: str,
    config_path: str,
    outcomes: list[CaseOutcome],
    duration_ms: int,
    environment: dict[str, str],
) -> TestReport:
    results = [o.result for o in outcomes]
    env = {
        "runner": f"holodeck-lsp {__version__}",
        "python": platform.python_version(),
        **environment,
        CASE_INDEXES: ",".join(str(o.case.index) for o in outcomes),
    }
    return TestReport(
        agent_name=agent_name,
        agent_config_path=config_path,
        results=results,
        summary=summarize(results, duration_ms),
        timestamp=now_iso(),
        holodeck_version=__version__,
        environment=env,
    )

