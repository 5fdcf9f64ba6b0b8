"""`run -o report.html`: one self-contained page (nothing fetched), every case and turn
with its tool calls, assertions, metric bars, the expected-vs-actual diff of a failed
comparison and the judge's reasoning; in headless Chromium it renders without a console
error, "Failed only" hides the passed cases, and a screenshot is kept."""

from __future__ import annotations

import json
import os
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from tests.chromium import Chromium, find_chromium
from tests.conftest import REPO
from tests.runner.helpers import ECHO, invoke, write
from tests.runner.test_events import copy_example, replay
from tests.support.sample_reports import repeated_example_report

RESULTS = Path(os.environ.get("HOLODECK_TEST_RESULTS", REPO / "test-results"))


class Page(HTMLParser):
    """Tags with their attributes, and the visible text, of an HTML document."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data: str) -> None:
        if data.strip():
            self.text.append(data.strip())


def failing_run(tmp_path: Path) -> tuple[Path, dict[str, Any]]:
    """The example with a wrong regex on turn 0 and a wrong ground truth on turn 1."""
    agent = copy_example(
        tmp_path,
        ('year: {regex: "2019"}', 'year: {regex: "2018"}'),
        ('ground_truth: "181001"', 'ground_truth: "190000"'),
    )
    html, data = tmp_path / "report.html", tmp_path / "report.json"
    code, _, err = replay(agent, "-o", html, "-o", data)
    assert code == 1, err
    return html, json.loads(data.read_text())


def test_the_page_holds_every_case_and_turn_and_fetches_nothing(tmp_path: Path) -> None:
    html, report = failing_run(tmp_path)
    text = html.read_text(encoding="utf-8")
    page = Page(text)
    # Nothing to fetch: no external resource of any kind, the script and styles inline;
    # links go to places in the page (the slowest turns).
    assert [t for t, a in page.tags if "src" in a] == []
    assert {t for t, a in page.tags if not (a.get("href") or "#").startswith("#")} == set()
    assert {t for t, _ in page.tags} >= {"style", "script", "details", "table"}
    assert "http://" not in text and "https://" not in text
    cases = [a for t, a in page.tags if t == "details"]
    assert [(c["id"], c["class"], "open" in c) for c in cases] == [
        ("case-0", "case fail", True),
        ("case-1", "case pass", False),
        ("case-2", "case pass", False),
    ]
    sections = [a["class"] for t, a in page.tags if t == "section" and "id" in a]
    assert sections == ["turn fail", "turn fail"] + ["turn pass"] * 8
    # The failed comparison as a diff, the failed argument, the judge's reasoning.
    assert "<pre><del>190000</del></pre><span>actual</span><pre><ins>181,001</ins></pre>" in text
    assert "expected regex &#x27;2018&#x27;, got &#x27;2019&#x27;" in text
    reasoning = [
        m["reasoning"]
        for r in report["results"]
        for t in r["turns"]
        for m in t["metric_results"]
        if m["kind"] == "geval"
    ]
    assert len(reasoning) == 10 and all(r in page.text for r in reasoning)
    # A bar per metric result, its score labelled.
    bars = [a["style"] for t, a in page.tags if t == "i"]
    results = sum(len(t["metric_results"]) for r in report["results"] for t in r["turns"])
    assert len(bars) == results
    assert "width:100%" in bars
    assert "score 0.00" in page.text and "score 1.00 / threshold 0.70" in page.text
    assert "2 passed" in page.text and "1 failed" in page.text
    # Tool arguments as indented JSON; nothing left for the browser to skip drawing.
    assert (
        "<pre>{\n  &quot;metric&quot;: &quot;operating_cash_flow&quot;,\n"
        "  &quot;year&quot;: &quot;2020&quot;\n}</pre>"
    ) in text
    assert "content-visibility" not in text


class Table(HTMLParser):
    """The rows of the first table of an HTML text, as the text of their cells."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.rows: list[list[str]] = []
        self.cell: list[str] | None = None
        self.feed(text.split("</table>", 1)[0])

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self.cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self.cell is not None:
            self.rows[-1].append("".join(self.cell).strip())
            self.cell = None

    def handle_data(self, data: str) -> None:
        if self.cell is not None:
            self.cell.append(data)


def cells(html: str, heading: str) -> list[list[str]]:
    """The rows of the table under the heading ``heading``, as their cells' text."""
    return Table(html.split(f"<h2>{heading}</h2>", 1)[1]).rows


def test_a_repeated_run_shows_pass_hat_k_and_its_flaky_turns(tmp_path: Path) -> None:
    (html,) = repeated_example_report(tmp_path, "report.html")
    text = html.read_text(encoding="utf-8")
    assert cells(text, "Reliability") == [
        ["test case", "attempts passed", "pass^3", "pass@3", "flaky turns"],
        ["operating cash flow change", "0/3", "0.00", "0.00", "-"],
        ["capex share of revenue", "2/3", "0.00", "1.00", "turn 1"],
        ["net income growth", "3/3", "1.00", "1.00", "-"],
    ]
    page = Page(text)
    assert "repeat 3: 1 of 3 test case(s) passed every attempt, 2 at least once; 1 flaky: " \
        "capex share of revenue" in page.text  # fmt: skip
    assert "FLAKY: 2/3 attempts passed" in page.text
    capex = text.split('id="case-1"', 1)[1].split("</details>", 1)[0]
    assert "Attempts: 2 of 3 passed · pass^3 0.00 · pass@3 1.00" in capex
    assert '<span class="flaky">turn 1: 67%</span>' in capex


