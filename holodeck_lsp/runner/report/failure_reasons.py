"""Why a turn failed, in words: its errors (a failed tool assertion is one) and each failed
metric's reason. The Markdown and JUnit reports and `compare` all word it so."""

from __future__ import annotations

from holodeck_lsp.models.test_result import MetricResult, TurnResult


def metric_failure(m: MetricResult) -> str:
    """Why a metric failed: its error, its reasoning, else its score against the mark."""
    if m.error or m.reasoning:
        return str(m.error or m.reasoning)
    if m.threshold is not None:
        return f"score {m.score:g} below threshold {m.threshold:g}"
    return f"score {m.score:g}"


def turn_problems(turn: TurnResult) -> list[str]:
    """Every reason the turn failed, in words (failed tool assertions are error lines)."""
    out = list(turn.errors)
    for m in turn.metric_results:
        if m.passed is False:
            why = metric_failure(m)
            out.append(f"metric `{m.metric_name}` failed: {why}")
    return out
