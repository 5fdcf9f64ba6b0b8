"""`compare --format markdown`: a pull-request comment. The verdict and the runs side by side,
then every regression (never cut), then the rest in collapsed sections cut to fit: GitHub
refuses a comment over 65,536 characters. Every text from a report is an inline code span.
"""

from __future__ import annotations

from holodeck_lsp.hygiene.markdown import code_cell
from holodeck_lsp.models.comparison import CaseChange, Comparison, RunSummary, TurnChange
from holodeck_lsp.runner.report.comparison.change_groups import (
    TurnGroup,
    counted,
    drop_text,
    gate_text,
    metric_rows,
    outcome_text,
    p_text,
    rate_text,
    reliability_rows,
    runner_note,
    tested,
    turn_groups,
    verdict_line,
)
from holodeck_lsp.runner.report.comparison.comparison_text import counts_line, metric_text, signed

COMMENT_LIMIT = 65_536  # characters GitHub takes in a comment
MARKER = "<!-- holodeck-lsp compare -->"  # how the CI recipe finds its comment to update it
NAME_LIMIT = 80
PROBLEM_LIMIT = 120
# Shorter and shorter names, until every regressed case fits in one line each.
COMPACT_NAME_LIMITS = (60, 40, 30, 20, 12)
_TABLE = "| test case | turn | BASE | HEAD | p-value | failure in HEAD |\n|---|---|---|---|---|---|"
_UNCLEAR_TABLE = (
    "| test case | turn | BASE | HEAD | p-value | smallest fall caught | failure in HEAD |\n"
    "|---|---|---|---|---|---|---|"
)
# Room kept for the line naming the sections left out, should the budget run out.
LEFT_OUT_RESERVE = 400


def _rate(side: RunSummary) -> str:
    return f"{side.passed}/{side.total_tests}"


def _runs_cell(side: RunSummary) -> str:
    if side.first_timestamp is None:
        return ""
    return f"{side.runs} ({code_cell(side.first_timestamp)} to {code_cell(side.timestamp)})"


def _suite_row(comparison: Comparison) -> str:
    suite = comparison.suite
    change = f"{suite.difference * 100:+.1f} points"
    if suite.standard_error is not None and suite.p_value is not None:
        change += f" (SE {suite.standard_error * 100:.1f}"
        if suite.difference < 0:
            change += f", p = {p_text(suite.p_value)}"
            change += ", **beyond noise**" if suite.regression else ", within noise"
        change += ")"
    return (
        f"| turn pass rate | {rate_text(suite.base_rate)} | {rate_text(suite.head_rate)} "
        f"| {change} |"
    )


def _runs_table(comparison: Comparison) -> list[str]:
    base, head = comparison.base, comparison.head
    rows = [
        "| | BASE | HEAD | change |",
        "|---|---|---|---|",
        f"| report | {code_cell(', '.join(base.reports), NAME_LIMIT)} "
        f"| {code_cell(', '.join(head.reports), NAME_LIMIT)} | |",
        f"| runner | {code_cell(base.runner)} | {code_cell(head.runner)} | |",
    ]
    if base.first_timestamp is not None or head.first_timestamp is not None:
        rows.append(f"| runs | {_runs_cell(base)} | {_runs_cell(head)} | |")
    latest = "test cases passed (the latest run)" if base.first_timestamp else "test cases passed"
    rows += [
        f"| {latest} | {_rate(base)} | {_rate(head)} | {head.passed - base.passed:+d} |",
        f"| duration | {base.duration_ms / 1000:.2f} s | {head.duration_ms / 1000:.2f} s "
        f"| {signed(comparison.duration_delta_ms / 1000)} s |",
    ]
    if comparison.tokens_delta is not None:
        rows.append(
            f"| tokens | {base.total_tokens:,} | {head.total_tokens:,} "
            f"| {comparison.tokens_delta:+,} |"
        )
    if base.repeat > 1 or head.repeat > 1:
        rows.append(f"| attempts per case | {base.repeat} | {head.repeat} | |")
    if comparison.suite.turns:
        rows.append(_suite_row(comparison))
    return rows


def _why(turn: TurnChange) -> str:
    return code_cell(turn.head.problem if turn.head is not None else None, PROBLEM_LIMIT)


def _p_cell(turn: TurnChange) -> str:
    if turn.p_value is None:
        return ""
    if turn.adjusted_p is None or turn.adjusted_p == turn.p_value:
        return p_text(turn.p_value)
    return f"{p_text(turn.p_value)} (adjusted {p_text(turn.adjusted_p)})"


def _sides(turn: TurnChange) -> str:
    both = counted(turn)
    return f"{outcome_text(turn.base, both)} | {outcome_text(turn.head, both)}"


def _row(case: CaseChange, turn: TurnChange) -> str:
    return (
        f"| {code_cell(case.case, NAME_LIMIT)} | {turn.turn} | {_sides(turn)} "
        f"| {_p_cell(turn)} | {_why(turn)} |"
    )


def _unclear_row(case: CaseChange, turn: TurnChange) -> str:
    return (
        f"| {code_cell(case.case, NAME_LIMIT)} | {turn.turn} | {_sides(turn)} "
        f"| {_p_cell(turn)} | {drop_text(turn)} | {_why(turn)} |"
    )


