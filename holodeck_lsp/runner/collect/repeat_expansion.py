"""`run --repeat K`: each planned test case K times in a row, the attempts independent
runs in fresh sessions (`score/attempts.py` rolls them up)."""

from __future__ import annotations

from holodeck_lsp.runner.collect.plan import PlannedCase


def expand(cases: list[PlannedCase], times: int) -> list[PlannedCase]:
    """Each case ``times`` times in a row: the attempts are independent runs of the case."""
    return [case for case in cases for _ in range(times)]
