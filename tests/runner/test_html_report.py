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
from tests.runner.test_events import copy_example, replay

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
    # Nothing to fetch: no external resource of any kind, the script and styles inline.
    assert [t for t, a in page.tags if {"src", "href"} & set(a)] == []
    assert {t for t, _ in page.tags} >= {"style", "script", "details", "table"}
    assert "http://" not in text and "https://" not in text
    cases = [a for t, a in page.tags if t == "details"]
    assert [(c["id"], c["class"], "open" in c) for c in cases] == [
        ("case-0", "case fail", True),
        ("case-1", "case pass", False),
        ("case-2", "case pass", False),
    ]
    sections = [a["class"] for t, a in page.tags if t == "section"]
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
    # A bar per metric result and per mean score.
    bars = [a["style"] for t, a in page.tags if t == "i"]
    results = sum(len(t["metric_results"]) for r in report["results"] for t in r["turns"])
    assert len(bars) == results + len(report["summary"]["average_scores"])
    assert "width:100%" in bars
    assert "2 passed" in page.text and "1 failed" in page.text


@pytest.mark.slow
def test_the_page_renders_in_chromium_without_console_errors(tmp_path: Path) -> None:
    binary = find_chromium()
    if binary is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is not installed: .ci/run installs it")
        pytest.skip("chromium is not installed (apt-get install chromium)")
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
