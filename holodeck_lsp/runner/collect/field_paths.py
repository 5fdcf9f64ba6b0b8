"""Field paths, in the agent's terms, of what a run checks: cases, turns, tool assertions,
their arguments, metrics (`test_cases[0].turns[1].expected_tools[0].args.b`)."""

from __future__ import annotations

from holodeck_lsp.models.agent import Agent
from holodeck_lsp.runner.collect.plan import PlannedCase
from holodeck_lsp.validation.yaml.path_text import format_path
from holodeck_lsp.validation.yaml.source_map import YamlPath


def case_path(case: PlannedCase) -> YamlPath:
    return ("test_cases", case.index)


def turn_path(case: PlannedCase, turn: int) -> YamlPath:
    """A turn of a multi-turn case; a single-turn case is its own (only) turn."""
    if not case.multi_turn:
        return case_path(case)
    return (*case_path(case), "turns", turn)


def text(path: YamlPath) -> str:
    return format_path(path)


def metric_paths(agent: Agent, case: PlannedCase, turn: int) -> list[YamlPath]:
    """The path of each metric the planned turn runs, in the plan's order (turn > test
    case > agent, as the plan chose them)."""
    model = (agent.test_cases or [])[case.index]
    if case.multi_turn and model.turns is not None:
        own = model.turns[turn].evaluations
        if own is not None:
            return [(*turn_path(case, turn), "evaluations", i) for i in range(len(own))]
    if model.evaluations is not None:
        return [(*case_path(case), "evaluations", i) for i in range(len(model.evaluations))]
    count = len(agent.evaluations.metrics) if agent.evaluations is not None else 0
    return [("evaluations", "metrics", i) for i in range(count)]
