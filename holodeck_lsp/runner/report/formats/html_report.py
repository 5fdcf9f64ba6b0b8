"""A one-file HTML report: summary, every case and turn with its tool calls, assertions,
metric scores as bars, expected-vs-actual diffs and the judge's reasoning; a "failed
only" filter. Styles and the one script are inline, nothing is fetched: it opens from a
CI artefact as it is."""

from __future__ import annotations

import difflib
import json
import re
from html import escape
from typing import Any

from holodeck_lsp.hygiene.clipping import clip
from holodeck_lsp.models.evaluation import GROUND_TRUTH_METRICS
from holodeck_lsp.models.test_result import (
    MetricResult,
    TestReport,
    TestResult,
    ToolInvocation,
    TurnResult,
)
from holodeck_lsp.runner.report.test_report import made_by
from holodeck_lsp.runner.score.arg_matchers import brief

# Long values are cut: a report of thousands of turns stays small enough to open at once.
# Failed cases are open; `content-visibility` spares the browser laying out those off
# screen, so a thousand open cases still open in about a second.
TEXT_LIMIT = 2000
VALUE_LIMIT = 300
# Metrics whose verdict compares the reply with `ground_truth`: a failure shows a diff.
_TOKENS = re.compile(r"(\s+)")

STYLE = """
:root{--ok:#1a7f37;--bad:#cf222e;--skip:#9a6700;--line:#d0d7de;--soft:#f6f8fa}
body{font:14px/1.45 system-ui,sans-serif;margin:0 auto;max-width:1100px;padding:1em;color:#1f2328}
h1{font-size:1.4em;margin:.2em 0}h3{font-size:1em;margin:.4em 0}
.meta{color:#59636e}.sum{font-size:1.1em;margin:.5em 0}
.ok{color:var(--ok)}.bad{color:var(--bad)}.skip{color:var(--skip)}
.banner{background:#fff8c5;border:1px solid #d4a72c;padding:.5em;border-radius:6px}
details.case{border:1px solid var(--line);border-radius:6px;margin:.4em 0;
  content-visibility:auto;contain-intrinsic-size:auto 2.6em}
details.case>summary{padding:.4em .6em;cursor:pointer;background:var(--soft)}
details.case.fail>summary{background:#ffebe9}
.v{font-weight:700;margin-right:.5em}.t{color:#59636e;margin-left:.5em}
.turn{border-top:1px solid var(--line);padding:.4em .8em}
pre{white-space:pre-wrap;word-break:break-word;background:var(--soft);padding:.3em .5em;
  margin:.2em 0;border-radius:4px}
table{border-collapse:collapse;margin:.3em 0}
td,th{border:1px solid var(--line);padding:.15em .4em;text-align:left;vertical-align:top}
code{font-size:.95em}
.m{display:grid;grid-template-columns:12em 14em 8em 1fr;gap:.5em;align-items:center;margin:.15em 0}
.bar{background:#eaeef2;height:.7em;border-radius:4px;overflow:hidden;display:block}
.bar i{display:block;height:100%;background:var(--ok)}.m.fail .bar i{background:var(--bad)}
.why{color:#59636e;font-size:.95em}
ul.a{margin:.2em 0;padding-left:1.2em}
del{background:#ffebe9;text-decoration:line-through}ins{background:#dafbe1;text-decoration:none}
.diff{display:grid;grid-template-columns:6em 1fr;gap:.2em .5em}
.errs{color:var(--bad)}
body:has(#only-failed:checked) .case.pass{display:none}
"""

SCRIPT = """
(function () {
  var box = document.getElementById("only-failed");
  var count = document.getElementById("shown");
  function update() {
    var cases = document.querySelectorAll("details.case");
    var shown = 0;
    for (var i = 0; i < cases.length; i++) {
      if (!box.checked || cases[i].classList.contains("fail")) shown++;
    }
    count.textContent = shown + " of " + cases.length + " test case(s) shown";
  }
  box.addEventListener("change", update);
  update();
})();
"""


def _cut(text: str, limit: int = TEXT_LIMIT) -> str:
    return clip(text, limit, "…")


def _json(value: Any, limit: int = VALUE_LIMIT) -> str:
    try:
        text = json.dumps(value, ensure_ascii=False, default=str)
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
        f"<tr><td><code>{escape(c.name)}</code></td><td><code>{escape(_json(c.args))}</code></td>"
        f"<td><code>{escape(_json(c.error if c.error else c.result))}</code></td></tr>"
        for c in calls
    )
    head = "<tr><th>tool</th><th>args</th><th>result</th></tr>"
    return f"<h3>Tool calls</h3><table>{head}{rows}</table>"


def _assertions(
    expected: list[Any] | None,
    details: list[dict[str, Any]] | None,
    matched: bool | None,
    called: list[str],
) -> str:
    if not expected:
        return ""
    items: list[str] = []
    records = iter(details or [])
    for entry in expected:
        if isinstance(entry, str) or (isinstance(entry, dict) and set(entry) == {"name"}):
            name = entry if isinstance(entry, str) else str(entry["name"])
            ok = any(name in c for c in called)
            why = "called" if ok else f"no call to '{name}' found"
            items.append(_assertion_item(ok, escape(name), why))
            continue
        record = next(records, None)
        if record is None:  # a single-turn case's result keeps the verdict only
            ok = matched is not False
            why = "the assertions held" if ok else "the assertions did not all hold"
            items.append(_assertion_item(ok, escape(_json(entry)), why))
            continue
        ok = record.get("matched_call_index", -1) != -1
        shown = f"{record.get('expected_tool')}({brief(record.get('args_asserted') or {})})"
        reason = record.get("unmatched_reason")
        why = f"matched call {record['matched_call_index']}" if ok else str(reason)
        items.append(_assertion_item(ok, escape(shown), why))
    return f'<h3>Assertions</h3><ul class="a">{"".join(items)}</ul>'


