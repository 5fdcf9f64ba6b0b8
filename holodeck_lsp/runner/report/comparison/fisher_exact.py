"""Fisher's exact test of two pass rates: is a turn passing 2 of 10 attempts where it passed
10 of 10 worse, or is that the noise of a nondeterministic model?

Given both sides' attempts and the passes of the two together, if both sides had the same
chance of passing, every split of those passes between the sides has a hypergeometric
probability, C(passes, a) * C(failures, n - a) / C(n + m, n) for `a` of them in BASE's `n`
attempts. The two-sided p-value is the probability of a split no likelier than the one
seen. The sums are of whole numbers, so ties are exact (no tolerance needed).
"""

from __future__ import annotations

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


def can_tell(base_attempts: int, head_attempts: int, alpha: float = DEFAULT_ALPHA) -> bool:
    """Whether so many attempts could show any change beyond noise: even the most extreme
    one (every attempt passed on one side, none on the other) must reach p < alpha."""
    return fisher_exact(base_attempts, base_attempts, 0, head_attempts) < alpha
