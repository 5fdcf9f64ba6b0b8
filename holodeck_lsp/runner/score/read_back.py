"""A report read from disk (by `merge`, `run --from-report`), its turns read back as
scoring's record (`TurnScore`); a run renders the records it built instead, and
tests/runner/test_read_back.py keeps the two renderings byte-identical. Read
from what HoloDeck's report keeps: the verdict of each expected tool with arguments
(`arg_match_details`), the calls made, the metric results and the error lines in their
order (the turn's failure, then its assertions', then its metrics'). No line is read
for what it says: which lines are the assertions' follows from how many of them failed.

What the report does not keep is judged again from the recorded calls: a bare name's
verdict (a call's name contains it), and, when the suite is given (`run --from-report`),
every assertion against the suite as it is now, by the scorer itself. A single-turn case
keeps only its verdict on all its assertions: read back without the suite, an entry with
arguments has no verdict of its own, and a line of a metric that could not be computed
with `fail_on_error` counts as one of the entries' lines.
"""

from __future__ import annotations

from holodeck_lsp.models.test_result import TestReport, TestResult, TurnResult
from holodeck_lsp.runner.collect.plan import PlannedTurn, case_at, turn_at
from holodeck_lsp.runner.score.metrics.turn_metrics import metric_name
from holodeck_lsp.runner.score.regex_limit import Verdicts
from holodeck_lsp.runner.score.rollup import as_turn
from holodeck_lsp.runner.score.tool_assertions import bare_name, check_tools, is_called
from holodeck_lsp.runner.score.turn_scores import (
    Check,
    MetricScore,
    Records,
    ToolVerdict,
    TurnScore,
)
from holodeck_lsp.validation.yaml.source_map import YamlPath


def _checks(turn: TurnResult, at: YamlPath) -> tuple[Check, ...]:
    names = turn.tool_calls
    details = iter(turn.arg_match_details or [])
    out = []
    for k, entry in enumerate(turn.expected_tools or []):
        path: YamlPath = (*at, "expected_tools", k)
        bare = bare_name(entry)
        if bare is not None:
            called = is_called(bare, names)
            message = None if called else f"no call to '{bare}' found"
            out.append(Check(path, "tool", called, message, bare, names))
            continue
        name = entry.get("name") if isinstance(entry, dict) else entry
        record = next(details, None)
        if record is None:  # a single-turn case: the report keeps the case's verdict only
            out.append(Check(path, "tool", None, None, name, names))
            continue
        matched = record.get("matched_call_index", -1)
        passed = matched != -1
        reason = record.get("unmatched_reason")
        out.append(Check(path, "tool", passed, reason, name, names, matched if passed else None))
    return tuple(out)


def _assertion_lines(turn: TurnResult, checks: tuple[Check, ...], legacy: bool) -> int | None:
    """How many error lines the assertions added: one per failed entry with arguments or a
    count, and one naming the bare names not called (a multi-turn turn's only). None when
    the report cannot say (a single-turn case keeps no record per entry)."""
    if turn.tools_matched is not False:
        return 0
    if any(c.passed is None for c in checks):
        return None
    entries = zip(checks, turn.expected_tools or [], strict=True)
    failed = [bare_name(entry) for check, entry in entries if not check.passed]
    missing = not legacy and any(name is not None for name in failed)
    return sum(name is None for name in failed) + int(missing)


def _has_failure(turn: TurnResult, lines: int | None, legacy: bool) -> bool:
    """Whether the first error line says why there was no reply to judge: a turn without a
    reply has one; a multi-turn turn that replied has one when its lines are more than its
    assertions and its metrics can account for (an agent error leaves an empty reply)."""
    if turn.response is None:
        return bool(turn.errors)
    if legacy or lines is None:
        return False  # a single-turn case that failed to run has no reply
    metric_errors = sum(1 for m in turn.metric_results if m.error)
    return len(turn.errors) > lines + metric_errors


def read_turn(
    turn: TurnResult,
    at: YamlPath,
    legacy: bool,
    planned: PlannedTurn | None = None,
    regexes: Verdicts | None = None,
) -> TurnScore:
    """The record of a report's turn written at ``at`` (``legacy``: a single-turn case);
    with ``planned``, its assertions are scored against the planned turn and its metrics
    placed where the plan has them (the regexes judged beforehand: ``regexes``)."""
    if turn.skipped:
        return TurnScore(at, skipped=turn.errors[0] if turn.errors else "skipped")
    errors = turn.errors
    checks = _checks(turn, at)
    lines = _assertion_lines(turn, checks, legacy)
    lead = int(_has_failure(turn, lines, legacy))
    if lines is None:
        # A single-turn case's entries: every line after the failure (a metric's line, there
        # only with fail_on_error, cannot be told apart from them).
        lines = len(errors) - lead
    tools = ToolVerdict(
        turn.tools_matched, turn.arg_match_details, tuple(errors[lead : lead + lines]), checks
    )
    if planned is not None and turn.tools_matched is not None:
        rescored = check_tools(
            planned.expected_tools, turn.tool_invocations, regexes or {}, at, name_errors=not legacy
        )
        tools = ToolVerdict(tools.matched, tools.details, tools.errors, rescored.checks)
    return TurnScore(
        at,
        tools,
        _metrics(turn, planned),
        errors[0] if lead else None,
        turn.ground_truth,
        turn.response,
        tuple(errors[lead + lines :]),
    )


def read_case(result: TestResult, index: int) -> list[TurnScore]:
    """Each turn of a report's test case, the case at ``index`` in its suite, read back (a
    case without turns is a single-turn case, its own turn)."""
    if not result.turns:
        return [read_turn(as_turn(result), case_at(index), legacy=True)]
    return [read_turn(t, turn_at(index, t.turn_index), legacy=False) for t in result.turns]


def read_records(report: TestReport) -> Records:
    """Each result of a report read from disk, its turns read back (what the formats render
    for a run that is not this process's)."""
    return [read_case(result, index) for index, result in enumerate(report.results)]


def _metrics(turn: TurnResult, planned: PlannedTurn | None) -> tuple[MetricScore, ...]:
    """Each metric result with the place of the planned metric that produced it: results
    come in the plan's order, the metrics that did not apply left out."""
    if planned is None:
        return tuple(MetricScore(None, result) for result in turn.metric_results)
    out = []
    position = 0
    for result in turn.metric_results:
        while position < len(planned.metrics) and (
            metric_name(planned.metrics[position]) != result.metric_name
        ):
            position += 1
        path = planned.metric_path(position) if position < len(planned.metrics) else None
        out.append(MetricScore(path, result))
        position += 1
    return tuple(out)
