"""Fisher's exact test of two pass rates: is a turn passing 2 of 10 attempts where it passed
10 of 10 worse, or is that the noise of a nondeterministic model?

Given both sides' attempts and the passes of the two together, if both sides had the same
chance of passing, every split of those passes between the sides has a hypergeometric
probability, C(passes, b) * C(failures, m - b) / C(n + m, m) for `b` of them in HEAD's `m`
attempts. The one-sided p-value of a fall is the chance that HEAD got at most the passes it
got; of a rise, at least. One-sided, because only a fall is a regression (a rise is told
the same way, as a fall of the failures). The sums are of whole numbers, exact until the
one division.

Why this test for the gate: it is exact at any number of attempts (a normal approximation
fails where it matters most, on turns that always pass), it never cries wolf more often than
its level says (it is conservative: discrete p-values only reach some levels), and it needs
no nuisance parameter (Boschloo's and Barnard's unconditional tests are more powerful but
maximise over the unknown pass rate, a numeric search per table).
"""

from __future__ import annotations

from functools import lru_cache
from math import comb


@lru_cache(maxsize=65_536)  # a suite's turns share few tables: most pass every attempt
def fell_p_value(
    base_passed: int, base_attempts: int, head_passed: int, head_attempts: int
) -> float:
    """The one-sided p-value of a fall: the chance, were both rates the same, that HEAD's
    attempts got at most the passes they got (given the passes of both sides together)."""
    n, m = base_attempts, head_attempts
    passes = base_passed + head_passed
    failures = n + m - passes
    weight = sum(comb(passes, x) * comb(failures, m - x) for x in range(head_passed + 1))
    return weight / comb(n + m, m)


def rose_p_value(
    base_passed: int, base_attempts: int, head_passed: int, head_attempts: int
) -> float:
    """The one-sided p-value of a rise: a fall of the failures."""
    return fell_p_value(
        base_attempts - base_passed, base_attempts, head_attempts - head_passed, head_attempts
    )
