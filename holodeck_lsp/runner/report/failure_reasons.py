"""Why a turn failed, in words: its errors (a failed tool assertion is one) and each failed
metric's reason (`score/turn_scores.metric_reason`). The Markdown and JUnit reports and
`compare` all word it so."""

from __future__ import annotations

from holodeck_lsp.models.test_result import TurnResult
from holodeck_lsp.runner.score.turn_scores import metric_reason


def turn_problems(turn: TurnResult) -> list[str]:
    """Every reason the turn failed, in words (failed tool assertions are error lines)."""
    out = list(turn.errors)
    for m in turn.metric_results:
        if m.passed is False:
            why = metric_reason(m)
            out.append(f"metric `{m.metric_name}` failed: {why}")
    return out
