"""Which metrics run on a turn, and their results."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from holodeck_lsp.models.evaluation import (
    CodeMetric,
    EvaluationMetric,
    GEvalMetric,
    RAGMetric,
)
from holodeck_lsp.models.test_result import MetricKind, MetricResult, ToolInvocation
from holodeck_lsp.runner.evaluators.code import GraderReturnError, make_context, run_grader
from holodeck_lsp.runner.evaluators.text import PathMissing, equality, extract, numeric

AnyMetric = EvaluationMetric | GEvalMetric | RAGMetric | CodeMetric
NOT_SUPPORTED = "not supported by this runner yet"
# Metrics that compare the reply with `ground_truth`: they run only where there is one.
TEXT_METRICS = frozenset({"equality", "numeric", "bleu", "rouge", "meteor"})


def metric_name(metric: AnyMetric) -> str:
    if isinstance(metric, CodeMetric):
        return metric.display_name
    if isinstance(metric, GEvalMetric):
        return metric.name
    if isinstance(metric, RAGMetric):
        return metric.metric_type.value
    return metric.metric


def metric_kind(metric: AnyMetric) -> MetricKind:
    return metric.type


@dataclass(frozen=True)
class TurnView:
    """What metrics read of one finished turn."""

    input: str
    response: str
    ground_truth: str | None
    tool_invocations: list[ToolInvocation]
    retrieval_context: list[str] | None
    turn_index: int
    test_case_name: str | None
    turn_config: dict[str, Any] | None


@dataclass
class MetricsOutcome:
    results: list[MetricResult] = field(default_factory=list)
    grader_details: dict[str, Any] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    stop_reason: str | None = None  # a fail_on_error grader raised


def _result(metric: AnyMetric, start: float, **values: Any) -> MetricResult:
    return MetricResult(
        metric_name=metric_name(metric),
        kind=metric_kind(metric),
        threshold=getattr(metric, "threshold", None),
        evaluation_time_ms=int((time.perf_counter() - start) * 1000),
        **values,
    )


def _standard(metric: EvaluationMetric, view: TurnView, start: float) -> MetricResult:
    assert view.ground_truth is not None
    actual: Any = view.response
    if metric.response_path:
        try:
            actual = extract(view.response, metric.response_path)
        except PathMissing as exc:
            return _result(metric, start, score=0.0, passed=False, reasoning=str(exc))
    judge = equality if metric.metric == "equality" else numeric
    verdict = judge(actual, view.ground_truth, metric)
    score = 1.0 if verdict.passed else 0.0
    return _result(metric, start, score=score, passed=verdict.passed, reasoning=verdict.reason)


def _applies(metric: AnyMetric, view: TurnView) -> bool:
    if not metric.enabled:
        return False
    if isinstance(metric, EvaluationMetric) and metric.metric in TEXT_METRICS:
        return view.ground_truth is not None
    return True


async def evaluate(
    metrics: list[AnyMetric], view: TurnView, graders: dict[str, Callable[..., Any]]
) -> MetricsOutcome:
    out = MetricsOutcome()
    for metric in metrics:
        if not _applies(metric, view):
            continue
        start = time.perf_counter()
        if isinstance(metric, EvaluationMetric) and metric.metric in ("equality", "numeric"):
            out.results.append(_standard(metric, view, start))
        elif isinstance(metric, CodeMetric):
            await _code(metric, view, graders[metric.grader], out, start)
        else:
            out.results.append(_result(metric, start, score=0.0, passed=False, error=NOT_SUPPORTED))
    return out


async def _code(
    metric: CodeMetric,
    view: TurnView,
    grader: Callable[..., Any],
    out: MetricsOutcome,
    start: float,
) -> None:
    ctx = make_context(
        turn_input=view.input,
        agent_response=view.response,
        ground_truth=view.ground_truth,
        tool_invocations=view.tool_invocations,
        retrieval_context=view.retrieval_context,
        turn_index=view.turn_index,
        test_case_name=view.test_case_name,
        turn_config=view.turn_config,
    )
    name = metric.display_name
    try:
        outcome = await run_grader(grader, ctx, metric)
    except (Exception, GraderReturnError) as exc:
        error = f"{type(exc).__name__}: {exc}"
        out.results.append(_result(metric, start, score=0.0, passed=False, error=error))
        if metric.fail_on_error:
            out.errors.append(f"grader '{name}' raised {error} (fail_on_error)")
            out.stop_reason = f"grader '{name}' failed with fail_on_error"
        return
    out.results.append(
        _result(metric, start, score=outcome.score, passed=outcome.passed, reasoning=outcome.reason)
    )
    if outcome.details is not None:
        out.grader_details[name] = outcome.details
