"""`run --events`: the run as it goes, one JSON object per line (docs/run-events.md).

Every event carries `event`, `seq` (0, 1, ...) and `time`; `run_started` names the schema
version. Assertions and metrics are reported with the field path they were written at, so
an editor can place a failure at its line.
"""

from __future__ import annotations

import json
from typing import Any, TextIO

from holodeck_lsp.hygiene.controls import visible_json
from holodeck_lsp.models.agent import Agent
from holodeck_lsp.models.evaluation import GROUND_TRUTH_METRICS, EvaluationMetric, MetricConfig
from holodeck_lsp.models.test_case import ExpectedTool
from holodeck_lsp.models.test_result import TestReport, ToolInvocation, TurnResult
from holodeck_lsp.runner.collect.field_paths import case_path, metric_paths, text, turn_path
from holodeck_lsp.runner.collect.plan import PlannedCase, PlannedTurn
from holodeck_lsp.runner.execute.suite_execution import Progress
from holodeck_lsp.runner.report.comparison.run_baseline import BaselineMarks
from holodeck_lsp.runner.score.arg_matchers import arg_mismatch, mismatch
from holodeck_lsp.runner.score.metrics.turn_metrics import metric_name
from holodeck_lsp.runner.score.regex_limit import Verdicts
from holodeck_lsp.runner.score.rollup import CaseOutcome, now_iso
from holodeck_lsp.runner.score.tool_assertions import name_only
from holodeck_lsp.runner.services.redaction import Secrets
from holodeck_lsp.validation.yaml.source_map import YamlPath

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

    def turn_finished(self, case: PlannedCase, result: TurnResult, regexes: Verdicts) -> None:
        """A finished turn, with the verdicts on its `turn_regex_pairs`."""
        index = result.turn_index
        planned = case.turns[index]
        where = {"case": case.index, "turn": index}
        if not result.skipped:
            for assertion in tool_assertions(case, planned, result, regexes):
                self.emit("assertion", **where, **assertion)
            paths = metric_paths(self.agent, case, index)
            for metric in metric_events(case, planned, paths, result):
                self.emit("metric", **where, **metric)
        self.emit(
            "turn_finished",
            **where,
            path=text(turn_path(case, index)),
            passed=result.passed,
            skipped=result.skipped,
            duration_ms=result.execution_time_ms,
            response=result.response,
            tool_calls=[_call(c) for c in result.tool_invocations],
            errors=result.errors,
            **({"baseline": self.baseline.turn(case, result)} if self.baseline else {}),
        )

    def case_finished(self, outcome: CaseOutcome) -> None:
        result = outcome.result
        self.emit(
            "case_finished",
            **_case_fields(outcome.case),
            passed=result.passed,
            duration_ms=result.execution_time_ms,
            errors=result.errors,
            **({"baseline": self.baseline.case(outcome.case, result)} if self.baseline else {}),
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
    return {"case": case.index, "label": case.label, "path": text(case_path(case))}


def _planned(case: PlannedCase) -> Event:
    turns = [{"turn": i, "path": text(turn_path(case, i))} for i in range(len(case.turns))]
    return {**_case_fields(case), "name": case.name, "multi_turn": case.multi_turn, "turns": turns}


def _call(call: ToolInvocation) -> Event:
    return {"name": call.name, "args": call.args, "error": call.error}


def tool_assertions(
    case: PlannedCase, turn: PlannedTurn, result: TurnResult, regexes: Verdicts
) -> list[Event]:
    """Each tool assertion's outcome: an entry's name (or count), then each of its args."""
    if turn.expected_tools is None or result.tools_matched is None:
        return []
    calls = result.tool_invocations
    details = iter(result.arg_match_details or [])
    out: list[Event] = []
    for k, entry in enumerate(turn.expected_tools):
        path: YamlPath = (*turn_path(case, result.turn_index), "expected_tools", k)
        bare = name_only(entry)
        if bare is not None:
            called = any(bare in c.name for c in calls)
            message = None if called else f"no call to '{bare}' found"
            out.append(_assertion(path, "tool", called, message, bare, [c.name for c in calls]))
            continue
        assert isinstance(entry, ExpectedTool)
        detail = next(details, None)
        if detail is not None:  # a single-turn case read back from a report has none
            out.extend(_entry(path, entry, calls, detail, regexes))
    return out


def _entry(
    path: YamlPath,
    entry: ExpectedTool,
    calls: list[ToolInvocation],
    detail: dict[str, Any],
    regexes: Verdicts,
) -> list[Event]:
    """An entry with `args` or `count`: its verdict (at `.count` when only the number of
    matching calls fell short), then each argument against the call it was judged on."""
    args = {str(k): v for k, v in (entry.args or {}).items()}
    named = [c for c in calls if entry.name in c.name]
    matched = detail["matched_call_index"]
    passed = matched != -1
    at: YamlPath = (*path, "args")
    short = not passed and any(mismatch(args, c.args, regexes, at) is None for c in named)
    where = (*path, "count") if short else path
    names = [c.name for c in calls]
    out = [_assertion(where, "tool", passed, detail["unmatched_reason"], entry.name, names)]
    judged = calls[matched] if passed else (named[-1] if named else None)
    if judged is None:
        return out
    for name, spec in args.items():
        arg_path: YamlPath = (*at, name)
        if name not in judged.args:
            out.append(_assertion(arg_path, "arg", False, f"arg '{name}' missing", spec, None))
            continue
        actual = judged.args[name]
        problem = arg_mismatch(spec, actual, regexes, arg_path)
        out.append(_assertion(arg_path, "arg", problem is None, problem, spec, actual))
    return out


def _assertion(
    path: YamlPath, kind: str, passed: bool, message: str | None, expected: Any, actual: Any
) -> Event:
    return {
        "path": text(path),
        "kind": kind,
        "passed": passed,
        "message": message,
        "expected": expected,
        "actual": actual,
    }


def metric_events(
    case: PlannedCase, turn: PlannedTurn, paths: list[YamlPath], result: TurnResult
) -> list[Event]:
    """Each metric result with the path of the metric that produced it (results come in
    the plan's order, the metrics that did not apply left out)."""
    out: list[Event] = []
    position = 0
    for metric_result in result.metric_results:
        while position < len(turn.metrics) and (
            metric_name(turn.metrics[position]) != metric_result.metric_name
        ):
            position += 1
        metric = turn.metrics[position] if position < len(turn.metrics) else None
        path = text(paths[position]) if metric is not None and position < len(paths) else None
        position += 1
        compares = metric is not None and _compares(metric)
        out.append(
            {
                "path": path,
                "name": metric_result.metric_name,
                "kind": metric_result.kind,
                "score": metric_result.score,
                "threshold": metric_result.threshold,
                "passed": metric_result.passed,
                "error": metric_result.error,
                "reasoning": metric_result.reasoning,
                "ground_truth_path": (
                    text((*turn_path(case, result.turn_index), "ground_truth"))
                    if compares
                    else None
                ),
                "expected": result.ground_truth if compares else None,
                "actual": result.response if compares else None,
            }
        )
    return out


def _compares(metric: MetricConfig) -> bool:
    """Whether the metric compares the reply with the turn's `ground_truth`."""
    return isinstance(metric, EvaluationMetric) and metric.metric in GROUND_TRUTH_METRICS


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
