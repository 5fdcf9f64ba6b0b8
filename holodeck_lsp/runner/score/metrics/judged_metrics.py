"""LLM-judged metrics on one turn: what the judge sees, whether the metric runs, its result."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass

from holodeck_lsp.models.evaluation import JUDGED_METRICS, EvaluationMetric, GEvalMetric, RAGMetric
from holodeck_lsp.models.test_result import MetricKind, MetricResult, ToolInvocation
from holodeck_lsp.runner.backends.backend import TurnRequest
from holodeck_lsp.runner.score.metrics.judge_panel import DEFAULT_RETRIES, JudgePanel
from holodeck_lsp.runner.score.metrics.rubrics import JudgeInputs, rubric_for

JudgedMetric = EvaluationMetric | GEvalMetric | RAGMetric
NO_PANEL = "no judge model is available to this evaluation"


def is_judged(metric: object) -> bool:
    if isinstance(metric, (GEvalMetric, RAGMetric)):
        return True
    return isinstance(metric, EvaluationMetric) and metric.metric in JUDGED_METRICS


def needs(metric: JudgedMetric) -> tuple[bool, bool]:
    """(needs ground_truth, needs retrieval_context): without them the metric does not run
    on the turn, as text metrics do not run without a ground truth."""
    if isinstance(metric, GEvalMetric):
        params = set(metric.evaluation_params)
        return "expected_output" in params, "retrieval_context" in params
    if isinstance(metric, RAGMetric):
        kind = metric.metric_type.value
        truth = kind in ("contextual_precision", "contextual_recall")
        return truth, kind != "answer_relevancy"
    return False, False


def _tool_line(call: ToolInvocation) -> str:
    args = json.dumps(call.args, ensure_ascii=False, sort_keys=True)
    outcome = f"failed: {call.error}" if call.error else json.dumps(call.result, default=str)
    return f"tool {call.name}({args}) -> {outcome}"


def turn_context(
    retrieval_context: list[str] | None, files_text: str | None, calls: list[ToolInvocation]
) -> str | None:
    """What the agent had to go on in this turn: retrieved passages, files, tool results."""
    parts = [p.strip() for p in retrieval_context or [] if p.strip()]
    if files_text and files_text.strip():
        parts.append(files_text.strip())
    parts += [_tool_line(c) for c in calls]
    return "\n\n".join(parts) or None


def _needs_context(metric: JudgedMetric) -> bool:
    if isinstance(metric, GEvalMetric):
        return "context" in metric.evaluation_params
    return isinstance(metric, EvaluationMetric) and metric.metric == "groundedness"


# HoloDeck builds a G-Eval judge with `threshold or 0.5` (executor.py:649) and, with no
# threshold, takes the judge's own verdict: an unset threshold passes at 0.5, and the
# report still shows none.
GEVAL_DEFAULT_PASS_MARK = 0.5


def pass_mark(metric: JudgedMetric) -> float | None:
    """The score a judged metric passes at; None: it passes whatever the score."""
    if isinstance(metric, GEvalMetric) and metric.threshold is None:
        return GEVAL_DEFAULT_PASS_MARK
    return metric.threshold


@dataclass(frozen=True)
class JudgedOutcome:
    result: MetricResult
    execution_error: bool


def _limits(metric: JudgedMetric, panel: JudgePanel) -> tuple[int, float, str]:
    """Retries after the first call, seconds per call, and the option that set them."""
    retries = DEFAULT_RETRIES
    if isinstance(metric, EvaluationMetric):
        if metric.retry_on_failure is not None:
            retries = metric.retry_on_failure
        if metric.timeout_ms is not None:
            return retries, metric.timeout_ms / 1000, "timeout_ms"
    return retries, panel.default_timeout, "llm_timeout"


async def judge_metric(
    metric: JudgedMetric,
    name: str,
    kind: MetricKind,
    given: JudgeInputs,
    request: TurnRequest,
    panel: JudgePanel | None,
) -> JudgedOutcome:
    """Grade one metric on one turn; every failure is an error result, never a pass."""
    start = time.perf_counter()
    rubric = rubric_for(metric, given)

    def result(**values: object) -> MetricResult:
        return MetricResult.model_validate(
            {
                "metric_name": name,
                "kind": kind,
                "threshold": rubric.threshold,
                "scale": "0-1",
                "evaluation_time_ms": int((time.perf_counter() - start) * 1000),
                **values,
            }
        )

    if panel is None:
        return JudgedOutcome(result(score=0.0, passed=False, error=NO_PANEL), False)
    model = panel.model_for(metric.model)
    if _needs_context(metric) and given.context is None:
        error = (
            f"{name} needs a context to judge against, and this turn has none "
            "(no retrieval_context, files or tool calls)"
        )
        failed = result(score=0.0, passed=False, error=error, model_used=model.name)
        return JudgedOutcome(failed, False)
    retries, timeout, setting = _limits(metric, panel)
    judged = await panel.grade(rubric, model, request, retries, timeout, setting)
    common = {"retry_count": judged.retries, "model_used": model.name}
    if judged.verdict is None:
        return JudgedOutcome(
            result(score=0.0, passed=False, error=judged.error, **common), judged.execution_error
        )
    score = judged.verdict.score
    mark = pass_mark(metric)
    passed = score >= mark if mark is not None else True
    return JudgedOutcome(
        result(score=score, passed=passed, reasoning=judged.verdict.reason, **common), False
    )