def test_the_summary_gives_pass_rate_metrics_slowest_turns_and_tokens(tmp_path: Path) -> None:
    html, report = repeated_example_report(tmp_path, "report.html", "report.json")
    text = html.read_text(encoding="utf-8")
    data = json.loads(report.read_text())
    rate = Page(text.split("<h2>Pass rate</h2>", 1)[1].split("</div></div>", 1)[0]).text
    assert rate[:-1] == ["33.3%", "1 passed", ",", "2 failed", "of 3 test case(s)"]
    assert rate[-1].startswith("9 attempt(s), 30 turn(s) in ")
    assert cells(text, "Metrics") == [
        ["metric", "mean", "threshold", "cases"],
        ["numeric", "0.92", "-", "3"],
        ["grounded_in_tools", "1.00", "-", "3"],
        ["answer format", "0.98", "0.70", "3"],
    ]
    turns = [
        (t["execution_time_ms"], i, t["turn_index"])
        for i, r in enumerate(data["results"])
        for t in r["turns"]
    ]
    ranked = sorted(turns, key=lambda x: -x[0])[:5]
    # A replay: the replies took no time, so a turn's time is its scoring here; the tile
    # says so, and ranks only the turns that took any.
    slowest = [f"#case-{i}-turn-{t}" for ms, i, t in ranked if ms > 0]
    tile = text.split("<h2>Slowest turns (replayed)</h2>", 1)[1].split("</div></div>", 1)[0]
    assert Page(tile).text[0] == (
        f"Replayed from {data['environment']['replay']}: a turn's time is its scoring here, "
        "not the agent's reply (a recording keeps no durations)."
    )
    assert [a["href"] for t, a in Page(tile).tags if t == "a"] == slowest
    used = sum(
        a["token_usage"]["total_tokens"] for r in data["repeats"] for a in r["results"]
    )
    tokens = Page(text.split("<h2>Tokens</h2>", 1)[1].split("</div></div>", 1)[0]).text
    assert tokens == [
        f"{used:,}",
        "token(s) used by the agent",
        "37,920 prompt, 720 completion",
        "judge: 30 call(s), 8,262 token(s) (7,242 prompt, 1,020 completion)",
    ]


def chromium() -> str:
    binary = find_chromium()
    if binary is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is not installed: .ci/run installs it")
        pytest.skip("chromium is not installed (apt-get install chromium)")
    return binary


@pytest.mark.slow
def test_the_keys_go_from_one_failure_to_the_next(tmp_path: Path) -> None:
    (html,) = repeated_example_report(tmp_path, "report.html")
    where = "document.getElementById('where').textContent"
    focused = "document.activeElement.id"
    top = "Math.round(document.activeElement.getBoundingClientRect().top)"
    with Chromium(chromium()) as browser:
        browser.open(html)
        assert "next failure" in browser.evaluate("document.querySelector('.controls').innerText")
        steps = []
        for key in ["j", "j", "j", "k", "n", "p", "k"]:
            browser.press(key)
            steps.append((key, browser.evaluate(where), browser.evaluate(focused)))
        assert steps == [
            ("j", "failure 1 of 2", "case-0-turn-1"),
            ("j", "failure 2 of 2", "case-1-turn-1"),
            ("j", "failure 2 of 2", "case-1-turn-1"),  # the last one stays
            ("k", "failure 1 of 2", "case-0-turn-1"),
            ("n", "failure 2 of 2", "case-1-turn-1"),
            ("p", "failure 1 of 2", "case-0-turn-1"),
            ("k", "failure 1 of 2", "case-0-turn-1"),
        ]
        assert browser.evaluate(top) == 0  # scrolled to the top of the window
        marked = "Array.from(document.querySelectorAll('.current')).map(e => e.id)"
        assert browser.evaluate(marked) == ["case-0-turn-1"]
        assert browser.problems == []


@pytest.mark.slow
def test_a_closed_failure_is_opened_by_the_keys_and_for_printing(tmp_path: Path) -> None:
    (report,) = repeated_example_report(tmp_path, "report.json")
    # The report of a run where every test case failed, and more of them than the page opens.
    data = json.loads(report.read_text())
    failed = dict(data["results"][0], passed=False)
    data["results"] = [dict(failed, test_name=f"case {i}") for i in range(60)]
    data["summary"].update(total_tests=60, passed=0, failed=60, pass_rate=0.0)
    data.pop("repeats")
    del data["environment"]["case_indexes"]  # a whole run's report, as merge reads one
    many, html = tmp_path / "many.json", tmp_path / "many.html"
    many.write_text(json.dumps(data))
    assert invoke("merge", many, "-o", html)[0] == 1
    opened = "document.querySelectorAll('details.case[open]').length"
    with Chromium(chromium()) as browser:
        browser.open(html)
        assert browser.evaluate(opened) == 50
        for _ in range(55):
            browser.press("j")
        assert browser.evaluate("document.activeElement.id") == "case-54-turn-1"
        assert browser.evaluate("document.getElementById('case-54').open") is True
        browser.evaluate("window.dispatchEvent(new Event('beforeprint'))")
        assert browser.evaluate(opened) == 60
        browser.emulate_print()
        controls = "getComputedStyle(document.querySelector('.controls')).display"
        assert browser.evaluate(controls) == "none"
        assert browser.problems == []


