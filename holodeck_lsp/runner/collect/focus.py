"""`run --case N [--up-to-turn T]`: one test case by its position in the suite file, and
its turns up to T (what an editor's "Run case" and "Run turn" ask for)."""

from __future__ import annotations

from dataclasses import replace

from holodeck_lsp.runner.collect.plan import PlannedCase


def focus(cases: list[PlannedCase], case: int | None, up_to_turn: int | None) -> list[PlannedCase]:
    """The case at position ``case`` (all cases without it), cut after turn ``up_to_turn``;
    ValueError when there is no such case or turn."""
    if case is None:
        if up_to_turn is not None:
            raise ValueError("--up-to-turn needs --case")
        return cases
    chosen = [c for c in cases if c.index == case]
    if not chosen:
        raise ValueError(f"there is no test case {case} (test_cases[{case}]) to run")
    if up_to_turn is None:
        return chosen
    (one,) = chosen
    if not 0 <= up_to_turn < len(one.turns):
        raise ValueError(f"test case {one.label} has no turn {up_to_turn}")
    return [replace(one, turns=one.turns[: up_to_turn + 1])]
