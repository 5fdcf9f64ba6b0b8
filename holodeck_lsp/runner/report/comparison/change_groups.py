"""What a comparison's readers are shown, in the order they need it: the regressions, then
what may have regressed within noise, what was fixed, new, removed, still failing; each
turn's change in words, and whether the comparison fails under `--fail-on`."""

from __future__ import annotations

from dataclasses import dataclass

from holodeck_lsp.models.comparison import CaseChange, Comparison, TurnChange, TurnOutcome

Row = tuple[CaseChange, TurnChange]
QUIET = ("still_passing", "still_failing")  # the turns `--fail-on any-change` lets pass
NO_CHANGE = "no change"


@dataclass(frozen=True)
class TurnGroup:
    title: str
    rows: list[Row]


def _fell(turn: TurnChange) -> bool:
    """The pass rate fell (a regression or not, beyond noise or not)."""
    base, head = turn.base, turn.head
    if base is None or head is None:
        return False
    return head.passed_attempts * base.attempts < base.passed_attempts * head.attempts


def turn_groups(comparison: Comparison) -> list[TurnGroup]:
    """The turns that changed, grouped; the regressions first (never empty of one)."""
    rows = [(case, turn) for case in comparison.cases for turn in case.turns]
    return [
        TurnGroup("Regressions", [r for r in rows if r[1].regression]),
        TurnGroup(
            "Worse within noise, or too few attempts to tell",
            [
                r
                for r in rows
                if not r[1].regression and (r[1].change == "regressed" or _fell(r[1]))
            ],
        ),
        TurnGroup("Fixed", [r for r in rows if r[1].change == "fixed"]),
        TurnGroup("New", [r for r in rows if r[1].change == "new"]),
        TurnGroup("Removed", [r for r in rows if r[1].change == "removed"]),
        TurnGroup("Still failing", [r for r in rows if r[1].change == "still_failing"]),
    ]


def outcome_text(outcome: TurnOutcome | None) -> str:
    """A side's verdict of a turn: passed or failed, or the attempts that passed."""
    if outcome is None:
        return "-"
    if outcome.attempts == 1:
        return "passed" if outcome.passed else "failed"
    return f"{outcome.passed_attempts}/{outcome.attempts}"


def p_text(p_value: float) -> str:
    return f"{p_value:.2g}"


NOISE_WORDS = {
    "beyond_noise": "beyond noise",
    "within_noise": "within noise",
    "not_enough_attempts": "not enough attempts to tell",
}


def noise_text(turn: TurnChange) -> str:
    """`p = 0.00071, beyond noise`, or nothing when no test was made."""
    if turn.noise is None or turn.p_value is None:
        return ""
    return f"p = {p_text(turn.p_value)}, {NOISE_WORDS[turn.noise]}"


def change_text(turn: TurnChange) -> str:
    """`passed -> failed`, `10/10 -> 2/10 attempts passed (p = 0.00071, beyond noise)`,
    `new: failed`, `removed (was passed)`."""
    if turn.base is None:
        return f"new: {outcome_text(turn.head)}"
    if turn.head is None:
        return f"removed (was {outcome_text(turn.base)})"
    line = f"{outcome_text(turn.base)} -> {outcome_text(turn.head)}"
    if max(turn.base.attempts, turn.head.attempts) > 1:
        line += " attempts passed"
    noise = noise_text(turn)
    return f"{line} ({noise})" if noise else line


def reliability_rows(comparison: Comparison) -> list[CaseChange]:
    """The test cases run several times on both sides whose share of passed attempts
    changed: their pass^k and pass rates."""
    return [
        case
        for case in comparison.cases
        if case.pass_hat_k_of is not None
        and case.base is not None
        and case.head is not None
        and case.base.passed_attempts * case.head.attempts
        != case.head.passed_attempts * case.base.attempts
    ]


def reliability_text(case: CaseChange) -> str:
    """`pass^10 1 -> 0, attempts passed 10/10 -> 2/10`."""
    base, head = case.base, case.head
    assert base is not None and head is not None
    return (
        f"pass^{case.pass_hat_k_of} {base.pass_hat_k:g} -> {head.pass_hat_k:g}, attempts passed "
        f"{base.passed_attempts}/{base.attempts} -> {head.passed_attempts}/{head.attempts}"
    )


def case_delta(case: CaseChange) -> str:
    """What changed in a test case since BASE: `new`, `removed`, each turn that changed
    (`turn 1: passed -> failed`), or `no change`."""
    if case.base is None:
        return "new"
    if case.head is None:
        return "removed"
    changed = [
        f"turn {turn.turn}: {change_text(turn)}"
        for turn in case.turns
        if turn.change not in QUIET or turn.noise is not None
    ]
    return "; ".join(changed) or NO_CHANGE


def metric_rows(cases: list[CaseChange]) -> list[tuple[CaseChange, TurnChange, str, float]]:
    """Every metric score that changed on a turn both sides ran, the largest fall first."""
    rows = [
        (case, turn, m.metric, m.delta)
        for case in cases
        for turn in case.turns
        for m in turn.metrics
        if m.delta is not None and abs(m.delta) > 1e-9
    ]
    return sorted(rows, key=lambda row: row[3])


def fails(comparison: Comparison, fail_on: str) -> bool:
    """Whether the comparison fails (exit 1) under `--fail-on`."""
    if fail_on == "regressed":
        return comparison.turns.regressions > 0 or comparison.suite.regression
    if fail_on == "any-change":
        return comparison.suite.regression or any(
            turn.change not in QUIET or turn.noise == "beyond_noise"
            for case in comparison.cases
            for turn in case.turns
        )
    return False


def verdict_line(comparison: Comparison, fail_on: str) -> str:
    """Why `compare` exits as it does."""
    count = comparison.turns.regressions
    regressions = f"{count} regression(s)" if count else "no regression"
    if comparison.suite.regression:
        regressions += ", the suite's pass rate fell beyond noise"
    if fails(comparison, fail_on):
        why = regressions if fail_on == "regressed" else "turns changed"
        return f"exit 1: {why} (--fail-on {fail_on})"
    return f"{regressions}; exit 0 (--fail-on {fail_on})"
