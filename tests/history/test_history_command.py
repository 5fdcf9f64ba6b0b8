"""`holodeck-lsp history PATH`: the runs kept beside an agent (ours and `holodeck test`'s),
each with its pass rate and interval, and every turn over them (flaky, failing since), as
text, JSON (its documented schema), Markdown and one HTML page; filtered by `--last`,
`--since`, `--prompt-version` and `--model`."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from urllib.request import pathname2url

import jsonschema
import pytest

from holodeck_lsp.models.history_report import RunHistory
from holodeck_lsp.runner.report.history_views.pass_rate_intervals import clustered, wilson
from tests.conftest import REPO
from tests.history.test_run_keeping import echo_suite
from tests.runner.helpers import invoke

SCHEMA_FILE = REPO / "docs" / "history.schema.json"
# The vendored history, copied to the working folder (`holodeck_history`).
AGENT = "history/agent.yaml"
FOLDER = "history/results/cash-flow"

EXPECTED_TEXT = f"""\
4 run(s) kept in {FOLDER}, oldest first:

  #  time (UTC)           prompt  model        commit  cases passed  pass rate [95%]   tokens
  1  2026-12-07 03:03:07  v1      gpt-4o-mini  -       2/2           100% [34%, 100%]      75
  2  2026-12-07 03:03:36  v2      gpt-4o-mini  -       1/2           50% [9%, 91%]         75
  3  2026-12-07 03:04:08  v2      gpt-4o-mini  -       2/2           100% [34%, 100%]      75
  4  2026-12-07 03:04:35  v2      gpt-4o-mini  -       0/2           0% [0%, 66%]          75

3 turn(s): 2 flaky, 2 failing in the last run that ran them
  turn                 passed         latest runs
  cash change, turn 1  2 of 4 run(s)  p f p f      flaky; failing since run 4
  capital              3 of 4 run(s)  p p p f      flaky; failing since run 4
1 other turn(s) passed in every run that ran them
"""

EXPECTED_MARKDOWN = f"""\
**4 run(s)** kept in `{FOLDER}`, oldest first.

| # | time (UTC) | prompt | model | commit | cases passed | pass rate [95%] | tokens |
|---:|---|---|---|---|---|---|---:|
| 1 | `2026-12-07 03:03:07` | `v1` | `gpt-4o-mini` | - | 2/2 | 100% [34%, 100%] | 75 |
| 2 | `2026-12-07 03:03:36` | `v2` | `gpt-4o-mini` | - | 1/2 | 50% [9%, 91%] | 75 |
| 3 | `2026-12-07 03:04:08` | `v2` | `gpt-4o-mini` | - | 2/2 | 100% [34%, 100%] | 75 |
| 4 | `2026-12-07 03:04:35` | `v2` | `gpt-4o-mini` | - | 0/2 | 0% [0%, 66%] | 75 |

**3 turn(s)**: 2 flaky, 2 failing in the last run that ran them.

| turn | passed | latest runs |  |
|---|---|---|---|
| `cash change, turn 1` | 2 of 4 run(s) | `p f p f` | flaky; failing since run 4 |
| `capital` | 3 of 4 run(s) | `p p p f` | flaky; failing since run 4 |

