"""The acceptance of the gate, simulated (tests/support/gate_simulation.py): forty turns
passing with set chances (20 always, 10 at 0.9, 10 at 0.7), main's history of 20 runs,
pull requests run with `--repeat 5`, each judged by `compare`'s own comparison and
`--fail-on regressed`; fixed seeds. The pipeline itself, real runs through the real
command line, is tests/runner/test_gate_end_to_end.py."""

from __future__ import annotations

import random

from tests.support.gate_simulation import ACCEPTANCE, failure_rate, simulate

PULL_REQUESTS = 200


def test_unchanged_chances_fail_at_most_five_percent_of_pull_requests() -> None:
    rate = failure_rate(ACCEPTANCE["unchanged"], PULL_REQUESTS, seed=31)
    assert rate <= 0.05, rate


def test_three_turns_falling_from_always_to_one_in_five_fail_nine_in_ten() -> None:
    rate = failure_rate(ACCEPTANCE["three turns 1.0 -> 0.2"], PULL_REQUESTS, seed=32)
    assert rate >= 0.90, rate


def test_holm_keeps_the_false_alarms_down_too() -> None:
    rate = failure_rate(ACCEPTANCE["unchanged"], PULL_REQUESTS, seed=33, correction="holm")
    assert rate <= 0.05, rate


def test_todays_gate_fails_nearly_every_pull_request_that_changed_nothing() -> None:
    """One report as BASE, one attempt: passed -> failed is a regression, so a suite with
    twenty flaky turns fails whatever the pull request does (what the history mends)."""
    assert failure_rate(ACCEPTANCE["today's gate, unchanged"], 100, seed=34) >= 0.8


def test_the_regressed_turns_are_the_ones_that_dropped() -> None:
    comparison = simulate(ACCEPTANCE["three turns 1.0 -> 0.2"], random.Random(35))
    flagged = {(c.case, t.turn) for c in comparison.cases for t in c.turns if t.regression}
    assert flagged <= {("case 0", 0), ("case 1", 0), ("case 2", 0)} and flagged
    assert comparison.base.runs == 20 and comparison.head.repeat == 5
