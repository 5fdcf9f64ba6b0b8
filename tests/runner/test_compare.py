"""`holodeck-lsp compare BASE HEAD`: two runs of a suite matched test case by test case
(by name, an unnamed one by its place) and turn by turn, each turn regressed, fixed,
still failing, still passing, new or removed; a renamed case is removed plus new."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.conftest import REPO
from tests.runner.compared_runs import compare, run_of, without_times
from tests.runner.helpers import invoke, write

# The cases the change leaves alone (their answers may change).
KEPT = """
  - {input: "unnamed", ground_truth: "a"}
  - name: steady
    turns:
      - {input: "steady 1", ground_truth: "a"}
      - {input: "steady 2", ground_truth: "b"}
  - name: breaks
    turns:
      - {input: "breaks 1", ground_truth: "a"}
      - {input: "breaks 2", ground_truth: "b"}
  - {name: mends, input: "mends", ground_truth: "a"}
  - {name: stuck, input: "stuck", ground_truth: "a"}
"""
BASE_CASES = (
    KEPT
    + """
  - name: grows
    turns:
      - {input: "grows 1", ground_truth: "a"}
  - {name: old name, input: "renamed", ground_truth: "a"}
  - {name: gone, input: "gone", ground_truth: "a"}
"""
)
# The change: "grows" gets a turn, "old name" is renamed, "gone" is dropped, "added" added.
HEAD_CASES = (
    KEPT
    + """
  - name: grows
    turns:
      - {input: "grows 1", ground_truth: "a"}
      - {input: "grows 2", ground_truth: "b"}
  - {name: new name, input: "renamed", ground_truth: "a"}
  - {name: added, input: "added", ground_truth: "a"}
"""
)
RIGHT = {
    "unnamed": "a",
    "steady 1": "a",
    "steady 2": "b",
    "breaks 1": "a",
    "breaks 2": "b",
    "grows 1": "a",
    "grows 2": "b",
    "renamed": "a",
    "gone": "a",
    "added": "a",
}
BASE_ANSWERS = {**RIGHT, "mends": "wrong", "stuck": "wrong"}
HEAD_ANSWERS = {**RIGHT, "breaks 2": "wrong", "mends": "a", "stuck": "still wrong"}

EXPECTED_TEXT = """\
BASE base/report.json: holodeck-lsp 0.1.0 (HoloDeck 0.7.1), 6/8 test case(s) passed, TIME
HEAD head/report.json: holodeck-lsp 0.1.0 (HoloDeck 0.7.1), 6/8 test case(s) passed, TIME
turns: 1 regressed, 1 fixed, 1 still failing, 5 still passing, 3 new, 2 removed
suite: turn pass rate 75.0% -> 75.0% (+0.0 points, SE 19.4, a fall of 67.6 points would be caught)

Regressions (1):
  breaks, turn 1: passed -> failed: metric `equality` failed: score 0: not the ground truth

Fixed (1):
  mends, turn 0: failed -> passed

New (3):
  grows, turn 1: new: passed
  new name, turn 0: new: passed
  added, turn 0: new: passed

Removed (2):
  old name, turn 0: removed (was passed)
  gone, turn 0: removed (was passed)

metrics (mean score): equality 0.75 -> 0.81 (+0.06)
duration: N s -> N s (N s); tokens: 120 -> 132 (+12)
exit 1: 1 regression(s) (--fail-on regressed)
"""


@pytest.fixture
def runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    monkeypatch.chdir(tmp_path)
    base = run_of(tmp_path / "base", BASE_CASES, BASE_ANSWERS)
    head = run_of(tmp_path / "head", HEAD_CASES, HEAD_ANSWERS)
    return base.relative_to(tmp_path), head.relative_to(tmp_path)


def test_every_change_of_a_turn_is_told_and_a_regression_fails(runs: tuple[Path, Path]) -> None:
    code, out, err = compare(*runs)
    assert (code, err) == (1, "")
    assert without_times(out) == EXPECTED_TEXT


def test_a_renamed_case_is_removed_and_new_never_matched(runs: tuple[Path, Path]) -> None:
    _, out, _ = compare(*runs, "--format", "json")
    cases = {case["case"]: case for case in json.loads(out)["cases"]}
    assert [(c["change"], c["base"] is None, c["head"] is None) for c in cases.values()] == [
        ("still_passing", False, False),  # test_cases[0], matched by its place
        ("still_passing", False, False),
        ("regressed", False, False),
        ("fixed", False, False),
        ("still_failing", False, False),
        ("still_passing", False, False),  # grows: its verdict held, its new turn passed
        ("new", True, False),  # new name
        ("new", True, False),  # added
        ("removed", False, True),  # old name
        ("removed", False, True),  # gone
    ]
    assert list(cases) == [
        "test_cases[0]",
        "steady",
        "breaks",
        "mends",
        "stuck",
        "grows",
        "new name",
        "added",
        "old name",
        "gone",
    ]


HOLODECK = REPO / "tests" / "data" / "holodeck"
# The cash-flow agent answered right: turn 1 of "cash change" looks up the right year now.
FIXED_AGENT = """
ANSWERS = {
    "What was the cash in 2019?": ("206,588", {"metric": "cash", "year": "2019"}, 206588.0),
    "And in 2020?": ("181,001", {"metric": "cash", "year": "2020"}, 181001.0),
}

