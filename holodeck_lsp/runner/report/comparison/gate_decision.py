"""The gate's decision table: which turns regressed, on nothing but each turn's passes and
attempts on both sides (BASE: one report, or every run of a history pooled; HEAD: a run,
with `--repeat` or not). `compare` decides through here, and so does the simulation that
measures the gate's false alarms and power (tests/support/gate_simulation.py).

A turn whose pass rate fell is, in this order:
1. never a regression when HEAD ran it once and BASE saw it both pass and fail: one failure
   of a turn known to be flaky is what the gate must let through;
2. when it is tested (its failures could show a fall beyond noise, below), judged by the
   one-sided Fisher exact test of the fall, its p-value adjusted over the turns tested
   (Benjamini-Hochberg, or Holm): a regression beyond noise when the adjusted p-value is
   below the turns' share of alpha, else within noise, with the smallest fall these
   attempts would have caught (`detectable_drop`);
3. when it is not, a regression if BASE never failed it and HEAD never passed it: no
   attempt of either side says the turn is flaky, the verdict of a test suite (two single
   reports, as before);
4. otherwise within noise (with the smallest fall that would have been caught), or "could
   not tell" when even HEAD failing every attempt would not be beyond noise: too few
   attempts.

Which turns count as tested follows Tarone (1990) for discrete tests: a turn whose smallest
possible p-value is not below alpha can never be beyond noise, so it is no test and does not
dilute the others (K, the number the correction divides by, counts only the rest). Fisher's
test is conditional on the margins (each side's attempts, the passes of both together), so
that smallest p-value is the one of the split putting as many of the failures in HEAD as
they fit: a turn that passed every attempt on both sides, or failed them all, or whose few
failures could never look like a fall, is left out (as LAMP, Terada et al. 2013, counts
them). A turn left out is still judged: by rules 1, 2 and 4, or within noise.

The suite's pass rate is compared too (`clustered_difference.py`): a fall beyond noise
there is a regression of the suite. Alpha is split between the two looks (Bonferroni):
half for the turns, half for the suite, so the gate's false-alarm rate stays within alpha.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from holodeck_lsp.models.comparison import Correction, Noise, Rule
from holodeck_lsp.runner.report.comparison.clustered_difference import (
    PairedDifference,
    paired_difference,
)
from holodeck_lsp.runner.report.comparison.detectable_drop import (
    suite_detectable_drop,
    turn_detectable_drop,
)
from holodeck_lsp.runner.report.comparison.fisher_exact import fell_p_value, rose_p_value
from holodeck_lsp.runner.report.comparison.multiple_testing import CORRECTIONS

TURNS_SHARE = 0.5  # of alpha, for the turns; the rest for the suite
DEFAULT_CORRECTION: Correction = "bh"  # run_defaults.CORRECTIONS[0], for the command line


@dataclass(frozen=True)
class Tally:
    """A side's attempts of one turn, and how many passed."""

    passed: int
    attempts: int


@dataclass(frozen=True)
class TurnVerdict:
    regression: bool
    p_value: float | None  # one-sided, in the direction the pass rate moved
    adjusted_p: float | None  # over the turns tested that way
    noise: Noise | None
    rule: Rule | None
    detectable_drop: float | None  # a fall not beyond noise: the smallest one caught


NO_CHANGE = TurnVerdict(False, None, None, None, None, None)


@dataclass(frozen=True)
class Family:
    """The turns tested one way (a fall, or a rise)."""

    tested: list[int]  # indexes into the pairs
    size: int  # K: alpha / K is the level a lone change must reach
    adjusted: dict[int, float]


@dataclass(frozen=True)
class SuiteVerdict:
    difference: PairedDifference
    alpha: float
    regression: bool
    detectable_drop: float | None


@dataclass(frozen=True)
class GateVerdicts:
    alpha: float
    turn_alpha: float
    correction: Correction
    tested: int  # turns whose fall could be beyond noise
    lone_level: float  # the p-value a lone regressed turn must be under: turn_alpha / K
    turns: list[TurnVerdict]
    suite: SuiteVerdict


def _fell(pair: tuple[Tally, Tally]) -> bool:
    base, head = pair
    return head.passed * base.attempts < base.passed * head.attempts


def _rose(pair: tuple[Tally, Tally]) -> bool:
    base, head = pair
    return head.passed * base.attempts > base.passed * head.attempts


def _least_fall_p(pair: tuple[Tally, Tally]) -> float:
    """The smallest p-value a fall could have with these margins (the passes of both sides
    together, each side's attempts): BASE holding as many of the passes as it can."""
    base, head = pair
    passes = base.passed + head.passed
    held = min(passes, base.attempts)
    return fell_p_value(held, base.attempts, passes - held, head.attempts)


def _least_rise_p(pair: tuple[Tally, Tally]) -> float:
    base, head = pair
    failures = base.attempts - base.passed + head.attempts - head.passed
    held = min(failures, base.attempts)  # BASE holding as many of the failures as it can
    base_passed, head_passed = base.attempts - held, head.attempts - (failures - held)
    return rose_p_value(base_passed, base.attempts, head_passed, head.attempts)


def turns_tested(least: Sequence[float], alpha: float) -> list[int]:
    """The turns whose smallest possible p-value is below alpha: the others can never be
    beyond noise, whatever the correction, and are no test at all."""
    return [i for i, p in enumerate(least) if p < alpha]


