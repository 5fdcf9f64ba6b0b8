"""A Markdown report: the summary, then each test case turn by turn, naming what failed.

Every text that came from the agent file, the model, a tool or a service is an inline code
span: a reply cannot load an image, plant a link or break the table it stands in.
"""

from __future__ import annotations

from holodeck_lsp.hygiene.clipping import clip
from holodeck_lsp.hygiene.markdown import code_span
from holodeck_lsp.models.test_result import (
    MetricResult,
    RepeatedCase,
    TestReport,
    TestResult,
    TurnResult,
)
from holodeck_lsp.runner.report.run_counts import report_counts

_CELL_LIMIT = 80


def _code(text: str | None, limit: int | None = None) -> str:
    """Untrusted text as code, on one line, cut to ``limit`` characters."""
    if not text:
        return ""
    flat = " ".join(text.split())
    return code_span(clip(flat, limit) if limit is not None else flat)


def _cell(text: str | None, limit: int = _CELL_LIMIT) -> str:
    """Untrusted text as code in a table cell (where `|` must be escaped, even in code)."""
    return _code(text, limit).replace("|", "\\|")


def _label(result: TestResult, index: int) -> str:
    return result.test_name or f"test case {index}"


def _verdict(passed: bool, skipped: bool = False) -> str:
    return "SKIP" if skipped else ("PASS" if passed else "FAIL")


def _metric(m: MetricResult) -> str:
    mark = {True: "pass", False: "fail", None: "-"}[m.passed]
    return f"{m.metric_name} {m.score:.2f} {mark}"


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


def _turn_failures(turn: TurnResult) -> list[str]:
    """`turn_problems` as Markdown: the texts as code."""
    out = [_code(e) for e in turn.errors]
    for m in turn.metric_results:
        if m.passed is False:
            out.append(f"metric {_code(m.metric_name)} failed: {_code(metric_failure(m))}")
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


def _case_section(result: TestResult, index: int) -> list[str]:
    lines = [f"## {_verdict(result.passed)}: {_code(_label(result, index))}", ""]
    if result.turns:
        lines += _turn_table(result)
        failures = [
            f"- turn {t.turn_index}: {problem}"
            for t in result.turns
            for problem in _turn_failures(t)
        ]
    else:
        lines += [
            f"- input: {_code(result.test_input, 200)}",
            f"- response: {_code(result.agent_response, 200)}",
            f"- tool calls: {_code(', '.join(result.tool_calls)) or 'none'}",
        ]
        if result.metric_results:
            scores = "; ".join(_metric(m) for m in result.metric_results)
            lines.append(f"- metrics: {_code(scores)}")
        failures = [f"- {_code(e)}" for e in result.errors]
        if result.tools_matched is False:
            failures.append(f"- expected tools not matched: {_code(str(result.expected_tools))}")
        failures += [
            f"- metric {_code(m.metric_name)} failed: "
            f"{_code(m.error or m.reasoning or 'below threshold')}"
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
    line = f"**The run stopped early** ({_code(report.stop_reason or 'interrupted')}): "
    line += report_counts(report).kept() + "."
    if report.not_run:
        line += f" Not run: {', '.join(_code(label) for label in report.not_run)}."
    return [line, ""]


def render_markdown(report: TestReport) -> str:
    s = report.summary
    lines = [
        f"# Test report: {_code(report.agent_name)}",
        "",
        f"**{s.passed}/{s.total_tests} test cases passed** ({s.pass_rate:g}%; "
        f"{report_counts(report).units()}) in "
        f"{s.total_duration_ms / 1000:.2f} s; {report.timestamp}; "
        f"{_code(report.agent_config_path)}",
        "",
        *_interruption(report),
        "| test case | result | turns passed | time |",
        "|---|---|---|---|",
    ]
    for i, r in enumerate(report.results):
        turns = r.turns or []
        count = f"{sum(t.passed for t in turns)}/{len(turns)}" if turns else "single turn"
        verdict = _verdict(r.passed)
        if i < len(report.repeats) and report.repeats[i].flaky:
            repeat = report.repeats[i]
            verdict += f" (FLAKY: {repeat.passed_attempts}/{repeat.attempts} attempts passed)"
        lines.append(f"| {_cell(_label(r, i))} | {verdict} | {count} | {r.execution_time_ms} ms |")
    if s.average_scores:
        lines += ["", "| metric | cases | mean score |", "|---|---|---|"]
        for name, score in s.average_scores.items():
            lines.append(f"| {_cell(name)} | {s.metrics_evaluated.get(name, 0)} | {score:.3f} |")
    if report.repeats:
        lines += _repeats_table(report.repeats)
    lines.append("")
    for i, r in enumerate(report.results):
        lines += _case_section(r, i)
    return "\n".join(lines).rstrip() + "\n"
