"""Building the `TestReport` of a run: its results (with `--repeat`, one per case by the
pass rule, and every attempt), its environment, and why it stopped early if it did
(`shard_merge.py` joins the reports of shards)."""

from __future__ import annotations

import hashlib
import json
import platform
from dataclasses import dataclass
from pathlib import Path

from holodeck_lsp import __version__
from holodeck_lsp.models.test_result import RepeatedCase, TestReport
from holodeck_lsp.runner.collect.plan import PlannedCase
from holodeck_lsp.runner.execute.suite_execution import Execution
from holodeck_lsp.runner.report.report_reading import CASE_INDEXES, OUR_VERSION, SUITE_KEY
from holodeck_lsp.runner.score.attempts import combine, parse_pass_rule
from holodeck_lsp.runner.score.metrics.judge_panel import JudgePanel
from holodeck_lsp.runner.score.rollup import CaseOutcome, now_iso, summarize
from holodeck_lsp.runner.score.turn_scores import Records

# The HoloDeck whose `holodeck test` a run reproduces: its report's `holodeck_version`
# names HoloDeck's version (a field HoloDeck requires), ours is in the environment.
HOLODECK_VERSION = "0.7.1"


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
        OUR_VERSION: __version__,
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
        holodeck_version=HOLODECK_VERSION,
        environment=env,
    )



def run_environment(
    backend: str,
    parallelism: int,
    digest: str,
    replay: Path | None,
    resumed_from: Path | None,
    shard: tuple[int, int] | None,
    judges: JudgePanel | None,
) -> dict[str, str]:
    """What the report's environment says about how the run ran."""
    environment = {
        "backend": backend,
        "parallel_test_cases": str(parallelism),
        SUITE_KEY: digest,
    }
    if replay is not None:
        environment["replay"] = str(replay)
    if resumed_from is not None:
        environment["resumed_from"] = str(resumed_from)
    if shard is not None:
        environment["shard"] = f"{shard[0]}/{shard[1]}"
    if judges is not None:
        environment.update(judges.ledger.environment())
    return environment


@dataclass(frozen=True)
class RecordedReport:
    """A run's report, and the record scoring made of each turn of each of its results:
    the formats render both (a report read from disk has its records read back)."""

    report: TestReport
    records: Records


def run_report(
    agent_name: str,
    agent_file: str,
    repeat: int,
    pass_rule: str,
    done: Execution,
    duration: int,
    environment: dict[str, str],
) -> RecordedReport:
    """The report: with --repeat, one result per case by the pass rule, and every attempt;
    and the records of the attempts it shows."""
    outcomes, repeats = done.outcomes, list[RepeatedCase]()
    if repeat > 1:
        environment.update(repeat=str(repeat), pass_rule=pass_rule)
        outcomes, repeats = combine(outcomes, parse_pass_rule(pass_rule))
    report = build_report(agent_name, agent_file, outcomes, duration, environment)
    report.repeats = repeats
    if done.stop_reason is not None:
        report.interrupted = True
        report.stop_reason = done.stop_reason
        ran = {o.case.index for o in done.outcomes}
        unique = {case.index: case for case in done.not_run if case.index not in ran}
        report.not_run = [case.label for case in unique.values()]
    return RecordedReport(report, [o.scores for o in outcomes])
