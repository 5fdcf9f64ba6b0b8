"""The history page in headless Chromium: it opens without a console error; the matrix is
drawn, cell by cell; a run opens on a click (in its row, on its point of the trend, on its
column of the matrix) to its failed cases and turns and the link to its file; the
configuration of two runs is diffed; a test case named like markup stays text."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.chromium import Chromium
from tests.runner.helpers import invoke, write
from tests.runner.test_html_report import chromium
from tests.support.kept_histories import write_history
from tests.support.suites import answer_suite

pytestmark = pytest.mark.slow

ANSWER = """
class Answer:
    def send(self, message):
        return "42"

def factory():
    return Answer()
"""
HOSTILE = "</script><img src=x onerror=alert(1)>"


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The page of 40 runs of a 30-case suite (one case named like markup)."""
    folder = tmp_path_factory.mktemp("page")
    text = answer_suite(30, "{provider: openai, name: gpt-4o-mini}", "{metric: equality}")
    text = text.replace("name: case 3\n", f"name: {json.dumps(HOSTILE)}\n", 1)
    agent = write(folder, {"agent.yaml": text, "answer.py": ANSWER})
    code, _, err = invoke("run", agent, "--agent", "answer:factory", "-q", "--history-dir",
                          folder / "base")  # fmt: skip
    assert code == 0, err
    (base,) = (folder / "base").iterdir()
    write_history(base, folder / "results" / "bench", 40, seed=3)
    html = folder / "history.html"
    assert invoke("history", agent, "--format", "html", "-o", html)[0] == 0
    return html


def test_the_page_draws_opens_runs_and_diffs_configurations(page: Path) -> None:
    with Chromium(chromium()) as browser:
        browser.open(page)
        size = browser.evaluate("[matrix.width, matrix.height]")
        cases = browser.evaluate("JSON.parse(document.getElementById('history-data')"
                                 ".textContent).cases")  # fmt: skip
        assert len(cases) == 30 and size[1] == 30 * 14
        # A failed cell is red, a passed one green, where the data says.
        row = next(i for i, c in enumerate(cases) if "f" in c["v"])
        column = cases[row]["v"].index("f")
        pixel = (
            "(function(){var c=document.getElementById('matrix');var cw=Math.max(3,"
            "Math.min(16,Math.floor(1000/40)));var lw=c.width-cw*40;return Array.from(c"
            f".getContext('2d').getImageData(lw+cw*{column}+1,{row}*14+1,1,1).data)}})()"
        )
        assert browser.evaluate(pixel)[:3] == [207, 34, 46]
        # A run opens to its failed cases and its file.
        browser.evaluate(f"document.getElementById('run-{column + 1}').click()")
        panel = browser.evaluate(f"document.getElementById('panel-{column + 1}').innerText")
        assert cases[row]["label"] in panel and "the kept run" in panel
        link = browser.evaluate(f"document.querySelector('#panel-{column + 1} a').href")
        assert link.startswith("file://") and link.endswith(".json")
        # A point of the trend opens its run too.
        browser.evaluate("document.querySelectorAll('.trend .pt')[0]"
                         ".dispatchEvent(new MouseEvent('click'))")  # fmt: skip
        assert browser.evaluate("document.getElementById('panel-1').hidden") is False
        # The model changed two thirds of the way: the first run against the last.
        browser.evaluate("var a=document.getElementById('config-a');a.value='0';"
                         "a.dispatchEvent(new Event('change'))")  # fmt: skip
        diff = browser.evaluate("document.getElementById('config-diff').innerText")
        assert diff.split("\n")[0].split("\t") == ["model.name", '"gpt-4o-mini"', '"gpt-4o"']
        # The name written like markup is text: no image was made of it.
        assert browser.evaluate("document.querySelectorAll('img').length") == 0
        assert HOSTILE in browser.evaluate("document.body.innerText") or any(
            c["label"] == HOSTILE for c in cases
        )
        assert browser.problems == []
