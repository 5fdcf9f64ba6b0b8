"""`holodeck-lsp run` gives the verdicts `holodeck test` gives: HoloDeck 0.7.1's own runner
and ours on the same generated suites against the same scripted model service, every
`TestResult`, `TurnResult` and `MetricResult` field compared; only the documented
deviations (`excused.py`, docs/runner.md) may differ."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import holodeck_lsp.runner.score.arg_matchers as matchers
from tests.differential.runner.compare import Difference, compare_reports
from tests.differential.runner.excused import DEVIATIONS, SUMMARY_DEVIATION, unexcused
from tests.differential.runner.harness import RunPair, Suite, run_ours_only, run_pair
from tests.differential.runner.suites import (
    deviations_suite,
    flag_conflict_suite,
    generated_suite,
    geval_suite,
    rag_suite,
    structured_output_suite,
    timeout_suite,
)

pytestmark = pytest.mark.slow


def _left(suite: Suite, pair: RunPair) -> tuple[list[Difference], dict[str, int]]:
    assert pair.ours is not None, pair.our_stderr
    assert pair.theirs is not None, pair.their_output[-3000:]
    differences = compare_reports(pair.ours, pair.theirs)
    return unexcused(differences, suite.excuses, pair.ours, pair.theirs)


def test_generated_suites_agree_on_every_field(generated: list[tuple[Suite, RunPair]]) -> None:
    total = 0
    for suite, pair in generated:
        left, _ = _left(suite, pair)
        assert left == [], f"{suite.name}: " + "\n".join(map(str, left[:30]))
        assert pair.our_exit == pair.their_exit, (suite.name, pair.our_stderr)
        total += len(pair.ours["results"]) if pair.ours else 0
    assert total >= 500


def test_generated_suites_reach_every_branch(generated: list[tuple[Suite, RunPair]]) -> None:
    """The suites are not vacuous: verdicts both ways, and every kind of outcome seen."""
    results = [r for _, pair in generated for r in (pair.theirs or {}).get("results", [])]
    turns = [t for r in results for t in (r["turns"] or [r])]
    errors = " | ".join(e for r in results for e in r["errors"])
    metrics = [m for t in turns for m in t["metric_results"]]
    details = [d for t in turns if "arg_match_details" in t for d in t["arg_match_details"] or []]
    assert {r["passed"] for r in results} == {True, False}
    assert {r["turns"] is None for r in results} == {True, False}  # single and multi-turn
    for needle in (
        "Agent error: UserError: Error running tool boom",
        "Agent error: MaxTurnsExceeded: Max turns (20) exceeded",
        "Agent invocation error: OpenAI Agents run failed: UserError",
        "expected tool(s) not called in this turn",
        "mismatch: expected ≈",
        "mismatch: expected regex",
        "' missing",
        "matching call(s), got",
        "TestCaseFatal(raises)",
        "session became unrecoverable",
    ):
        assert needle in errors, needle
    assert {d["matched_call_index"] >= 0 for d in details} == {True, False}
    kinds = {(m["kind"], m["metric_name"]) for m in metrics}
    assert {("standard", "equality"), ("standard", "numeric"), ("standard", "bleu")} <= kinds
    graded_errors = {m["error"] for m in metrics if m["kind"] == "code" and m["error"]}
    assert any("unsupported type dict" in e for e in graded_errors)
    assert any(e.startswith("RuntimeError: grader broke") for e in graded_errors)
    assert any(m["error"] and "response_path=" in m["error"] for m in metrics)


def test_timeouts_agree(holodeck_cli: Path) -> None:
    suite = timeout_suite()
    pair = run_pair(suite, holodeck_cli)
    left, _ = _left(suite, pair)
    assert left == []
    assert pair.theirs is not None
    errors = [e for r in pair.theirs["results"] for e in r["errors"]]
    assert "[turn 0] timeout" in errors and "[turn 1] timeout" in errors


def test_a_judged_rag_metric_agrees(holodeck_cli: Path) -> None:
    """Faithfulness on a turn with retrieval_context, the judge scripted for HoloDeck's
    deepeval prompts and for ours: same score, verdict, model and reasoning; a turn without
    passages runs no RAG metric in either."""
    suite = rag_suite()
    pair = run_pair(suite, holodeck_cli)
    left, _ = _left(suite, pair)
    assert left == [], "\n".join(map(str, left))
    assert pair.theirs is not None
    grounded, bare = (r["turns"][0]["metric_results"] for r in pair.theirs["results"])
    assert [(m["metric_name"], m["score"], m["passed"], m["model_used"]) for m in grounded] == [
        ("faithfulness", 0.5, True, "gpt-4o-mini")
    ]
    assert bare == []


def test_a_geval_metric_without_a_threshold_agrees(holodeck_cli: Path) -> None:
    """G-Eval with no threshold: HoloDeck's `threshold or 0.5` (executor.py:649) is the
    pass mark of both runners, and neither reports a threshold."""
    suite = geval_suite()
    pair = run_pair(suite, holodeck_cli)
    left, _ = _left(suite, pair)
    assert left == [], "\n".join(map(str, left))
    assert pair.theirs is not None
    rows = [
        (m["score"], m["threshold"], m["passed"])
        for r in pair.theirs["results"]
        for m in r["turns"][0]["metric_results"]
    ]
    assert rows == [(0.8, None, True), (0.3, None, False)]


def test_documented_deviations_are_the_only_differences(holodeck_cli: Path) -> None:
    """One test case per deviation: each differs, and only as its docs entry says."""
    used: dict[str, int] = {}
    for suite in (deviations_suite(), flag_conflict_suite()):
        left, excused = _left(suite, run_pair(suite, holodeck_cli))
        assert left == [], "\n".join(map(str, left))
        for title, count in excused.items():
            used[title] = used.get(title, 0) + count
    assert set(used) == {d.title for d in DEVIATIONS.values()} | {SUMMARY_DEVIATION}
    docs = (Path(__file__).parents[3] / "docs" / "runner.md").read_text(encoding="utf-8")
    for title in used:
        assert f"#### {title}" in docs, title


def test_a_broken_matcher_is_caught(
    generated: list[tuple[Suite, RunPair]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The harness has teeth: a fuzzy matcher that forgets to lower-case shows up."""
    suite, pair = generated[0]
    assert pair.theirs is not None
    monkeypatch.setattr(matchers, "fuzzy_normalize", lambda value: " ".join(str(value).split()))
    broken = run_ours_only(suite)
    assert broken is not None
    left, _ = unexcused(compare_reports(broken, pair.theirs), suite.excuses, broken, pair.theirs)
    assert left, "a broken fuzzy matcher went unnoticed"
    assert any("arg_match_details" in d.path or "tools_matched" in d.path for d in left)


