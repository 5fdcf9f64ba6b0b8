"""What `holodeck-lsp history` tells of an agent's kept runs: each run with its pass rate
and interval, each turn over the runs. `history --format json` writes a `RunHistory`; its
JSON Schema, docs/history.schema.json, is generated from these models."""

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Interval = Literal["wilson", "clustered"]


class _Told(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)


class HistoryRunEntry(_Told):
    """One kept run."""

    id: str = Field(..., description="SHA-256 of the run's file: its identity.")
    file: str = Field(..., description="The run's file (an EvalRun of `run` or `holodeck test`).")
    time: str = Field(..., description="The report's timestamp, ISO 8601, as written.")
    made_by: str = Field(..., description="`holodeck-lsp X (HoloDeck 0.7.1)` or `HoloDeck X`.")
    prompt_version: str = Field(..., description="The prompt's version (frontmatter or `auto-`).")
    prompt_hash: str = Field(..., description="SHA-256 of the prompt's body.")
    model: str | None = Field(..., description="The agent's `model.name`.")
    git_commit: str | None = Field(..., description="The commit the run ran at.")
    cases: int = Field(..., ge=0, description="Test cases run.")
    cases_passed: int = Field(..., ge=0, description="Test cases passed (by the pass rule).")
    attempts: int = Field(..., ge=0, description="Attempts run (cases x `--repeat`).")
    attempts_passed: int = Field(..., ge=0, description="Attempts passed.")
    pass_rate: float = Field(..., ge=0, le=1, description="Attempts passed over attempts.")
    pass_rate_low: float = Field(..., ge=0, le=1, description="Low end of its 95% interval.")
    pass_rate_high: float = Field(..., ge=0, le=1, description="High end of its 95% interval.")
    interval: Interval = Field(
        ...,
        description="`wilson` (one attempt per case), or `clustered` by case (`--repeat`: "
        "a Wilson interval on the sample size the attempts' clustering leaves).",
    )
    tokens: int | None = Field(..., description="Tokens of every attempt; none if unreported.")
    duration_ms: int = Field(..., ge=0, description="The run's wall-clock time.")
    repeat: int = Field(..., ge=1, description="Attempts per test case.")
    pass_rule: str = Field(..., description="The rule of the case verdicts: all, any, a share.")
    interrupted: bool = Field(..., description="The run stopped before every case finished.")


class HistoryTurnEntry(_Told):
    """One turn of one test case over the runs shown."""

    case: str = Field(..., description="The test case's name, else `test_cases[i]`.")
    case_index: int = Field(..., ge=0, description="Its place in the suite, latest run.")
    turn: int = Field(..., ge=0, description="0-based position of the turn in its case.")
    runs: int = Field(..., ge=0, description="Runs that ran it.")
    runs_passed: int = Field(..., ge=0, description="Runs in which it passed (pass rule).")
    attempts: int = Field(..., ge=0, description="Attempts that ran it.")
    attempts_passed: int = Field(..., ge=0, description="Attempts in which it passed.")
    pass_rate: float = Field(..., ge=0, le=1, description="Attempts passed over attempts.")
    flaky: bool = Field(..., description="It both passed and failed.")
    failing_since: str | None = Field(
        ..., description="The `id` of the run where the failing it ends on began; none when "
        "it passed in the last run that ran it."
    )
    outcomes: str = Field(
        ..., description="One letter per run, in `runs` order: `p` passed, `f` failed, `-` "
        "not run."
    )


class RunHistory(_Told):
    """The runs of one results folder (oldest first) and their turns."""

    folder: str = Field(..., description="The results folder read.")
    agent: str | None = Field(..., description="The agent's name in the latest run shown.")
    runs: list[HistoryRunEntry] = Field(..., description="The runs shown, oldest first.")
    turns: list[HistoryTurnEntry] = Field(
        ..., description="Every turn of the runs shown, in the latest run's suite order."
    )
    refused: list[str] = Field(
        default_factory=list, description="Files of the folder that are not runs, and why."
    )
