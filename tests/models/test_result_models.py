"""The run-time models (results, summary, report): token sums, counts that add up."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from holodeck_lsp.models.test_result import MetricResult, ReportSummary, TestResult, TurnResult
from holodeck_lsp.models.token_usage import TokenUsage


def test_token_usage_sums_all_four_counts_and_zero_is_neutral() -> None:
    a = TokenUsage(prompt_tokens=10, completion_tokens=5, total_tokens=20, cache_read_tokens=5)
    b = TokenUsage(prompt_tokens=1, completion_tokens=2, total_tokens=3, cache_creation_tokens=7)
    assert (a + b).model_dump() == {
        "prompt_tokens": 11,
        "completion_tokens": 7,
        "total_tokens": 23,
        "cache_creation_tokens": 7,
        "cache_read_tokens": 5,
    }
    assert a + TokenUsage.zero() == a


def test_token_total_may_exceed_but_not_undercut_the_parts() -> None:
    TokenUsage(prompt_tokens=10, completion_tokens=5, total_tokens=15)
    with pytest.raises(ValidationError, match="must be >= prompt"):
        TokenUsage(prompt_tokens=10, completion_tokens=5, total_tokens=14)


def test_legacy_token_usage_without_cache_fields_loads() -> None:
    usage = TokenUsage.model_validate(
        {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}
    )
    assert (usage.cache_creation_tokens, usage.cache_read_tokens) == (0, 0)


def test_summary_counts_test_cases() -> None:
    ReportSummary(total_tests=3, passed=2, failed=1, pass_rate=66.7, total_duration_ms=5)
    with pytest.raises(ValidationError, match=r"passed \(2\) \+ failed \(2\) != total_tests"):
        ReportSummary(total_tests=3, passed=2, failed=2, pass_rate=50, total_duration_ms=5)


def test_metric_kind_includes_code_and_turns_are_optional() -> None:
    metric = MetricResult(metric_name="cash_change", kind="code", score=1.0, passed=True)
    turn = TurnResult(
        turn_index=0, input="hi", metric_results=[metric], passed=True, execution_time_ms=3
    )
    legacy = TestResult(
        test_input="hi", passed=True, execution_time_ms=3, timestamp="2026-01-01T00:00:00Z"
    )
    assert legacy.turns is None
    rolled = TestResult(
        test_input="hi",
        passed=True,
        execution_time_ms=3,
        timestamp="2026-01-01T00:00:00Z",
        turns=[turn],
    )
    assert rolled.model_dump()["turns"][0]["metric_results"][0]["kind"] == "code"
    with pytest.raises(ValidationError):
        MetricResult(metric_name="x", kind="llm", score=1.0)
