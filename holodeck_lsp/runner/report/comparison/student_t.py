"""Student's t distribution for whole degrees of freedom: its distribution function and its
quantiles, for the suite-level comparison of pass rates (a mean over C test cases has C - 1
degrees of freedom; with few cases the normal curve would claim too much).

The distribution function is the finite series of Abramowitz and Stegun 26.7.3-4: with
theta = atan(t / sqrt(df)), P(|T| <= t) is a sum of (df - 1) / 2 powers of cos(theta)
(exact, no integration); the quantile is found by bisection on it.
"""

from __future__ import annotations

from math import atan, cos, pi, sin, sqrt


def _central(t: float, df: int) -> float:
    """P(|T| <= t) for t >= 0."""
    theta = atan(t / sqrt(df))
    c, s = cos(theta), sin(theta)
    if df % 2 == 0:
        term, total = 1.0, 1.0
        for k in range(1, df // 2):
            term *= c * c * (2 * k - 1) / (2 * k)
            total += term
        return s * total
    term, total = c, 0.0
    for k in range(1, (df - 1) // 2 + 1):
        total += term
        term *= c * c * (2 * k) / (2 * k + 1)
    return 2 / pi * (theta + s * total)


def t_cdf(t: float, df: int) -> float:
    """P(T <= t) for Student's t with ``df`` >= 1 degrees of freedom."""
    if df < 1:
        raise ValueError(f"degrees of freedom must be at least 1, got {df}")
    half = _central(abs(t), df) / 2
    return 0.5 + half if t >= 0 else 0.5 - half


def t_quantile(p: float, df: int) -> float:
    """The t with P(T <= t) = p (0 < p < 1), to 1e-10."""
    if not 0.0 < p < 1.0:
        raise ValueError(f"p must be between 0 and 1, got {p}")
    low, high = -1.0, 1.0
    while t_cdf(low, df) > p:
        low *= 2
    while t_cdf(high, df) < p:
        high *= 2
    while high - low > 1e-10:
        middle = (low + high) / 2
        if t_cdf(middle, df) < p:
            low = middle
        else:
            high = middle
    return (low + high) / 2
