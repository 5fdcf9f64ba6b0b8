"""What a test run produces: per-metric, per-turn and per-test-case results, the summary
and the report."""

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator
from pydantic_core import PydanticCustomError

from holodeck_lsp.models.test_case import FileInput
from holodeck_lsp.models.token_usage import TokenUsage

MetricKind = Literal["standard", "rag", "geval", "code"]

# Longer than any time ISO 8601 writes (`2026-01-02T03:04:05.123456+05:30`, 32).
_TIME_LIMIT = 64


def _iso_8601(value: str) -> str:
    """A time as ISO 8601 writes it (HoloDeck's and ours: `datetime.isoformat()`), kept as
    written; anything else refused: a report is a file anyone can edit, and its times are
    shown as they are."""
    if value.isascii() and len(value) <= _TIME_LIMIT:
        time = value.upper()  # RFC 3339 allows `t` and `z`
        try:  # Python 3.10's parser does not take the `Z` of UTC
            datetime.fromisoformat(time[:-1] + "+00:00" if time.endswith("Z") else time)
            return value
        except ValueError:
            pass
    raise PydanticCustomError("iso_8601", "not an ISO 8601 date and time")


ISO_8601 = AfterValidator(_iso_8601)
Timestamp = Annotated[str, ISO_8601]


class _Result(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)


class MetricResult(_Result):
    """The outcome of one metric on one turn, or its roll-up over a test case."""

    metric_name: str = Field(..., description="Metric name (the grader's for code metrics).")
    kind: MetricKind = Field("standard", description="Metric family.")
    score: float = Field(..., description="The score.")
    threshold: float | None = Field(None, description="The pass mark applied, if any.")
    passed: bool | None = Field(None, description="Whether the metric passed.")
    scale: str | None = Field(None, description="Scale of the score, e.g. `0-1`.")
    error: str | None = Field(None, description="Why the metric could not be computed.")
    retry_count: int | None = Field(None, description="Judge retries used.")
    evaluation_time_ms: int | None = Field(None, description="Time spent computing it.")
    model_used: str | None = Field(None, description="Judge model, for LLM-judged metrics.")
    reasoning: str | None = Field(None, description="The judge's or grader's reasoning.")


class ToolInvocation(_Result):
    """One tool call the agent made, with its arguments and result."""

    name: str = Field(..., description="Name of the tool called.")
    args: dict[str, Any] = Field(default_factory=dict, description="Arguments of the call.")
    result: Any = Field(None, description="What the tool returned.")
    bytes: int = Field(0, ge=0, description="Size of the serialized result.")
    duration_ms: int | None = Field(None, description="How long the tool ran.")
    error: str | None = Field(None, description="Error raised by the tool, if any.")


class ProcessedFileInput(_Result):
    """A file input after conversion for the agent."""

    original: FileInput = Field(..., description="The file as configured.")
    markdown_content: str = Field(..., description="Its text as sent to the agent.")
    metadata: dict[str, Any] | None = Field(None, description="Facts found while converting.")
    cached_path: str | None = Field(None, description="Where the converted file is cached.")
    processing_time_ms: int | None = Field(None, description="Conversion time.")
    error: str | None = Field(None, description="Why conversion failed, if it did.")


class TurnResult(_Result):
    """The outcome of one turn of a multi-turn test case."""

    turn_index: int = Field(..., ge=0, description="0-based position of the turn.")
    input: str = Field(..., description="The turn's input, verbatim.")
    response: str | None = Field(None, description="The agent's reply; none if it failed.")
    ground_truth: str | None = Field(None, description="The turn's expected reply.")
    expected_tools: list[Any] | None = Field(None, description="The turn's tool assertions.")
    tool_calls: list[str] = Field(default_factory=list, description="Names of tools called.")
    tool_invocations: list[ToolInvocation] = Field(
        default_factory=list, description="Tool calls with arguments and results."
    )
    tools_matched: bool | None = Field(
        None, description="Whether every tool assertion held; none without assertions."
    )
    arg_match_details: list[dict[str, Any]] | None = Field(
        None,
        description=(
            "One record per assertion: tool, args_asserted, matched_call_index, unmatched_reason."
        ),
    )
    metric_results: list[MetricResult] = Field(..., description="Metrics run on this turn.")
    passed: bool = Field(..., description="No errors, not skipped, tools matched, metrics passed.")
    execution_time_ms: int = Field(..., ge=0, description="Time of this turn's exchange.")
    token_usage: TokenUsage | None = Field(None, description="Tokens used by this turn.")
    errors: list[str] = Field(default_factory=list, description="Timeouts, backend errors, ...")
    skipped: bool = Field(False, description="The session broke before this turn ran.")
    grader_details: dict[str, Any] | None = Field(
        None, description="Details returned by code graders, by metric name."
    )


