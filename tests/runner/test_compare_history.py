"""`compare HISTORY HEAD`: BASE the runs `holodeck test` kept for an agent (HoloDeck 0.7.1's
own EvalRun files, tests/data/holodeck/history/), each turn's passes pooled over the runs
chosen; HEAD a report, or a kept run's file (its report), left out of BASE when it is one of
the history's own."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.conftest import REPO
from tests.runner.helpers import invoke

HISTORY = REPO / "tests" / "data" / "holodeck" / "history"
LATEST_NAME = "2026-12-07T03-04-35.483637+00-00.json"
EXPECTED = """\
BASE RUNS: 3 run(s) from 2026-12-07T03:03:07.811120+00:00 to 2026-12-07T03:04:08.946356+00:00, \
the latest by HoloDeck 0.7.1: 2/2 test case(s) passed
HEAD LATEST: HoloDeck 0.7.1, 0/2 test case(s) passed, 2026-12-07T03:04:35.483637+00:00
turns: 1 regressed, 0 fixed, 1 still failing, 1 still passing, 0 new, 0 removed
suite: turn pass rate 88.9% -> 33.3% (-55.6 points, SE 29.6, p = 0.16, within noise, no fall \
could be caught)
gate: alpha 0.05: half to the turns (no turn's failures could show a fall beyond noise; \
alone, a fall needs p < 0.025), half to the suite's pass rate

Regressions (1):
  capital, turn 0: 3/3 -> 0/1 attempts passed (no attempt passed where every one did): \
metric `equality` failed: score 0: not the ground truth

Could not tell: worse, but within noise or too few attempts (1):
  cash change, turn 1: 2/3 -> 0/1 attempts passed (p = 0.5, within noise; flaky in BASE, \
one attempt): expected lookup(year=2020): arg 'year' mismatch: expected '2020', got '2021'

duration: 2.63 s -> 3.13 s (+0.50 s); tokens: 75 -> 75 (+0)
exit 1: 1 regression(s) (--fail-on regressed)
"""


@pytest.fixture(autouse=True)
def _history(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The vendored history, copied: reading it keeps an index beside it."""
    shutil.copytree(HISTORY, tmp_path / "history")
    monkeypatch.chdir(tmp_path)


RUNS = Path("history", "results", "cash-flow")
LATEST = RUNS / LATEST_NAME


def _named(text: str) -> str:
    return text.replace(str(LATEST), "LATEST").replace(str(RUNS), "RUNS")


def test_a_history_of_holodecks_runs_is_a_base() -> None:
    """The last run failed "capital" (always passed before: a regression) and "cash change"
    turn 1 (which failed once in three before: flaky, one attempt, never a regression)."""
    code, out, err = invoke("compare", RUNS, LATEST)
    assert code == 1
    assert _named(out) == EXPECTED
    assert _named(err) == "note: LATEST is HEAD's own run: left out of BASE\n"


def test_the_agent_file_names_its_history(tmp_path: Path) -> None:
    runs = Path("history", "results", "cash-flow")
    head = tmp_path / "head.json"  # the latest run's report, as `run -o` writes it
    head.write_text(json.dumps(json.loads(LATEST.read_text())["report"]))
    code, out, err = invoke("compare", Path("history", "agent.yaml"), head, "-f", "json")
    assert (code, err.splitlines()) == (
        1,
        [
            f"note: {runs / LATEST_NAME} is HEAD's own run: left out of BASE",
            "exit 1: 1 regression(s) (--fail-on regressed)",
        ],
    )
    base = json.loads(out)["base"]
    assert (base["runs"], base["reports"]) == (3, [str(runs)])


@pytest.mark.parametrize(
    ("options", "runs", "first"),
    [
        (["--base-last", "2"], 2, "2026-12-07T03:03:36.236498+00:00"),
        (["--base-since", "2026-12-07T03:04"], 1, "2026-12-07T03:04:08.946356+00:00"),
        (["--base-since", "2026-12-07T04:04+01:00", "--base-last", "5"], 1, None),
        (["--base-since", "2026-12-07"], 3, "2026-12-07T03:03:07.811120+00:00"),
    ],
)
def test_the_runs_pooled_are_the_latest_n_and_those_since_a_date(
    options: list[str], runs: int, first: str | None
) -> None:
    _, out, _ = invoke("compare", RUNS, LATEST, "-f", "json", *options)
    base = json.loads(out)["base"]
    assert base["runs"] == runs
    assert base["first_timestamp"] == (first or base["timestamp"])
    capital = next(c for c in json.loads(out)["cases"] if c["case"] == "capital")
    assert capital["turns"][0]["base"]["attempts"] == runs


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (
            [RUNS, LATEST, "--base-since", "2027-01-01"],
            "error: RUNS: none of its 4 run(s) is left by --base-last and --base-since",
        ),
        ([RUNS, LATEST, "--base-since", "yesterday"],
         "error: --base-since takes an ISO 8601 date or time, got 'yesterday'"),
        ([RUNS, LATEST, "--base-last", "0"], "error: --base-last must be at least 1, got 0"),
        (
            [LATEST, LATEST, "--base-last", "3"],
            "error: --base-last and --base-since choose runs of a history; LATEST is not one",
        ),
    ],
)  # fmt: skip
def test_options_that_leave_no_run_or_name_no_history_are_usage_errors(
    args: list[str | Path], error: str
) -> None:
    code, out, err = invoke("compare", *args)
    assert (code, out, _named(err).splitlines()[-1]) == (2, "", error)


def test_an_agent_file_without_runs_kept_is_a_usage_error(tmp_path: Path) -> None:
    agent = tmp_path / "agent.yaml"
    shutil.copy(HISTORY / "agent.yaml", agent)
    code, _, err = invoke("compare", agent, LATEST)
    assert (code, err) == (
        2,
        f"error: {tmp_path}/results/cash-flow, the history of {agent}, holds no kept run\n",
    )


def test_a_folder_of_shard_reports_is_still_merged(tmp_path: Path) -> None:
    """A folder whose files are reports, not kept runs, is the shards of one run."""
    folder = tmp_path / "shards"
    folder.mkdir()
    (folder / "only.json").write_text(json.dumps(json.loads(LATEST.read_text())["report"]))
    code, out, _ = invoke("compare", folder, LATEST, "-f", "json")
    assert code == 0  # the same run on both sides
    assert json.loads(out)["base"]["runs"] == 1
