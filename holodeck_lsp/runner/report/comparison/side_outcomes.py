"""A side of a comparison as the comparison needs it, whatever it was read from (a report,
a folder of shards, a history of runs): each test case keyed for matching, each of its
turns' passes over its attempts (`TurnOutcome`), and the run's summary. The gate judges
on nothing else, so a simulation of it needs nothing else either."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from math import isfinite

from holodeck_lsp.hygiene.clipping import clip
from holodeck_lsp.models.comparison import RunSummary, TurnOutcome
from holodeck_lsp.models.test_result import TestResult, TurnResult
from holodeck_lsp.runner.report.comparison.run_sides import CaseKey, RunSide, SideCase
from holodeck_lsp.runner.report.failure_reasons import turn_problems
from holodeck_lsp.runner.report.report_reading import made_by
from holodeck_lsp.runner.score.attempts import rule_passes
from holodeck_lsp.runner.score.rollup import result_turns

PROBLEM_LIMIT = 300  # characters of a failed turn's first problem
# The per-turn models are built with `model_construct`, unvalidated: every value comes from
# a validated report or is computed here, and a 1,000-case comparison builds 20,000 of them.


@dataclass(frozen=True)
class CaseOutcomes:
    """A test case on one side: its verdict, its attempts and each turn's outcome."""

    key: CaseKey
    label: str
    index: int  # place in the suite
    position: int  # place in the report's results (in a history: in its latest run)
    passed: bool
    attempts: int
    passed_attempts: int
    turns: dict[int, TurnOutcome]


@dataclass(frozen=True)
class SideOutcomes:
    summary: RunSummary
    cases: list[CaseOutcomes]
    # the run's mean scores; none when the side does not keep them (a history)
    average_scores: dict[str, float] | None = field(default_factory=dict)


def mean(values: Sequence[float]) -> float:
    # sum / len: statistics.fmean costs ten times as much on the one value of most turns
    return sum(values) / len(values)


def _mean_scores(turns: list[TurnResult]) -> dict[str, float]:
    scores: dict[str, list[float]] = {}
    for turn in turns:
        for metric in turn.metric_results:
            if isfinite(metric.score):
                scores.setdefault(metric.metric_name, []).append(metric.score)
    return {name: mean(values) for name, values in scores.items()}


def _problem(turns: list[TurnResult]) -> str | None:
    failed = next((t for t in turns if not t.passed), None)
    if failed is None:
        return None
    problems = turn_problems(failed)
    return clip(problems[0], PROBLEM_LIMIT) if problems else "failed"


def turn_outcome(turns: list[TurnResult], share: float) -> TurnOutcome:
    """A turn over its attempts (one without --repeat), its verdict by the pass rule."""
    passed = sum(t.passed for t in turns)
    tokens = [t.token_usage.total_tokens for t in turns if t.token_usage is not None]
    return TurnOutcome.model_construct(
        passed=rule_passes(passed, len(turns), share),
        attempts=len(turns),
        passed_attempts=passed,
        duration_ms=mean([t.execution_time_ms for t in turns]),
        total_tokens=mean(tokens) if tokens else None,
        metric_scores=_mean_scores(turns),
        problem=_problem(turns),
    )


def side_turns(case: SideCase, share: float) -> dict[int, TurnOutcome]:
    """Each turn of a side's case over its attempts, by index."""
    by_index: dict[int, list[TurnResult]] = {}
    for attempt in case.attempts:
        for turn in result_turns(attempt):
            by_index.setdefault(turn.turn_index, []).append(turn)
    return {index: turn_outcome(turns, share) for index, turns in sorted(by_index.items())}


def _tokens(results: Iterable[TestResult]) -> int | None:
    counted = [r.token_usage.total_tokens for r in results if r.token_usage is not None]
    return sum(counted) if counted else None


def run_summary(side: RunSide) -> RunSummary:
    report = side.report
    s = report.summary
    repeat = max((len(c.attempts) for c in side.cases), default=1)
    return RunSummary(
        reports=[str(p) for p in side.paths],
        agent_name=report.agent_name,
        runner=made_by(report),
        timestamp=report.timestamp,
        total_tests=s.total_tests,
        passed=s.passed,
        failed=s.failed,
        duration_ms=s.total_duration_ms,
        total_tokens=_tokens(report.results),
        repeat=repeat,
        pass_rule=report.environment.get("pass_rule", "all"),
        interrupted=report.interrupted,
        not_run=report.not_run,
    )


def case_outcomes(case: SideCase, share: float) -> CaseOutcomes:
    return CaseOutcomes(
        key=case.key,
        label=case.label,
        index=case.index,
        position=case.position,
        passed=case.result.passed,
        attempts=len(case.attempts),
        passed_attempts=sum(r.passed for r in case.attempts),
        turns=side_turns(case, share),
    )


def _finite(scores: dict[str, float]) -> dict[str, float]:
    return {name: score for name, score in scores.items() if isfinite(score)}


def report_outcomes(side: RunSide) -> SideOutcomes:
    """A report's (or merged shards') side of a comparison."""
    return SideOutcomes(
        summary=run_summary(side),
        cases=[case_outcomes(case, side.pass_share) for case in side.cases],
        average_scores=_finite(side.report.summary.average_scores),
    )
