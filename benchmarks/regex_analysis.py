"""HL406's analysis time: the worst over a fuzz corpus and over the adversarial families.

    python -m benchmarks.regex_analysis [--patterns N] [--seed S] [--times K]

The fuzz corpus is N patterns of the grammar the fuzz test draws from
(`tests/security/regex_grammar.py`: nested quantifiers, bounded repeats nested in bounded
repeats, zero-width items, lookarounds, alternations), seeded; the adversarial families
are its `ADVERSARIAL` list (nested `{8}` around an empty group, `^`, `\\b` or a lookaround
to depth 12, dense overlaps, big classes, patterns at the 10,000-character limit). Each
pattern is analysed K times (the first fills no cache: `analyse` keeps none); printed per
family and for the corpus: the median wall and CPU time of the slowest pattern, its steps
and the verdict. Target: every analysis well under 100 ms, at most `MAX_WORK` steps.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from holodeck_lsp.validation.lints.backtracking import MAX_WORK, Analysis, analyse
from tests.security.regex_grammar import ADVERSARIAL, hostile_pattern

TARGET_MS = 100.0


def _timed(pattern: str, times: int) -> tuple[float, float, Analysis]:
    """Median wall and CPU milliseconds of ``times`` analyses of ``pattern``."""
    walls, cpus = [], []
    analysis = None
    for _ in range(times):
        wall, cpu = time.perf_counter(), time.process_time()
        analysis = analyse(pattern)
        cpus.append((time.process_time() - cpu) * 1000)
        walls.append((time.perf_counter() - wall) * 1000)
    assert analysis is not None
    return statistics.median(walls), statistics.median(cpus), analysis


def _verdict(analysis: Analysis) -> str:
    if not analysis.complete:
        return "past a limit: no warning"
    return "exponential" if analysis.exponential else "no warning"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--patterns", type=int, default=2_000)
    parser.add_argument("--seed", type=int, default=29)
    parser.add_argument("--times", type=int, default=5)
    options = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f}; budget {MAX_WORK:,} steps; "
          f"median of {options.times} analyses each\n")
    print(f"{'wall ms':>8} {'CPU ms':>8} {'steps':>8}  verdict                   pattern")
    worst_wall = worst_cpu = 0.0
    for name, pattern in ADVERSARIAL.items():
        wall, cpu, analysis = _timed(pattern, options.times)
        worst_wall, worst_cpu = max(worst_wall, wall), max(worst_cpu, cpu)
        print(f"{wall:8.1f} {cpu:8.1f} {analysis.work:8,}  {_verdict(analysis):25} {name}")
    rng = random.Random(options.seed)
    corpus = [hostile_pattern(rng) for _ in range(options.patterns)]
    # Once each to find the slowest, then the slowest ten timed again, K times each.
    first = sorted(((_timed(p, 1)[0], p) for p in corpus), reverse=True)[:10]
    slowest = max((_timed(p, options.times) + (p,) for _, p in first), key=lambda r: r[0])
    wall, cpu, analysis, pattern = slowest
    worst_wall, worst_cpu = max(worst_wall, wall), max(worst_cpu, cpu)
    flagged = sum(analyse(p).exponential for p in corpus)
    print(f"{wall:8.1f} {cpu:8.1f} {analysis.work:8,}  {_verdict(analysis):25} slowest of "
          f"{len(corpus):,} generated patterns ({len(pattern):,} characters; "
          f"{flagged} of them exponential)")
    print(f"\nworst: {worst_wall:.1f} ms wall, {worst_cpu:.1f} ms CPU (target well under "
          f"{TARGET_MS:.0f} ms)")


if __name__ == "__main__":
    main()
