"""Runs test cases: one fresh session each, turns strictly in order, cases in parallel."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from holodeck_lsp.models.test_result import ProcessedFileInput, TestResult, TurnResult
from holodeck_lsp.models.token_usage import TokenUsage
from holodeck_lsp.run_defaults import DEFAULT_GRADER_TIMEOUT
from holodeck_lsp.runner.backends.backend import Backend, Reply, Session, TurnRequest
from holodeck_lsp.runner.collect.plan import PlannedCase, PlannedTurn
from holodeck_lsp.runner.execute.turn_files import with_files
from holodeck_lsp.runner.score.metrics.judge_panel import JudgePanel
from holodeck_lsp.runner.score.metrics.turn_metrics import TurnView, evaluate
from holodeck_lsp.runner.score.regex_limit import RegexJudge
from holodeck_lsp.runner.score.rollup import CaseOutcome, now_iso, roll_up_case, single_turn_case
from holodeck_lsp.runner.score.tool_assertions import (
    check_tools,
    expected_as_json,
    turn_regex_pairs,
)
from holodeck_lsp.runner.score.turn_scores import MetricScore, TurnScore
from holodeck_lsp.runner.services.failures import (
    AgentError,
    AgentRunFailed,
    TurnFailure,
    TurnTimeout,
)

_PREFIX = {
    "backend": "backend error: ",
    "session": "session ended: ",
}
# Why the turns after a lost one are skipped, worded as `holodeck test` words it.
UNRECOVERABLE = "session became unrecoverable after two consecutive BackendSessionError hits"
ZERO_USAGE = TokenUsage.zero()


@dataclass(frozen=True)
class CaseRunSettings:
    agent_dir: Path
    graders: dict[str, Callable[..., Any]]
    parallelism: int = 1
    judges: JudgePanel | None = None  # judge models of LLM-judged metrics
    grader_timeout: float = DEFAULT_GRADER_TIMEOUT  # seconds per code grader call
    # How a legacy single-turn case names a failed agent run ("OpenAI Agents run failed: ").
    run_label: str = ""
    # Told of every finished turn, as it finishes, with what scoring found (`run --events`).
    on_turn: Callable[[PlannedCase, TurnResult, TurnScore], None] | None = None
    regexes: RegexJudge = field(default_factory=RegexJudge)  # closed by whoever runs


def _skipped(index: int, turn: PlannedTurn, reason: str, expected: bool = True) -> TurnResult:
    return TurnResult(
        turn_index=index,
        input=turn.input,
        ground_truth=turn.ground_truth,
        expected_tools=_expected(turn) if expected else None,
        metric_results=[],
        passed=False,
        execution_time_ms=0,
        errors=[reason],
        skipped=True,
    )


def _lost(index: int, turn: PlannedTurn, reason: str) -> TurnResult:
    """A turn whose fail_on_error grader raised: its reply, tools and metrics are dropped."""
    return TurnResult(
        turn_index=index,
        input=turn.input,
        ground_truth=turn.ground_truth,
        metric_results=[],
        passed=False,
        execution_time_ms=0,
        errors=[reason],
    )


def _expected(turn: PlannedTurn) -> list[Any] | None:
    if turn.expected_tools is None:
        return None
    return [expected_as_json(e) for e in turn.expected_tools]


def failure_message(failure: TurnFailure, legacy: bool, run_label: str) -> str:
    """A failed turn's error line, as `holodeck test` words it: a multi-turn turn says
    `timeout` or `Agent error: ...`, a legacy single-turn case `Agent invocation ...`."""
    if isinstance(failure, TurnTimeout):
        if not legacy:
            return "timeout"
        seconds = f"{failure.seconds:g}s" if failure.seconds is not None else str(failure)
        return f"Agent invocation timeout after {seconds}"
    if isinstance(failure, AgentError):
        if not legacy:
            return f"Agent error: {failure}"
        label = run_label if isinstance(failure, AgentRunFailed) else ""
        return f"Agent invocation error: {label}{failure}"
    return _PREFIX.get(failure.kind, "") + str(failure)


class _CaseRun:
    """The state of one test case while its turns run."""

    def __init__(self, case: PlannedCase, settings: CaseRunSettings) -> None:
        self.case = case
        self.settings = settings
        self.stop_reason: str | None = None
        self.lost = False  # a fail_on_error grader raised: later turns are skipped
        self.execution_errors = 0
        self.processed: list[ProcessedFileInput] = []
        self.turns: list[TurnResult] = []  # finished turns, kept when the run stops early
        self.scores: list[TurnScore] = []  # what scoring found on each of them
        self.timestamp = now_iso()
        self.start = time.perf_counter()
        # What the retrieval tools gave back in this case so far, in call order.
        self.retrieved: list[str] = []

    def outcome(self) -> CaseOutcome:
        """The case's result from its turns, every one of which has a result."""
        turns, scores = list(self.turns), list(self.scores)
        elapsed = int((time.perf_counter() - self.start) * 1000)
        build = roll_up_case if self.case.multi_turn else _single
        result = build(self.case.name, turns, self.processed, elapsed, self.timestamp)
        return CaseOutcome(self.case, result, self.execution_errors, scores)

    def _retrieval_context(self, turn: PlannedTurn, reply: Reply) -> list[str] | None:
        """The turn's own `retrieval_context`, else everything retrieved in the case so
        far, this turn's results included (RAG metrics judge the accumulated context)."""
        self.retrieved.extend(reply.retrieval)
        if turn.retrieval_context:
            return turn.retrieval_context
        return list(self.retrieved) or None

    async def turn(
        self, session: Session | None, index: int, turn: PlannedTurn
    ) -> tuple[TurnResult, TurnScore]:
        at = self.case.turn_path(index)
        if self.lost:
            skipped = TurnScore(at, skipped=UNRECOVERABLE)
            return _skipped(index, turn, UNRECOVERABLE, expected=False), skipped
        if self.stop_reason is not None or session is None:
            reason = f"skipped: {self.stop_reason or 'no session'}"
            return _skipped(index, turn, reason), TurnScore(at, skipped=reason)
        legacy = not self.case.multi_turn
        message, processed = with_files(turn.input, turn.files, self.settings.agent_dir)
        self.processed.extend(processed)
        request = TurnRequest(message, index, self.case.label, self.case.index)
        reply: Reply | None = None
        failed: str | None = None  # why the turn gave no reply to judge
        start = time.perf_counter()
        try:
            reply = await session.send(request)
        except TurnFailure as failure:
            failed = failure_message(failure, legacy, self.settings.run_label)
            self.execution_errors += failure.execution_error
            if failure.breaks_session:
                self.stop_reason = f"the session ended at turn {index}: {failure}"
            if isinstance(failure, AgentError) and not legacy:
                # The agent's run failed: an empty reply that used no tokens, as HoloDeck has it.
                reply = Reply("", [], ZERO_USAGE)
        elapsed = int((time.perf_counter() - start) * 1000)
        calls = reply.tool_invocations if reply is not None else []
        pairs = turn_regex_pairs(turn.expected_tools, calls)
        regexes = await self.settings.regexes.judge(pairs) if pairs else {}
        tools = check_tools(turn.expected_tools, calls, regexes, at, name_errors=not legacy)
        metrics: list[MetricScore] = []
        metric_errors: list[str] = []
        grader_details = None
        # A reply, even an empty one, is graded (`holodeck test` grades none that is empty:
        # docs/runner.md, "An empty reply is graded"); a failed turn is not.
        if reply is not None and failed is None:
            view = TurnView(
                turn.input,
                reply.text,
                turn.ground_truth,
                calls,
                self._retrieval_context(turn, reply),
                index,
                self.case.name,
                turn.turn_config,
                self.case.label,
                self.case.index,
                "\n\n".join(p.markdown_content for p in processed if p.markdown_content),
                legacy,
            )
            outcome = await evaluate(
                turn.metrics,
                view,
                self.settings.graders,
                self.settings.judges,
                self.settings.grader_timeout,
            )
            if outcome.fatal is not None and not legacy:
                self.lost = True
                return _lost(index, turn, outcome.fatal), TurnScore(at, failure=outcome.fatal)
            metrics = [
                MetricScore(turn.metric_path(position), result)
                for position, result in zip(outcome.sources, outcome.results, strict=True)
            ]
            grader_details = outcome.grader_details or None
            fatal = [outcome.fatal] if outcome.fatal is not None else []
            metric_errors = [*outcome.errors, *fatal]
            self.execution_errors += outcome.execution_errors
            if outcome.stop_reason is not None:
                self.stop_reason = outcome.stop_reason
        response = reply.text if reply is not None else None
        score = TurnScore(
            at, tools, tuple(metrics), failed, turn.ground_truth, response, tuple(metric_errors)
        )
        return TurnResult(
            turn_index=index,
            input=turn.input,
            response=response,
            ground_truth=turn.ground_truth,
            expected_tools=_expected(turn),
            tool_calls=[c.name for c in calls],
            tool_invocations=calls,
            tools_matched=tools.matched,
            arg_match_details=tools.details,
            metric_results=[m.result for m in metrics],
            passed=score.passed,
            execution_time_ms=elapsed,
            token_usage=reply.usage if reply is not None else None,
            errors=score.errors,
            grader_details=grader_details,
        ), score


