"""Which metrics run on a turn, and their results."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from holodeck_lsp.models.evaluation import (
    GROUND_TRUTH_METRICS,
    CodeMetric,
    EvaluationMetric,
    GEvalMetric,
    MetricConfig,
    RAGMetric,
)
from holodeck_lsp.models.test_result import MetricResult, ToolInvocation
from holodeck_lsp.run_defaults import DEFAULT_GRADER_TIMEOUT
from holodeck_lsp.runner.backends.backend import TurnRequest
from holodeck_lsp.runner.score.metrics.code_graders import (
    GraderReturnError,
    make_context,
    run_grader,
)
from holodeck_lsp.runner.score.metrics.comparisons import equality, numeric, path_leaf
from holodeck_lsp.runner.score.metrics.judge_panel import JudgePanel
from holodeck_lsp.runner.score.metrics.judged_metrics import (
    is_judged,
    judge_metric,
    needs,
    turn_context,
)
from holodeck_lsp.runner.score.metrics.ngram_overlap import SCORERS, MissingLibrary
from holodeck_lsp.runner.score.metrics.rubrics import JudgeInputs
from holodeck_lsp.runner.services.user_threads import exception_line


def metric_name(metric: MetricConfig) -> str:
    if isinstance(metric, CodeMetric):
        return metric.display_name
    if isinstance(metric, GEvalMetric):
        return metric.name
    if isinstance(metric, RAGMetric):
        return metric.metric_type.value
    return metric.metric


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
    case_label: str = ""  # the test case's name, or `test_cases[i]`
    case_index: int = 0
    files_text: str | None = None  # the turn's files as sent to the agent
    legacy: bool = False  # a single-turn test case (no `turns`)


@dataclass
class MetricsOutcome:
    results: list[MetricResult] = field(default_factory=list)
    sources: list[int] = field(default_factory=list)  # each result's metric, by its position
    grader_details: dict[str, Any] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    stop_reason: str | None = None  # a fail_on_error metric could not be computed
    fatal: str | None = None  # a fail_on_error grader raised: the turn is lost with it
    execution_errors: int = 0  # judge calls lost to the model service


def _result(metric: MetricConfig, start: float, **values: Any) -> MetricResult:
    values.setdefault("scale", "0-1")
    values.setdefault("retry_count", 0)
    return MetricResult(
        metric_name=metric_name(metric),
        kind=metric.type,
        threshold=metric.threshold,
        evaluation_time_ms=int((time.perf_counter() - start) * 1000),
        **values,
    )


def _standard(metric: EvaluationMetric, view: TurnView, start: float) -> MetricResult:
    # A legacy single-turn case runs text metrics without a ground truth, and they fail.
    truth = view.ground_truth
    actual = view.response
    if metric.response_path:
        leaf, problem = path_leaf(view.response, metric.response_path)
        if leaf is None:
            return _result(metric, start, score=0.0, passed=False, error=problem)
        actual = leaf
    if metric.metric in SCORERS:
        return _overlap(metric, actual, truth, start)
    judge = equality if metric.metric == "equality" else numeric
    verdict = judge(actual, truth, metric) if truth is not None else None
    score = 1.0 if verdict is not None and verdict.passed else 0.0
    threshold = metric.threshold
    passed = score >= threshold if threshold is not None else score == 1.0
    model = metric.model.name if metric.model is not None else None
    return _result(metric, start, score=score, passed=passed, model_used=model)


def _overlap(
    metric: EvaluationMetric, actual: str, truth: str | None, start: float
) -> MetricResult:
    """bleu, rouge, meteor: a score in [0, 1]; passed is score >= threshold, if one is set."""
    if truth is None:  # a legacy single-turn case: the metric runs, and fails
        needed = f"ground_truth is required for {metric.metric.upper()} evaluation"
        error = f"Evaluation failed with non-retryable error: {needed}"
        return _result(metric, start, score=0.0, passed=False, error=error)
    try:
        score = SCORERS[metric.metric](actual, truth)
    except MissingLibrary as exc:
        return _result(metric, start, score=0.0, passed=False, error=str(exc))
    except Exception as exc:
        error = f"{type(exc).__name__}: {exc}"
        return _result(metric, start, score=0.0, passed=False, error=error)
    passed = score >= metric.threshold if metric.threshold is not None else True
    model = metric.model.name if metric.model is not None else None
    return _result(metric, start, score=score, passed=passed, model_used=model)


def _applies(metric: MetricConfig, view: TurnView) -> bool:
    if not metric.enabled:
        return False
    if isinstance(metric, EvaluationMetric) and metric.metric in GROUND_TRUTH_METRICS:
        return view.ground_truth is not None or view.legacy
    if isinstance(metric, (GEvalMetric, RAGMetric)):
        truth, retrieved = needs(metric)
        return not (truth and view.ground_truth is None) and not (
            retrieved and not view.retrieval_context
        )
    return True


async def evaluate(
    metrics: list[MetricConfig],
    view: TurnView,
    graders: dict[str, Callable[..., Any]],
    judges: JudgePanel | None = None,
    grader_timeout: float = DEFAULT_GRADER_TIMEOUT,
) -> MetricsOutcome:
    out = MetricsOutcome()
    for position, metric in enumerate(metrics):
        if not _applies(metric, view):
            continue
        start = time.perf_counter()
        if isinstance(metric, CodeMetric):
            await _code(metric, view, graders[metric.grader], out, start, grader_timeout)
        elif is_judged(metric):
            await _judged(metric, view, judges, out)
        else:
            assert isinstance(metric, EvaluationMetric)
            _record(metric, _standard(metric, view, start), out)
        out.sources.append(position)
        if out.fatal is not None:
            break  # the test case ends here: no later metric runs
    return out


def _record(metric: MetricConfig, result: MetricResult, out: MetricsOutcome) -> None:
    """Keep the result; a metric that could not be computed with fail_on_error stops the
    test case."""
    out.results.append(result)
    if result.error is not None and metric.fail_on_error:
        name = result.metric_name
        out.errors.append(f"metric '{name}' could not be computed: {result.error} (fail_on_error)")
        out.stop_reason = f"metric '{name}' failed with fail_on_error"


async def _judged(
    metric: EvaluationMetric | GEvalMetric | RAGMetric,
    view: TurnView,
    judges: JudgePanel | None,
    out: MetricsOutcome,
) -> None:
    given = JudgeInputs(
        input=view.input,
        response=view.response,
        ground_truth=view.ground_truth,
        context=turn_context(view.retrieval_context, view.files_text, view.tool_invocations),
        retrieval_context=view.retrieval_context,
    )
    name = metric_name(metric)
    request = TurnRequest("", view.turn_index, view.case_label, view.case_index, judge=name)
    judged = await judge_metric(metric, name, metric.type, given, request, judges)
    out.execution_errors += judged.execution_error
    _record(metric, judged.result, out)


async def _code(
    metric: CodeMetric,
    view: TurnView,
    grader: Callable[..., Any],
    out: MetricsOutcome,
    start: float,
    timeout: float,
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
        outcome = await run_grader(grader, ctx, metric, timeout)
    except GraderReturnError as exc:
        out.results.append(_result(metric, start, score=0.0, passed=False, error=str(exc)))
        return
    except Exception as exc:  # the grader's own error, or its time limit
        error = exception_line(exc)
        out.results.append(_result(metric, start, score=0.0, passed=False, error=error))
        if metric.fail_on_error:
            case = view.test_case_name
            out.fatal = f"TestCaseFatal({name}) at turn {view.turn_index} of {case!r}: {error}"
        return
    out.results.append(
        _result(metric, start, score=outcome.score, passed=outcome.passed, reasoning=outcome.reason)
    )
    if outcome.details is not None:
        out.grader_details[name] = outcome.details
