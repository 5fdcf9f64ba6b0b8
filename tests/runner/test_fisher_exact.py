"""Fisher's exact test as `compare` uses it: known p-values, the same as an independent
enumeration of every table in exact fractions, and the attempts it takes to tell."""

from __future__ import annotations

from fractions import Fraction
from math import comb

import pytest
from hypothesis import given
from hypothesis import strategies as st

from holodeck_lsp.runner.report.comparison.fisher_exact import can_tell, fisher_exact


@pytest.mark.parametrize(
    ("table", "p_value"),
    [
        ((3, 4, 1, 4), 0.4857),  # Fisher's lady tasting tea: 3 of 4 cups right, and 1 of 4
        ((10, 10, 9, 10), 1.0),
        ((10, 10, 2, 10), 0.0007),
        ((3, 10, 7, 10), 0.1789),
        ((1, 1, 0, 1), 1.0),
        ((0, 5, 0, 5), 1.0),
        ((20, 20, 0, 20), 0.0),
    ],
)
def test_known_p_values(table: tuple[int, int, int, int], p_value: float) -> None:
    assert round(fisher_exact(*table), 4) == p_value


def _by_enumeration(a: int, n: int, b: int, m: int) -> Fraction:
    """Every table with the margins of (a, n - a; b, m - b), its probability in fractions,
    summed over those no likelier than the one seen."""
    passes, total = a + b, n + m

    def chance(x: int) -> Fraction:
        return Fraction(comb(passes, x) * comb(total - passes, n - x), comb(total, n))

    seen = chance(a)
    tables = range(max(0, passes - m), min(n, passes) + 1)
    return sum((chance(x) for x in tables if chance(x) <= seen), Fraction(0))


@given(st.data())
def test_the_same_as_enumerating_every_table(data: st.DataObject) -> None:
    n = data.draw(st.integers(1, 30))
    m = data.draw(st.integers(1, 30))
    a = data.draw(st.integers(0, n))
    b = data.draw(st.integers(0, m))
    assert fisher_exact(a, n, b, m) == pytest.approx(float(_by_enumeration(a, n, b, m)))


def test_four_attempts_a_side_are_the_fewest_that_can_tell() -> None:
    assert [k for k in range(1, 8) if can_tell(k, k)] == [4, 5, 6, 7]
    assert can_tell(10, 3) and not can_tell(10, 1)
    assert can_tell(3, 3, alpha=0.2)
