"""Two runs compared: test cases matched by name (an unnamed one by its place in the suite),
turns by index; each turn classified regressed, fixed, still failing, still passing, new or
removed; with `--repeat` on either side, the change of its pass rate tested for noise;
metric scores, tokens and durations side by side."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from math import isfinite

from holodeck_lsp.hygiene.clipping import clip
from holodeck_lsp.models.comparison import (
    CHANGES,
    CaseChange,
    CaseOutcomeOnSide,
    Change,
    ChangeCounts,
    Comparison,
    MetricChange,
    Noise,
    RunSummary,
    TurnChange,
    TurnOutcome,
)
from holodeck_lsp.models.test_result import TestResult, TurnResult
from holodeck_lsp.run_defaults import DEFAULT_ALPHA
from holodeck_lsp.runner.report.comparison.fisher_exact import can_tell, fisher_exact
from holodeck_lsp.runner.report.comparison.run_sides import RunSide, SideCase
from holodeck_lsp.runner.report.failure_reasons import turn_problems
from holodeck_lsp.runner.report.report_reading import made_by
from holodeck_lsp.runner.score.attempts import pass_hat, rule_passes
from holodeck_lsp.runner.score.rollup import result_turns

PROBLEM_LIMIT = 300  # characters of a failed turn's first problem
# The per-turn models are built with `model_construct`, unvalidated: every value comes from
# a validated report or is computed here, and a 1,000-case comparison builds 20,000 of them.


def _mean(values: Sequence[float]) -> float:
    # sum / len: statistics.fmean costs ten times as much on the one value of most turns
    return sum(values) / len(values)


def _mean_scores(turns: list[TurnResult]) -> dict[str, float]:
    scores: dict[str, list[float]] = {}
    for turn in turns:
        for metric in turn.metric_results:
            if isfinite(metric.score):
                scores.setdefault(metric.metric_name, []).append(metric.score)
    return {name: _mean(values) for name, values in scores.items()}


def _problem(turns: list[TurnResult]) -> str | None:
    failed = next((t for t in turns if not t.passed), None)
    if failed is None:
        return None
    problems = turn_problems(failed)
    return clip(problems[0], PROBLEM_LIMIT) if problems else "failed"


def turn_outcome(turns: list[TurnResult], share: float) -> TurnOutcome:
    """A turn over its attempts (one without --repeat), its verdict by the pass rule."""
    passed = sum(t.passed for t in turns)
    tokens = [t.token_usage.total_tokens for t in turns if t.token_usage is not None]
    return TurnOutcome.model_construct(
        passed=rule_passes(passed, len(turns), share),
        attempts=len(turns),
        passed_attempts=passed,
        duration_ms=_mean([t.execution_time_ms for t in turns]),
        total_tokens=_mean(tokens) if tokens else None,
        metric_scores=_mean_scores(turns),
        problem=_problem(turns),
    )


def side_turns(case: SideCase, share: float) -> dict[int, TurnOutcome]:
    """Each turn of a side's case over its attempts, by index."""
    by_index: dict[int, list[TurnResult]] = {}
    for attempt in case.attempts:
        for turn in result_turns(attempt):
            by_index.setdefault(turn.turn_index, []).append(turn)
    return {index: turn_outcome(turns, share) for index, turns in sorted(by_index.items())}


def verdict_change(base: bool | None, head: bool | None) -> Change:
    """The change of a verdict (None: not on that side)."""
    if base is None:
        return "new"
    if head is None:
        return "removed"
    if base == head:
        return "still_passing" if head else "still_failing"
    return "fixed" if head else "regressed"


def _delta(base: float | None, head: float | None) -> float | None:
    return head - base if base is not None and head is not None else None


def _verdict(outcome: TurnOutcome | CaseOutcomeOnSide | None) -> bool | None:
    return outcome.passed if outcome is not None else None


def _metric_changes(base: dict[str, float], head: dict[str, float]) -> list[MetricChange]:
    names = [*base, *(name for name in head if name not in base)]
    return [
        MetricChange.model_construct(
            metric=name,
            base=base.get(name),
            head=head.get(name),
            delta=_delta(base.get(name), head.get(name)),
        )
        for name in names
    ]


def _noise(
    base: TurnOutcome, head: TurnOutcome, alpha: float
) -> tuple[float | None, Noise | None, bool]:
    """The p-value, the noise verdict and whether the turn is a regression, for a turn with
    `--repeat` on a side: only a pass rate that fell beyond noise is a regression."""
    a, n = base.passed_attempts, base.attempts
    b, m = head.passed_attempts, head.attempts
    if a * m == b * n:  # the same pass rate
        return None, None, False
    p_value = fisher_exact(a, n, b, m)
    if not can_tell(n, m, alpha):
        return p_value, "not_enough_attempts", False
    if p_value >= alpha:
        return p_value, "within_noise", False
    return p_value, "beyond_noise", b * n < a * m


