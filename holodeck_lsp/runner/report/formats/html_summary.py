"""The top of the HTML report, read in ten seconds: the pass rate, each metric's mean
beside its threshold, the slowest turns, the tokens used and, with `--repeat`, how
reliably each test case passed; and the attempts block of a repeated case."""

from __future__ import annotations

from collections.abc import Iterator
from html import escape

from holodeck_lsp.models.test_result import (
    MetricResult,
    RepeatedCase,
    TestReport,
    TestResult,
)
from holodeck_lsp.models.token_usage import TokenUsage
from holodeck_lsp.runner.report.console import repeat_line
from holodeck_lsp.runner.report.run_counts import pass_rate_text, report_counts
from holodeck_lsp.runner.score.metrics.judge_panel import ledger_line

SLOWEST = 5  # turns the summary lists


def case_name(result: TestResult, index: int) -> str:
    return result.test_name or f"test_cases[{index}]"


def score_text(m: MetricResult) -> str:
    """`score 0.67 / threshold 0.80`; a score on another scale as it is (`score 4`)."""
    shown = "{:.2f}" if m.scale in (None, "0-1") else "{:g}"
    score = "score " + shown.format(m.score)
    return score if m.threshold is None else f"{score} / threshold {shown.format(m.threshold)}"


def _tile(title: str, body: str, area: str) -> str:
    return f'<div class="tile {area}-tile"><h2>{escape(title)}</h2>{body}</div>'


def _pass_rate(report: TestReport) -> str:
    s = report.summary
    counts = report_counts(report)
    state = "ok" if s.failed == 0 and not report.interrupted else "bad"
    not_run = f", {counts.not_run} not run" if report.interrupted else ""
    return _tile(
        "Pass rate",
        f'<div class="rate {state}">{pass_rate_text(s.pass_rate)}</div>'
        f'<div><b class="ok">{s.passed} passed</b>, <b class="bad">{s.failed} failed</b>'
        f"{not_run} of {counts.selected} test case(s)</div>"
        f'<div class="dim">{escape(counts.units())} in {s.total_duration_ms / 1000:.2f} s</div>',
        "rate",
    )


def _metric_results(results: list[TestResult]) -> Iterator[MetricResult]:
    for result in results:
        if result.turns:
            for turn in result.turns:
                yield from turn.metric_results
        else:
            yield from result.metric_results


def _by_threshold(report: TestReport) -> dict[str, dict[float | None, list[float]]]:
    """Each metric's scores, by the threshold each was judged against (a metric written
    with several thresholds is several rows: no one of them stands for the others)."""
    found: dict[str, dict[float | None, list[float]]] = {}
    for m in _metric_results(report.results):
        found.setdefault(m.metric_name, {}).setdefault(m.threshold, []).append(m.score)
    return found


def _metric_means(report: TestReport) -> str:
    s = report.summary
    if not s.average_scores:
        return ""
    groups = _by_threshold(report)
    rows = []
    for name, mean in s.average_scores.items():
        by_threshold = groups.get(name, {})
        if len(by_threshold) > 1:  # configured several ways: one row per threshold
            shown = [
                (sum(scores) / len(scores), threshold, f"{len(scores)} turn(s)")
                for threshold, scores in sorted(by_threshold.items(), key=_threshold_order)
            ]
        else:
            threshold = next(iter(by_threshold), None)
            shown = [(mean, threshold, str(s.metrics_evaluated.get(name, 0)))]
        for value, threshold, count in shown:
            below = threshold is not None and value < threshold
            rows.append(
                f"<tr><td>{escape(name)}</td>"
                f'<td class="{"n bad" if below else "n"}">{value:.2f}</td>'
                f'<td class="n">{"-" if threshold is None else f"{threshold:.2f}"}</td>'
                f'<td class="n">{count}</td></tr>'
            )
    head = "<tr><th>metric</th><th>mean</th><th>threshold</th><th>cases</th></tr>"
    return _tile("Metrics", f'<table class="plain">{head}{"".join(rows)}</table>', "metrics")


def _threshold_order(item: tuple[float | None, list[float]]) -> float:
    return -1.0 if item[0] is None else item[0]


