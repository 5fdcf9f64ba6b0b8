"""`history --format html`: one self-contained page in the HTML report's style. At a glance
the latest pass rate, the flaky and failing turns; the pass-rate trend with its intervals
and the prompt-version boundaries; the runs (a click opens a run's failed cases and turns
and links its file); the flaky turns; the case x run matrix; the configuration of any two
runs, diffed. Styles, data and the one script are inline: nothing is fetched."""

from __future__ import annotations

import hashlib
import json
import os
from html import escape
from pathlib import Path
from typing import Any
from urllib.request import pathname2url

from holodeck_lsp.history.case_keys import CaseKey
from holodeck_lsp.history.run_records import PASSED, HistoryRun
from holodeck_lsp.history.turn_history import NOT_RUN, TurnHistory
from holodeck_lsp.models.history_report import HistoryRunEntry, RunHistory
from holodeck_lsp.runner.report.formats.html_page_assets import STYLE
from holodeck_lsp.runner.report.history_views.history_page_assets import (
    HISTORY_SCRIPT,
    HISTORY_STYLE,
)
from holodeck_lsp.runner.report.history_views.history_text import (
    RUN_HEAD,
    percent,
    rate_cell,
    run_row,
    when,
)
from holodeck_lsp.runner.report.history_views.history_view import HistoryPage

_WIDTH, _HEIGHT, _LEFT, _RIGHT, _TOP, _BOTTOM = 960, 240, 44, 16, 26, 26
FLAKY_SHOWN = 500  # flaky turns listed; the JSON format lists every turn


def _href(path: Path, links_from: Path | None) -> str:
    resolved = path.resolve()
    if links_from is None:
        return resolved.as_uri()
    return pathname2url(os.path.relpath(resolved, links_from.resolve()))


def _case_letter(attempt_verdicts: str) -> str:
    passed = attempt_verdicts.count(PASSED)
    return PASSED if passed == len(attempt_verdicts) else "f" if passed == 0 else "x"


def _cases(
    runs: list[HistoryRun], turns: list[TurnHistory]
) -> tuple[list[dict[str, Any]], dict[CaseKey, int]]:
    """One row per test case (in the turns' order): its label, its turns, and per run `p`
    passed, `f` failed, `x` passed some attempts, `-` not run."""
    order: dict[CaseKey, int] = {}
    labels: list[str] = []
    widths: list[int] = []
    for turn in turns:
        if turn.case_key not in order:
            order[turn.case_key] = len(order)
            labels.append(turn.case)
            widths.append(0)
        widths[order[turn.case_key]] = max(widths[order[turn.case_key]], turn.turn + 1)
    letters = [[NOT_RUN] * len(runs) for _ in order]
    for position, run in enumerate(runs):
        for case in run.cases:
            if case.key in order and case.verdicts:
                letters[order[case.key]][position] = _case_letter(case.verdicts)
    rows = [
        {"label": label, "turns": width, "v": "".join(row)}
        for label, width, row in zip(labels, widths, letters, strict=True)
    ]
    return rows, order


def _configs(runs: list[HistoryRun]) -> tuple[list[str], dict[str, dict[str, str]]]:
    """Each run's configuration by its digest, each distinct one once."""
    names: list[str] = []
    configs: dict[str, dict[str, str]] = {}
    for run in runs:
        digest = hashlib.sha256(json.dumps(run.config, sort_keys=True).encode()).hexdigest()[:16]
        configs.setdefault(digest, run.config)
        names.append(digest)
    return names, configs


def _data(page: HistoryPage) -> str:
    runs, view = page.runs, page.view
    cases, order = _cases(runs, page.turns)
    config_names, configs = _configs(runs)
    data = {
        "runs": [
            {
                "time": when(entry.time),
                "prompt": entry.prompt_version,
                "made_by": entry.made_by,
                "cases": entry.cases,
                "cases_passed": entry.cases_passed,
                "name": run.path.name,
                "href": _href(run.path, page.links_from),
                "config": config_names[i],
            }
            for i, (run, entry) in enumerate(zip(runs, view.runs, strict=True))
        ],
        "cases": cases,
        # The turns that ever failed: what a run's panel names.
        "turns": [
            {"c": order[t.case_key], "t": t.turn, "o": "".join(t.outcomes)}
            for t in page.turns
            if t.passed_attempts < t.attempts
        ],
        "configs": configs,
    }
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    # Inside <script>: no `</script>` or `<!--` can close or change it.
    return text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")


