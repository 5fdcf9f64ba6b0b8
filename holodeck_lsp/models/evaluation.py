"""Evaluation metrics: built-in, G-Eval, RAG and user-code graders."""

import re
from enum import Enum
from typing import Annotated, Any, Literal

from pydantic import Discriminator, Field, Tag, field_validator

from holodeck_lsp.models._base import StrictModel
from holodeck_lsp.models.errors import GRADER_FORMAT, fail, require_text
from holodeck_lsp.models.llm import LLMProvider, check_closed_range
from holodeck_lsp.models.optimizer import OptimizerConfig

BuiltInMetricName = Literal[
    "groundedness",
    "relevance",
    "coherence",
    "fluency",
    "bleu",
    "rouge",
    "meteor",
    "equality",
    "numeric",
]
# The built-in metrics by family, the one home of that fact (validation, the runner and its
# reports read it; METRIC_FAMILIES is what an editor can be given).
JUDGED_METRICS = frozenset({"groundedness", "relevance", "coherence", "fluency"})  # a judge rates
DETERMINISTIC_METRICS = frozenset({"equality", "numeric"})  # exact and numeric comparison
NGRAM_METRICS = frozenset({"bleu", "rouge", "meteor"})  # n-gram overlap
# Compared with `ground_truth`: they run only on a turn that has one.
GROUND_TRUTH_METRICS = DETERMINISTIC_METRICS | NGRAM_METRICS
METRIC_FAMILIES: dict[str, frozenset[str]] = {
    "judged": JUDGED_METRICS,
    "deterministic": DETERMINISTIC_METRICS,
    "ngram": NGRAM_METRICS,
}
EVALUATION_PARAMS = ("input", "actual_output", "expected_output", "context", "retrieval_context")

# One path segment: a key, then any number of [index] suffixes.
_SEGMENT = r"[A-Za-z_][\w-]*(?:\[\d+\])*"
# `$` also matches before a final newline, exactly as the loader we mirror reads it.
RESPONSE_PATH_RE = re.compile(rf"^{_SEGMENT}(?:\.{_SEGMENT})*$")
GRADER_RE = re.compile(r"[\w.]+:\w+")


class RAGMetricType(str, Enum):
    """The retrieval-augmented-generation metrics."""

    FAITHFULNESS = "faithfulness"
    CONTEXTUAL_RELEVANCY = "contextual_relevancy"
    CONTEXTUAL_PRECISION = "contextual_precision"
    CONTEXTUAL_RECALL = "contextual_recall"
    ANSWER_RELEVANCY = "answer_relevancy"


