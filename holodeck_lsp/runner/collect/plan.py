"""The suite as the engine runs it: test cases as lists of turns, metrics resolved (with the
field path each was written at: turn > test case > agent)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

# How a case is named in output: the history names cases so too.
from holodeck_lsp.history.case_keys import case_label as case_label
from holodeck_lsp.models.agent import Agent
from holodeck_lsp.models.evaluation import MetricConfig
from holodeck_lsp.models.test_case import ExpectedTool, FileInput, TestCaseModel
from holodeck_lsp.validation.yaml.source_map import YamlPath


@dataclass(frozen=True)
class PlannedTurn:
    input: str
    ground_truth: str | None
    expected_tools: list[str | ExpectedTool] | None
    files: list[FileInput] | None
    retrieval_context: list[str] | None
    metrics: list[MetricConfig]
    turn_config: dict[str, Any] | None
    metrics_at: YamlPath = ()  # where the list ``metrics`` is written

    def metric_path(self, position: int) -> YamlPath:
        """Where the metric at ``position`` of ``metrics`` is written."""
        return (*self.metrics_at, position)


@dataclass(frozen=True)
class PlannedCase:
    index: int  # position in the suite file
    name: str | None
    multi_turn: bool
    turns: list[PlannedTurn]

    @property
    def label(self) -> str:
        return case_label(self.name, self.index)

    @property
    def path(self) -> YamlPath:
        return case_at(self.index)

    def turn_path(self, turn: int) -> YamlPath:
        """A turn of a multi-turn case; a single-turn case is its own (only) turn."""
        return turn_at(self.index, turn) if self.multi_turn else self.path


def case_at(index: int) -> YamlPath:
    """The field path of the test case at ``index`` in the suite file."""
    return ("test_cases", index)


def turn_at(index: int, turn: int) -> YamlPath:
    """The field path of a turn of the multi-turn test case at ``index`` (a case's path,
    as `case_at` has it, then the turn's)."""
    return ("test_cases", index, "turns", turn)


AGENT_METRICS: YamlPath = ("evaluations", "metrics")


def agent_metrics(agent: Agent) -> list[MetricConfig]:
    evaluations = agent.evaluations
    return list(evaluations.metrics) if evaluations is not None else []


def plan_case(index: int, case: TestCaseModel, defaults: list[MetricConfig]) -> PlannedCase:
    """Metric precedence: turn > test case > agent."""
    case_metrics = list(case.evaluations) if case.evaluations is not None else defaults
    where = case_at(index)
    case_metrics_at = (*where, "evaluations") if case.evaluations is not None else AGENT_METRICS
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
            case_metrics_at,
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
            (*turn_at(index, j), "evaluations") if t.evaluations is not None else case_metrics_at,
        )
        for j, t in enumerate(case.turns)
    ]
    return PlannedCase(index, case.name, True, turns)


def plan_suite(agent: Agent) -> list[PlannedCase]:
    defaults = agent_metrics(agent)
    return [plan_case(i, case, defaults) for i, case in enumerate(agent.test_cases or [])]