def family(
    pairs: Sequence[tuple[Tally, Tally]],
    least: Sequence[float],
    p_value: Callable[[int, int, int, int], float],
    alpha: float,
    correction: Correction,
) -> Family:
    """The turns tested, and their p-values adjusted over them."""
    kept = turns_tested(least, alpha)
    adjusted = CORRECTIONS[correction]([_p(p_value, pairs[i]) for i in kept])
    return Family(kept, max(1, len(kept)), dict(zip(kept, adjusted, strict=True)))


def _p(p_value: Callable[[int, int, int, int], float], pair: tuple[Tally, Tally]) -> float:
    base, head = pair
    return p_value(base.passed, base.attempts, head.passed, head.attempts)


def _shown(pair: tuple[Tally, Tally]) -> bool:
    """A test is made (and its p-value shown) when a side ran the turn more than once."""
    return max(pair[0].attempts, pair[1].attempts) > 1


def _too_few(p_value: float | None, adjusted: float | None) -> TurnVerdict:
    return TurnVerdict(False, p_value, adjusted, "not_enough_attempts", "too_few_attempts", None)


def _fall_verdict(
    i: int, pair: tuple[Tally, Tally], p_value: float, falls: Family, turn_alpha: float
) -> TurnVerdict:
    base, head = pair
    shown = p_value if _shown(pair) else None
    adjusted = falls.adjusted.get(i)
    if head.attempts == 1 and 0 < base.passed < base.attempts:
        return TurnVerdict(False, shown, adjusted, "within_noise", "flaky_single_attempt", None)
    if adjusted is not None and adjusted < turn_alpha:
        return TurnVerdict(True, shown, adjusted, "beyond_noise", "exact_test", None)
    if adjusted is None and base.passed == base.attempts and head.passed == 0:
        return TurnVerdict(True, shown, None, None, "failed_every_attempt", None)
    drop = turn_detectable_drop(base.passed, base.attempts, head.attempts, turn_alpha / falls.size)
    if drop is None:  # even HEAD failing every attempt would not be beyond noise
        return _too_few(shown, adjusted)
    return TurnVerdict(False, shown, adjusted, "within_noise", "exact_test", drop)


def _rise_verdict(
    i: int, pair: tuple[Tally, Tally], p_value: float, rises: Family, turn_alpha: float
) -> TurnVerdict:
    if not _shown(pair):
        return NO_CHANGE
    base, head = pair
    adjusted = rises.adjusted.get(i)
    if adjusted is not None and adjusted < turn_alpha:
        return TurnVerdict(False, p_value, adjusted, "beyond_noise", "exact_test", None)
    extreme = rose_p_value(base.passed, base.attempts, head.attempts, head.attempts)
    if extreme >= turn_alpha / rises.size:  # even HEAD passing every attempt would not do
        return _too_few(p_value, adjusted)
    return TurnVerdict(False, p_value, adjusted, "within_noise", "exact_test", None)


def judge_turns(
    pairs: Sequence[tuple[Tally, Tally]], turn_alpha: float, correction: Correction
) -> tuple[list[TurnVerdict], Family]:
    """Each turn matched on both sides, judged; and the family of falls tested."""
    least_falls = [_least_fall_p(pair) for pair in pairs]
    falls = family(pairs, least_falls, fell_p_value, turn_alpha, correction)
    rises = family(pairs, [_least_rise_p(p) for p in pairs], rose_p_value, turn_alpha, correction)
    verdicts = []
    for i, pair in enumerate(pairs):
        if _fell(pair):
            p_value = _p(fell_p_value, pair)
            verdicts.append(_fall_verdict(i, pair, p_value, falls, turn_alpha))
        elif _rose(pair):
            verdicts.append(_rise_verdict(i, pair, _p(rose_p_value, pair), rises, turn_alpha))
        else:
            verdicts.append(NO_CHANGE)
    return verdicts, falls


def _rate(tally: Tally) -> float:
    return tally.passed / tally.attempts


def judge_suite(cases: Sequence[Sequence[tuple[Tally, Tally]]], suite_alpha: float) -> SuiteVerdict:
    """The suite's pass rate, paired by turn, clustered by test case."""
    difference = paired_difference([[(_rate(b), _rate(h)) for b, h in case] for case in cases])
    regression = (
        difference.p_value is not None
        and difference.difference < 0
        and difference.p_value < suite_alpha
    )
    drop = None
    if difference.standard_error is not None:
        drop = suite_detectable_drop(difference.standard_error, difference.cases, suite_alpha)
        if drop is not None and drop > difference.base_rate:
            drop = None  # more than the whole pass rate: no fall could be caught
    return SuiteVerdict(difference, suite_alpha, regression, drop)


def judge(
    cases: Sequence[Sequence[tuple[Tally, Tally]]],
    alpha: float,
    correction: Correction = DEFAULT_CORRECTION,
) -> GateVerdicts:
    """Every turn matched on both sides (grouped by test case) and the suite, judged."""
    turn_alpha = alpha * TURNS_SHARE
    pairs = [pair for case in cases for pair in case]
    verdicts, falls = judge_turns(pairs, turn_alpha, correction)
    suite = judge_suite(cases, alpha - turn_alpha)
    return GateVerdicts(
        alpha, turn_alpha, correction, len(falls.tested), turn_alpha / falls.size, verdicts, suite
    )


def gate_fails(verdicts: GateVerdicts) -> bool:
    """Whether `--fail-on regressed` fails: a turn, or the suite, regressed."""
    return verdicts.suite.regression or any(v.regression for v in verdicts.turns)