async def run_case(case: PlannedCase, backend: Backend, settings: CaseRunSettings) -> CaseOutcome:
    state = _CaseRun(case, settings)
    session: Session | None = None
    try:
        session = await backend.create_session()
    except TurnFailure as failure:
        state.stop_reason = f"no session: {failure}"
        state.execution_errors += 1
    try:
        for index, turn in enumerate(case.turns):
            result, score = await state.turn(session, index, turn)
            state.turns.append(result)
            state.scores.append(score)
            if settings.on_turn is not None:
                settings.on_turn(case, result, score)
    finally:
        if session is not None:
            await session.close()
    return state.outcome()


def _single(
    name: str | None,
    turns: list[TurnResult],
    processed: list[ProcessedFileInput],
    elapsed: int,
    timestamp: str,
) -> TestResult:
    return single_turn_case(name, turns[0], processed, elapsed, timestamp)


class SuiteState:
    """What a run has done so far, readable when it stops early (Ctrl-C, a replay miss)."""

    def __init__(self, cases: list[PlannedCase]) -> None:
        self.cases = cases
        self.done: dict[int, CaseOutcome] = {}  # by position in ``cases``

    def partial(self) -> tuple[list[CaseOutcome], list[PlannedCase]]:
        """Outcomes of the cases that finished, in suite order, and the cases that did not
        run or did not finish: a case cut short is not run, never failed."""
        outcomes: list[CaseOutcome] = []
        not_run: list[PlannedCase] = []
        for position, case in enumerate(self.cases):
            if position in self.done:
                outcomes.append(self.done[position])
            else:
                not_run.append(case)
        return outcomes, not_run


