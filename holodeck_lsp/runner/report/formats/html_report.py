"""A one-file HTML report: a summary read at a glance (`html_summary.py`), then every case
and turn with its tool calls, assertions, metric scores as labelled bars, expected-vs-actual
diffs and the judge's reasoning, a repeated case's attempts; a "failed only" filter and
keys that go from one failure to the next. Styles and the one script are inline
(`html_page_assets.py`), nothing is fetched: it opens from a CI artefact as it is."""

from __future__ import annotations

import difflib
import json
import re
from html import escape
from typing import Any

from holodeck_lsp.history.case_keys import CaseKey, case_keys
from holodeck_lsp.history.report_environment import suite_positions
from holodeck_lsp.history.turn_standings import Standing, Standings
from holodeck_lsp.hygiene.clipping import clip
from holodeck_lsp.models.comparison import CaseChange, Comparison
from holodeck_lsp.models.test_result import (
    MetricResult,
    RepeatedCase,
    TestReport,
    TestResult,
    ToolInvocation,
    TurnResult,
)
from holodeck_lsp.runner.report.comparison.change_groups import case_delta
from holodeck_lsp.runner.report.comparison.comparison_text import counts_line
from holodeck_lsp.runner.report.formats.html_page_assets import (
    NEXT_KEYS,
    PREVIOUS_KEYS,
    SCRIPT,
    STYLE,
)
from holodeck_lsp.runner.report.formats.html_summary import (
    attempts_block,
    case_name,
    glance,
    score_text,
)
from holodeck_lsp.runner.report.report_reading import made_by
from holodeck_lsp.runner.report.run_counts import report_counts
from holodeck_lsp.runner.score.arg_matchers import brief
from holodeck_lsp.runner.score.tool_assertions import bare_name
from holodeck_lsp.runner.score.turn_scores import Records, TurnScore, compares_reply

# Long values are cut: a report of thousands of turns stays small enough to open at once.
TEXT_LIMIT = 2000
VALUE_LIMIT = 300
# The first failed cases are open; the others open as the keys (or a click) reach them, and
# all of them before printing: the browser lays out only what is open, so a page of a
# thousand failures opens at once, and no case is left for it to skip.
OPEN_FAILED = 50
_TOKENS = re.compile(r"(\s+)")
_FAILED_CALL = ' class="bad"'


def _cut(text: str, limit: int = TEXT_LIMIT) -> str:
    return clip(text, limit, "…")


