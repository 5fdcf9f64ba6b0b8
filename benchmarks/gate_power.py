"""How often the gate cries wolf, and what it catches, by suite size and `--repeat`: the
table docs/compare.md recommends `--repeat` from.

    python -m benchmarks.gate_power [--pull-requests N] [--seed S]

Simulates (tests/support/gate_simulation.py: `compare`'s own comparison and `--fail-on
regressed`, outcomes drawn with a seeded generator) an agent whose test cases have four
turns passing with chances 1.0, 0.9, 0.7 and 1.0, for suites of 10, 100 and 1,000 test
cases (40, 400 and 4,000 turns), a history of main's last 20 or 50 runs as BASE, and pull
requests run with `--repeat` 1, 3, 5 and 10; and today's gate (the latest report as BASE,
one attempt). For each it prints:

- false alarms: the share of pull requests that changed nothing and fail the gate;
- caught: the share failed when three turns fall from always passing to 1 in 5;
- turn MDE: the smallest fall of a turn that always passed that the gate catches with 80%
  power (the median over the pull requests; the level a lone turn needs depends on how many
  turns could show a fall);
- suite MDE: the smallest fall of the suite's turn pass rate caught with 80% power (median).
"""

from __future__ import annotations

import argparse
import random
import statistics

from holodeck_lsp.runner.report.comparison.change_groups import fails
from holodeck_lsp.runner.report.comparison.detectable_drop import turn_detectable_drop
from tests.support.gate_simulation import Scenario, simulate, with_drops

MIX = [1.0, 0.9, 0.7, 1.0]
HISTORY = 20


def _row(cases: int, runs: int, repeat: int, pull_requests: int, seed: int) -> str:
    rates = [list(MIX) for _ in range(cases)]
    same = Scenario(rates, rates, runs, repeat)
    dropped = Scenario(rates, with_drops(rates, 3, 0.2), runs, repeat)
    rng = random.Random(seed)
    alarms, caught, turn_mde, suite_mde = 0, 0, [], []
    for _ in range(pull_requests):
        comparison = simulate(same, rng)
        alarms += fails(comparison, "regressed")
        caught += fails(simulate(dropped, rng), "regressed")
        drop = turn_detectable_drop(runs, runs, repeat, comparison.gate.lone_level)
        turn_mde.append(drop if drop is not None else 1.0)
        suite_mde.append(comparison.suite.detectable_drop or 1.0)
    base = f"{runs} runs" if runs > 1 else "latest report"
    turn = statistics.median(turn_mde)
    return (
        f"| {cases * len(MIX):,} | {base} | {repeat} | {alarms / pull_requests:.1%} "
        f"| {caught / pull_requests:.1%} "
        f"| {'none' if turn >= 1.0 else f'{turn * 100:.0f} points'} "
        f"| {statistics.median(suite_mde) * 100:.1f} points |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pull-requests", type=int, default=200, help="for 40 turns")
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--cases", type=int, nargs="*", default=[10, 100, 1000])
    args = parser.parse_args()
    print("| turns | BASE | --repeat | false alarms | caught | turn MDE | suite MDE |")
    print("|---|---|---|---|---|---|---|")
    for cases in args.cases:
        # fewer pull requests of the larger suites: each costs as many turns more
        count = max(30, args.pull_requests * 10 // cases)
        print(_row(cases, 1, 1, count, args.seed), flush=True)
        for runs, repeat in ((20, 1), (20, 3), (20, 5), (20, 10), (50, 5), (50, 10)):
            print(_row(cases, runs, repeat, count, args.seed), flush=True)


if __name__ == "__main__":
    main()
