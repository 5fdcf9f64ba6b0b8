"""The suite's pass rate, BASE against HEAD, as Miller ("Adding Error Bars to Evals", 2024)
compares two evals: paired turn by turn, with the standard error clustered by test case.

Each turn matched on both sides gives a difference d = HEAD's pass rate - BASE's (the share
of its attempts that passed on each side); the suite's difference D is their mean. Pairing
takes out what the turns do not share (an easy turn is easy on both sides). Turns of one
test case are not independent (a case whose session went wrong fails all of its turns), so
the standard error sums the deviations within each case first:

    SE^2 = C / (C - 1) * sum over cases c of (sum over turns i of c of (d_i - D))^2 / T^2

for T turns in C cases: the cluster-robust variance of a mean with the usual small-sample
factor C / (C - 1) (Stata's and statsmodels' default; with every turn its own case it is the
familiar s^2 / T). D / SE is compared with Student's t on C - 1 degrees of freedom, one-sided:
only a fall is a regression.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import sqrt

from holodeck_lsp.runner.report.comparison.student_t import t_cdf

RatePair = tuple[float, float]  # (BASE's pass rate, HEAD's) of one turn


@dataclass(frozen=True)
class PairedDifference:
    turns: int
    cases: int
    base_rate: float  # mean over the turns
    head_rate: float
    difference: float  # head_rate - base_rate
    standard_error: float | None  # clustered by case; none with fewer than two cases
    p_value: float | None  # one-sided, of a fall; none without a standard error


def clustered_standard_error(cases: Sequence[Sequence[float]]) -> float | None:
    """The standard error of the mean of values grouped in cases (two cases at least)."""
    count = len(cases)
    values = [value for case in cases for value in case]
    if count < 2 or not values:
        return None
    mean = sum(values) / len(values)
    spread = sum(sum(value - mean for value in case) ** 2 for case in cases)
    return sqrt(count / (count - 1) * spread) / len(values)


def fall_p_value(difference: float, standard_error: float, cases: int) -> float:
    """The chance of a difference this low or lower were the suite unchanged."""
    if standard_error == 0.0:
        return 0.0 if difference < 0 else 1.0
    return t_cdf(difference / standard_error, cases - 1)


def paired_difference(cases: Sequence[Sequence[RatePair]]) -> PairedDifference:
    """The suite's pass rates compared, from each case's turns matched on both sides."""
    kept = [case for case in cases if case]
    pairs = [pair for case in kept for pair in case]
    if not pairs:
        return PairedDifference(0, 0, 0.0, 0.0, 0.0, None, None)
    base = sum(b for b, _ in pairs) / len(pairs)
    head = sum(h for _, h in pairs) / len(pairs)
    error = clustered_standard_error([[h - b for b, h in case] for case in kept])
    p_value = fall_p_value(head - base, error, len(kept)) if error is not None else None
    return PairedDifference(len(pairs), len(kept), base, head, head - base, error, p_value)
