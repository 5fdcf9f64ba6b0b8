"""95% intervals on a run's pass rate. One attempt per case: Wilson's score interval, which
stays inside [0, 1] and is honest at 0% and 100%. With `--repeat`, the attempts of a case are
not independent (a hard case fails all of them), so the interval is Wilson's on the sample
size the clustering leaves: the attempts divided by the design effect, the case-clustered
variance of the rate over the binomial one (at least 1; at 0% or 100%, where both vanish,
one case counts once)."""

from __future__ import annotations

from collections.abc import Sequence
from math import sqrt

Z95 = 1.959963984540054


def wilson(passed: float, total: float, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for ``passed`` of ``total`` (total may be an effective,
    fractional size); (0, 1) when there is nothing to go on."""
    if total <= 0:
        return 0.0, 1.0
    rate = passed / total
    spread = z * z / total
    centre = (rate + spread / 2) / (1 + spread)
    half = z / (1 + spread) * sqrt(rate * (1 - rate) / total + spread / (4 * total))
    return max(0.0, centre - half), min(1.0, centre + half)


def clustered(groups: Sequence[tuple[int, int]], z: float = Z95) -> tuple[float, float]:
    """The interval of the pass rate of ``groups``, (passed, attempts) per test case, whose
    attempts are correlated within a case."""
    total = sum(n for _, n in groups)
    if total == 0:
        return 0.0, 1.0
    passed = sum(y for y, _ in groups)
    rate = passed / total
    binomial = rate * (1 - rate) / total
    count = len(groups)
    if binomial > 0 and count > 1:
        spread = sum((y - rate * n) ** 2 for y, n in groups)
        between = count / (count - 1) * spread / (total * total)
        effect = max(1.0, between / binomial)
    else:
        effect = total / count  # every case's attempts alike: one case counts once
    return wilson(passed * 1.0 / effect, total / effect, z)