@pytest.mark.slow
def test_long_metric_names_wrap_beside_their_bar_and_tool_text_keeps_its_lines(
    tmp_path: Path,
) -> None:
    (report,) = repeated_example_report(tmp_path, "report.json")
    text = report.read_text().replace(
        '"grounded_in_tools"', '"every_figure_of_the_reply_is_grounded_in_a_tool_result"'
    )
    data = json.loads(text)
    call = data["results"][0]["turns"][0]["tool_invocations"][0]
    call["result"] = "Operating cash flow, 2019:\n206,588 (thousands)"
    edited, html = tmp_path / "edited.json", tmp_path / "edited.html"
    edited.write_text(json.dumps(data))
    assert invoke("merge", edited, "-o", html)[0] == 1
    page = html.read_text(encoding="utf-8")
    assert "<pre>Operating cash flow, 2019:\n206,588 (thousands)</pre>" in page
    overlaps = """Array.from(document.querySelectorAll('.m')).filter(row => {
        const [name, bar, score] = row.children;
        const n = name.getBoundingClientRect(), b = bar.getBoundingClientRect();
        const s = score.getBoundingClientRect();
        return n.right > b.left || b.right > s.left || name.scrollWidth > name.clientWidth;
    }).length"""
    rows = "document.querySelectorAll('#case-0 .m').length"
    with Chromium(chromium()) as browser:
        browser.open(html, width=900)
        assert browser.evaluate(rows) == 12
        assert browser.evaluate(overlaps) == 0
        assert browser.problems == []


@pytest.mark.slow
def test_the_page_renders_in_chromium_without_console_errors(tmp_path: Path) -> None:
    binary = chromium()
    html, _ = failing_run(tmp_path)
    with Chromium(binary) as browser:
        browser.open(html)
        shown = "document.getElementById('shown').textContent"
        assert browser.evaluate(shown) == "3 of 3 test case(s) shown"
        visible = (
            "Array.from(document.querySelectorAll('details.case'))"
            ".filter(e => e.offsetParent !== null).map(e => e.id)"
        )
        assert browser.evaluate(visible) == ["case-0", "case-1", "case-2"]
        browser.screenshot(RESULTS / "html-report.png")
        browser.evaluate("document.getElementById('only-failed').click()")
        assert browser.evaluate(shown) == "1 of 3 test case(s) shown"
        assert browser.evaluate(visible) == ["case-0"]
        diff = "document.querySelector('.diff').innerText"
        assert browser.evaluate(diff).split("\n") == [
            "expected", "190000", "actual", "181,001",
        ]  # fmt: skip
        browser.screenshot(RESULTS / "html-report-failed-only.png")
        assert browser.problems == []
    assert (RESULTS / "html-report.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_metric_written_with_three_thresholds_has_a_row_for_each(tmp_path: Path) -> None:
    """No one threshold stands for a metric configured three ways: each has its own row,
    its mean over the turns judged against it, and its own verdict colour."""
    suite = """
name: thresholds
model: {provider: openai, name: gpt-4o}
instructions: {inline: Echo.}
evaluations:
  metrics: [{type: standard, metric: bleu, threshold: 0.2}]
test_cases:
  - name: agent level
    input: the cat sat on the mat
    ground_truth: the cat sat on the mat
  - name: case level
    input: the cat sat on the mat
    ground_truth: a dog lay on a rug
    evaluations: [{type: standard, metric: bleu, threshold: 0.5}]
  - name: turn level
    turns:
      - input: the cat sat on the mat
        ground_truth: the cat sat on the mat
        evaluations: [{type: standard, metric: bleu, threshold: 0.9}]
"""
    write(tmp_path, {"agent.yaml": suite, "echo.py": ECHO})
    html = tmp_path / "report.html"
    invoke("run", tmp_path / "agent.yaml", "--agent", "echo:factory", "-q", "-o", html)
    text = html.read_text(encoding="utf-8")
    assert cells(text, "Metrics") == [
        ["metric", "mean", "threshold", "cases"],
        ["bleu", "1.00", "0.20", "1 turn(s)"],
        ["bleu", "0.08", "0.50", "1 turn(s)"],
        ["bleu", "1.00", "0.90", "1 turn(s)"],
    ]
    below = text.split("<h2>Metrics</h2>", 1)[1].split("</table>", 1)[0]
    assert below.count('class="n bad"') == 1  # the case-level mean, below its own 0.50
