"""The gate simulated: an agent whose turns pass with set probabilities, a history of main's
runs, pull requests run with `--repeat K`; how often the gate fails. BASE is built as the
history BASE is (`history_side.history_outcomes` on kept-run records), HEAD as a run's turns,
and both go through `compare`'s own comparison and `--fail-on` (`turn_changes.compare_sides`,
`change_groups.fails`): only the outcomes are drawn at random, with a seeded generator.

`python -m tests.support.gate_simulation` prints the acceptance scenario's rates;
`benchmarks/gate_power.py` prints the table docs/compare.md recommends `--repeat` from.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from holodeck_lsp.history.run_records import FAILED, PASSED, CaseRecord, HistoryRun
from holodeck_lsp.models.comparison import Comparison, Correction, RunSummary, TurnOutcome
from holodeck_lsp.runner.report.comparison.change_groups import fails
from holodeck_lsp.runner.report.comparison.history_side import history_outcomes
from holodeck_lsp.runner.report.comparison.side_outcomes import CaseOutcomes, SideOutcomes
from holodeck_lsp.runner.report.comparison.turn_changes import compare_sides

Rates = Sequence[Sequence[float]]  # per test case, per turn: the chance a turn passes


@dataclass(frozen=True)
class Scenario:
    main: Rates  # the turns' pass rates on main (the history's runs)
    pull_request: Rates  # on the pull request
    history_runs: int  # main's runs BASE pools (1: the latest report alone)
    repeat: int  # the pull request's `--repeat`
    history_repeat: int = 1


def acceptance_rates() -> list[list[float]]:
    """Forty turns, ten test cases of four: 20 turns that always pass, 10 at 0.9, 10 at 0.7."""
    return [[1.0, 0.9, 0.7, 1.0] for _ in range(10)]


def with_drops(rates: Rates, turns: int, to: float) -> list[list[float]]:
    """``rates`` with the first turn of the first ``turns`` test cases passing at ``to``."""
    changed = [list(case) for case in rates]
    for case in changed[:turns]:
        case[0] = to
    return changed


def _letters(rates: Sequence[float], rng: random.Random) -> str:
    return "".join(PASSED if rng.random() < rate else FAILED for rate in rates)


def _run(index: int, rates: Rates, repeat: int, rng: random.Random) -> HistoryRun:
    records = []
    for c, case in enumerate(rates):
        attempts = tuple(_letters(case, rng) for _ in range(repeat))
        verdicts = "".join(PASSED if FAILED not in a else FAILED for a in attempts)
        key = ("name", f"case {c}", 0)
        records.append(CaseRecord(key, f"case {c}", c, attempts, verdicts, FAILED not in verdicts))
    return HistoryRun(
        path=Path(f"results/simulated/run-{index:04d}.json"),
        run_id=f"{index:064x}",
        timestamp=f"2026-01-01T00:00:00.{index:06d}+00:00",
        agent_name="simulated",
        made_by="simulation",
        prompt_version="v1",
        prompt_hash="0" * 64,
        model=None,
        git_commit=None,
        pass_rule="all",
        pass_share=1.0,
        duration_ms=0,
        tokens=None,
        interrupted=False,
        cases=tuple(records),
    )


def history(scenario: Scenario, rng: random.Random) -> SideOutcomes:
    runs = [
        _run(i, scenario.main, scenario.history_repeat, rng) for i in range(scenario.history_runs)
    ]
    return history_outcomes(Path("results/simulated"), runs)


def _turn(passed: int, attempts: int) -> TurnOutcome:
    return TurnOutcome.model_construct(
        passed=passed == attempts,
        attempts=attempts,
        passed_attempts=passed,
        duration_ms=0.0,
        total_tokens=None,
        metric_scores={},
        problem=None if passed == attempts else "failed",
    )


def pull_request(scenario: Scenario, rng: random.Random) -> SideOutcomes:
    """The pull request's run: each turn's passes over `--repeat` attempts."""
    cases = []
    for c, rates in enumerate(scenario.pull_request):
        passes = [sum(rng.random() < rate for _ in range(scenario.repeat)) for rate in rates]
        turns = {t: _turn(p, scenario.repeat) for t, p in enumerate(passes)}
        whole = min(passes)  # attempts are drawn per turn: the case's verdict, roughly
        key = ("name", f"case {c}", 0)
        verdict = whole == scenario.repeat
        cases.append(CaseOutcomes(key, f"case {c}", c, c, verdict, scenario.repeat, whole, turns))
    passed = sum(case.passed for case in cases)
    summary = RunSummary(
        reports=["report.json"],
        agent_name="simulated",
        runner="simulation",
        timestamp="2026-02-01T00:00:00+00:00",
        total_tests=len(cases),
        passed=passed,
        failed=len(cases) - passed,
        duration_ms=0,
        repeat=scenario.repeat,
        pass_rule="all",
    )
    return SideOutcomes(summary, cases, average_scores=None)


def simulate(scenario: Scenario, rng: random.Random, correction: Correction = "bh") -> Comparison:
    """One pull request: main's history and the pull request's run drawn, then compared."""
    return compare_sides(history(scenario, rng), pull_request(scenario, rng), 0.05, correction)


def failure_rate(
    scenario: Scenario, pull_requests: int, seed: int, correction: Correction = "bh"
) -> float:
    """The share of ``pull_requests`` simulated pull requests the gate fails
    (`--fail-on regressed`), from a generator seeded with ``seed``."""
    rng = random.Random(seed)
    failed = sum(
        fails(simulate(scenario, rng, correction), "regressed") for _ in range(pull_requests)
    )
    return failed / pull_requests


ACCEPTANCE = {
    "unchanged": Scenario(acceptance_rates(), acceptance_rates(), 20, 5),
    "three turns 1.0 -> 0.2": Scenario(
        acceptance_rates(), with_drops(acceptance_rates(), 3, 0.2), 20, 5
    ),
    "today's gate, unchanged": Scenario(acceptance_rates(), acceptance_rates(), 1, 1),
    "today's gate, three turns 1.0 -> 0.2": Scenario(
        acceptance_rates(), with_drops(acceptance_rates(), 3, 0.2), 1, 1
    ),
}

if __name__ == "__main__":
    for name, scenario in ACCEPTANCE.items():
        print(f"{name}: {failure_rate(scenario, 1000, seed=31):.1%} of 1,000 pull requests fail")