def turn_change(
    turn: int, base: TurnOutcome | None, head: TurnOutcome | None, alpha: float = DEFAULT_ALPHA
) -> TurnChange:
    """One turn as BASE and HEAD ran it."""
    change = verdict_change(_verdict(base), _verdict(head))
    p_value: float | None = None
    noise: Noise | None = None
    regression = False
    if base is not None and head is not None:
        if base.attempts == 1 and head.attempts == 1:
            regression = change == "regressed"
        else:
            p_value, noise, regression = _noise(base, head, alpha)
    return TurnChange.model_construct(
        turn=turn,
        change=change,
        regression=regression,
        p_value=p_value,
        noise=noise,
        base=base,
        head=head,
        metrics=_metric_changes(
            base.metric_scores if base else {}, head.metric_scores if head else {}
        ),
        duration_delta_ms=_delta(
            base.duration_ms if base else None, head.duration_ms if head else None
        ),
        tokens_delta=_delta(
            base.total_tokens if base else None, head.total_tokens if head else None
        ),
    )


def _case_side(case: SideCase, k: int | None) -> CaseOutcomeOnSide:
    passed = sum(r.passed for r in case.attempts)
    return CaseOutcomeOnSide.model_construct(
        index=case.index,
        result=case.position,
        passed=case.result.passed,
        attempts=len(case.attempts),
        passed_attempts=passed,
        pass_hat_k=pass_hat(passed, len(case.attempts), k) if k is not None else None,
    )


def case_change(
    base: SideCase | None,
    head: SideCase | None,
    base_share: float,
    head_share: float,
    alpha: float = DEFAULT_ALPHA,
) -> CaseChange:
    """A test case as BASE and HEAD ran it, turn by turn."""
    before = side_turns(base, base_share) if base is not None else {}
    after = side_turns(head, head_share) if head is not None else {}
    indexes = sorted(before.keys() | after.keys())
    turns = [turn_change(i, before.get(i), after.get(i), alpha) for i in indexes]
    k = None
    if base is not None and head is not None:
        fewer = min(len(base.attempts), len(head.attempts))
        k = fewer if fewer > 1 else None
    either = head or base
    assert either is not None
    before_case = _case_side(base, k) if base is not None else None
    after_case = _case_side(head, k) if head is not None else None
    return CaseChange.model_construct(
        case=either.label,
        change=verdict_change(_verdict(before_case), _verdict(after_case)),
        regression=any(t.regression for t in turns),
        base=before_case,
        head=after_case,
        pass_hat_k_of=k,
        turns=turns,
    )


def _finite(scores: dict[str, float]) -> dict[str, float]:
    return {name: score for name, score in scores.items() if isfinite(score)}


def _token_delta(base: int | None, head: int | None) -> int | None:
    return head - base if base is not None and head is not None else None


def _tokens(results: Iterable[TestResult]) -> int | None:
    counted = [r.token_usage.total_tokens for r in results if r.token_usage is not None]
    return sum(counted) if counted else None


def run_summary(side: RunSide) -> RunSummary:
    report = side.report
    s = report.summary
    repeat = max((len(c.attempts) for c in side.cases), default=1)
    return RunSummary(
        reports=[str(p) for p in side.paths],
        agent_name=report.agent_name,
        runner=made_by(report),
        timestamp=report.timestamp,
        total_tests=s.total_tests,
        passed=s.passed,
        failed=s.failed,
        duration_ms=s.total_duration_ms,
        total_tokens=_tokens(report.results),
        repeat=repeat,
        pass_rule=report.environment.get("pass_rule", "all"),
        interrupted=report.interrupted,
        not_run=report.not_run,
    )


def count_changes(cases: list[CaseChange]) -> ChangeCounts:
    counts = dict.fromkeys(CHANGES, 0)
    noise = {"beyond_noise": 0, "within_noise": 0, "not_enough_attempts": 0}
    regressions = 0
    for case in cases:
        for turn in case.turns:
            counts[turn.change] += 1
            regressions += turn.regression
            if turn.noise is not None:
                noise[turn.noise] += 1
    return ChangeCounts(**counts, **noise, regressions=regressions)


def compare_runs(base: RunSide, head: RunSide, alpha: float = DEFAULT_ALPHA) -> Comparison:
    """Every test case of either run: HEAD's in its order, then those only BASE has (but
    those HEAD did not reach when it stopped early: they are not removed, just not run)."""
    before = {case.key: case for case in base.cases}
    now = {case.key for case in head.cases}
    unreached = set(head.report.not_run)
    pairs: list[tuple[SideCase | None, SideCase | None]]
    pairs = [(before.get(case.key), case) for case in head.cases]
    pairs += [
        (case, None)
        for case in base.cases
        if case.key not in now and case.label not in unreached
    ]
    cases = [case_change(b, h, base.pass_share, head.pass_share, alpha) for b, h in pairs]
    base_summary, head_summary = run_summary(base), run_summary(head)
    return Comparison(
        alpha=alpha,
        base=base_summary,
        head=head_summary,
        turns=count_changes(cases),
        metrics=_metric_changes(
            _finite(base.report.summary.average_scores), _finite(head.report.summary.average_scores)
        ),
        duration_delta_ms=head_summary.duration_ms - base_summary.duration_ms,
        tokens_delta=_token_delta(base_summary.total_tokens, head_summary.total_tokens),
        cases=cases,
    )
