"""From turns to a test case (its verdict, tool calls, metrics and token usage), and from
test cases to the summary (counts, pass rate, mean score per metric)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone
from statistics import fmean

from holodeck_lsp.models.test_result import (
    MetricResult,
    ProcessedFileInput,
    ReportSummary,
    TestResult,
    TurnResult,
)
from holodeck_lsp.models.token_usage import TokenUsage
from holodeck_lsp.runner.collect.plan import PlannedCase
from holodeck_lsp.runner.score.turn_scores import TurnScore


def sum_usage(usages: list[TokenUsage | None]) -> TokenUsage | None:
    present = [u for u in usages if u is not None]
    if not present:
        return None
    total = TokenUsage.zero()
    for usage in present:
        total = total + usage
    return total


def roll_up_metrics(turns: list[TurnResult]) -> list[MetricResult]:
    """Each metric once, as `holodeck test` rolls it up: the mean score over the turns that
    ran it, passed unless one of them failed; errors and reasoning stay in the turns."""
    by_name: dict[str, list[MetricResult]] = {}
    for turn in turns:
        for m in turn.metric_results:
            by_name.setdefault(m.metric_name, []).append(m)
    out = []
    for name, runs in by_name.items():
        first = runs[0]
        out.append(
            MetricResult(
                metric_name=name,
                kind=first.kind,
                score=fmean(m.score for m in runs),
                threshold=first.threshold,
                passed=all(m.passed is not False for m in runs),
                scale=first.scale,
                retry_count=0,
                evaluation_time_ms=sum(m.evaluation_time_ms or 0 for m in runs),
                model_used=first.model_used,
            )
        )
    return out


def roll_up_case(
    name: str | None,
    turns: list[TurnResult],
    processed_files: list[ProcessedFileInput],
    execution_time_ms: int,
    timestamp: str,
) -> TestResult:
    """A multi-turn test case from its turns, exactly per the seed's roll-up table (the
    assertions stay in the turns: `expected_tools` is null at this level)."""
    asserted = [t.tools_matched for t in turns if t.tools_matched is not None]
    return TestResult(
        test_name=name,
        test_input="\n---\n".join(t.input for t in turns),
        processed_files=processed_files,
        agent_response=turns[-1].response,
        tool_calls=[c for t in turns for c in t.tool_calls],
        tool_invocations=[c for t in turns for c in t.tool_invocations],
        expected_tools=None,
        tools_matched=all(m is not False for m in asserted) if asserted else None,
        metric_results=roll_up_metrics(turns),
        ground_truth=None,
        passed=all(t.passed for t in turns),
        execution_time_ms=execution_time_ms,
        errors=[f"[turn {t.turn_index}] {e}" for t in turns for e in t.errors],
        timestamp=timestamp,
        token_usage=sum_usage([t.token_usage for t in turns]),
        turns=turns,
    )


def single_turn_case(
    name: str | None,
    turn: TurnResult,
    processed_files: list[ProcessedFileInput],
    execution_time_ms: int,
    timestamp: str,
) -> TestResult:
    """A legacy single-turn case: its one turn's fields, and no `turns`."""
    return TestResult(
        test_name=name,
        test_input=turn.input,
        processed_files=processed_files,
        agent_response=turn.response,
        tool_calls=turn.tool_calls,
        tool_invocations=turn.tool_invocations,
        expected_tools=turn.expected_tools,
        tools_matched=turn.tools_matched,
        metric_results=turn.metric_results,
        ground_truth=turn.ground_truth,
        passed=turn.passed,
        execution_time_ms=execution_time_ms,
        errors=turn.errors,
        timestamp=timestamp,
        token_usage=turn.token_usage,
        turns=None,
    )


def as_turn(result: TestResult) -> TurnResult:
    """A single-turn case's result as its one turn."""
    return TurnResult(
        turn_index=0,
        input=result.test_input,
        response=result.agent_response,
        ground_truth=result.ground_truth,
        expected_tools=result.expected_tools,
        tool_calls=result.tool_calls,
        tool_invocations=result.tool_invocations,
        tools_matched=result.tools_matched,
        metric_results=result.metric_results,
        passed=result.passed,
        execution_time_ms=result.execution_time_ms,
        errors=result.errors,
        token_usage=result.token_usage,
    )


def result_turns(result: TestResult) -> list[TurnResult]:
    """The turns of a case's result: its own, or a single-turn case's result as turn 0."""
    return result.turns if result.turns is not None else [as_turn(result)]


def summarize(results: list[TestResult], total_duration_ms: int) -> ReportSummary:
    """Counts of test cases (never turns) and each metric's mean over the cases that ran it."""
    passed = sum(r.passed for r in results)
    scores: dict[str, list[float]] = {}
    for result in results:
        for m in result.metric_results:
            scores.setdefault(m.metric_name, []).append(m.score)
    return ReportSummary(
        total_tests=len(results),
        passed=passed,
        failed=len(results) - passed,
        pass_rate=passed / len(results) * 100.0 if results else 0.0,
        total_duration_ms=total_duration_ms,
        metrics_evaluated={k: len(v) for k, v in scores.items()},
        average_scores={k: fmean(v) for k, v in scores.items()},
    )


@dataclass
class CaseOutcome:
    case: PlannedCase
    result: TestResult
    execution_errors: int  # turns lost to the model service, not to the agent
    scores: list[TurnScore] = field(default_factory=list)  # what scoring found, turn by turn


def now_iso() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")
