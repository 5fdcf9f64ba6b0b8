"""What `holodeck-lsp compare BASE HEAD` finds: the test cases of two runs matched, each turn
classified and measured. `compare --format json` writes a `Comparison`; its JSON Schema,
docs/compare.schema.json, is generated from these models."""

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Change = Literal["regressed", "fixed", "still_failing", "still_passing", "new", "removed"]
CHANGES: tuple[Change, ...] = (
    "regressed",
    "fixed",
    "still_failing",
    "still_passing",
    "new",
    "removed",
)
Noise = Literal["beyond_noise", "within_noise", "not_enough_attempts"]
# Which row of the gate's decision table (docs/compare.md) decided a turn whose rate moved.
Rule = Literal["failed_every_attempt", "flaky_single_attempt", "exact_test", "too_few_attempts"]
Correction = Literal["bh", "holm"]


class _Compared(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)


class TurnOutcome(_Compared):
    """One run's outcome of a turn; with `--repeat`, over every attempt."""

    passed: bool = Field(
        ..., description="The turn's verdict: passed in the one attempt, or by the pass rule."
    )
    attempts: int = Field(..., ge=1, description="Attempts in which the turn ran.")
    passed_attempts: int = Field(..., ge=0, description="Attempts in which it passed.")
    duration_ms: float | None = Field(
        None, ge=0, description="Time of the turn (mean over attempts); none from a history."
    )
    total_tokens: float | None = Field(
        None, description="Tokens the turn used (mean over attempts); none if not reported."
    )
    metric_scores: dict[str, float] = Field(
        default_factory=dict, description="Each metric's score (mean over attempts)."
    )
    problem: str | None = Field(
        None, description="Why it failed (an attempt that failed), cut to 300 characters."
    )


class MetricChange(_Compared):
    """A metric's score on both sides."""

    metric: str = Field(..., description="The metric's name.")
    base: float | None = Field(..., description="Its score in BASE; none if not run there.")
    head: float | None = Field(..., description="Its score in HEAD; none if not run there.")
    delta: float | None = Field(..., description="HEAD - BASE, when both have a score.")


class TurnChange(_Compared):
    """One turn of a test case, as BASE and HEAD ran it."""

    turn: int = Field(..., ge=0, description="0-based position of the turn in its case.")
    change: Change = Field(
        ...,
        description="regressed (passed -> failed), fixed, still_failing, still_passing, "
        "new (only in HEAD) or removed (only in BASE).",
    )
    regression: bool = Field(
        ...,
        description="A regression `--fail-on regressed` fails on: BASE never failed the turn "
        "and HEAD never passed it, or its pass rate fell beyond noise (see `rule`).",
    )
    p_value: float | None = Field(
        None,
        description="One-sided Fisher's exact test of the change of the pass rate, in the "
        "direction it moved (when a side ran the turn more than once and the rates differ).",
    )
    adjusted_p: float | None = Field(
        None,
        description="The p-value adjusted over the turns tested (`gate.correction`); none for "
        "a turn too few attempts could never show changed.",
    )
    noise: Noise | None = Field(
        None,
        description="When the pass rates differ and a test was made: beyond noise (adjusted "
        "p below `gate.turn_alpha`), within it, or not enough attempts to tell.",
    )
    rule: Rule | None = Field(
        None,
        description="The row of the decision table that decided a turn whose rate moved: "
        "failed_every_attempt, flaky_single_attempt, exact_test or too_few_attempts.",
    )
    detectable_drop: float | None = Field(
        None,
        description="A fall not beyond noise: the smallest fall of the pass rate (0-1) these "
        "attempts would have caught with 80% power; none when no fall could be.",
    )
    base: TurnOutcome | None = Field(..., description="BASE's outcome; none for a new turn.")
    head: TurnOutcome | None = Field(..., description="HEAD's outcome; none for a removed turn.")
    metrics: list[MetricChange] = Field(default_factory=list, description="Score of each metric.")
    duration_delta_ms: float | None = Field(None, description="HEAD - BASE time of the turn.")
    tokens_delta: float | None = Field(None, description="HEAD - BASE tokens of the turn.")


class CaseOutcomeOnSide(_Compared):
    """One run's verdict of a test case."""

    index: int = Field(..., ge=0, description="0-based position of the case in the suite.")
    result: int = Field(
        ..., ge=0, description="0-based position of its result in the report's `results`."
    )
    passed: bool = Field(..., description="The case's verdict in the report.")
    attempts: int = Field(..., ge=1, description="Attempts run (`--repeat`, else 1).")
    passed_attempts: int = Field(..., ge=0, description="Attempts that passed.")
    pass_hat_k: float | None = Field(
        None,
        description="pass^k, the chance that k attempts all pass, k being the case's "
        "`pass_hat_k_of` (with --repeat on both sides).",
    )


class CaseChange(_Compared):
    """A test case matched by name (by position when unnamed), with its turns."""

    case: str = Field(..., description="The case's name, or `test_cases[i]` when unnamed.")
    change: Change = Field(..., description="The case's verdict from BASE to HEAD.")
    regression: bool = Field(..., description="One of its turns is a regression.")
    base: CaseOutcomeOnSide | None = Field(..., description="BASE's verdict; none if new.")
    head: CaseOutcomeOnSide | None = Field(..., description="HEAD's verdict; none if removed.")
    pass_hat_k_of: int | None = Field(
        None, description="The k of both sides' pass^k: the fewer attempts of the two."
    )
    turns: list[TurnChange] = Field(..., description="Every turn of either side, in order.")