def factory():
    class Agent:
        def send(self, message):
            usage = {"prompt_tokens": 300, "completion_tokens": 10, "total_tokens": 310}
            if message not in ANSWERS:
                return {"text": "Paris", "usage": usage}
            text, args, result = ANSWERS[message]
            call = {"name": "lookup", "args": args, "result": result}
            return {"text": text, "tool_calls": [call], "usage": usage}
    return Agent()
"""


def test_holodecks_own_report_is_a_base(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copytree(HOLODECK, tmp_path / "pr")
    write(tmp_path / "pr", {"fixed.py": FIXED_AGENT})
    monkeypatch.chdir(tmp_path)
    code, _, err = invoke(
        "run", "pr/agent.yaml", "--agent", "fixed:factory", "-q", "-o", "pr/report.json"
    )
    assert code == 0, err
    code, out, err = compare(HOLODECK / "holodeck-report.json", "pr/report.json")
    assert (code, err) == (0, "")
    assert without_times(out).replace(str(HOLODECK), "HOLODECK") == (
        "BASE HOLODECK/holodeck-report.json: HoloDeck 0.7.1, 1/2 test case(s) passed, TIME\n"
        "HEAD pr/report.json: holodeck-lsp 0.1.0 (HoloDeck 0.7.1), 2/2 test case(s) passed, TIME\n"
        # Two runners: the fixed turn may be the runner's doing, and the reader is told so.
        "note: BASE and HEAD come from different runners (HoloDeck 0.7.1; holodeck-lsp 0.1.0 "
        "(HoloDeck 0.7.1)): a turn may have changed with the runner, not the agent; the "
        "documented differences are in docs/runner.md#differences-from-holodeck-test, and `run` "
        "warns about those a suite meets\n"
        "turns: 0 regressed, 1 fixed, 0 still failing, 2 still passing, 0 new, 0 removed\n"
        "suite: turn pass rate 66.7% -> 100.0% (+33.3 points, SE 22.2, no fall could be caught)\n"
        "\n"
        "Fixed (1):\n"
        "  cash change, turn 1: failed -> passed\n"
        "\n"
        "metrics (mean score): numeric 1.00 -> 1.00 (+0.00); equality 1.00 -> 1.00 (+0.00)\n"
        "duration: N s -> N s (N s); tokens: 658 -> 930 (+272)\n"
        "no regression; exit 0 (--fail-on regressed)\n"
    )


def test_shards_merge_on_either_side(runs: tuple[Path, Path], tmp_path: Path) -> None:
    for side, cases, answers in (
        ("base", BASE_CASES, BASE_ANSWERS),
        ("head", HEAD_CASES, HEAD_ANSWERS),
    ):
        for shard in (1, 2):
            report = f"shards/{shard}.json"
            run_of(tmp_path / side, cases, answers, "--shard", f"{shard}/2", report=report)
    base, head = runs
    _, whole, _ = compare(base, head, "--format", "json")
    for pair in ((Path("base/shards"), head), (base, Path("head/shards"))):
        code, out, err = compare(*pair, "--format", "json")
        assert (code, err) == (1, "exit 1: 1 regression(s) (--fail-on regressed)\n")
        assert _matched(out) == _matched(whole)
    _, out, _ = compare(Path("base/shards"), Path("head/shards"))
    assert without_times(out).splitlines()[:2] == [
        "BASE base/shards/1.json, base/shards/2.json: holodeck-lsp 0.1.0 (HoloDeck 0.7.1), "
        "6/8 test case(s) passed, TIME",
        "HEAD head/shards/1.json, head/shards/2.json: holodeck-lsp 0.1.0 (HoloDeck 0.7.1), "
        "6/8 test case(s) passed, TIME",
    ]


def _matched(comparison_json: str) -> list[tuple[str, str, list[tuple[int, str]]]]:
    """Each case's change and its turns' changes."""
    cases = json.loads(comparison_json)["cases"]
    return [(c["case"], c["change"], [(t["turn"], t["change"]) for t in c["turns"]]) for c in cases]


def test_a_case_an_interrupted_run_did_not_reach_is_not_removed(
    runs: tuple[Path, Path],
) -> None:
    """HEAD stopped early before "gone" and "steady": they are not run, not removed (its
    line says how many did not run)."""
    base, _ = runs
    data = json.loads(base.read_text())
    kept = [r for r in data["results"] if r["test_name"] not in ("gone", "steady")]
    data.update(results=kept, interrupted=True, stop_reason="Ctrl-C", not_run=["gone", "steady"])
    data["summary"].update(total_tests=len(kept), passed=4, failed=2)
    indexes = data["environment"]["case_indexes"].split(",")
    data["environment"]["case_indexes"] = ",".join(i for i in indexes if i not in ("1", "7"))
    stopped = Path("stopped.json")
    stopped.write_text(json.dumps(data))
    code, out, _ = compare(base, stopped)
    assert code == 0
    lines = without_times(out).splitlines()
    assert lines[1] == (
        "HEAD stopped.json: holodeck-lsp 0.1.0 (HoloDeck 0.7.1), 4/6 test case(s) passed, "
        "stopped early (2 case(s) not run), TIME"
    )
    assert lines[2] == (
        "turns: 0 regressed, 0 fixed, 2 still failing, 5 still passing, 0 new, 0 removed"
    )