def _slowest(report: TestReport) -> str:
    turns: list[tuple[int, int, int | None, TestResult]] = [
        (turn.execution_time_ms, index, turn.turn_index, result)
        for index, result in enumerate(report.results)
        for turn in result.turns or []
    ]
    turns += [
        (result.execution_time_ms, index, None, result)
        for index, result in enumerate(report.results)
        if not result.turns
    ]
    if not turns:
        return ""
    replayed = report.environment.get("replay")
    # A replay's replies come from the recording, which keeps no durations: its times are
    # this run's scoring alone, so they are not ranked as the agent's.
    note = (
        f'<div class="dim">Replayed from {escape(replayed)}: a turn\'s time is its scoring '
        "here, not the agent's reply (a recording keeps no durations).</div>"
        if replayed
        else ""
    )
    ranked = [t for t in sorted(turns, key=lambda t: -t[0])[:SLOWEST] if t[0] > 0 or not note]
    rows = []
    for ms, index, turn, result in ranked:
        anchor = f"case-{index}" if turn is None else f"case-{index}-turn-{turn}"
        label = escape(case_name(result, index)) + ("" if turn is None else f" · turn {turn}")
        rows.append(
            f'<tr><td><a href="#{anchor}">{label}</a></td><td class="n">{ms:,} ms</td></tr>'
        )
    table = f'<table class="plain">{"".join(rows)}</table>' if rows else ""
    return _tile("Slowest turns" + (" (replayed)" if note else ""), note + table, "slow")


def _tokens(report: TestReport) -> str:
    attempts = [a for r in report.repeats for a in r.results] or report.results
    used = [r.token_usage for r in attempts if r.token_usage is not None]
    lines = []
    if used:
        total = sum(used, TokenUsage.zero())
        lines.append(
            f'<div class="rate">{total.total_tokens:,}</div><div>token(s) used by the agent</div>'
            f'<div class="dim">{total.prompt_tokens:,} prompt, '
            f"{total.completion_tokens:,} completion</div>"
        )
    judged = ledger_line(report.environment)
    if judged is not None:
        lines.append(f"<div>{escape(judged)}</div>")
    return _tile("Tokens", "".join(lines), "tokens") if lines else ""


def _flaky_turns(repeat: RepeatedCase) -> list[int]:
    return [i for i, rate in enumerate(repeat.turn_pass_rates) if 0.0 < rate < 1.0]


def _reliability(report: TestReport) -> str:
    if not report.repeats:
        return ""
    k = str(max(r.attempts for r in report.repeats))
    rows = []
    for index, repeat in enumerate(report.repeats):
        turns = ", ".join(f"turn {t}" for t in _flaky_turns(repeat))
        flaky = f'<span class="flaky">{turns}</span>' if turns else "-"
        rows.append(
            f'<tr><td><a href="#case-{index}">{escape(repeat.test_name or f"test_cases[{index}]")}'
            f'</a></td><td class="n">{repeat.passed_attempts}/{repeat.attempts}</td>'
            f'<td class="n">{repeat.pass_hat_k.get(k, 0.0):.2f}</td>'
            f'<td class="n">{repeat.pass_at_k.get(k, 0.0):.2f}</td><td>{flaky}</td></tr>'
        )
    head = (
        f"<tr><th>test case</th><th>attempts passed</th><th>pass^{k}</th><th>pass@{k}</th>"
        "<th>flaky turns</th></tr>"
    )
    return (
        f'<div class="tile"><h2>Reliability</h2><p>{escape(repeat_line(report.repeats))}'
        f'</p><table class="plain">{head}{"".join(rows)}</table></div>'
    )


def glance(report: TestReport) -> str:
    """The summary tiles, then the reliability table of a `--repeat` run."""
    tiles = [_pass_rate(report), _metric_means(report), _slowest(report), _tokens(report)]
    return f'<section class="glance">{"".join(tiles)}</section>{_reliability(report)}'


def attempts_block(repeat: RepeatedCase) -> str:
    """A repeated case's attempts: how many passed, pass^k and pass@k, each turn's pass
    rate with the flaky ones marked."""
    k = str(repeat.attempts)
    flaky = set(_flaky_turns(repeat))
    rates = "".join(
        f'<span class="{"flaky" if i in flaky else "bad" if rate == 0 else "ok"}">'
        f"turn {i}: {rate:.0%}</span>"
        for i, rate in enumerate(repeat.turn_pass_rates)
    )
    return (
        f'<section class="turn attempts"><h3>Attempts: {repeat.passed_attempts} of '
        f"{repeat.attempts} passed · pass^{k} {repeat.pass_hat_k.get(k, 0.0):.2f} · "
        f"pass@{k} {repeat.pass_at_k.get(k, 0.0):.2f}</h3>"
        f'<div class="rates">turns passed (share of attempts): {rates}</div></section>'
    )
