"""`run --events`: the run as it goes, one JSON object per line (docs/run-events.md).

Every event carries `event`, `seq` (0, 1, ...) and `time`; `run_started` names the schema
version. Assertions, metrics and failures are written from what scoring found
(`score/turn_scores.py`), each with the field path it belongs at, so an editor only places
them.
"""

from __future__ import annotations

import json
from typing import Any, TextIO

from holodeck_lsp.hygiene.controls import visible_json
from holodeck_lsp.models.agent import Agent
from holodeck_lsp.models.test_result import TestReport, ToolInvocation, TurnResult
from holodeck_lsp.runner.collect.plan import PlannedCase
from holodeck_lsp.runner.execute.suite_execution import Progress
from holodeck_lsp.runner.report.comparison.run_baseline import BaselineMarks
from holodeck_lsp.runner.score.rollup import CaseOutcome, now_iso, result_turns
from holodeck_lsp.runner.score.turn_scores import (
    Check,
    Failure,
    MetricScore,
    TurnScore,
    case_failures,
    compares_reply,
)
from holodeck_lsp.runner.services.redaction import Secrets
from holodeck_lsp.validation.yaml.path_text import format_path

EVENTS_VERSION = 1
Event = dict[str, Any]


class EventStream:
    """Writes the events of one run to ``stream``, a line each, flushed as they happen."""

    def __init__(
        self,
        stream: TextIO,
        agent: Agent,
        agent_file: str,
        cases: list[PlannedCase],
        secrets: Secrets | None = None,
        repeat: int = 1,
        baseline: BaselineMarks | None = None,
    ) -> None:
        self.stream = stream
        self.agent = agent
        self.agent_file = agent_file
        self.cases = cases
        self.secrets = secrets or Secrets()
        self.repeat = repeat  # attempts per case (`--repeat`): each has its own events
        self.baseline = baseline  # `--baseline`: each turn and case told against it
        self.seq = 0
        self.problem: str | None = None  # why the stream could not be written, once

    def emit(self, name: str, /, **fields: Any) -> None:
        event = {"event": name, "seq": self.seq, "time": now_iso(), **fields}
        self.seq += 1
        line = json.dumps(event, ensure_ascii=False, default=str)
        if self.secrets.touches(line):  # values masked before they are encoded
            line = json.dumps(self.secrets.mask_data(event), ensure_ascii=False, default=str)
        try:
            self.stream.write(self.secrets.mask(visible_json(line)) + "\n")
            self.stream.flush()
        except (OSError, ValueError) as exc:  # a closed pipe must not stop the run
            self.problem = self.problem or f"cannot write the events: {exc}"

    def run_started(self) -> None:
        self.emit(
            "run_started",
            version=EVENTS_VERSION,
            agent=self.agent.name,
            agent_file=self.agent_file,
            test_cases_file=self.agent.test_cases_file,
            repeat=self.repeat,
            cases=[_planned(case) for case in self.cases],
        )

    def case_started(self, case: PlannedCase) -> None:
        self.emit("case_started", **_case_fields(case))

    def turn_finished(self, case: PlannedCase, result: TurnResult, score: TurnScore) -> None:
        """A finished turn, with what scoring found on it."""
        where = {"case": case.index, "turn": result.turn_index}
        if not result.skipped:
            for check in score.checks:
                for part in (check, *check.args):
                    self.emit("assertion", **where, **_assertion(part))
            for metric in score.metrics:
                self.emit("metric", **where, **_metric(metric, score))
        mark = self.baseline.turn(case, result) if self.baseline else None
        self.emit(
            "turn_finished",
            **where,
            path=format_path(score.path),
            passed=result.passed,
            skipped=result.skipped,
            duration_ms=result.execution_time_ms,
            response=result.response,
            tool_calls=[_call(c) for c in result.tool_invocations],
            errors=result.errors,
            **({"baseline": mark} if mark is not None else {}),
            failures=[_failure(f) for f in _turn_failures(score, mark)],
        )

    def case_finished(self, outcome: CaseOutcome) -> None:
        result, case = outcome.result, outcome.case
        turns = result_turns(result)
        shown = [
            failure
            for turn, score in zip(turns, outcome.scores, strict=False)
            for failure in _turn_failures(
                score, self.baseline.turn(case, turn) if self.baseline else None
            )
        ]
        failures = case_failures(case.path, shown, result.passed, result.errors)
        self.emit(
            "case_finished",
            **_case_fields(case),
            passed=result.passed,
            duration_ms=result.execution_time_ms,
            errors=result.errors,
            **({"baseline": self.baseline.case(case, result)} if self.baseline else {}),
            failures=[_failure(f) for f in failures],
        )

    def run_ended(self, report: TestReport, exit_code: int) -> None:
        summary = report.summary.model_dump(mode="json")
        if report.interrupted:
            self.emit(
                "run_interrupted",
                reason=report.stop_reason,
                not_run=report.not_run,
                summary=summary,
                exit_code=exit_code,
            )
        else:
            self.emit("run_finished", summary=summary, exit_code=exit_code)


def _case_fields(case: PlannedCase) -> Event:
    return {"case": case.index, "label": case.label, "path": format_path(case.path)}


def _planned(case: PlannedCase) -> Event:
    turns = [{"turn": i, "path": format_path(case.turn_path(i))} for i in range(len(case.turns))]
    return {**_case_fields(case), "name": case.name, "multi_turn": case.multi_turn, "turns": turns}


def _call(call: ToolInvocation) -> Event:
    return {"name": call.name, "args": call.args, "error": call.error}


def _assertion(check: Check) -> Event:
    return {
        "path": format_path(check.path),
        "kind": check.kind,
        "passed": check.passed,
        "message": check.message,
        "expected": check.expected,
        "actual": check.actual,
    }


def _metric(metric: MetricScore, score: TurnScore) -> Event:
    result = metric.result
    compares = compares_reply(result)
    return {
        "path": format_path(metric.path) if metric.path is not None else None,
        "name": result.metric_name,
        "kind": result.kind,
        "score": result.score,
        "threshold": result.threshold,
        "passed": result.passed,
        "error": result.error,
        "reasoning": result.reasoning,
        "ground_truth_path": format_path((*score.path, "ground_truth")) if compares else None,
        "expected": score.ground_truth if compares else None,
        "actual": score.response if compares else None,
    }


def _turn_failures(score: TurnScore, mark: dict[str, object] | None) -> list[Failure]:
    """What failed in the turn; against a baseline it passed, first that it regressed."""
    failures = score.failures()
    if mark is not None and mark["change"] == "regressed":
        regressed = f"Regressed: it passed in the baseline ({mark['text']})"
        failures.insert(0, Failure((*score.path, "input"), regressed))
    return failures


def _failure(failure: Failure) -> Event:
    return {
        "path": format_path(failure.path),
        "message": failure.message,
        "expected": failure.expected,
        "actual": failure.actual,
    }


class WithEvents:
    """The run's progress display, and its events beside it."""

    def __init__(self, progress: Progress, events: EventStream) -> None:
        self.progress = progress
        self.events = events

    def start(self, total: int) -> None:
        self.events.run_started()
        self.progress.start(total)

    def case_started(self, case: PlannedCase) -> None:
        self.events.case_started(case)
        self.progress.case_started(case)

    def case_done(self, outcome: CaseOutcome) -> None:
        self.events.case_finished(outcome)
        self.progress.case_done(outcome)

    def stop(self) -> None:
        self.progress.stop()