class EvaluationMetric(StrictModel):
    """A built-in metric: LLM-judged, NLP overlap, or deterministic (equality/numeric)."""

    type: Literal["standard"] = Field(
        "standard", description="Metric family; `standard` for the built-in metrics."
    )
    metric: BuiltInMetricName = Field(
        ...,
        description=(
            "Which built-in metric: `groundedness`, `relevance`, `coherence`, `fluency` "
            "(LLM-judged), `bleu`, `rouge`, `meteor` (text overlap with `ground_truth`), "
            "`equality` or `numeric` (deterministic comparison with `ground_truth`)."
        ),
    )
    threshold: float | None = Field(None, description="Score at or above which the metric passes.")
    enabled: bool = Field(True, description="Set to false to skip this metric.")
    scale: int | None = Field(
        None, gt=0, description="Score scale of LLM-judged metrics, e.g. 5 for a 1-5 scale."
    )
    model: LLMProvider | None = Field(
        None,
        description="Judge model for this metric only. Ignored by `equality` and `numeric`.",
    )
    fail_on_error: bool = Field(
        False, description="Fail the test case when this metric cannot be computed."
    )
    retry_on_failure: int | None = Field(
        None, ge=1, le=3, description="How many times to retry a failed judge call (1-3)."
    )
    timeout_ms: int | None = Field(
        None, gt=0, description="Time limit for one judge call, in milliseconds."
    )
    custom_prompt: str | None = Field(None, description="Replaces the judge's default prompt.")
    case_insensitive: bool = Field(
        False, description="`equality` only: compare both sides lower-cased."
    )
    strip_whitespace: bool = Field(
        False, description="`equality` only: trim and collapse runs of whitespace first."
    )
    strip_punctuation: bool = Field(
        False, description="`equality` only: remove ASCII punctuation first."
    )
    absolute_tolerance: float = Field(
        1e-6,
        ge=0.0,
        description="`numeric` only: pass when |actual - expected| <= this (inclusive).",
    )
    relative_tolerance: float = Field(
        0.0,
        ge=0.0,
        description="`numeric` only: pass when |actual - expected| <= this x |expected|.",
    )
    accept_percent: bool = Field(
        False, description="`numeric` only: read a trailing `%` as a division by 100."
    )
    accept_thousands_separators: bool = Field(
        False,
        description="`numeric` only: ignore `,`, `_` and narrow no-break spaces in numbers.",
    )
    response_path: str | None = Field(
        None,
        description=(
            "Grade one field of a JSON reply instead of the whole reply: dotted keys with "
            "optional [index] suffixes, e.g. `result.items[0].score`."
        ),
    )

    @field_validator("custom_prompt")
    @classmethod
    def _custom_prompt_not_blank(cls, value: str | None) -> str | None:
        return require_text(value, "custom_prompt")

    @field_validator("response_path")
    @classmethod
    def _response_path_grammar(cls, value: str | None) -> str | None:
        if value is not None and (not value.strip() or not RESPONSE_PATH_RE.match(value)):
            raise ValueError(
                "response_path must be dotted keys with optional [index] suffixes, "
                f"e.g. 'result.items[0].score'; got {value!r}"
            )
        return value


class GEvalMetric(StrictModel):
    """A custom LLM-judged metric described by natural-language criteria (G-Eval)."""

    type: Literal["geval"] = Field("geval", description="Metric family; `geval` here.")
    name: str = Field(..., description="Name of the metric in reports, e.g. `Professionalism`.")
    criteria: str = Field(..., description="What the judge should assess, in plain language.")
    evaluation_steps: list[str] | None = Field(
        None, description="Explicit judging steps; derived from `criteria` when omitted."
    )
    evaluation_params: list[str] = Field(
        default_factory=lambda: ["actual_output"],
        description=(
            "Which parts of the exchange the judge sees: `input`, `actual_output`, "
            "`expected_output`, `context`, `retrieval_context`."
        ),
    )
    strict_mode: bool = Field(False, description="Score only 1.0 or 0.0.")
    threshold: float | None = Field(
        None,
        description="Score (0-1) at or above which the metric passes.",
        json_schema_extra={"minimum": 0.0, "maximum": 1.0},
    )
    model: LLMProvider | None = Field(None, description="Judge model for this metric only.")
    enabled: bool = Field(True, description="Set to false to skip this metric.")
    fail_on_error: bool = Field(
        False, description="Fail the test case when this metric cannot be computed."
    )

    @field_validator("name", "criteria")
    @classmethod
    def _not_blank(cls, value: str, info: object) -> str:
        field = getattr(info, "field_name", "value")
        return require_text(value, field) or value

    @field_validator("threshold")
    @classmethod
    def _threshold_range(cls, value: float | None) -> float | None:
        return check_closed_range(value, 0.0, 1.0)  # a NaN passes, as in HoloDeck

    @field_validator("evaluation_params")
    @classmethod
    def _known_params(cls, value: list[str]) -> list[str]:
        if not value:
            raise ValueError("evaluation_params must not be empty")
        unknown = sorted(set(value) - set(EVALUATION_PARAMS))
        if unknown:
            raise ValueError(
                f"unknown evaluation_params {unknown}; allowed: {', '.join(EVALUATION_PARAMS)}"
            )
        return value


