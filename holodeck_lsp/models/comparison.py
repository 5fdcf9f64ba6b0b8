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


class _Compared(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)


class TurnOutcome(_Compared):
    """One run's outcome of a turn; with `--repeat`, over every attempt."""

    passed: bool = Field(
        ..., description="The turn's verdict: passed in the one attempt, or by the pass rule."
    )
    attempts: int = Field(..., ge=1, description="Attempts in which the turn ran.")
    passed_attempts: int = Field(..., ge=0, description="Attempts in which it passed.")
    duration_ms: float = Field(..., ge=0, description="Time of the turn (mean over attempts).")
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
        description="A regression `--fail-on regressed` fails on: passed -> failed in runs of "
        "one attempt; with --repeat, a pass rate fallen beyond noise.",
    )
    p_value: float | None = Field(
        None,
        description="Two-sided Fisher's exact test of the pass rates (with --repeat on a "
        "side, when they differ).",
    )
    noise: Noise | None = Field(
        None,
        description="With --repeat on a side and the pass rates different: whether the change "
        "is beyond noise (p < alpha), within it, or could not be told with so few attempts.",
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


class Comparison(_Compared):
    """`holodeck-lsp compare BASE HEAD --format json`."""

    version: Literal[1] = Field(1, description="Version of this format.")
    alpha: float = Field(..., description="Significance level of the noise test.")
    base: RunSummary = Field(..., description="The earlier run (e.g. the main branch's).")
    head: RunSummary = Field(..., description="The later run (e.g. the pull request's).")
    turns: ChangeCounts = Field(..., description="Turns counted by change.")
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
