"""What a comparison's readers are shown, in the order they need it: the regressions, then
what may have regressed within noise, what was fixed, new, removed, still failing; each
turn's change in words, and whether the comparison fails under `--fail-on`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from holodeck_lsp.models.comparison import CaseChange, Comparison, TurnChange, TurnOutcome
from holodeck_lsp.run_defaults import DIFFERENCES_DOC
from holodeck_lsp.runner.report.comparison.multiple_testing import CORRECTION_NAMES

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


COULD_NOT_TELL = "Could not tell: worse, but within noise or too few attempts"


def turn_groups(comparison: Comparison) -> list[TurnGroup]:
    """The turns that changed, grouped; the regressions first (never empty of one), then
    those that fell without the gate being able to tell (each turn in one group only)."""
    rows = [(case, turn) for case in comparison.cases for turn in case.turns]
    return [
        TurnGroup("Regressions", [r for r in rows if r[1].regression]),
        TurnGroup(
            COULD_NOT_TELL,
            [
                r
                for r in rows
                if not r[1].regression and (r[1].change == "regressed" or _fell(r[1]))
            ],
        ),
        TurnGroup("Fixed", [r for r in rows if r[1].change == "fixed"]),
        TurnGroup("New", [r for r in rows if r[1].change == "new"]),
        TurnGroup("Removed", [r for r in rows if r[1].change == "removed"]),
        TurnGroup(
            "Still failing",
            [r for r in rows if r[1].change == "still_failing" and not _fell(r[1])],
        ),
    ]


def outcome_text(outcome: TurnOutcome | None, counted: bool = False) -> str:
    """A side's verdict of a turn: passed or failed, or the attempts that passed (always
    those when ``counted``: the other side ran it more than once)."""
    if outcome is None:
        return "-"
    if outcome.attempts == 1 and not counted:
        return "passed" if outcome.passed else "failed"
    return f"{outcome.passed_attempts}/{outcome.attempts}"


def counted(turn: TurnChange) -> bool:
    """Whether a side ran the turn more than once (both are then told in attempts)."""
    return max(side.attempts for side in (turn.base, turn.head) if side is not None) > 1


def p_text(p_value: float) -> str:
    return f"{p_value:.2g}"


def points(rate: float) -> str:
    """A difference of pass rates in percentage points: `83 points`."""
    return f"{rate * 100:.0f} points"


def drop_text(turn: TurnChange) -> str:
    """What the gate could have caught, for a turn that fell without it telling."""
    if turn.rule == "flaky_single_attempt":
        return "flaky in BASE, one attempt"
    if turn.detectable_drop is not None:
        return f"a fall of {points(turn.detectable_drop)} would be caught"
    if turn.noise == "not_enough_attempts":
        return "no fall could be caught"
    return ""


NOISE_WORDS = {
    "beyond_noise": "beyond noise",
    "within_noise": "within noise",
    "not_enough_attempts": "not enough attempts to tell",
}


def noise_text(turn: TurnChange) -> str:
    """`p = 0.00036, beyond noise`, with the adjusted p-value when the correction over the
    turns raised it, and for a fall within noise what could have been caught; nothing when
    no test was made."""
    if turn.rule == "failed_every_attempt" and turn.noise is None and counted(turn):
        return "no attempt passed where every one did"
    if turn.noise is None or turn.p_value is None:
        return ""
    words = [f"p = {p_text(turn.p_value)}"]
    if turn.adjusted_p is not None and turn.adjusted_p != turn.p_value:
        words.append(f"adjusted {p_text(turn.adjusted_p)}")
    words.append(NOISE_WORDS[turn.noise])
    line = ", ".join(words)
    if turn.noise != "within_noise" or not _fell(turn):
        return line
    return f"{line}; {drop_text(turn)}"


def change_text(turn: TurnChange) -> str:
    """`passed -> failed`, `10/10 -> 2/10 attempts passed (p = 0.00036, beyond noise)`,
    `new: failed`, `removed (was passed)`."""
    if turn.base is None:
        return f"new: {outcome_text(turn.head)}"
    if turn.head is None:
        return f"removed (was {outcome_text(turn.base)})"
    both = counted(turn)
    line = f"{outcome_text(turn.base, both)} -> {outcome_text(turn.head, both)}"
    if both:
        line += " attempts passed"
    noise = noise_text(turn)
    return f"{line} ({noise})" if noise else line


def rate_text(rate: float) -> str:
    return f"{rate * 100:.1f}%"


def suite_text(comparison: Comparison) -> str:
    """`turn pass rate 87.0% -> 81.0% (-6.0 points, SE 2.1, p = 0.0031, beyond noise)`."""
    suite = comparison.suite
    if suite.turns == 0:
        return "no turn ran on both sides"
    line = f"turn pass rate {rate_text(suite.base_rate)} -> {rate_text(suite.head_rate)} "
    detail = [f"{suite.difference * 100:+.1f} points"]
    if suite.standard_error is None or suite.p_value is None:
        detail.append("one test case: no standard error")
    else:
        detail.append(f"SE {suite.standard_error * 100:.1f}")
        if suite.difference < 0:
            detail.append(f"p = {p_text(suite.p_value)}")
            detail.append("beyond noise" if suite.regression else "within noise")
    if suite.standard_error is not None and not suite.regression:
        drop = suite.detectable_drop
        detail.append(
            f"a fall of {drop * 100:.1f} points would be caught"
            if drop is not None
            else "no fall could be caught"
        )
    return line + "(" + ", ".join(detail) + ")"


def tested(comparison: Comparison) -> bool:
    """Whether a side ran its turns more than once: the tests of noise could speak."""
    return any(side.repeat > 1 or side.runs > 1 for side in (comparison.base, comparison.head))


def gate_text(comparison: Comparison) -> str:
    """How regressions were told from noise, in a sentence."""
    gate = comparison.gate
    name = CORRECTION_NAMES[gate.correction]
    tested = (
        f"{name} over the {gate.tested} turn(s) whose failures could show a fall beyond noise"
        if gate.tested
        else "no turn's failures could show a fall beyond noise"
    )
    turns = f"{tested}; alone, a fall needs p < {p_text(gate.lone_level)}"
    return f"alpha {comparison.alpha:g}: half to the turns ({turns}), half to the suite's pass rate"


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




def runner_note(comparison: Comparison, shown: Callable[[str], str] = str) -> str | None:
    """When BASE and HEAD were made by different runners, or by different versions of one,
    a turn may have changed with the runner and not with the agent: said before any change
    is read (`holodeck test`'s reports name HoloDeck's version only, ours both). The
    runners' names, read from the reports, are written with ``shown``."""
    runners = comparison.base.runner, comparison.head.runner
    if runners[0] == runners[1]:
        return None
    base, head = map(shown, runners)
    ours = [side.startswith("holodeck-lsp") for side in runners]
    if ours[0] != ours[1]:
        return (
            f"BASE and HEAD come from different runners ({base}; {head}): a turn may have "
            "changed with the runner, not the agent; the documented differences are in "
            f"{DIFFERENCES_DOC}, and `run` warns about those a suite meets"
        )
    return (
        f"BASE and HEAD come from different versions ({base}; {head}): a turn may have "
        "changed with the runner, not the agent"
    )


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