def _x(index: int, count: int) -> float:
    span = _WIDTH - _LEFT - _RIGHT
    return _LEFT + (span / 2 if count == 1 else span * index / (count - 1))


def _y(rate: float) -> float:
    return _TOP + (1 - rate) * (_HEIGHT - _TOP - _BOTTOM)


def _trend(runs: list[HistoryRunEntry]) -> str:
    """The pass rate of each run, its 95% band, and a dashed line where the prompt's
    version changes (named above it)."""
    count = len(runs)
    upper = [f"{_x(i, count):.1f},{_y(r.pass_rate_high):.1f}" for i, r in enumerate(runs)]
    lower = [f"{_x(i, count):.1f},{_y(r.pass_rate_low):.1f}" for i, r in enumerate(runs)]
    line = [f"{_x(i, count):.1f},{_y(r.pass_rate):.1f}" for i, r in enumerate(runs)]
    parts = [
        f'<svg class="trend" viewBox="0 0 {_WIDTH} {_HEIGHT}" role="img" '
        'aria-label="pass rate of each run, with its 95% interval">'
    ]
    for rate in (0.0, 0.5, 1.0):
        y = _y(rate)
        parts.append(
            f'<line x1="{_LEFT}" x2="{_WIDTH - _RIGHT}" y1="{y:.1f}" y2="{y:.1f}" '
            f'stroke="#d0d7de"/><text x="4" y="{y + 4:.1f}">{percent(rate)}</text>'
        )
    parts.append(f'<polygon class="band" points="{" ".join(upper + lower[::-1])}"/>')
    for i in range(1, count):
        if runs[i].prompt_version != runs[i - 1].prompt_version:
            x = (_x(i - 1, count) + _x(i, count)) / 2
            parts.append(
                f'<line class="boundary" x1="{x:.1f}" x2="{x:.1f}" y1="{_TOP - 12}" '
                f'y2="{_HEIGHT - _BOTTOM}"/><text class="version" x="{x + 3:.1f}" '
                f'y="{_TOP - 14}">{escape(runs[i].prompt_version[:24])}</text>'
            )
    if count > 1:
        parts.append(f'<polyline class="line" points="{" ".join(line)}"/>')
    for i, run in enumerate(runs):
        bad = " bad" if run.pass_rate < 1 else ""
        title = (
            f"run {i + 1} · {when(run.time)} · {run.prompt_version} · "
            f"{rate_cell(run)} · {run.cases_passed}/{run.cases} test case(s)"
        )
        parts.append(
            f'<circle class="pt{bad}" cx="{_x(i, count):.1f}" cy="{_y(run.pass_rate):.1f}" '
            f'r="4"><title>{escape(title)}</title></circle>'
        )
    parts.append(
        f'<text x="{_LEFT}" y="{_HEIGHT - 6}">run 1</text>'
        f'<text x="{_WIDTH - _RIGHT - 40}" y="{_HEIGHT - 6}">run {count}</text></svg>'
    )
    return "".join(parts)


def _runs_table(view: RunHistory) -> str:
    rows = []
    for number, run in enumerate(view.runs, 1):
        tds = "".join(
            f'<td class="n">{escape(c)}</td>' if i in (0, 6, 7) else f"<td>{escape(c)}</td>"
            for i, c in enumerate(run_row(number, run, repeated=False))
        )
        rows.append(
            f'<tr class="run" id="run-{number}" title="show the run">{tds}</tr>'
            f'<tr class="panel" id="panel-{number}" hidden><td colspan="8"></td></tr>'
        )
    head = "".join(f"<th>{h}</th>" for h in RUN_HEAD)
    body = "".join(rows)
    return f'<table class="runs plain"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


def _cells(outcomes: str) -> str:
    classes = {PASSED: "p", "f": "f", NOT_RUN: "n"}
    return "".join(f'<span class="{classes.get(o, "n")}">{escape(o)}</span>' for o in outcomes)