def _json(value: Any, limit: int = VALUE_LIMIT) -> str:
    try:
        text = json.dumps(value, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        text = str(value)
    return _cut(text, limit)


def _value(value: Any, limit: int = VALUE_LIMIT) -> str:
    """A tool's args or result as a reader takes it in: text as it is (its new lines kept),
    anything else as indented JSON."""
    if isinstance(value, str):
        return _cut(value, limit)
    try:
        text = json.dumps(value, ensure_ascii=False, indent=2, default=str)
    except (TypeError, ValueError):
        text = str(value)
    return _cut(text, limit)


def _verdict(passed: bool | None, skipped: bool = False) -> str:
    if skipped:
        return '<b class="v skip">SKIP</b>'
    if passed is None:
        return '<b class="v">-</b>'
    return '<b class="v ok">PASS</b>' if passed else '<b class="v bad">FAIL</b>'


def word_diff(expected: str, actual: str) -> tuple[str, str]:
    """Both texts as HTML, the words only one of them has marked (<del> / <ins>)."""
    old, new = _TOKENS.split(expected), _TOKENS.split(actual)
    left: list[str] = []
    right: list[str] = []
    for op, a1, a2, b1, b2 in difflib.SequenceMatcher(None, old, new).get_opcodes():
        gone, came = escape("".join(old[a1:a2])), escape("".join(new[b1:b2]))
        if op == "equal":
            left.append(gone)
            right.append(came)
            continue
        if gone:
            left.append(f"<del>{gone}</del>")
        if came:
            right.append(f"<ins>{came}</ins>")
    return "".join(left), "".join(right)


def _pre(label: str, text: str | None) -> str:
    if text is None:
        return ""
    return f"<h3>{label}</h3><pre>{escape(_cut(text))}</pre>"


def _calls(calls: list[ToolInvocation]) -> str:
    if not calls:
        return ""
    rows = "".join(
        f"<tr><td><code>{escape(c.name)}</code></td><td><pre>{escape(_value(c.args))}</pre></td>"
        f"<td><pre{_FAILED_CALL if c.error else ''}>"
        f"{escape(_value(c.error if c.error else c.result))}</pre></td></tr>"
        for c in calls
    )
    head = "<tr><th>tool</th><th>args</th><th>result</th></tr>"
    return f"<h3>Tool calls</h3><table>{head}{rows}</table>"


def _assertions(
    expected: list[Any] | None, score: TurnScore, matched: bool | None, single: bool
) -> str:
    if not expected:
        return ""
    items: list[str] = []
    for entry, check in zip(expected, score.checks, strict=False):
        name = bare_name(entry)
        if name is not None:
            why = "called" if check.passed else str(check.message)
            items.append(_assertion_item(bool(check.passed), escape(name), why))
        elif single or check.passed is None:
            # A single-turn case's result keeps the case's verdict only: a report read back
            # says no more, and the run's own page says the same.
            ok = matched is not False
            why = "the assertions held" if ok else "the assertions did not all hold"
            items.append(_assertion_item(ok, escape(_json(entry)), why))
        else:
            args = entry.get("args") if isinstance(entry, dict) else None
            shown = f"{check.expected}({brief(args or {})})"
            why = f"matched call {check.call}" if check.passed else str(check.message)
            items.append(_assertion_item(check.passed, escape(shown), why))
    return f'<h3>Assertions</h3><ul class="a">{"".join(items)}</ul>'


def _assertion_item(ok: bool, shown: str, why: str) -> str:
    mark = '<b class="ok">✓</b>' if ok else '<b class="bad">✗</b>'
    return f"<li>{mark} <code>{shown}</code>: {escape(why)}</li>"


def _metric(m: MetricResult) -> str:
    score = max(0.0, min(1.0, m.score)) if m.scale in (None, "0-1") else None
    width = f"{score * 100:.0f}%" if score is not None else "0"
    state = "fail" if m.passed is False else "pass"
    why = m.error or m.reasoning
    model = f"<small> (judge: {escape(m.model_used)})</small>" if m.model_used else ""
    return (
        f'<div class="m {state}"><span>{_verdict(m.passed)}{escape(m.metric_name)}</span>'
        f'<span class="bar"><i style="width:{width}"></i></span>'
        f'<span class="score">{escape(score_text(m))}</span>'
        f'<span class="why">{escape(_cut(why, 600)) if why else ""}{model}</span></div>'
    )


def _metrics(results: list[MetricResult]) -> str:
    if not results:
        return ""
    return "<h3>Metrics</h3>" + "".join(_metric(m) for m in results)


def _diff(results: list[MetricResult], truth: str | None, reply: str | None) -> str:
    failed = any(m.passed is False and compares_reply(m) for m in results)
    if not failed or truth is None or reply is None:
        return ""
    left, right = word_diff(_cut(truth), _cut(reply))
    return (
        '<h3>Expected vs actual</h3><div class="diff">'
        f"<span>expected</span><pre>{left}</pre><span>actual</span><pre>{right}</pre></div>"
    )


def _errors(errors: list[str]) -> str:
    if not errors:
        return ""
    return '<ul class="errs">' + "".join(f"<li>{escape(e)}</li>" for e in errors) + "</ul>"


def _record(standing: Standing | None) -> str:
    """A case's or turn's record over the runs kept before this one, beside its verdict."""
    if standing is None:
        return ""
    flaky = " flaky" if standing.flaky else ""
    return f'<span class="hist{flaky}">history: {escape(standing.sentence())}</span>'


def _turn(t: TurnResult, score: TurnScore, case: int, standing: Standing | None = None) -> str:
    heading = (f"<h3>Turn {t.turn_index} {_verdict(t.passed, t.skipped)}"
               f'<span class="t">{t.execution_time_ms} ms</span>{_record(standing)}</h3>')
    return _exchange(t.passed, heading, t.errors, t.input, t.response, t.ground_truth,
                     t.metric_results, t.tool_invocations,
                     _assertions(t.expected_tools, score, t.tools_matched, single=False),
                     f"case-{case}-turn-{t.turn_index}")


def _single(r: TestResult, score: TurnScore) -> str:
    """A single-turn case: its one exchange, shown as the case itself."""
    return _exchange(r.passed, "", r.errors, r.test_input, r.agent_response, r.ground_truth,
                     r.metric_results, r.tool_invocations,
                     _assertions(r.expected_tools, score, r.tools_matched, single=True), None)


def _exchange(passed: bool, heading: str, errors: list[str], message: str | None,
              response: str | None, ground_truth: str | None, metrics: list[MetricResult],
              calls: list[ToolInvocation], assertions: str, anchor: str | None) -> str:
    """One exchange (a turn, or a single-turn case): what was said, called and graded. A
    failed one can take the focus: the keys go from one to the next."""
    ident = f' id="{anchor}"' if anchor else ""
    focus = "" if passed else ' tabindex="-1"'
    return (
        f'<section class="turn {"pass" if passed else "fail"}"{ident}{focus}>{heading}'
        + _errors(errors)
        + _pre("Input", message)
        + _pre("Response", response)
        + _pre("Ground truth", ground_truth)
        + _diff(metrics, ground_truth, response)
        + _calls(calls)
        + assertions
        + _metrics(metrics)
        + "</section>"
    )


def _delta(change: CaseChange | None) -> str:
    """What changed in the case since the baseline, beside its name; a regression in red."""
    if change is None:
        return ""
    text = case_delta(change)
    if change.regression:
        return f'<span class="delta reg">regressed: {escape(text)}</span>'
    return f'<span class="delta">{escape(text)}</span>'


def _against(baseline: Comparison | None, changes: dict[int, CaseChange]) -> str:
    """The baseline, the turns counted by change, links to the regressed cases, and the
    cases this run no longer has."""
    if baseline is None:
        return ""
    regressed = ", ".join(
        f'<a href="#case-{index}">{escape(change.case)}</a>'
        for index, change in changes.items()
        if change.regression
    )
    gone = ", ".join(escape(c.case) for c in baseline.cases if c.head is None)
    return (
        f'<p class="meta">Against the baseline <code>{escape(", ".join(baseline.base.reports))}'
        f"</code>: {escape(counts_line(baseline))}."
        + (f' <b class="bad">Regressed:</b> {regressed}.' if regressed else "")
        + (f" Not in this run: {gone}." if gone else "")
        + "</p>"
    )


def _case(
    r: TestResult,
    scores: list[TurnScore],
    index: int,
    repeat: RepeatedCase | None,
    opened: bool,
    change: CaseChange | None = None,
    history: tuple[Standings, CaseKey] | None = None,
) -> str:
    state = "pass" if r.passed else "fail"
    name = escape(case_name(r, index))
    turns = r.turns or []
    count = f"{sum(t.passed for t in turns)}/{len(turns)} turns" if turns else "single turn"

    def record(turn: int | None) -> Standing | None:
        return history[0].of(history[1], turn) if history is not None else None

    if turns:
        exchanges = (
            _turn(t, score, index, record(t.turn_index))
            for t, score in zip(turns, scores, strict=True)
        )
        body = _errors(r.errors) + "".join(exchanges)
    else:
        body = _single(r, scores[0])
    badge = ""
    if repeat is not None:
        body = attempts_block(repeat) + body
        if repeat.flaky:
            badge = (f'<span class="flaky">FLAKY: {repeat.passed_attempts}/{repeat.attempts} '
                     "attempts passed</span>")
    attributes = (" open" if opened else "") + ("" if r.passed else ' tabindex="-1"')
    return (
        f'<details class="case {state}" id="case-{index}"{attributes}><summary>'
        f'{_verdict(r.passed)}{name}{badge}'
        f'<span class="t">{count} · {r.execution_time_ms} ms</span>{_delta(change)}'
        f"{_record(record(None))}"
        f"</summary>{body}</details>"
    )


def _keys(keys: tuple[str, ...]) -> str:
    return " or ".join(f"<kbd>{k}</kbd>" for k in keys)


def _histories(
    report: TestReport, standings: Standings | None
) -> list[tuple[Standings, CaseKey] | None]:
    """Each result's case, keyed as the kept runs key it, with the records to look it up."""
    if standings is None:
        return [None] * len(report.results)
    try:
        places = suite_positions(report)
    except ValueError:
        places = list(range(len(report.results)))
    keys = case_keys([r.test_name for r in report.results], places)
    return [(standings, key) for key in keys]


def render_html(
    report: TestReport,
    records: Records,
    baseline: Comparison | None = None,
    history: Standings | None = None,
) -> str:
    """The page, from the report and the record of each turn; with a baseline, what changed
    since it beside each case; with the records of the runs kept before this one
    (`history`), each case's and turn's beside it."""
    title = f"Test report: {report.agent_name}"
    banner = ""
    if report.interrupted:
        not_run = f" Not run: {', '.join(report.not_run)}." if report.not_run else ""
        banner = (
            f'<p class="banner">The run stopped early ({escape(report.stop_reason or "")}): '
            f"{escape(report_counts(report).kept())}.{escape(not_run)}</p>"
        )
    repeats = report.repeats
    failed = [i for i, r in enumerate(report.results) if not r.passed]
    opened = set(failed[:OPEN_FAILED])
    changes = {c.head.result: c for c in baseline.cases if c.head} if baseline else {}
    histories = _histories(report, history)
    cases = "".join(
        _case(r, scores, i, repeats[i] if i < len(repeats) else None, i in opened,
              changes.get(i), histories[i])
        for i, (r, scores) in enumerate(zip(report.results, records, strict=True))
    )
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width,initial-scale=1">'
        f"<title>{escape(title)}</title><style>{STYLE}</style></head><body>"
        f"<header><h1>{escape(title)}</h1>"
        f'<p class="meta"><code>{escape(report.agent_config_path)}</code> · '
        f"{escape(report.timestamp)} · {escape(made_by(report))}</p>"
        f"{banner}{_against(baseline, changes)}{glance(report)}"
        '<div class="controls"><label><input type="checkbox" id="only-failed"> Failed only'
        '</label><span class="t" id="shown"></span>'
        f'<span class="t">Keys: {_keys(NEXT_KEYS)} next failure, {_keys(PREVIOUS_KEYS)} '
        'previous failure</span><span class="t" id="where"></span></div></header>'
        f'<main id="cases">{cases}</main>'
        f"<script>{SCRIPT}</script></body></html>\n"
    )
