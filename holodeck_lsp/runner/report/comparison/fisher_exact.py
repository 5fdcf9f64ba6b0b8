"""Fisher's exact test of two pass rates: is a turn passing 2 of 10 attempts where it passed
10 of 10 worse, or is that the noise of a nondeterministic model?

Given both sides' attempts and the passes of the two together, if both sides had the same
chance of passing, every split of those passes between the sides has a hypergeometric
probability, C(passes, a) * C(failures, n - a) / C(n + m, n) for `a` of them in BASE's `n`
attempts. The two-sided p-value is the probability of a split no likelier than the one
seen; the one-sided one of a fall, that HEAD got at most the passes it got. The sums are of
whole numbers, so ties are exact (no tolerance needed).

Why this test for the gate: it is exact at any number of attempts (a normal approximation
fails where it matters most, on turns that always pass), it never cries wolf more often than
its level says (it is conservative: discrete p-values only reach some levels), and it needs
no nuisance parameter (Boschloo's and Barnard's unconditional tests are more powerful but
maximise over the unknown pass rate, a numeric search per table).
"""

from __future__ import annotations

from functools import lru_cache
from math import comb

from holodeck_lsp.run_defaults import DEFAULT_ALPHA


def fisher_exact(
    base_passed: int, base_attempts: int, head_passed: int, head_attempts: int
) -> float:
    """The two-sided p-value of the 2x2 table (passes, failures) x (BASE, HEAD)."""
    n, m = base_attempts, head_attempts
    passes = base_passed + head_passed
    failures = n + m - passes
    weight = [comb(passes, a) * comb(failures, n - a) for a in range(n + 1)]
    seen = weight[base_passed]
    return sum(w for w in weight if w <= seen) / comb(n + m, n)


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


def can_tell(base_attempts: int, head_attempts: int, alpha: float = DEFAULT_ALPHA) -> bool:
    """Whether so many attempts could show any change beyond noise: even the most extreme
    one (every attempt passed on one side, none on the other) must reach p < alpha."""
    return fisher_exact(base_attempts, base_attempts, 0, head_attempts) < alpha
