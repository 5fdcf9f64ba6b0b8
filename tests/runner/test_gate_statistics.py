"""The gate's statistics against published or hand-derived values: Holm and
Benjamini-Hochberg, Student's t, the standard error clustered by test case, and the minimum
detectable effect (of a turn, exact; of the suite)."""

from __future__ import annotations

from fractions import Fraction
from math import sqrt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from holodeck_lsp.runner.report.comparison.clustered_difference import (
    clustered_standard_error,
    paired_difference,
)
from holodeck_lsp.runner.report.comparison.detectable_drop import (
    binomial_cdf,
    critical_count,
    suite_detectable_drop,
    turn_detectable_drop,
)
from holodeck_lsp.runner.report.comparison.multiple_testing import benjamini_hochberg, holm
from holodeck_lsp.runner.report.comparison.student_t import t_cdf, t_quantile

# Benjamini and Hochberg (1995), section 4: fifteen p-values of a clinical trial
BH_1995 = [
    0.0001, 0.0004, 0.0019, 0.0095, 0.0201, 0.0278, 0.0298, 0.0344, 0.0459,
    0.3240, 0.4262, 0.5719, 0.6528, 0.7590, 1.000,
]  # fmt: skip


def test_benjamini_hochberg_rejects_four_of_the_papers_fifteen_and_holm_three() -> None:
    """The paper's own result: at 0.05 the false discovery rate procedure rejects the four
    smallest, the Bonferroni-type (Holm) procedures the three smallest."""
    assert sum(q < 0.05 for q in benjamini_hochberg(BH_1995)) == 4
    assert sum(q < 0.05 for q in holm(BH_1995)) == 3


def test_adjusted_p_values_of_the_papers_fifteen() -> None:
    """As R's p.adjust and statsmodels' multipletests give them (`BH`/`fdr_bh`, `holm`)."""
    expected = [
        0.0015, 0.003, 0.0095, 0.035625, 0.0603, 0.06385714, 0.06385714, 0.0645, 0.0765,
        0.486, 0.58118182, 0.714875, 0.75323077, 0.81321429, 1.0,
    ]  # fmt: skip
    assert benjamini_hochberg(BH_1995) == pytest.approx(expected)
    assert holm(BH_1995) == pytest.approx(
        [0.0015, 0.0056, 0.0247, 0.114, 0.2211, 0.278, 0.278, 0.278, 0.3213] + [1.0] * 6
    )


def test_adjusted_p_values_keep_the_order_given() -> None:
    p = [0.01, 0.04, 0.03, 0.005]
    assert holm(p) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert benjamini_hochberg(p) == pytest.approx([0.02, 0.04, 0.04, 0.02])
    assert holm([]) == benjamini_hochberg([]) == []


@given(st.lists(st.floats(0, 1), min_size=1, max_size=30))
def test_holm_is_never_below_benjamini_hochberg_nor_either_below_p(p: list[float]) -> None:
    for raw, by_holm, by_bh in zip(p, holm(p), benjamini_hochberg(p), strict=True):
        assert raw <= by_bh + 1e-12 and by_bh <= by_holm + 1e-12 and by_holm <= 1.0


@pytest.mark.parametrize(
    ("t", "df", "cdf"),
    [  # a t table's entries
        (12.706, 1, 0.975),
        (4.303, 2, 0.975),
        (2.776, 4, 0.975),
        (1.833, 9, 0.95),
        (2.262, 9, 0.975),
        (3.250, 9, 0.995),
        (1.984, 100, 0.975),
        (0.0, 7, 0.5),
        (-2.262, 9, 0.025),
    ],
)
def test_t_distribution_against_a_table(t: float, df: int, cdf: float) -> None:
    assert t_cdf(t, df) == pytest.approx(cdf, abs=5e-5)
    assert t_quantile(cdf, df) == pytest.approx(t, abs=2e-3)


def test_t_of_one_and_two_degrees_is_in_closed_form() -> None:
    assert t_cdf(1.0, 1) == pytest.approx(0.75)  # Cauchy: 1/2 + atan(t)/pi
    assert t_cdf(1.5, 2) == pytest.approx(0.5 + 1.5 / (2 * sqrt(2 + 1.5**2)))