def _assertion_item(ok: bool, shown: str, why: str) -> str:
    mark = '<b class="ok">✓</b>' if ok else '<b class="bad">✗</b>'
    return f"<li>{mark} <code>{shown}</code>: {escape(why)}</li>"


def _metric(m: MetricResult) -> str:
    score = max(0.0, min(1.0, m.score)) if m.scale in (None, "0-1") else None
    width = f"{score * 100:.0f}%" if score is not None else "0"
    state = "fail" if m.passed is False else "pass"
    mark = f" / {m.threshold:g}" if m.threshold is not None else ""
    why = m.error or m.reasoning
    model = f"<small> (judge: {escape(m.model_used)})</small>" if m.model_used else ""
    return (
        f'<div class="m {state}"><span>{_verdict(m.passed)}{escape(m.metric_name)}</span>'
        f'<span class="bar"><i style="width:{width}"></i></span>'
        f"<span>{m.score:.3g}{mark}</span>"
        f'<span class="why">{escape(_cut(why, 600)) if why else ""}{model}</span></div>'
    )


def _metrics(results: list[MetricResult]) -> str:
    if not results:
        return ""
    return "<h3>Metrics</h3>" + "".join(_metric(m) for m in results)


def _diff(results: list[MetricResult], truth: str | None, reply: str | None) -> str:
    failed = any(m.passed is False and m.metric_name in GROUND_TRUTH_METRICS for m in results)
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


def _turn(t: TurnResult) -> str:
    heading = (f"<h3>Turn {t.turn_index} {_verdict(t.passed, t.skipped)}"
               f'<span class="t">{t.execution_time_ms} ms</span></h3>')
    return _exchange(t.passed, heading, t.errors, t.input, t.response, t.ground_truth,
                     t.metric_results, t.tool_invocations,
                     _assertions(t.expected_tools, t.arg_match_details, t.tools_matched,
                                 t.tool_calls))


def _single(r: TestResult) -> str:
    """A single-turn case: its one exchange, shown as the case itself."""
    return _exchange(r.passed, "", r.errors, r.test_input, r.agent_response, r.ground_truth,
                     r.metric_results, r.tool_invocations,
                     _assertions(r.expected_tools, None, r.tools_matched, r.tool_calls))


def _exchange(passed: bool, heading: str, errors: list[str], message: str | None,
              response: str | None, ground_truth: str | None, metrics: list[MetricResult],
              calls: list[ToolInvocation], assertions: str) -> str:
    """One exchange (a turn, or a single-turn case): what was said, called and graded."""
    return (
        f'<section class="turn {"pass" if passed else "fail"}">{heading}'
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


def _case(r: TestResult, index: int) -> str:
    state = "pass" if r.passed else "fail"
    name = escape(r.test_name or f"test_cases[{index}]")
    turns = r.turns or []
    count = f"{sum(t.passed for t in turns)}/{len(turns)} turns" if turns else "single turn"
    body = (_errors(r.errors) + "".join(_turn(t) for t in turns)) if turns else _single(r)
    opened = "" if r.passed else " open"
    return (
        f'<details class="case {state}" id="case-{index}"{opened}><summary>'
        f'{_verdict(r.passed)}{name}<span class="t">{count} · {r.execution_time_ms} ms</span>'
        f"</summary>{body}</details>"
    )


def _averages(report: TestReport) -> str:
    s = report.summary
    if not s.average_scores:
        return ""
    rows = "".join(
        f'<div class="m pass"><span>{escape(name)}</span>'
        f'<span class="bar"><i style="width:{max(0.0, min(1.0, score)) * 100:.0f}%"></i></span>'
        f'<span>{score:.3f}</span><span class="why">{s.metrics_evaluated.get(name, 0)} '
        "case(s)</span></div>"
        for name, score in s.average_scores.items()
    )
    return f"<h3>Mean metric scores</h3>{rows}"


def render_html(report: TestReport) -> str:
    s = report.summary
    title = f"Test report: {report.agent_name}"
    banner = ""
    if report.interrupted:
        not_run = ", ".join(report.not_run) or "none"
        banner = (
            f'<p class="banner">The run stopped early ({escape(report.stop_reason or "")}); '
            f"did not run: {escape(not_run)}</p>"
        )
    cases = "".join(_case(r, i) for i, r in enumerate(report.results))
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width,initial-scale=1">'
        f"<title>{escape(title)}</title><style>{STYLE}</style></head><body>"
        f"<header><h1>{escape(title)}</h1>"
        f'<p class="meta"><code>{escape(report.agent_config_path)}</code> · '
        f"{escape(report.timestamp)} · {escape(made_by(report))}</p>"
        f'<p class="sum"><b class="ok">{s.passed} passed</b>, <b class="bad">{s.failed} failed</b>'
        f" of {s.total_tests} ({s.pass_rate:g}%) in {s.total_duration_ms / 1000:.2f} s</p>"
        f"{banner}{_averages(report)}"
        '<p><label><input type="checkbox" id="only-failed"> Failed only</label> '
        '<span class="t" id="shown"></span></p></header>'
        f'<main id="cases">{cases}</main>'
        f"<script>{SCRIPT}</script></body></html>\n"
    )
