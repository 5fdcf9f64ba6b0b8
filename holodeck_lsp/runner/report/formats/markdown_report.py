"""A Markdown report: the summary, then each test case turn by turn, naming what failed.

Every text that came from the agent file, the model, a tool, a service or a report read back
(`merge`, `--baseline`) is an inline code span (`hygiene/markdown.py`): a reply cannot load
an image, plant a link or break the table it stands in.
"""

from __future__ import annotations

from holodeck_lsp.hygiene.markdown import code_cell, code_span
from holodeck_lsp.models.comparison import CaseChange, Comparison
from holodeck_lsp.models.test_result import (
    MetricResult,
    RepeatedCase,
    TestReport,
    TestResult,
    TurnResult,
)
from holodeck_lsp.runner.report.comparison.change_groups import (
    NO_CHANGE,
    case_delta,
    metric_rows,
)
from holodeck_lsp.runner.report.comparison.comparison_text import counts_line, signed
from holodeck_lsp.runner.report.run_counts import pass_rate_text, report_counts
from holodeck_lsp.runner.score.turn_scores import metric_reason

_CELL_LIMIT = 80


def _cell(text: str | None, limit: int = _CELL_LIMIT) -> str:
    return code_cell(text, limit)


def _label(result: TestResult, index: int) -> str:
    return result.test_name or f"test case {index}"


def _verdict(passed: bool, skipped: bool = False) -> str:
    return "SKIP" if skipped else ("PASS" if passed else "FAIL")


def _metric(m: MetricResult) -> str:
    mark = {True: "pass", False: "fail", None: "-"}[m.passed]
    return f"{m.metric_name} {m.score:.2f} {mark}"


def _turn_failures(turn: TurnResult) -> list[str]:
    """`turn_problems` as Markdown: the texts as code."""
    out = [code_span(e) for e in turn.errors]
    for m in turn.metric_results:
        if m.passed is False:
            out.append(f"metric {code_span(m.metric_name)} failed: {code_span(metric_reason(m))}")
    return out


def _turn_table(result: TestResult) -> list[str]:
    lines = [
        "| turn | result | input | response | tool calls | metrics | time |",
        "|---|---|---|---|---|---|---|",
    ]
    for t in result.turns or []:
        lines.append(
            f"| {t.turn_index} | {_verdict(t.passed, t.skipped)} | {_cell(t.input, 60)} "
            f"| {_cell(t.response, 60)} | {_cell(', '.join(t.tool_calls))} "
            f"| {_cell('; '.join(_metric(m) for m in t.metric_results), 120)} "
            f"| {t.execution_time_ms} ms |"
        )
    return lines


def _delta(change: CaseChange) -> str:
    """What changed since the baseline; a regression in bold."""
    text = case_delta(change)
    return f"**regressed** ({text})" if change.regression else text


def _against(baseline: Comparison) -> list[str]:
    """The baseline, what changed turn by turn, and the cases the run no longer has."""
    gone = [code_span(c.case) for c in baseline.cases if c.head is None]
    lines = [
        f"Against the baseline {code_span(', '.join(baseline.base.reports))} "
        f"({baseline.base.passed}/{baseline.base.total_tests} passed): "
        f"{counts_line(baseline)}.",
        "",
    ]
    if gone:
        lines += [f"Not in this run: {', '.join(gone)}.", ""]
    return lines


def _score_changes(change: CaseChange) -> str:
    rows = metric_rows([change])
    return "; ".join(
        f"turn {turn.turn} {code_span(metric)} {signed(d)}" for _, turn, metric, d in rows
    )


