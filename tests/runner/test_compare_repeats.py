"""`compare` of `--repeat` runs: pass^k and pass rates on both sides, and a fall of a
turn's pass rate told beyond noise or within it by the one-sided Fisher exact test, adjusted
over the turns tested (p-values shown, and the smallest fall that could have been caught),
or "not enough attempts to tell" when even the most extreme fall could not be; every attempt
failing where every one passed is a regression however few they are."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.runner.compared_runs import compare, run_of, without_times

CASES = """
  - name: flaky
    turns:
      - {input: "first", ground_truth: "a"}
      - {input: "second", ground_truth: "b"}
"""


def _repeated(folder: Path, second: list[str], attempts: int = 10) -> Path:
    answers: dict[str, str | list[str]] = {"first": "a", "second": second}
    return run_of(folder, CASES, answers, "--repeat", str(attempts))


@pytest.fixture
def always(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """BASE: turn 1 passed all of its 10 attempts."""
    monkeypatch.chdir(tmp_path)
    return _repeated(Path("base"), ["b"])


def test_ten_of_ten_to_nine_of_ten_is_within_noise(always: Path) -> None:
    head = _repeated(Path("head"), ["b"] * 9 + ["wrong"])
    code, out, err = compare(always, head)
    assert (code, err) == (0, "")
    assert without_times(out) == (
        "BASE base/report.json: holodeck-lsp 0.1.0 (HoloDeck 0.7.1), 1/1 test case(s) passed, "
        "10 attempts each (pass rule all), TIME\n"
        "HEAD head/report.json: holodeck-lsp 0.1.0 (HoloDeck 0.7.1), 0/1 test case(s) passed, "
        "10 attempts each (pass rule all), TIME\n"
        "turns: 1 regressed, 0 fixed, 0 still failing, 1 still passing, 0 new, 0 removed\n"
        "suite: turn pass rate 100.0% -> 95.0% (-5.0 points, one test case: no standard error)\n"
        "gate: alpha 0.05: half to the turns (no turn's failures could show a fall beyond "
        "noise; alone, a fall needs p < 0.025), half to the suite's pass rate\n"
        "\n"
        "Could not tell: worse, but within noise or too few attempts (1):\n"
        "  flaky, turn 1: 10/10 -> 9/10 attempts passed (p = 0.5, within noise; "
        "a fall of 58 points would be caught): metric `equality` failed: score 0: "
        "not the ground truth\n"
        "\n"
        "Reliability changed (1):\n"
        "  flaky: pass^10 1 -> 0, attempts passed 10/10 -> 9/10\n"
        "\n"
        "metrics (mean score): equality 1.00 -> 0.50 (-0.50)\n"
        "duration: N s -> N s (N s); tokens: 24 -> 24 (+0)\n"
        "no regression; exit 0 (--fail-on regressed)\n"
    )


def test_ten_of_ten_to_two_of_ten_is_a_regression_with_its_p_value(always: Path) -> None:
    head = _repeated(Path("head"), ["b"] * 2 + ["wrong"] * 8)
    code, out, err = compare(always, head)
    assert (code, err) == (1, "")
    lines = without_times(out).splitlines()
    assert lines[6:8] == [
        "Regressions (1):",
        "  flaky, turn 1: 10/10 -> 2/10 attempts passed (p = 0.00036, beyond noise): "
        "metric `equality` failed: score 0: not the ground truth",
    ]
    assert lines[-1] == "exit 1: 1 regression(s) (--fail-on regressed)"
    turn = json.loads(compare(always, head, "-f", "json")[1])["cases"][0]["turns"][1]
    assert {k: turn[k] for k in ("change", "regression", "noise", "rule")} == {
        "change": "regressed",
        "regression": True,
        "noise": "beyond_noise",
        "rule": "exact_test",
    }
    # one-sided: C(12, 2) / C(20, 10); the only turn tested (turn 0 has no failure to place)
    assert turn["p_value"] == pytest.approx(66 / 184756)
    assert turn["adjusted_p"] == turn["p_value"]
    assert (turn["base"]["passed_attempts"], turn["head"]["passed_attempts"]) == (10, 2)


def test_every_attempt_failing_where_every_one_passed_is_a_regression_even_of_two(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    base = _repeated(Path("base"), ["b"], attempts=2)
    head = _repeated(Path("head"), ["wrong"], attempts=2)
    code, out, _ = compare(base, head, "-f", "json")
    assert code == 1  # no attempt of either side says the turn is flaky
    case = json.loads(out)["cases"][0]
    turn = case["turns"][1]
    assert {k: turn[k] for k in ("regression", "noise", "rule", "p_value")} == {
        "regression": True,
        "noise": None,  # 2/2 -> 0/2 is p = 1/6: no test could tell
        "rule": "failed_every_attempt",
        "p_value": pytest.approx(1 / 6),
    }
    assert (case["pass_hat_k_of"], case["base"]["pass_hat_k"], case["head"]["pass_hat_k"]) == (
        2,
        1.0,
        0.0,
    )
    _, text, _ = compare(base, head)
    assert (
        "  flaky, turn 1: 2/2 -> 0/2 attempts passed (no attempt passed where every one did): "
        "metric `equality` failed: score 0" in text
    )


def test_two_attempts_are_not_enough_to_tell_a_fall_to_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    base = _repeated(Path("base"), ["b"], attempts=2)
    head = _repeated(Path("head"), ["b", "wrong"], attempts=2)
    code, out, _ = compare(base, head)
    assert code == 0  # 2/2 -> 1/2 could be chance: p = 0.5, and even 0/2 would not be told
    assert (
        "  flaky, turn 1: 2/2 -> 1/2 attempts passed (p = 0.5, not enough attempts to tell): "
        "metric `equality` failed: score 0" in out
    )
    assert "gate: alpha 0.05: half to the turns (no turn's failures could show a fall " in out
