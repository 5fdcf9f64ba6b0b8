"""Two runs compared: test cases matched by name (an unnamed one by its place in the suite),
turns by index; each turn classified regressed, fixed, still failing, still passing, new or
removed, and judged by the gate (`gate_decision.py`: a regression, or noise); metric
scores, tokens and durations side by side."""

from __future__ import annotations

from holodeck_lsp.models.comparison import (
    CHANGES,
    CaseChange,
    CaseOutcomeOnSide,
    Change,
    ChangeCounts,
    Comparison,
    Correction,
    Gate,
    MetricChange,
    SuiteChange,
    TurnChange,
    TurnOutcome,
)
from holodeck_lsp.run_defaults import DEFAULT_ALPHA
from holodeck_lsp.runner.report.comparison.gate_decision import (
    DEFAULT_CORRECTION,
    NO_CHANGE,
    TURNS_SHARE,
    GateVerdicts,
    Tally,
    TurnVerdict,
    judge,
    judge_turns,
)
from holodeck_lsp.runner.report.comparison.run_sides import RunSide
from holodeck_lsp.runner.report.comparison.side_outcomes import (
    CaseOutcomes,
    SideOutcomes,
    report_outcomes,
)
from holodeck_lsp.runner.score.attempts import pass_hat

CasePair = tuple[CaseOutcomes | None, CaseOutcomes | None]


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


def tally(outcome: TurnOutcome) -> Tally:
    return Tally(outcome.passed_attempts, outcome.attempts)


def _turn_change(
    turn: int, base: TurnOutcome | None, head: TurnOutcome | None, verdict: TurnVerdict
) -> TurnChange:
    return TurnChange.model_construct(
        turn=turn,
        change=verdict_change(_verdict(base), _verdict(head)),
        regression=verdict.regression,
        p_value=verdict.p_value,
        adjusted_p=verdict.adjusted_p,
        noise=verdict.noise,
        rule=verdict.rule,
        detectable_drop=verdict.detectable_drop,
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


def turn_change(
    turn: int, base: TurnOutcome | None, head: TurnOutcome | None, alpha: float = DEFAULT_ALPHA
) -> TurnChange:
    """One turn as BASE and HEAD ran it, judged on its own (a family of one): what
    `run --baseline` tells of each finished turn as the run goes."""
    verdict = NO_CHANGE
    if base is not None and head is not None:
        verdicts, _ = judge_turns(
            [(tally(base), tally(head))], alpha * TURNS_SHARE, DEFAULT_CORRECTION
        )
        verdict = verdicts[0]
    return _turn_change(turn, base, head, verdict)


def _case_side(case: CaseOutcomes, k: int | None) -> CaseOutcomeOnSide:
    return CaseOutcomeOnSide.model_construct(
        index=case.index,
        result=case.position,
        passed=case.passed,
        attempts=case.attempts,
        passed_attempts=case.passed_attempts,
        pass_hat_k=pass_hat(case.passed_attempts, case.attempts, k) if k is not None else None,
    )


def _turn_indexes(base: CaseOutcomes | None, head: CaseOutcomes | None) -> list[int]:
    return sorted((base.turns.keys() if base else set()) | (head.turns.keys() if head else set()))


def _case_change(
    base: CaseOutcomes | None, head: CaseOutcomes | None, turns: list[TurnChange]
) -> CaseChange:
    k = None
    if base is not None and head is not None:
        fewer = min(base.attempts, head.attempts)
        k = fewer if fewer > 1 else None
    either = head or base
    assert either is not None
    before = _case_side(base, k) if base is not None else None
    after = _case_side(head, k) if head is not None else None
    return CaseChange.model_construct(
        case=either.label,
        change=verdict_change(_verdict(before), _verdict(after)),
        regression=any(t.regression for t in turns),
        base=before,
        head=after,
        pass_hat_k_of=k,
        turns=turns,
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


def pair_cases(base: SideOutcomes, head: SideOutcomes) -> list[CasePair]:
    """Every test case of either side: HEAD's in its order, then those only BASE has (but
    those HEAD did not reach when it stopped early: they are not removed, just not run)."""
    before = {case.key: case for case in base.cases}
    now = {case.key for case in head.cases}
    unreached = set(head.summary.not_run)
    pairs: list[CasePair] = [(before.get(case.key), case) for case in head.cases]
    pairs += [
        (case, None) for case in base.cases if case.key not in now and case.label not in unreached
    ]
    return pairs


def matched_tallies(pairs: list[CasePair]) -> list[list[tuple[Tally, Tally]]]:
    """Each case's turns run on both sides, as the gate judges them."""
    return [
        [
            (tally(b.turns[i]), tally(h.turns[i]))
            for i in _turn_indexes(b, h)
            if i in b.turns and i in h.turns
        ]
        for b, h in pairs
        if b is not None and h is not None
    ]


def _gate(verdicts: GateVerdicts) -> tuple[Gate, SuiteChange]:
    d = verdicts.suite.difference
    suite = SuiteChange(
        turns=d.turns,
        cases=d.cases,
        base_rate=d.base_rate,
        head_rate=d.head_rate,
        difference=d.difference,
        standard_error=d.standard_error,
        p_value=d.p_value,
        regression=verdicts.suite.regression,
        detectable_drop=verdicts.suite.detectable_drop,
    )
    gate = Gate(
        correction=verdicts.correction,
        turn_alpha=verdicts.turn_alpha,
        suite_alpha=verdicts.suite.alpha,
        tested=verdicts.tested,
        lone_level=verdicts.lone_level,
    )
    return gate, suite


def compare_sides(
    base: SideOutcomes,
    head: SideOutcomes,
    alpha: float = DEFAULT_ALPHA,
    correction: Correction = DEFAULT_CORRECTION,
) -> Comparison:
    """The whole comparison of two sides, every turn judged by the gate."""
    pairs = pair_cases(base, head)
    verdicts = judge(matched_tallies(pairs), alpha, correction)
    judged = iter(verdicts.turns)
    cases = []
    for b, h in pairs:
        turns = []
        for i in _turn_indexes(b, h):
            before = b.turns.get(i) if b is not None else None
            after = h.turns.get(i) if h is not None else None
            both = before is not None and after is not None
            turns.append(_turn_change(i, before, after, next(judged) if both else NO_CHANGE))
        cases.append(_case_change(b, h, turns))
    gate, suite = _gate(verdicts)
    return Comparison(
        alpha=alpha,
        base=base.summary,
        head=head.summary,
        turns=count_changes(cases),
        gate=gate,
        suite=suite,
        metrics=_run_metrics(base, head),
        duration_delta_ms=head.summary.duration_ms - base.summary.duration_ms,
        tokens_delta=_delta_tokens(base.summary.total_tokens, head.summary.total_tokens),
        cases=cases,
    )


def _run_metrics(base: SideOutcomes, head: SideOutcomes) -> list[MetricChange]:
    """The runs' mean scores side by side, when both sides keep them."""
    if base.average_scores is None or head.average_scores is None:
        return []
    return _metric_changes(base.average_scores, head.average_scores)


def _delta_tokens(base: int | None, head: int | None) -> int | None:
    return head - base if base is not None and head is not None else None


def compare_runs(
    base: RunSide,
    head: RunSide,
    alpha: float = DEFAULT_ALPHA,
    correction: Correction = DEFAULT_CORRECTION,
) -> Comparison:
    """Two reports (or folders of shards) compared."""
    return compare_sides(report_outcomes(base), report_outcomes(head), alpha, correction)