async def run_suite(
    cases: list[PlannedCase],
    backend: Backend,
    settings: CaseRunSettings,
    on_start: Callable[[PlannedCase], None] = lambda _c: None,
    on_done: Callable[[CaseOutcome], None] = lambda _o: None,
    state: SuiteState | None = None,
) -> list[CaseOutcome]:
    """Every case, at most ``parallelism`` at once; outcomes in suite order.

    Any exception other than a failed turn (a replay miss, a bug) stops the whole run: the
    other cases are cancelled and the first exception is raised; ``state`` keeps what
    finished.
    """
    state = state or SuiteState(cases)
    gate = asyncio.Semaphore(max(1, settings.parallelism))

    async def one(position: int, case: PlannedCase) -> CaseOutcome:
        async with gate:
            on_start(case)
            outcome = await run_case(case, backend, settings)
            state.done[position] = outcome
            on_done(outcome)
            return outcome

    tasks = [asyncio.ensure_future(one(i, case)) for i, case in enumerate(cases)]
    if not tasks:
        return []
    try:
        _, pending = await asyncio.wait(tasks, return_when=asyncio.FIRST_EXCEPTION)
    except asyncio.CancelledError:
        await _cancel(tasks)
        raise
    await _cancel(list(pending))
    # Every task's exception is retrieved (none is left for asyncio to complain about);
    # the first in suite order is raised.
    errors = [t.exception() for t in tasks if t.done() and not t.cancelled()]
    for error in errors:
        if error is not None:
            raise error
    return [task.result() for task in tasks]


async def _cancel(tasks: Sequence[asyncio.Future[CaseOutcome]]) -> None:
    for task in tasks:
        task.cancel()
    if tasks:
        await asyncio.gather(*tasks, return_exceptions=True)