def _case_section(result: TestResult, index: int, change: CaseChange | None) -> list[str]:
    lines = [f"## {_verdict(result.passed)}: {code_span(_label(result, index))}", ""]
    scores = _score_changes(change) if change is not None else ""
    if change is not None and (scores or case_delta(change) != NO_CHANGE):
        lines += [f"Against the baseline: {_delta(change)}; scores: {scores or 'the same'}", ""]
    if result.turns:
        lines += _turn_table(result)
        failures = [
            f"- turn {t.turn_index}: {problem}"
            for t in result.turns
            for problem in _turn_failures(t)
        ]
    else:
        lines += [
            f"- input: {code_span(result.test_input, 200)}",
            f"- response: {code_span(result.agent_response, 200)}",
            f"- tool calls: {code_span(', '.join(result.tool_calls)) or 'none'}",
        ]
        if result.metric_results:
            scores = "; ".join(_metric(m) for m in result.metric_results)
            lines.append(f"- metrics: {code_span(scores)}")
        failures = [f"- {code_span(e)}" for e in result.errors]
        if result.tools_matched is False:
            failures.append(
                f"- expected tools not matched: {code_span(str(result.expected_tools))}"
            )
        failures += [
            f"- metric {code_span(m.metric_name)} failed: {code_span(metric_reason(m))}"
            for m in result.metric_results
            if m.passed is False
        ]
    if failures:
        lines += ["", "Failures:", "", *failures]
    return [*lines, ""]


def _repeats_table(repeats: list[RepeatedCase]) -> list[str]:
    k = str(max(r.attempts for r in repeats))
    lines = [
        "",
        f"| test case | attempts passed | pass^{k} | pass@{k} | turns passed (share of attempts) "
        "| metric scores (min-max) |",
        "|---|---|---|---|---|---|",
    ]
    for i, r in enumerate(repeats):
        name = r.test_name or f"test case {i}"
        flag = " FLAKY" if r.flaky else ""
        rates = ", ".join(f"{rate:.0%}" for rate in r.turn_pass_rates)
        spread = "; ".join(
            f"{metric} {s.min:.2f}-{s.max:.2f}" for metric, s in r.metric_scores.items()
        )
        lines.append(
            f"| {_cell(name)}{flag} | {r.passed_attempts}/{r.attempts} "
            f"| {r.pass_hat_k.get(k, 0.0):g} | {r.pass_at_k.get(k, 0.0):g} | {rates} "
            f"| {_cell(spread, 120)} |"
        )
    return lines


def _interruption(report: TestReport) -> list[str]:
    if not report.interrupted:
        return []
    line = f"**The run stopped early** ({code_span(report.stop_reason or 'interrupted')}): "
    line += report_counts(report).kept() + "."
    if report.not_run:
        line += f" Not run: {', '.join(code_span(label) for label in report.not_run)}."
    return [line, ""]


def render_markdown(report: TestReport, baseline: Comparison | None = None) -> str:
    """The report; with a baseline, what changed since it beside each case."""
    s = report.summary
    changes = {c.head.result: c for c in baseline.cases if c.head} if baseline else {}
    column = (" vs baseline |", "---|") if baseline else ("", "")
    lines = [
        f"# Test report: {code_span(report.agent_name)}",
        "",
        f"**{s.passed}/{s.total_tests} test cases passed** ({pass_rate_text(s.pass_rate)}; "
        f"{report_counts(report).units()}) in "
        f"{s.total_duration_ms / 1000:.2f} s; {code_span(report.timestamp)}; "
        f"{code_span(report.agent_config_path)}",
        "",
        *_interruption(report),
        *(_against(baseline) if baseline else []),
        "| test case | result | turns passed | time |" + column[0],
        "|---|---|---|---|" + column[1],
    ]
    for i, r in enumerate(report.results):
        turns = r.turns or []
        count = f"{sum(t.passed for t in turns)}/{len(turns)}" if turns else "single turn"
        verdict = _verdict(r.passed)
        if i < len(report.repeats) and report.repeats[i].flaky:
            repeat = report.repeats[i]
            verdict += f" (FLAKY: {repeat.passed_attempts}/{repeat.attempts} attempts passed)"
        row = f"| {_cell(_label(r, i))} | {verdict} | {count} | {r.execution_time_ms} ms |"
        if baseline:
            row += f" {_delta(changes[i]) if i in changes else ''} |"
        lines.append(row)
    if s.average_scores:
        lines += ["", "| metric | cases | mean score |", "|---|---|---|"]
        for name, score in s.average_scores.items():
            lines.append(f"| {_cell(name)} | {s.metrics_evaluated.get(name, 0)} | {score:.3f} |")
    if report.repeats:
        lines += _repeats_table(report.repeats)
    lines.append("")
    for i, r in enumerate(report.results):
        lines += _case_section(r, i, changes.get(i))
    return "\n".join(lines).rstrip() + "\n"