def _flaky(page: HistoryPage) -> str:
    numbers = {run.id: n for n, run in enumerate(page.view.runs, 1)}
    # The view's turns are the page's, in the same order.
    flaky = sorted(
        (pair for pair in zip(page.view.turns, page.turns, strict=True) if pair[0].flaky),
        key=lambda pair: pair[0].pass_rate,
    )
    if not flaky:
        return "<p>No turn both passed and failed in these runs.</p>"
    rows = []
    for entry, turn in flaky[:FLAKY_SHOWN]:
        since = entry.failing_since
        rows.append(
            f"<tr><td>{escape(turn.label)}</td><td class=\"n\">{percent(entry.pass_rate)}</td>"
            f'<td class="n">{entry.attempts_passed} of {entry.attempts}</td>'
            f'<td class="cells">{_cells(entry.outcomes[-60:])}</td>'
            f"<td>{f'run {numbers[since]}' if since is not None else ''}</td></tr>"
        )
    more = len(flaky) - FLAKY_SHOWN
    tail = f"<p>and {more} more: the JSON format lists every turn.</p>" if more > 0 else ""
    return (
        '<table class="plain"><thead><tr><th>turn</th><th>pass rate</th><th>attempts passed'
        "</th><th>latest runs</th><th>failing since</th></tr></thead><tbody>"
        f"{''.join(rows)}</tbody></table>{tail}"
    )


def _glance(view: RunHistory) -> str:
    latest = view.runs[-1]
    flaky = sum(t.flaky for t in view.turns)
    failing = sum(t.failing_since is not None for t in view.turns)
    good = "ok" if latest.pass_rate == 1 else "bad"
    return (
        '<div class="glance">'
        f'<div class="tile rate-tile"><h2>Latest run</h2><div class="rate {good}">'
        f"{percent(latest.pass_rate)}</div><div class=\"dim\">{escape(rate_cell(latest))}, "
        f"{latest.cases_passed} of {latest.cases} test case(s)</div></div>"
        f'<div class="tile metrics-tile"><h2>Turns</h2><div class="rate">{len(view.turns)}'
        f"</div><div>{flaky} flaky, {failing} failing in the last run that ran them</div></div>"
        f'<div class="tile slow-tile"><h2>Runs</h2><div class="rate">{len(view.runs)}</div>'
        f'<div class="dim">{escape(when(view.runs[0].time))} to {escape(when(latest.time))}'
        "</div></div></div>"
    )


def render_history_html(page: HistoryPage) -> str:
    view = page.view
    title = f"Run history: {view.agent or 'no runs'}"
    head = (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width,initial-scale=1">'
        f"<title>{escape(title)}</title><style>{STYLE}{HISTORY_STYLE}</style></head><body>"
        f"<header><h1>{escape(title)}</h1>"
        f'<p class="meta"><code>{escape(view.folder)}</code> · {len(view.runs)} run(s), '
        "oldest first</p></header>"
    )
    refused = "".join(f"<li><code>{escape(r)}</code></li>" for r in view.refused)
    refused = f"<h2>Not runs</h2><ul>{refused}</ul>" if refused else ""
    if not view.runs:
        return f"{head}<main><p>No runs kept here.</p>{refused}</main></body></html>\n"
    legend = "".join(
        f'<span><i style="background:{color}"></i>{word}</span>'
        for color, word in (("#2da44e", "passed"), ("#cf222e", "failed"),
                            ("#d4a72c", "passed some attempts"), ("#eaeef2", "not run"))
    )  # fmt: skip
    return (
        f"{head}<main>{_glance(view)}"
        "<h2>Pass rate</h2><p class=\"dim\">Each run's pass rate (attempts passed) and its "
        "95% interval; a dashed line where the prompt's version changes. A point opens its "
        f"run.</p>{_trend(view.runs)}"
        '<h2>Runs</h2><p class="dim">A run opens on a click: its failed test cases and '
        f"turns, and its file.</p>{_runs_table(view)}"
        f"<h2>Flaky turns</h2>{_flaky(page)}"
        f'<h2>Test cases × runs</h2><p class="legend">{legend}</p>'
        '<div class="matrix-box"><canvas id="matrix"></canvas><div id="tip"></div></div>'
        '<h2>Configuration</h2><div class="diff-pick"><label>run <select id="config-a">'
        '</select></label><label>against run <select id="config-b"></select></label>'
        '<span class="dim" id="config-note"></span></div>'
        '<table class="config plain"><tbody id="config-diff"></tbody></table>'
        f"{refused}</main>"
        f'<script type="application/json" id="history-data">{_data(page)}</script>'
        f"<script>{HISTORY_SCRIPT}</script></body></html>\n"
    )
