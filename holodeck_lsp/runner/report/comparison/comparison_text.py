"""`compare --format text`: for the terminal, the runs, the counts, every turn that changed
(the regressions first) with why it fails now, metric means, tokens and time."""

from __future__ import annotations

from holodeck_lsp.models.comparison import Comparison, MetricChange, RunSummary
from holodeck_lsp.runner.report.comparison.change_groups import (
    change_text,
    gate_text,
    reliability_rows,
    reliability_text,
    runner_note,
    suite_text,
    tested,
    turn_groups,
    verdict_line,
)

LISTED_QUIETLY = "Still failing"  # counted, not listed: the comparison is about change


def run_line(side: RunSummary) -> str:
    if side.first_timestamp is not None:  # a history
        return (
            f"{', '.join(side.reports)}: {side.runs} run(s) from {side.first_timestamp} to "
            f"{side.timestamp}, the latest by {side.runner}: {side.passed}/{side.total_tests} "
            "test case(s) passed"
        )
    line = (
        f"{', '.join(side.reports)}: {side.runner}, {side.passed}/{side.total_tests} test "
        f"case(s) passed"
    )
    if side.repeat > 1:
        line += f", {side.repeat} attempts each (pass rule {side.pass_rule})"
    if side.interrupted:
        line += f", stopped early ({len(side.not_run)} case(s) not run)"
    return f"{line}, {side.timestamp}"


def counts_line(comparison: Comparison) -> str:
    c = comparison.turns
    return (
        f"turns: {c.regressed} regressed, {c.fixed} fixed, {c.still_failing} still failing, "
        f"{c.still_passing} still passing, {c.new} new, {c.removed} removed"
    )


def _flat(text: str) -> str:
    return " ".join(text.split())


def signed(value: float, digits: int = 2) -> str:
    return f"{value:+,.{digits}f}"


def metric_text(m: MetricChange) -> str:
    base = f"{m.base:.2f}" if m.base is not None else "-"
    head = f"{m.head:.2f}" if m.head is not None else "-"
    delta = f" ({signed(m.delta)})" if m.delta is not None else ""
    return f"{m.metric} {base} -> {head}{delta}"


def totals_line(comparison: Comparison) -> str:
    base, head = comparison.base, comparison.head
    line = (
        f"duration: {base.duration_ms / 1000:.2f} s -> {head.duration_ms / 1000:.2f} s "
        f"({signed(comparison.duration_delta_ms / 1000)} s)"
    )
    if comparison.tokens_delta is not None:
        line += (
            f"; tokens: {base.total_tokens:,} -> {head.total_tokens:,} "
            f"({comparison.tokens_delta:+,})"
        )
    return line


def render_comparison_text(comparison: Comparison, fail_on: str) -> str:
    lines = [
        f"BASE {run_line(comparison.base)}",
        f"HEAD {run_line(comparison.head)}",
    ]
    note = runner_note(comparison)
    if note is not None:
        lines.append(f"note: {note}")
    lines.append(counts_line(comparison))
    lines.append(f"suite: {suite_text(comparison)}")
    if tested(comparison):
        lines.append(f"gate: {gate_text(comparison)}")
    for group in turn_groups(comparison):
        if not group.rows or group.title == LISTED_QUIETLY:
            continue
        lines += ["", f"{group.title} ({len(group.rows)}):"]
        for case, turn in group.rows:
            line = f"  {case.case}, turn {turn.turn}: {change_text(turn)}"
            problem = turn.head.problem if turn.head is not None else None
            lines.append(f"{line}: {_flat(problem)}" if problem else line)
    reliability = reliability_rows(comparison)
    if reliability:
        lines += ["", f"Reliability changed ({len(reliability)}):"]
        lines += [f"  {case.case}: {reliability_text(case)}" for case in reliability]
    lines.append("")
    if comparison.metrics:
        lines.append("metrics (mean score): " + "; ".join(map(metric_text, comparison.metrics)))
    lines += [totals_line(comparison), verdict_line(comparison, fail_on)]
    return "\n".join(lines) + "\n"