def _compact(group: TurnGroup, name_limit: int) -> list[str]:
    """One line per regressed test case: its name, cut, and which turns regressed."""
    turns: dict[str, tuple[CaseChange, list[int]]] = {}
    for case, turn in group.rows:
        turns.setdefault(case.case, (case, []))[1].append(turn.turn)
    return [
        f"- {code_cell(case.case, name_limit)}: turn {', '.join(map(str, indexes))}"
        for case, indexes in turns.values()
    ]


def _regressions(group: TurnGroup, budget: int) -> list[str]:
    """Every regression: a row each when they fit, else a line per test case."""
    if not group.rows:
        return []
    heading = f"#### Regressions ({len(group.rows)})"
    full = [heading, "", _TABLE, *(_row(c, t) for c, t in group.rows), ""]
    if _size(full) <= budget:
        return full
    note = "_Too many to show one by one: the test cases and their regressed turns._"
    for limit in COMPACT_NAME_LIMITS:
        compact = [heading, "", note, "", *_compact(group, limit), ""]
        if _size(compact) <= budget:
            break
    return compact


def _size(lines: list[str]) -> int:
    return sum(len(line) + 1 for line in lines)


def _details(
    title: str, header: list[str], rows: list[str], budget: int, shown: bool = False
) -> list[str]:
    """A collapsed section (open when ``shown``) with as many rows as the budget holds,
    saying how many it left; nothing when not even one row fits."""
    opening = [f"<details{' open' if shown else ''}><summary>{title}</summary>", "", *header]
    closing = ["", "</details>", ""]
    room = budget - _size(opening) - _size(closing) - 80  # 80: the line saying what is left
    if not rows or room < len(rows[0]) + 1:
        return []
    kept: list[str] = []
    for row in rows:
        if room - len(row) - 1 < 0:
            break
        kept.append(row)
        room -= len(row) + 1
    if len(kept) == len(rows):
        return [*opening, *kept, *closing]
    more = f"\n_{len(rows) - len(kept)} more not shown: `compare --format json` has them all._"
    return [*opening, *kept, more, *closing]


def _reliability_details(comparison: Comparison, budget: int) -> list[str]:
    rows = []
    for case in reliability_rows(comparison):
        base, head = case.base, case.head
        assert base is not None and head is not None
        rows.append(
            f"| {code_cell(case.case, NAME_LIMIT)} | {case.pass_hat_k_of} "
            f"| {base.pass_hat_k:g} | {head.pass_hat_k:g} "
            f"| {base.passed_attempts}/{base.attempts} | {head.passed_attempts}/{head.attempts} |"
        )
    header = [
        "| test case | k | pass^k BASE | pass^k HEAD | attempts passed BASE | HEAD |",
        "|---|---|---|---|---|---|",
    ]
    return _details(f"Reliability changed ({len(rows)})", header, rows, budget)


def _metric_details(comparison: Comparison, budget: int) -> list[str]:
    changed = metric_rows(comparison.cases)
    if not changed:
        return []
    rows = [
        f"| {code_cell(case.case, NAME_LIMIT)} | {turn.turn} | {code_cell(metric)} "
        f"| {signed(delta)} |"
        for case, turn, metric, delta in changed
    ]
    header = ["| test case | turn | metric | score change |", "|---|---|---|---|"]
    title = f"Metric scores that changed ({len(rows)} turn metric(s), largest fall first)"
    return _details(title, header, rows, budget)


def render_comparison_markdown(comparison: Comparison, fail_on: str) -> str:
    count = comparison.turns.regressions
    title = f"{count} regression(s)" if count else "No regression"
    top = [
        MARKER,
        f"### HoloDeck test suite: {title}",
        "",
        *_runs_table(comparison),
        "",
    ]
    note = runner_note(comparison, code_cell)
    if note is not None:
        top += [f"> **Note:** {note}.", ""]
    top += ["T" + counts_line(comparison)[1:] + ".", ""]
    if tested(comparison):
        top += [f"_A regression is a fall beyond noise. Gate: {gate_text(comparison)}._", ""]
    if comparison.metrics:
        top += ["Mean scores: " + "; ".join(code_cell(metric_text(m)) for m in comparison.metrics)]
        top.append("")
    bottom = ["", f"<sub>{verdict_line(comparison, fail_on)}</sub>", ""]
    budget = COMMENT_LIMIT - _size(top) - _size(bottom) - LEFT_OUT_RESERVE
    groups = turn_groups(comparison)
    body = _regressions(groups[0], budget)
    budget -= _size(body)
    unclear = groups[1]
    if unclear.rows:
        rows = [_unclear_row(case, turn) for case, turn in unclear.rows]
        title = f"{unclear.title} ({len(rows)})"
        section = _details(title, _UNCLEAR_TABLE.split("\n"), rows, budget, shown=True)
        body += section
        budget -= _size(section)
    reliability = _reliability_details(comparison, budget)
    body += reliability
    budget -= _size(reliability)
    left_out = []
    for group in groups[2:]:
        if not group.rows:
            continue
        title = f"{group.title} ({len(group.rows)})"
        rows = [_row(case, turn) for case, turn in group.rows]
        section = _details(title, _TABLE.split("\n"), rows, budget)
        if not section:
            left_out.append(title)
        body += section
        budget -= _size(section)
    metrics = _metric_details(comparison, budget)
    if not metrics and metric_rows(comparison.cases):
        left_out.append("Metric scores that changed")
    body += metrics
    if left_out:
        body += [f"_Left out for length: {', '.join(left_out)}._", ""]
    return "\n".join([*top, *body, *bottom]).rstrip() + "\n"