class RAGMetric(StrictModel):
    """A metric of a retrieval pipeline, judged against the turn's `retrieval_context`."""

    type: Literal["rag"] = Field("rag", description="Metric family; `rag` here.")
    metric_type: RAGMetricType = Field(
        ...,
        description=(
            "Which RAG metric: `faithfulness`, `contextual_relevancy`, "
            "`contextual_precision`, `contextual_recall` or `answer_relevancy`."
        ),
    )
    threshold: float = Field(
        0.5, ge=0.0, le=1.0, description="Score (0-1) at or above which the metric passes."
    )
    include_reason: bool = Field(True, description="Ask the judge for its reasoning.")
    model: LLMProvider | None = Field(None, description="Judge model for this metric only.")
    enabled: bool = Field(True, description="Set to false to skip this metric.")
    fail_on_error: bool = Field(
        False, description="Fail the test case when this metric cannot be computed."
    )


class CodeMetric(StrictModel):
    """A metric computed by your own Python function (`module.path:callable`)."""

    type: Literal["code"] = Field("code", description="Metric family; `code` here.")
    grader: str = Field(
        ...,
        description=(
            "The grader function as `module.path:callable`, imported with the agent "
            "file's folder first on the module search path."
        ),
    )
    threshold: float | None = Field(
        None,
        description="Pass mark applied when the grader returns a bare score without `passed`.",
    )
    enabled: bool = Field(True, description="Set to false to skip this metric.")
    fail_on_error: bool = Field(
        False,
        description=(
            "When the grader raises, fail the whole test case and skip its remaining turns "
            "(by default only this metric on this turn fails)."
        ),
    )
    name: str | None = Field(
        None, description="Name of the metric in reports; defaults to the callable's name."
    )

    @field_validator("grader")
    @classmethod
    def _grader_shape(cls, value: str) -> str:
        if not GRADER_RE.fullmatch(value):
            raise fail(
                GRADER_FORMAT,
                "grader must look like 'module.path:callable', got '{grader}'",
                grader=value,
            )
        return value

    @property
    def display_name(self) -> str:
        """The name used in reports."""
        return self.name or self.grader.partition(":")[2]


# Agent-level metrics are told apart by `type`, which must therefore be present there;
# test-case and turn metrics are a plain union (an entry without `type` is `standard`).
# A metric of any kind, once validated (what the runner plans, scores and reports).
MetricConfig = EvaluationMetric | GEvalMetric | RAGMetric | CodeMetric
MetricType = Annotated[MetricConfig, Field(discriminator="type")]
_KIND_BY_KEY = (("grader", "code"), ("criteria", "geval"), ("metric_type", "rag"))


def metric_kind(value: Any) -> str:
    """Which metric an entry is: its `type`, else the one whose required key it has.

    Every `type` has a default, so without one the loader accepts whichever model fits;
    each model has a required key that no other has, so the key decides the same way.
    """
    if not isinstance(value, dict):
        return "standard"
    if "type" in value:
        return str(value["type"])
    for key, kind in _KIND_BY_KEY:
        if key in value:
            return kind
    return "standard"


AnyMetric = Annotated[
    Annotated[EvaluationMetric, Tag("standard")]
    | Annotated[GEvalMetric, Tag("geval")]
    | Annotated[RAGMetric, Tag("rag")]
    | Annotated[CodeMetric, Tag("code")],
    Discriminator(metric_kind),
]


class EvaluationConfig(StrictModel):
    """The agent's default metrics, their judge model, and the optimizer settings."""

    model: LLMProvider | None = Field(
        None, description="Default judge model for every LLM-judged metric."
    )
    metrics: list[MetricType] = Field(
        ...,
        min_length=1,
        description="Metrics applied to every test case and turn that does not override them.",
    )
    optimizer: OptimizerConfig | None = Field(
        None, description="Settings of the prompt/parameter optimizer."
    )
