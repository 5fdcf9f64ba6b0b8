"""The gate end to end, through the real command line: a Python agent (`run --agent`) whose
forty turns pass with set chances, main's runs kept in a history (`run --history-dir`), a
pull request run with `--repeat 5`, `compare HISTORY REPORT`. A handful of real runs prove
the pipeline; the rates over hundreds of pull requests are measured on the same comparison
by tests/runner/test_gate_simulation.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from holodeck_lsp.runner.report.comparison.gate_decision import Tally, judge
from tests.runner.compared_runs import HEADER
from tests.runner.helpers import invoke, write
from tests.support.gate_simulation import acceptance_rates, with_drops
from tests.support.suites import numbered_cases

pytestmark = pytest.mark.slow

# Each turn's input names it; the agent answers right with the turn's chance, from a
# generator seeded by seed.txt beside it (one per run: a run is one roll of the dice).
AGENT = """
import json, pathlib, random

HERE = pathlib.Path(__file__).parent
generators = {}


def factory():
    seed = (HERE / "seed.txt").read_text().strip()
    rates = json.loads((HERE / "rates.json").read_text())
    rng = generators.setdefault(seed, random.Random(seed))

    class Agent:
        def send(self, message):
            return "right" if rng.random() < rates[message] else "wrong"

    return Agent()
"""

MAIN_RUNS = 6


def _suite(folder: Path, rates: list[list[float]]) -> Path:
    def turn(c: int, t: int) -> str:
        return f"{{input: 'case {c} turn {t}', ground_truth: right}}"

    cases = numbered_cases(len(rates), len(rates[0]), turn)
    chances = {f"case {c} turn {t}": rate for c, case in enumerate(rates) for t, rate in
               enumerate(case)}  # fmt: skip
    return write(
        folder,
        {"agent.yaml": HEADER + cases, "flaky.py": AGENT, "rates.json": json.dumps(chances)},
    )


def _run(agent: Path, seed: str, *args: str | Path) -> None:
    (agent.parent / "seed.txt").write_text(seed)
    code, _, err = invoke("run", agent, "--agent", "flaky:factory", "--no-user-config", "-q", *args)
    assert code in (0, 1), err


@pytest.fixture(scope="module")
def history(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Main's history: six runs of the forty turns, each kept as `run` keeps it."""
    root = tmp_path_factory.mktemp("gate")
    agent = _suite(root / "main", acceptance_rates())
    for run in range(MAIN_RUNS):
        _run(agent, f"main {run}", "--history-dir", root / "history")
    return root / "history"


def _pull_request(root: Path, rates: list[list[float]], seed: str) -> Path:
    agent = _suite(root, rates)
    report = root / "report.json"
    _run(agent, seed, "--repeat", "5", "--no-history", "-o", report)
    return report


def test_the_history_is_main_runs_and_each_turn_pools_them(history: Path) -> None:
    assert len(list(history.glob("*.json"))) == MAIN_RUNS
    report = _pull_request(history.parent / "same", acceptance_rates(), "pull request")
    code, out, err = invoke("compare", history, report, "--format", "json")
    comparison = json.loads(out)
    assert comparison["base"]["runs"] == MAIN_RUNS and comparison["head"]["repeat"] == 5
    turns = [t for case in comparison["cases"] for t in case["turns"]]
    assert len(turns) == 40
    assert {t["base"]["attempts"] for t in turns} == {MAIN_RUNS}
    assert {t["head"]["attempts"] for t in turns} == {5}
    # the command judged what the gate's decision table judges on these tallies
    tallies = [
        [(Tally(t["base"]["passed_attempts"], MAIN_RUNS), Tally(t["head"]["passed_attempts"], 5))
         for t in case["turns"]]
        for case in comparison["cases"]
    ]  # fmt: skip
    verdicts = judge(tallies, 0.05)
    assert [t["regression"] for t in turns] == [v.regression for v in verdicts.turns]
    assert comparison["suite"]["regression"] == verdicts.suite.regression
    assert code == (1 if comparison["turns"]["regressions"] or verdicts.suite.regression else 0)
    assert err.startswith(("no regression", "exit 1"))


def test_three_turns_that_broke_fail_the_gate_and_are_named(history: Path) -> None:
    broken = with_drops(acceptance_rates(), 3, 0.0)
    report = _pull_request(history.parent / "broken", broken, "pull request")
    code, out, err = invoke("compare", history, report, "--format", "markdown")
    assert code == 1, err
    regressions = out.split("#### Regressions (3)", 1)[1].split("\n\n")[1]
    for case in ("case 0", "case 1", "case 2"):
        assert f"| `{case}` | 0 | 6/6 | 0/5 |" in regressions
    assert out.startswith("<!-- holodeck-lsp compare -->\n### HoloDeck test suite: 3 regression(s)")


def test_the_latest_runs_and_a_date_choose_the_runs(history: Path) -> None:
    report = _pull_request(history.parent / "chosen", acceptance_rates(), "chosen")
    _, out, _ = invoke("compare", history, report, "--base-last", "2", "--format", "json")
    assert json.loads(out)["base"]["runs"] == 2
    code, _, err = invoke("compare", history, report, "--base-since", "2999-01-01")
    assert (code, err.splitlines()[-1]) == (
        2,
        f"error: {history}: none of its {MAIN_RUNS} run(s) is left by --base-last and "
        "--base-since",
    )