class TestResult(_Result):
    """The outcome of one test case; multi-turn cases roll their turns up."""

    __test__ = False

    test_name: str | None = Field(None, description="Name of the test case.")
    test_input: str = Field(..., description="Input; turns joined with a `---` line.")
    processed_files: list[ProcessedFileInput] = Field(default_factory=list)
    agent_response: str | None = Field(None, description="Final reply of the agent.")
    tool_calls: list[str] = Field(default_factory=list, description="Tool names, in order.")
    tool_invocations: list[ToolInvocation] = Field(default_factory=list)
    expected_tools: list[Any] | None = Field(None, description="All tool assertions.")
    tools_matched: bool | None = Field(None, description="Whether every assertion held.")
    metric_results: list[MetricResult] = Field(default_factory=list)
    ground_truth: str | None = Field(None, description="Expected reply (single-turn only).")
    passed: bool = Field(..., description="Whether the test case passed.")
    execution_time_ms: int = Field(..., ge=0, description="Wall-clock time of the case.")
    errors: list[str] = Field(default_factory=list, description="Errors, `[turn N]`-prefixed.")
    timestamp: Timestamp = Field(..., description="ISO 8601 time the case ran.")
    token_usage: TokenUsage | None = Field(None, description="Sum over the turns.")
    turns: list[TurnResult] | None = Field(None, description="Per-turn results (multi-turn).")


class ReportSummary(_Result):
    """Counts and averages of a run; counts are of test cases, not turns."""

    total_tests: int = Field(..., ge=0, description="Test cases run.")
    passed: int = Field(..., ge=0, description="Test cases passed.")
    failed: int = Field(..., ge=0, description="Test cases failed.")
    pass_rate: float = Field(..., description="Percentage passed, 0-100.")
    total_duration_ms: int = Field(..., ge=0, description="Wall-clock time of the run.")
    metrics_evaluated: dict[str, int] = Field(
        default_factory=dict, description="How often each metric ran."
    )
    average_scores: dict[str, float] = Field(
        default_factory=dict, description="Mean score of each metric."
    )

    @model_validator(mode="after")
    def _counts_add_up(self) -> "ReportSummary":
        if self.passed + self.failed != self.total_tests:
            raise ValueError(
                f"passed ({self.passed}) + failed ({self.failed}) != "
                f"total_tests ({self.total_tests})"
            )
        return self


class ScoreSpread(_Result):
    """How one metric's score varied over the attempts of a repeated test case."""

    min: float = Field(..., description="Lowest score.")
    max: float = Field(..., description="Highest score.")
    mean: float = Field(..., description="Mean score.")
    stdev: float = Field(..., description="Population standard deviation.")


class RepeatedCase(_Result):
    """A test case run several times in fresh sessions (`run --repeat K`)."""

    __test__ = False

    test_name: str | None = Field(None, description="Name of the test case.")
    attempts: int = Field(..., ge=0, description="Attempts run.")
    passed_attempts: int = Field(..., ge=0, description="Attempts that passed.")
    passed: bool = Field(..., description="The verdict of the pass rule.")
    flaky: bool = Field(..., description="Some attempts passed and some failed.")
    pass_hat_k: dict[str, float] = Field(
        default_factory=dict,
        description="pass^k for k = 1..attempts: the chance that k attempts all pass.",
    )
    pass_at_k: dict[str, float] = Field(
        default_factory=dict,
        description="pass@k for k = 1..attempts: the chance that one of k attempts passes.",
    )
    turn_pass_rates: list[float] = Field(
        default_factory=list, description="Share of attempts in which each turn passed."
    )
    metric_scores: dict[str, ScoreSpread] = Field(
        default_factory=dict, description="Each metric's score over the attempts."
    )
    results: list[TestResult] = Field(default_factory=list, description="Every attempt.")


class TestReport(_Result):
    """A whole run: every test case's result and the summary."""

    __test__ = False

    agent_name: str = Field(..., description="Name of the agent tested.")
    agent_config_path: str = Field(..., description="Path of the agent file.")
    results: list[TestResult] = Field(default_factory=list, description="One per test case.")
    summary: ReportSummary = Field(..., description="Counts and averages.")
    timestamp: Timestamp = Field(..., description="ISO 8601 time the report was made.")
    holodeck_version: str = Field(..., description="Version of the tool that ran the suite.")
    environment: dict[str, str] = Field(default_factory=dict, description="Run environment.")
    interrupted: bool = Field(
        False, description="The run stopped before every selected test case had finished."
    )
    stop_reason: str | None = Field(None, description="Why an interrupted run stopped.")
    not_run: list[str] = Field(
        default_factory=list, description="Test cases of an interrupted run that did not run."
    )
    repeats: list[RepeatedCase] = Field(
        default_factory=list,
        description="With `--repeat K`: every attempt of each test case, and their statistics.",
    )

    @model_validator(mode="after")
    def _one_result_per_case(self) -> "TestReport":
        if len(self.results) != self.summary.total_tests:
            raise ValueError("summary.total_tests must equal the number of results")
        return self
