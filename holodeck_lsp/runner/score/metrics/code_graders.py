"""User-code graders (`type: code`): the context they read and the results they return."""

from __future__ import annotations

import asyncio
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from holodeck_lsp.models.evaluation import CodeMetric
from holodeck_lsp.models.test_result import ToolInvocation
from holodeck_lsp.run_defaults import DEFAULT_GRADER_TIMEOUT
from holodeck_lsp.runner.services.user_threads import in_thread

DEFAULT_PASS_MARK = 0.5  # a score passes at this without a threshold (HoloDeck's rule)

# HoloDeck's code metric has no time limit of its own: a grader that runs longer than this
# fails its metric (--grader-timeout changes it).


@dataclass(frozen=True)
class GraderContext:
    """What a grader sees of one turn. Read-only: graders judge, they do not edit."""

    turn_input: str
    agent_response: str
    ground_truth: str | None
    tool_invocations: tuple[ToolInvocation, ...]
    retrieval_context: tuple[str, ...] | None
    turn_index: int
    test_case_name: str | None
    turn_config: Mapping[str, Any]


def make_context(
    *,
    turn_input: str,
    agent_response: str,
    ground_truth: str | None,
    tool_invocations: list[ToolInvocation],
    retrieval_context: list[str] | None,
    turn_index: int,
    test_case_name: str | None,
    turn_config: dict[str, Any] | None,
) -> GraderContext:
    return GraderContext(
        turn_input=turn_input,
        agent_response=agent_response,
        ground_truth=ground_truth,
        # Copies: a grader that mutates what it was given cannot reach the report.
        tool_invocations=tuple(t.model_copy(deep=True) for t in tool_invocations),
        retrieval_context=tuple(retrieval_context) if retrieval_context is not None else None,
        turn_index=turn_index,
        test_case_name=test_case_name,
        turn_config=MappingProxyType(dict(turn_config or {})),
    )


@dataclass(frozen=True)
class GraderOutcome:
    score: float
    passed: bool
    reason: str | None
    details: Any


class GraderReturnError(TypeError):
    """The grader returned something the contract does not allow."""


def _field(value: Any, name: str) -> Any:
    return getattr(value, name, None)


def interpret(value: Any, threshold: float | None) -> GraderOutcome:
    """Score and verdict from a grader's return value.

    Passed is the explicit `passed`, else `score >= threshold`, else `score >= 0.5`.
    """
    if isinstance(value, bool):
        return GraderOutcome(1.0 if value else 0.0, value, None, None)
    if isinstance(value, (int, float)):
        score, passed, reason, details = float(value), None, None, None
    elif not isinstance(value, Mapping) and (hasattr(value, "score") or hasattr(value, "passed")):
        raw_score, raw_passed = _field(value, "score"), _field(value, "passed")
        if raw_passed is not None and not isinstance(raw_passed, bool):
            raise GraderReturnError(f"'passed' must be a bool, got {raw_passed!r}")
        if raw_score is None:
            if raw_passed is None:
                raise GraderReturnError("a grader result needs 'score' or 'passed'")
            raw_score = 1.0 if raw_passed else 0.0
        if isinstance(raw_score, bool) or not isinstance(raw_score, (int, float)):
            raise GraderReturnError(f"'score' must be a number, got {raw_score!r}")
        score, passed = float(raw_score), raw_passed
        reason = _field(value, "reason")
        details = _field(value, "details")
    else:
        raise GraderReturnError(
            f"grader returned unsupported type {type(value).__name__}; "
            "expected bool, float, or GraderResult"
        )
    if not math.isfinite(score) or not 0.0 <= score <= 1.0:
        raise GraderReturnError(f"score must be within [0, 1], got {score!r}")
    if passed is None:
        passed = score >= (threshold if threshold is not None else DEFAULT_PASS_MARK)
    return GraderOutcome(score, passed, None if reason is None else str(reason), details)


class GraderTimeout(Exception):
    """The grader did not return within its time limit."""


async def run_grader(
    grader: Callable[..., Any],
    ctx: GraderContext,
    metric: CodeMetric,
    timeout: float = DEFAULT_GRADER_TIMEOUT,
) -> GraderOutcome:
    """Call the grader (plain or async) off the event loop, bounded by ``timeout`` seconds;
    exceptions propagate to the caller (SystemExit and KeyboardInterrupt contained)."""
    try:
        value = await asyncio.wait_for(in_thread(grader, ctx), timeout)
    except asyncio.TimeoutError:
        raise GraderTimeout(
            f"the grader did not return within {timeout:g}s (--grader-timeout); it was abandoned"
        ) from None
    return interpret(value, metric.threshold)