class RunSummary(_Compared):
    """One side of the comparison: the report(s) it was read from and their summary."""

    reports: list[str] = Field(..., description="The report file(s), merged when several.")
    agent_name: str = Field(..., description="The agent tested.")
    runner: str = Field(
        ..., description="What ran it: `holodeck-lsp 0.1.0 (HoloDeck 0.7.1)`, `HoloDeck 0.7.1`."
    )
    timestamp: str = Field(..., description="When the report was made.")
    total_tests: int = Field(..., ge=0, description="Test cases in the report.")
    passed: int = Field(..., ge=0, description="Test cases passed.")
    failed: int = Field(..., ge=0, description="Test cases failed.")
    duration_ms: int = Field(..., ge=0, description="Wall-clock time of the run.")
    total_tokens: int | None = Field(None, description="Tokens of every case; none if unknown.")
    repeat: int = Field(..., ge=1, description="Attempts per test case (`--repeat`).")
    pass_rule: str = Field(..., description="The pass rule of repeated attempts.")
    interrupted: bool = Field(False, description="The run stopped early.")
    not_run: list[str] = Field(default_factory=list, description="Cases it did not run.")
    runs: int = Field(
        1, ge=1, description="Runs pooled: 1 for a report, the runs kept of a history."
    )
    first_timestamp: str | None = Field(
        None, description="A history: when its earliest run kept was made."
    )


class ChangeCounts(_Compared):
    """How many turns changed, and how."""

    regressed: int = Field(0, ge=0, description="Turns passed in BASE, failed in HEAD.")
    fixed: int = Field(0, ge=0, description="Turns failed in BASE, passed in HEAD.")
    still_failing: int = Field(0, ge=0, description="Turns failed on both sides.")
    still_passing: int = Field(0, ge=0, description="Turns passed on both sides.")
    new: int = Field(0, ge=0, description="Turns only in HEAD.")
    removed: int = Field(0, ge=0, description="Turns only in BASE.")
    regressions: int = Field(
        0, ge=0, description="Turns that are regressions (what `--fail-on regressed` fails on)."
    )
    beyond_noise: int = Field(0, ge=0, description="Pass rates changed beyond noise.")
    within_noise: int = Field(0, ge=0, description="Pass rates changed within noise.")
    not_enough_attempts: int = Field(
        0, ge=0, description="Pass rates changed with too few attempts to tell."
    )


class SuiteChange(_Compared):
    """The suite's pass rate on both sides: the turns matched on both, paired, with the
    standard error clustered by test case."""

    turns: int = Field(..., ge=0, description="Turns run on both sides.")
    cases: int = Field(..., ge=0, description="Test cases they are in (the clusters).")
    base_rate: float = Field(..., description="Mean of the turns' pass rates in BASE.")
    head_rate: float = Field(..., description="Mean of the turns' pass rates in HEAD.")
    difference: float = Field(..., description="head_rate - base_rate.")
    standard_error: float | None = Field(
        None, description="Of the difference, clustered by test case; none under two cases."
    )
    p_value: float | None = Field(
        None, description="One-sided (a fall), Student's t on cases - 1 degrees of freedom."
    )
    regression: bool = Field(
        ..., description="The suite's pass rate fell beyond noise (p below `gate.suite_alpha`)."
    )
    detectable_drop: float | None = Field(
        None, description="The smallest fall of the suite's pass rate caught with 80% power."
    )


class Gate(_Compared):
    """How the regressions were told from noise."""

    correction: Correction = Field(
        ..., description="Over the turns tested: bh (Benjamini-Hochberg) or holm."
    )
    turn_alpha: float = Field(..., description="The turns' share of alpha (half).")
    suite_alpha: float = Field(..., description="The suite's share of alpha (the other half).")
    tested: int = Field(
        ...,
        ge=0,
        description="Turns tested for a fall: those whose failures could show a fall beyond "
        "noise (the smallest p-value their margins allow is below turn_alpha).",
    )
    lone_level: float = Field(
        ...,
        description="The p-value a fall must be under when it is the only one: turn_alpha / "
        "tested (turn_alpha when none is).",
    )


class Comparison(_Compared):
    """`holodeck-lsp compare BASE HEAD --format json`."""

    version: Literal[2] = Field(2, description="Version of this format.")
    alpha: float = Field(..., description="The gate's false-alarm rate (`--alpha`).")
    base: RunSummary = Field(..., description="The earlier run (e.g. the main branch's).")
    head: RunSummary = Field(..., description="The later run (e.g. the pull request's).")
    turns: ChangeCounts = Field(..., description="Turns counted by change.")
    gate: Gate = Field(..., description="How regressions were told from noise.")
    suite: SuiteChange = Field(..., description="The suite's pass rate on both sides.")
    metrics: list[MetricChange] = Field(
        default_factory=list, description="Each metric's mean score over the run."
    )
    duration_delta_ms: int = Field(..., description="HEAD - BASE wall-clock time of the run.")
    tokens_delta: int | None = Field(None, description="HEAD - BASE tokens, when both count.")
    cases: list[CaseChange] = Field(
        default_factory=list,
        description="Every test case of either side: HEAD's order, "
        "then the removed ones in BASE's.",
    )