1 other turn(s) passed in every run that ran them.
"""


@pytest.fixture(autouse=True)
def _in_a_copy(holodeck_history: Path) -> None:
    """Every test runs in a copy of the vendored history (see conftest)."""


def history(*args: str | Path) -> tuple[int, str, str]:
    return invoke("history", *args)


def test_text_lists_the_runs_and_the_turns_worth_a_look() -> None:
    assert history(AGENT) == (0, EXPECTED_TEXT, "")
    assert history(FOLDER) == (0, EXPECTED_TEXT, "")


def test_markdown_is_the_text_s_tables_with_every_file_text_as_code() -> None:
    assert history(AGENT, "--format", "markdown") == (0, EXPECTED_MARKDOWN, "")


def _schema() -> dict[str, object]:
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://holodeck-lsp.invalid/history/1",
        **RunHistory.model_json_schema(),
        "title": "holodeck-lsp history --format json, version 1",
    }


def test_the_documented_schema_is_the_models() -> None:
    generated = json.dumps(_schema(), indent=2) + "\n"
    if os.environ.get("HOLODECK_UPDATE_FIXTURES"):
        SCHEMA_FILE.write_text(generated, encoding="utf-8")
    assert SCHEMA_FILE.read_text(encoding="utf-8") == generated, (
        "stale: HOLODECK_UPDATE_FIXTURES=1 pytest tests/history/test_history_command.py"
    )


def test_json_holds_every_run_and_turn_and_follows_its_schema() -> None:
    code, out, err = history(AGENT, "--format", "json")
    assert (code, err) == (0, "")
    data = json.loads(out)
    jsonschema.Draft202012Validator(json.loads(SCHEMA_FILE.read_text())).validate(data)
    assert [run["prompt_version"] for run in data["runs"]] == ["v1", "v2", "v2", "v2"]
    ids = [run["id"] for run in data["runs"]]
    assert [
        (t["case"], t["turn"], t["outcomes"], t["flaky"], t["failing_since"], t["pass_rate"])
        for t in data["turns"]
    ] == [
        ("cash change", 0, "pppp", False, None, 1.0),
        ("cash change", 1, "pfpf", True, ids[3], 0.5),
        ("capital", 0, "pppf", True, ids[3], 0.75),
    ]
    assert data["runs"][1]["pass_rate_low"] == pytest.approx(0.0945, abs=1e-4)


@pytest.mark.parametrize(
    ("args", "shown"),
    [
        (["--last", "2"], [3, 4]),
        (["--last", "0"], []),
        (["--since", "2026-12-07T03:04:00Z"], [3, 4]),
        (["--since", "2026-12-08"], []),
        (["--prompt-version", "v1"], [1]),
        (["--prompt-version", "v1", "--prompt-version", "v2", "--last", "3"], [2, 3, 4]),
        (["--model", "gpt-4o-mini", "--prompt-version", "v2", "--last", "1"], [4]),
        (["--model", "gpt-4o"], []),
    ],
)
def test_filters_choose_the_runs(args: list[str], shown: list[int]) -> None:
    code, out, _ = history(AGENT, "--format", "json", *args)
    assert code == 0
    runs = sorted(p.name for p in Path(FOLDER).iterdir())
    assert [Path(run["file"]).name for run in json.loads(out)["runs"]] == [
        runs[n - 1] for n in shown
    ]


def test_what_history_cannot_use_is_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "nameless.yaml").write_text("model: {provider: openai, name: m}\n")
    assert history(tmp_path / "missing.yaml")[::2] == (
        2,
        f"error: {tmp_path / 'missing.yaml'} does not exist: give an agent file or a "
        "results folder\n",
    )
    assert history(tmp_path / "nameless.yaml")[::2] == (
        2,
        f"error: {tmp_path / 'nameless.yaml'} names no agent (`name:`)\n",
    )
    assert history(AGENT, "--since", "yesterday")[::2] == (
        2,
        "error: --since wants a date or an ISO 8601 time, got 'yesterday'\n",
    )
    assert history(AGENT, "--last", "-1")[::2] == (2, "error: --last must be >= 0\n")
    assert history(tmp_path)[:2] == (0, f"no runs kept in {tmp_path}\n")


def test_a_repeated_run_s_interval_is_clustered_by_case(tmp_path: Path) -> None:
    agent = echo_suite(tmp_path)
    invoke("run", agent, "--agent", "echo:factory", "-q", "--repeat", "3")
    _, out, _ = history(agent, "--format", "json")
    (run,) = json.loads(out)["runs"]
    assert (run["interval"], run["repeat"], run["attempts"], run["attempts_passed"]) == (
        "clustered",
        3,
        6,
        3,
    )
    # Every attempt of a case alike: no more than a case's worth of evidence per case.
    assert run["pass_rate_low"] <= wilson(1, 2)[0] and run["pass_rate_high"] >= wilson(1, 2)[1]


def test_wilson_and_clustered_intervals_are_the_published_ones() -> None:
    assert wilson(7, 10) == pytest.approx((0.3968, 0.8922), abs=1e-4)  # Wilson (1927)
    assert wilson(0, 2) == pytest.approx((0.0, 0.6576), abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)
    # Attempts that vary as much within cases as between them: no wider than Wilson's.
    assert clustered([(2, 3), (1, 3), (2, 3), (1, 3)]) == pytest.approx(wilson(6, 12))
    # Ten cases, all or nothing: the interval of about one attempt per case (nine: the
    # small-sample correction of clustered variances, C / (C - 1)).
    all_or_nothing = [(3, 3)] * 5 + [(0, 3)] * 5
    assert clustered(all_or_nothing) == pytest.approx(wilson(4.5, 9))


def test_html_is_one_page_with_the_trend_matrix_runs_and_configuration(tmp_path: Path) -> None:
    page = tmp_path / "history.html"
    assert history(AGENT, "--format", "html", "-o", page) == (0, "", "")
    html = page.read_text()
    assert html.count("<circle class=\"pt") == 4
    assert html.count('class="boundary"') == 1  # v1 -> v2
    assert '<text class="version"' in html and ">v2</text>" in html
    data = json.loads(html.split('id="history-data">', 1)[1].split("</script>", 1)[0])
    assert [c["label"] for c in data["cases"]] == ["cash change", "capital"]
    assert [c["v"] for c in data["cases"]] == ["pfpf", "pppf"]
    first = sorted(Path(FOLDER).iterdir())[0]
    assert data["runs"][0]["href"] == pathname2url(os.path.relpath(first.resolve(), tmp_path))
    assert data["configs"][data["runs"][0]["config"]]["model.name"] == '"gpt-4o-mini"'
    assert "http" not in html.replace("https://", "")  # nothing is fetched


def test_a_folder_copied_with_a_file_that_is_not_a_run_says_so(tmp_path: Path) -> None:
    folder = tmp_path / "runs"
    shutil.copytree(FOLDER, folder)
    (folder / "notes.json").write_text("[]")
    code, out, err = history(folder, "--format", "json")
    assert code == 0
    assert err == (
        f"warning: not a run: {folder / 'notes.json'} is not a kept run (EvalRun): the "
        "document: Input should be an object\n"
    )
    assert len(json.loads(out)["runs"]) == 4
    assert json.loads(out)["refused"] == [err.split("not a run: ", 1)[1].strip()]
