"""Fisher's exact test as the gate uses it, one-sided: known p-values, the same as an
independent enumeration of every table in exact fractions, and the p-value never falling as
HEAD passes more (what the critical count of the detectable drop stands on)."""

from __future__ import annotations

from fractions import Fraction
from math import comb

import pytest
from hypothesis import given
from hypothesis import strategies as st

from holodeck_lsp.runner.report.comparison.fisher_exact import fell_p_value, rose_p_value


@pytest.mark.parametrize(
    ("table", "p_value"),
    [
        # Fisher's lady tasting tea (1935; Agresti, Categorical Data Analysis, table 3.8):
        # 3 of the 4 milk-first cups named right; one-sided P = 17/70
        ((3, 4, 1, 4), Fraction(17, 70)),
        ((20, 20, 0, 5), Fraction(1, comb(25, 5))),  # a turn that always passed, 0 of 5 now
        ((20, 20, 1, 5), Fraction(21, comb(25, 5))),
        ((20, 20, 2, 5), Fraction(231, comb(25, 5))),
        ((10, 10, 2, 10), Fraction(66, comb(20, 10))),
        ((10, 10, 9, 10), Fraction(1, 2)),
        ((1, 1, 0, 1), Fraction(1, 2)),  # one attempt a side: never below 1/2
        ((0, 5, 0, 5), Fraction(1)),  # a turn that never passed cannot fall
        ((18, 20, 5, 5), Fraction(1)),
    ],
)
def test_known_p_values_of_a_fall(table: tuple[int, int, int, int], p_value: Fraction) -> None:
    assert fell_p_value(*table) == pytest.approx(float(p_value), rel=1e-12)


def test_a_rise_is_a_fall_of_the_failures() -> None:
    assert rose_p_value(1, 4, 3, 4) == pytest.approx(17 / 70)
    assert rose_p_value(0, 10, 10, 10) == pytest.approx(1 / comb(20, 10))
    assert rose_p_value(5, 5, 0, 5) == 1.0


def _by_enumeration(a: int, n: int, b: int, m: int) -> Fraction:
    """Every table with the margins of (a, n - a; b, m - b), its probability in fractions,
    summed over those where HEAD passed at most b."""
    passes, total = a + b, n + m

    def chance(x: int) -> Fraction:
        return Fraction(comb(passes, x) * comb(total - passes, m - x), comb(total, m))

    return sum((chance(x) for x in range(max(0, passes - n), b + 1)), Fraction(0))


@given(st.data())
def test_the_same_as_enumerating_every_table(data: st.DataObject) -> None:
    n = data.draw(st.integers(1, 40))
    m = data.draw(st.integers(1, 20))
    a = data.draw(st.integers(0, n))
    b = data.draw(st.integers(0, m))
    assert fell_p_value(a, n, b, m) == pytest.approx(float(_by_enumeration(a, n, b, m)))


@given(st.data())
def test_the_more_head_passes_the_larger_the_p_value(data: st.DataObject) -> None:
    n = data.draw(st.integers(1, 60))
    m = data.draw(st.integers(1, 20))
    a = data.draw(st.integers(0, n))
    values = [fell_p_value(a, n, b, m) for b in range(m + 1)]
    assert values == sorted(values)
