"""The suite as the engine runs it: test cases as lists of turns, metrics resolved."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from holodeck_lsp.models.agent import Agent
from holodeck_lsp.models.evaluation import MetricConfig
from holodeck_lsp.models.test_case import ExpectedTool, FileInput, TestCaseModel


@dataclass(frozen=True)
class PlannedTurn:
    input: str
    ground_truth: str | None
    expected_tools: list[str | ExpectedTool] | None
    files: list[FileInput] | None
    retrieval_context: list[str] | None
    metrics: list[MetricConfig]
    turn_config: dict[str, Any] | None


def case_label(name: str | None, index: int) -> str:
    """How a test case is named in output: its name, else its place in the suite."""
    return name if name is not None else f"test_cases[{index}]"


@dataclass(frozen=True)
class PlannedCase:
    index: int  # position in the suite file
    name: str | None
    multi_turn: bool
    turns: list[PlannedTurn]

    @property
    def label(self) -> str:
        return case_label(self.name, self.index)


def agent_metrics(agent: Agent) -> list[MetricConfig]:
    evaluations = agent.evaluations
    return list(evaluations.metrics) if evaluations is not None else []


def plan_case(index: int, case: TestCaseModel, defaults: list[MetricConfig]) -> PlannedCase:
    """Metric precedence: turn > test case > agent."""
    case_metrics = list(case.evaluations) if case.evaluations is not None else defaults
    if case.turns is None:
        assert case.input is not None  # validated: a case without turns has an input
        turn = PlannedTurn(
            case.input,
            case.ground_truth,
            case.expected_tools,
            case.files,
            case.retrieval_context,
            case_metrics,
            None,
        )
        return PlannedCase(index, case.name, False, [turn])
    turns = [
        PlannedTurn(
            t.input,
            t.ground_truth,
            t.expected_tools,
            t.files,
            t.retrieval_context,
            list(t.evaluations) if t.evaluations is not None else case_metrics,
            t.turn_config,
        )
        for t in case.turns
    ]
    return PlannedCase(index, case.name, True, turns)


def plan_suite(agent: Agent) -> list[PlannedCase]:
    defaults = agent_metrics(agent)
    return [plan_case(i, case, defaults) for i, case in enumerate(agent.test_cases or [])]