@settings(
    max_examples=3,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(seed=st.integers(min_value=100, max_value=10**6), size=st.integers(5, 25))
def test_random_suites_agree(holodeck_cli: Path, seed: int, size: int) -> None:
    suite = generated_suite(seed, size)
    left, _ = _left(suite, run_pair(suite, holodeck_cli))
    assert left == [], "\n".join(map(str, left[:30]))


def test_structured_output_agrees(holodeck_cli: Path) -> None:
    """A response_format agent: the same verdicts, replies and error lines as `holodeck
    test` for replies that follow the schema, are not JSON, or break it."""
    suite = structured_output_suite()
    pair = run_pair(suite, holodeck_cli)
    left, _ = _left(suite, pair)
    assert left == [], "\n".join(map(str, left))
    assert pair.theirs is not None
    errors = " | ".join(e for r in pair.theirs["results"] for e in r["errors"])
    for needle in (
        "Agent invocation error: OpenAI Agents run failed: ModelBehaviorError: Output is not "
        "valid JSON: Expecting value: line 1 column 1 (char 0)",
        "ModelBehaviorError: Output does not match response_format schema: 'sales' is not one",
        "Agent error: ModelBehaviorError: Output is not valid JSON",
    ):
        assert needle in errors, needle
    assert {r["passed"] for r in pair.theirs["results"]} == {True, False}
