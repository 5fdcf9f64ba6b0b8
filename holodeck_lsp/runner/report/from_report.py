"""`run --from-report REPORT --events -`: the events of a report produced elsewhere (CI's
`report.json`), placed on the suite as it is now, running nothing; an editor shows a CI
failure at its line this way."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

from holodeck_lsp.models.test_result import TestReport, TestResult, TurnResult
from holodeck_lsp.runner.collect.plan import PlannedCase
from holodeck_lsp.runner.report.event_stream import EventStream
from holodeck_lsp.runner.score.read_back import read_turn
from holodeck_lsp.runner.score.regex_limit import RegexJudge, Verdicts
from holodeck_lsp.runner.score.rollup import CaseOutcome, result_turns
from holodeck_lsp.runner.score.tool_assertions import turn_regex_pairs


def _matching(cases: list[PlannedCase], result: TestResult, position: int) -> PlannedCase | None:
    """The planned case a result is of: by name, an unnamed one by its position."""
    if result.test_name is not None:
        return next((c for c in cases if c.name == result.test_name), None)
    if position < len(cases) and cases[position].name is None:
        return cases[position]
    return None


def _placed(
    report: TestReport, cases: list[PlannedCase]
) -> Iterator[tuple[PlannedCase, TestResult, list[TurnResult]]]:
    """Each result the suite still has a case for, with its turns the case still has."""
    for position, result in enumerate(report.results):
        case = _matching(cases, result, position)
        if case is not None:
            turns = result_turns(result)
            yield case, result, [t for t in turns if t.turn_index < len(case.turns)]


async def _judged(report: TestReport, cases: list[PlannedCase]) -> Verdicts:
    """The regex matchers of the suite judged again on the report's tool calls, which may
    be anyone's: under the limit of a run, each regex getting it once for the report."""
    pairs = [
        pair
        for case, _result, turns in _placed(report, cases)
        for turn in turns
        for pair in turn_regex_pairs(
            case.turns[turn.turn_index].expected_tools, turn.tool_invocations
        )
    ]
    judge = RegexJudge()
    try:
        return await judge.judge(pairs)
    finally:
        await judge.close()


def emit_report(report: TestReport, cases: list[PlannedCase], events: EventStream) -> int:
    """Every result the suite still has a case for, as events, its tool calls scored
    against the suite as it is now; the exit code the run had."""
    regexes = asyncio.run(_judged(report, cases))
    events.run_started()
    for case, result, turns in _placed(report, cases):
        events.case_started(case)
        scores = []
        for turn in turns:
            planned = case.turns[turn.turn_index]
            at = case.turn_path(turn.turn_index)
            score = read_turn(turn, at, not case.multi_turn, planned, regexes)
            events.turn_finished(case, turn, score)
            scores.append(score)
        events.case_finished(CaseOutcome(case, result, 0, scores))
    code = 0 if report.summary.failed == 0 else 1
    events.run_ended(report, code)
    return code
