"""What scoring found on one turn, as data: each tool assertion and argument matcher with
the field path it is written at, each metric result with the place it is configured, and
why the turn gave nothing to judge. HoloDeck's `TurnResult`, the run's events, the report
formats and the editor's diagnostics are all rendered from it (a report read back is the
same record, `read_back.py`); no renderer judges a turn again or reads its error lines for
what they say.

`failures` says what failed, where it is shown and in which words, once for the
command line's events, the language server and the VS Code extension alike.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from holodeck_lsp.models.evaluation import GROUND_TRUTH_METRICS
from holodeck_lsp.models.test_result import MetricResult
from holodeck_lsp.runner.score.metrics.code_graders import DEFAULT_PASS_MARK
from holodeck_lsp.validation.yaml.source_map import YamlPath


@dataclass(frozen=True, slots=True)
class Check:
    """One tool assertion (`kind` "tool": an expected tool, by name, by its arguments or by
    its count) or one argument matcher (`kind` "arg"), judged."""

    path: YamlPath  # where it is written; `.count` when only the number of calls fell short
    kind: Literal["tool", "arg"]
    passed: bool | None  # None: a report read back keeps only the case's verdict on it
    message: str | None  # why it did not hold, as `holodeck test` words it
    expected: Any  # the tool's name, or the argument's matcher as written
    actual: Any  # the names of the turn's calls, or the argument's value (None: missing)
    call: int | None = None  # the call its verdict was taken on (the match, when it held)
    args: tuple[Check, ...] = ()  # an expected tool's argument matchers, on that call


@dataclass(frozen=True, slots=True)
class ToolVerdict:
    """What a turn's tool assertions say: `matched` and `details` as `TurnResult` has
    them (None without assertions), the error lines they add, and each assertion."""

    matched: bool | None = None
    details: list[dict[str, Any]] | None = None
    errors: tuple[str, ...] = ()
    checks: tuple[Check, ...] = ()


NO_ASSERTIONS = ToolVerdict()  # a turn without `expected_tools`


def compares_reply(result: MetricResult) -> bool:
    """Whether the metric compares the reply with the turn's `ground_truth`."""
    return result.kind == "standard" and result.metric_name in GROUND_TRUTH_METRICS


@dataclass(frozen=True, slots=True)
class MetricScore:
    """One metric's result on the turn and the place its configuration is written at."""

    path: YamlPath | None  # None: a report read back without its suite
    result: MetricResult


# Why a score failed when no threshold was applied: the metric's own rule.
_RULES_WITHOUT_THRESHOLD = {
    "equality": "not the ground truth",
    "numeric": "not the ground truth within tolerance",
    "code": "below 0.5, the pass mark of a grader without a threshold",
}


def metric_reason(result: MetricResult) -> str:
    """Why a metric failed, the one reading every output gives: its error, its reasoning,
    else its score against the threshold, else against the metric's own rule."""
    if result.error or result.reasoning:
        return str(result.error or result.reasoning)
    score = f"score {result.score:g}"
    mark = result.threshold if result.threshold is not None else DEFAULT_PASS_MARK
    if result.kind == "code" and result.score >= mark:  # a result object's own `passed`
        return f"{score}, yet the grader returned passed: false"
    if result.threshold is not None:
        return f"{score} below threshold {result.threshold:g}"
    rule = _RULES_WITHOUT_THRESHOLD.get("code" if result.kind == "code" else result.metric_name)
    return f"{score}: {rule}" if rule else score


@dataclass(frozen=True, slots=True)
class Failure:
    """What failed, at the field path it is shown at, in words; a failed comparison
    carries both sides (the `ground_truth` and the reply)."""

    path: YamlPath
    message: str
    expected: str | None = None
    actual: str | None = None


@dataclass(frozen=True, slots=True)
class TurnScore:
    """Everything scoring found on one turn (a single-turn case is its own turn 0)."""

    path: YamlPath  # the turn's, or a single-turn case's
    tools: ToolVerdict = NO_ASSERTIONS
    metrics: tuple[MetricScore, ...] = ()
    failure: str | None = None  # why there was no reply to judge (a timeout, an agent error)
    ground_truth: str | None = None
    response: str | None = None
    # Metrics that could not be computed with `fail_on_error`, and a grader that raised.
    metric_errors: tuple[str, ...] = ()
    skipped: str | None = None  # why the turn never ran (its session had ended)

    @property
    def checks(self) -> tuple[Check, ...]:
        return self.tools.checks

    @property
    def errors(self) -> list[str]:
        """The turn's error lines, in `holodeck test`'s order."""
        if self.skipped is not None:
            return [self.skipped]
        failure = [self.failure] if self.failure is not None else []
        return [*failure, *self.tools.errors, *self.metric_errors]

    @property
    def passed(self) -> bool:
        """Ran, no error, no tool assertion that did not hold, no metric that failed."""
        if self.skipped is not None or self.failure is not None or self.metric_errors:
            return False
        if self.tools.errors or self.tools.matched is False:
            return False
        return all(m.result.passed is not False for m in self.metrics)

    def failures(self) -> list[Failure]:
        """Each thing that failed, shown where it is written: a turn that gave no reply at
        its `input`; an expected tool whose argument did not match at that argument (the
        tool then says nothing more); a metric that compares the reply at the turn's
        `ground_truth` with both sides; any other metric (or one without a `ground_truth`)
        at its configuration."""
        out: list[Failure] = []
        if self.skipped is not None:
            return out
        if self.failure is not None:
            out.append(Failure((*self.path, "input"), self.failure))
        for check in self.checks:
            failed_args = [a for a in check.args if a.passed is False]
            for part in failed_args or ([check] if check.passed is False else []):
                out.append(Failure(part.path, part.message or "assertion failed"))
        for metric in self.metrics:
            if metric.result.passed is not False:
                continue
            message = f"metric {metric.result.metric_name} failed: {metric_reason(metric.result)}"
            if compares_reply(metric.result) and self.ground_truth is not None:
                truth = (*self.path, "ground_truth")
                out.append(Failure(truth, message, self.ground_truth, self.response))
            elif metric.path is not None:
                out.append(Failure(metric.path, message))
            else:
                out.append(Failure(self.path, message))
        return out


def case_failures(
    case_path: YamlPath, turns: list[Failure], passed: bool, errors: list[str]
) -> list[Failure]:
    """A test case's failures: its turns' (``turns``), else (its turns were skipped) its
    errors at the case itself."""
    if turns or passed:
        return turns
    return [Failure(case_path, "\n".join(errors) or "the test case failed")]
