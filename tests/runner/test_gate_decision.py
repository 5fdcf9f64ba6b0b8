"""The gate's decision table (docs/compare.md), row by row, on per-turn tallies: BASE's
passes over its attempts (a report, or a history's runs pooled) and HEAD's."""

from __future__ import annotations

import pytest

from holodeck_lsp.runner.report.comparison.gate_decision import (
    GateVerdicts,
    Tally,
    TurnVerdict,
    gate_fails,
    judge,
    turns_tested,
)

STEADY = (Tally(20, 20), Tally(5, 5))  # a turn that always passed, and still does


def _one(base: Tally, head: Tally, others: int = 0) -> TurnVerdict:
    """The verdict of a turn among ``others`` steady turns (each its own test case)."""
    return judge([[(base, head)], *([STEADY] for _ in range(others))], 0.05).turns[0]


@pytest.mark.parametrize(
    ("base", "head"),
    [
        (Tally(1, 1), Tally(0, 1)),  # two single reports: passed -> failed, as ever
        (Tally(20, 20), Tally(0, 1)),  # always passed in a history, failed its one attempt
        (Tally(2, 2), Tally(0, 2)),  # too few attempts to test, but none disagrees
        (Tally(1, 1), Tally(0, 5)),
    ],
)
def test_never_failed_then_never_passed_untested_is_a_regression(base: Tally, head: Tally) -> None:
    verdict = _one(base, head, others=39)
    assert (verdict.regression, verdict.rule) == (True, "failed_every_attempt")


@pytest.mark.parametrize("base", [Tally(18, 20), Tally(999, 1000), Tally(1, 2)])
def test_one_failed_attempt_of_a_turn_flaky_in_base_is_never_a_regression(base: Tally) -> None:
    verdict = _one(base, Tally(0, 1))
    assert (verdict.regression, verdict.noise, verdict.rule) == (
        False,
        "within_noise",
        "flaky_single_attempt",
    )


def test_a_fall_beyond_noise_is_a_regression_among_forty_turns() -> None:
    verdict = _one(Tally(20, 20), Tally(1, 5), others=39)
    assert (verdict.regression, verdict.noise, verdict.rule) == (True, "beyond_noise", "exact_test")
    assert verdict.p_value == pytest.approx(21 / 53130)
    # the 39 steady turns are no test (no failure to place): the fall is adjusted alone
    assert verdict.adjusted_p == verdict.p_value


def test_a_fall_within_noise_says_what_could_have_been_caught() -> None:
    """20/20 -> 3/5 beside 20 flaky turns that are tested (this one's two failures could
    not look like a fall: p >= 10/300): a lone fall needs p < 0.025 / 20, so HEAD passing
    at most 1 of 5 would have been beyond noise, which a true rate of 0.169 reaches 80% of
    the time: a fall of 83 points."""
    flaky = [(Tally(14, 20), Tally(3, 5))] * 20
    cases = [[(Tally(20, 20), Tally(3, 5))], *([pair] for pair in flaky)]
    verdicts = judge(cases, 0.05)
    verdict = verdicts.turns[0]
    assert (verdict.regression, verdict.noise, verdict.rule) == (
        False,
        "within_noise",
        "exact_test",
    )
    assert verdicts.tested == 20 and verdicts.lone_level == pytest.approx(0.025 / 20)
    assert verdict.detectable_drop == pytest.approx(0.8314, abs=1e-3)


def test_a_small_fall_of_many_attempts_is_within_noise_not_too_few_attempts() -> None:
    """10/10 -> 9/10: one failure in twenty attempts can never be beyond noise (no test),
    but ten attempts could have told a fall to 0/10: within noise, not too few attempts."""
    verdict = _one(Tally(10, 10), Tally(9, 10))
    assert (verdict.noise, verdict.rule, verdict.adjusted_p) == ("within_noise", "exact_test", None)
    assert verdict.detectable_drop == pytest.approx(0.6, abs=0.1)


def test_too_few_attempts_to_tell_any_fall() -> None:
    verdict = _one(Tally(2, 2), Tally(1, 2))
    assert verdict == TurnVerdict(
        False, 0.5, None, "not_enough_attempts", "too_few_attempts", None
    )


