"""What a comparison could not have seen: the minimum detectable effect, the smallest fall
of a pass rate that these attempts catch with the usual 80% power. A turn whose rate fell
but not beyond noise says it: "a fall to 22% or lower would have been caught".

- A turn (Fisher's exact test): the most passes HEAD could get and still be told beyond
  noise at the level a lone regression needs is the test's critical count; the detectable
  drop is how far HEAD's true pass rate must be below BASE's observed one for its attempts
  to land at or under that count 80% of the time (the binomial distribution, by bisection).
- The suite (the paired t test): (t at 1 - level + t at the power) x the standard error, on
  C - 1 degrees of freedom, as Miller (2024) sizes an eval.
"""

from __future__ import annotations

from functools import lru_cache
from math import comb

from holodeck_lsp.runner.report.comparison.fisher_exact import fell_p_value
from holodeck_lsp.runner.report.comparison.student_t import t_quantile

POWER = 0.8  # the usual: a drop this large is caught four times in five


def critical_count(base_passed: int, base_attempts: int, head_attempts: int, level: float) -> int:
    """The most passes of HEAD's attempts still told a fall at ``level``; -1 when even none
    would be."""
    found = -1
    for passed in range(head_attempts + 1):
        if fell_p_value(base_passed, base_attempts, passed, head_attempts) >= level:
            break  # the p-value only grows with HEAD's passes
        found = passed
    return found


def binomial_cdf(count: int, attempts: int, rate: float) -> float:
    """P(at most ``count`` passes of ``attempts``, each passing with ``rate``)."""
    return sum(comb(attempts, k) * rate**k * (1 - rate) ** (attempts - k) for k in range(count + 1))


@lru_cache(maxsize=4096)
def turn_detectable_drop(
    base_passed: int, base_attempts: int, head_attempts: int, level: float, power: float = POWER
) -> float | None:
    """The smallest fall from BASE's pass rate that HEAD's attempts catch with ``power``
    at ``level``; none when no fall at all could be told."""
    count = critical_count(base_passed, base_attempts, head_attempts, level)
    if count < 0:
        return None
    base_rate = base_passed / base_attempts
    if binomial_cdf(count, head_attempts, base_rate) >= power:
        return 0.0
    low, high = 0.0, base_rate  # caught with the power at `low`, not at `high`
    while high - low > 1e-9:
        middle = (low + high) / 2
        if binomial_cdf(count, head_attempts, middle) >= power:
            low = middle
        else:
            high = middle
    return base_rate - low


def suite_detectable_drop(
    standard_error: float, cases: int, level: float, power: float = POWER
) -> float | None:
    """The smallest fall of the suite's pass rate the paired test catches with ``power``."""
    if cases < 2:
        return None
    df = cases - 1
    return (t_quantile(1 - level, df) + t_quantile(power, df)) * standard_error
