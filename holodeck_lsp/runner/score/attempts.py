"""`run --repeat K`: the attempts of each test case rolled up, and how reliably it passed.

pass^k (as agent benchmarks such as tau-bench report it) is the chance that k attempts
drawn from the n run all pass, C(c, k) / C(n, k) for c passed attempts; pass@k, that at
least one of them passes, 1 - C(n - c, k) / C(n, k). `--pass-rule` decides the verdict
the summary and the exit code count: `all` attempts passed (the default), `any` passed, or
at least a FRACTION of them (e.g. 0.8).
"""

from __future__ import annotations

from dataclasses import replace
from math import comb
from statistics import fmean, pstdev

# The rule itself lives with the history, which applies a run's rule to its turns too.
from holodeck_lsp.history.pass_rule import parse_pass_rule as parse_pass_rule
from holodeck_lsp.history.pass_rule import rule_passes as rule_passes
from holodeck_lsp.models.test_result import RepeatedCase, ScoreSpread, TestResult
from holodeck_lsp.runner.score.rollup import CaseOutcome


def pass_hat(passed: int, attempts: int, k: int) -> float:
    """pass^k: the chance that k of the attempts, drawn at random, all passed."""
    return round(comb(passed, k) / comb(attempts, k), 4)


def _chances(passed: int, attempts: int) -> tuple[dict[str, float], dict[str, float]]:
    hat: dict[str, float] = {}
    at: dict[str, float] = {}
    for k in range(1, attempts + 1):
        hat[str(k)] = pass_hat(passed, attempts, k)
        at[str(k)] = round(1 - comb(attempts - passed, k) / comb(attempts, k), 4)
    return hat, at


def _turn_rates(results: list[TestResult]) -> list[float]:
    if not results:
        return []
    if results[0].turns is None:
        return [round(fmean(r.passed for r in results), 4)]
    count = max(len(r.turns or []) for r in results)
    rates = []
    for index in range(count):
        passed = [t.passed for r in results for t in (r.turns or []) if t.turn_index == index]
        rates.append(round(fmean(passed), 4) if passed else 0.0)
    return rates


def _spreads(results: list[TestResult]) -> dict[str, ScoreSpread]:
    scores: dict[str, list[float]] = {}
    for result in results:
        for metric in result.metric_results:
            scores.setdefault(metric.metric_name, []).append(metric.score)
    return {
        name: ScoreSpread(
            min=min(values), max=max(values), mean=fmean(values), stdev=pstdev(values)
        )
        for name, values in scores.items()
    }


def combine(
    outcomes: list[CaseOutcome], share: float
) -> tuple[list[CaseOutcome], list[RepeatedCase]]:
    """One outcome per case (an attempt whose verdict is the rule's), and the statistics."""
    groups: dict[int, list[CaseOutcome]] = {}
    for outcome in outcomes:
        groups.setdefault(outcome.case.index, []).append(outcome)
    combined: list[CaseOutcome] = []
    repeats: list[RepeatedCase] = []
    for attempts in groups.values():
        results = [o.result for o in attempts]
        passed = sum(r.passed for r in results)
        verdict = rule_passes(passed, len(results), share)
        shown = next((o for o in attempts if o.result.passed == verdict), attempts[0])
        lost = sum(o.execution_errors for o in attempts)
        combined.append(replace(shown, execution_errors=lost))
        hat, at = _chances(passed, len(results))
        repeats.append(
            RepeatedCase(
                test_name=attempts[0].case.name,
                attempts=len(results),
                passed_attempts=passed,
                passed=verdict,
                flaky=0 < passed < len(results),
                pass_hat_k=hat,
                pass_at_k=at,
                turn_pass_rates=_turn_rates(results),
                metric_scores=_spreads(results),
                results=results,
            )
        )
    return combined, repeats