def test_clustered_standard_error_by_hand() -> None:
    """Differences -1, 0 | 0 | -1, -0.5, 0.5 in three cases: mean -1/3; the cases' sums of
    deviations -1/3, 1/3, 0; SE^2 = 3/2 * (2/9) / 36 = 1/108."""
    cases = [[-1.0, 0.0], [0.0], [-1.0, -0.5, 0.5]]
    assert clustered_standard_error(cases) == pytest.approx(sqrt(Fraction(1, 108)))


@given(st.lists(st.floats(-1, 1), min_size=2, max_size=40))
def test_with_every_turn_its_own_case_it_is_the_familiar_standard_error(
    values: list[float],
) -> None:
    mean = sum(values) / len(values)
    variance = sum((v - mean) ** 2 for v in values) / (len(values) - 1)
    expected = sqrt(variance / len(values))
    assert clustered_standard_error([[v] for v in values]) == pytest.approx(expected, abs=1e-9)


@given(st.lists(st.floats(-1, 1), min_size=2, max_size=20), st.integers(2, 6))
def test_copies_of_a_turn_within_its_case_add_no_information(
    values: list[float], copies: int
) -> None:
    """Turns of one case that always agree weigh as one: the standard error is that of the
    cases' means, however many turns each has (what clustering is for)."""
    alone = clustered_standard_error([[v] for v in values])
    repeated = clustered_standard_error([[v] * copies for v in values])
    assert repeated == pytest.approx(alone, abs=1e-9)


def test_the_paired_difference_of_a_suite() -> None:
    cases = [[(1.0, 0.0), (1.0, 1.0)], [(0.5, 0.5)], [(1.0, 0.0), (0.9, 0.4), (0.7, 1.2)]]
    d = paired_difference(cases)
    assert (d.turns, d.cases) == (6, 3)
    assert (d.base_rate, d.head_rate, d.difference) == pytest.approx((0.85, 0.5167, -0.3333), 1e-3)
    assert d.standard_error == pytest.approx(sqrt(3 / 2 * (1 / 9 + 1 / 9) / 36))
    assert d.p_value == pytest.approx(t_cdf(d.difference / sqrt(1 / 108), 2))
    assert paired_difference([[(1.0, 0.5)]]).standard_error is None  # one case


def test_a_turn_that_always_passed_and_five_attempts_catch_a_fall_to_17_percent() -> None:
    """BASE 20 of 20, HEAD 5 attempts, at 0.05 / 40: HEAD passing at most 1 of 5 is beyond
    noise (p = 21 / 53130), 2 of 5 is not (231 / 53130); a true rate q lands there 80% of
    the time when (1 - q)^5 + 5q(1 - q)^4 = 0.8, q = 0.16861."""
    assert critical_count(20, 20, 5, 0.05 / 40) == 1
    drop = turn_detectable_drop(20, 20, 5, 0.05 / 40)
    assert drop == pytest.approx(1 - 0.168609, abs=1e-6)
    q = 1 - (drop or 0.0)
    assert (1 - q) ** 5 + 5 * q * (1 - q) ** 4 == pytest.approx(0.8, abs=1e-7)


def test_no_fall_is_detectable_with_one_attempt_a_side() -> None:
    assert critical_count(1, 1, 1, 0.05) == -1
    assert turn_detectable_drop(1, 1, 1, 0.05) is None


@given(st.integers(1, 40), st.integers(1, 10), st.floats(0.0, 1.0))
def test_binomial_cdf_sums_to_one(attempts: int, count: int, rate: float) -> None:
    assert binomial_cdf(attempts, attempts, rate) == pytest.approx(1.0)
    assert 0.0 <= binomial_cdf(min(count, attempts), attempts, rate) <= 1.0 + 1e-12


def test_the_suite_detects_2_8_standard_errors_with_many_cases() -> None:
    """(z at 0.975 + z at 0.8) = 1.960 + 0.842 = 2.80 standard errors: the classic
    minimum detectable effect at 5% two-sided (2.5% one-sided) and 80% power (Bloom 1995);
    with 10 cases Student's t asks more: 2.262 + 0.883."""
    assert suite_detectable_drop(0.01, 100_000, 0.025) == pytest.approx(0.0280, abs=1e-4)
    assert suite_detectable_drop(0.01, 10, 0.025) == pytest.approx(0.031456, abs=1e-5)
    assert suite_detectable_drop(0.01, 1, 0.025) is None