def test_two_single_reports_make_no_test() -> None:
    verdict = judge([[(Tally(0, 1), Tally(1, 1)), (Tally(1, 1), Tally(1, 1))]], 0.05)
    assert verdict.turns[0] == TurnVerdict(False, None, None, None, None, None)
    assert verdict.tested == 0


def test_a_rise_beyond_noise_is_told_but_is_no_regression() -> None:
    verdict = _one(Tally(0, 10), Tally(10, 10))
    assert (verdict.regression, verdict.noise) == (False, "beyond_noise")


def test_turns_that_cannot_look_like_a_fall_do_not_dilute_the_others() -> None:
    """100 turns that always failed in BASE, and 100 that passed every attempt on both
    sides, are no tests: a lone fall needs p < 0.025, not 0.025 / 201."""
    cases = [[(Tally(10, 10), Tally(5, 10))]]
    cases += [[(Tally(0, 20), Tally(0, 5))] for _ in range(100)]
    cases += [[STEADY] for _ in range(100)]
    verdicts = judge(cases, 0.05)
    assert (verdicts.tested, verdicts.lone_level) == (1, 0.025)
    assert verdicts.turns[0].regression  # p = 0.016


def test_a_turn_is_tested_when_its_smallest_possible_p_value_is_below_alpha() -> None:
    assert turns_tested([1e-6, 0.02, 0.025, 0.5, 1.0], 0.025) == [0, 1]


def _diffuse(correction: str = "bh") -> GateVerdicts:
    """Ten test cases of four turns, each turn 90% -> 70% of its attempts."""
    case = [(Tally(18, 20), Tally(7, 10))] * 4
    return judge([case] * 10, 0.05, "holm" if correction == "holm" else "bh")


def test_a_fall_of_every_turn_within_noise_is_a_regression_of_the_suite() -> None:
    verdicts = _diffuse()
    assert not any(v.regression for v in verdicts.turns)
    assert verdicts.suite.difference.difference == pytest.approx(-0.2)
    assert verdicts.suite.regression and gate_fails(verdicts)


def test_benjamini_hochberg_flags_more_of_several_falls_than_holm() -> None:
    """Eight turns fell from 20/20 to 2/5 (p = 0.0043 each) among 40: Holm asks the smallest
    for p < 0.025 / 40 and flags none; Benjamini-Hochberg asks the 8th smallest for
    p < 8 x 0.025 / 40 and flags all eight."""
    cases = [[(Tally(20, 20), Tally(2, 5))] for _ in range(8)]
    cases += [[STEADY] for _ in range(32)]
    by_bh = judge(cases, 0.05, "bh")
    by_holm = judge(cases, 0.05, "holm")
    assert sum(v.regression for v in by_bh.turns) == 8
    assert sum(v.regression for v in by_holm.turns) == 0


def test_nothing_changed_nothing_fails() -> None:
    verdicts = judge([[STEADY, (Tally(14, 20), Tally(4, 5))] for _ in range(10)], 0.05)
    assert not gate_fails(verdicts)


def test_a_tested_turn_failing_every_attempt_is_judged_by_the_test() -> None:
    """20/20 -> 0/3 (p = 1/1771) among a hundred flaky turns that are tested too: adjusted
    over 101 it is not beyond noise, and three attempts could show no fall alone (it would
    need p < 0.025 / 101): could not tell. Were every such turn a regression by rule, a suite
    of thousands of turns at 90% would fail on one of them in every tenth pull request."""
    flaky = [[(Tally(14, 20), Tally(3, 5))] for _ in range(100)]
    verdicts = judge([[(Tally(20, 20), Tally(0, 3))], *flaky], 0.05)
    verdict = verdicts.turns[0]
    assert (verdict.regression, verdict.noise, verdict.rule) == (
        False,
        "not_enough_attempts",
        "too_few_attempts",
    )
    assert verdict.p_value == pytest.approx(1 / 1771)
    assert verdict.adjusted_p == pytest.approx(101 / 1771)
