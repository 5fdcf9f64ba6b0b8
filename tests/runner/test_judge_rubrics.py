"""What a judge is asked, and how its reply becomes a score or a malformed-reply error."""

from __future__ import annotations

import textwrap
from typing import Any

import pytest

from holodeck_lsp.models.evaluation import EvaluationMetric, GEvalMetric, RAGMetric
from holodeck_lsp.runner.score.metrics.judge_replies import MalformedReply, parse_object
from holodeck_lsp.runner.score.metrics.rubrics import JudgeInputs, rubric_for

GIVEN = JudgeInputs(
    input="What was revenue in 2021?",
    response="1,402,775",
    ground_truth="1402775",
    context='tool lookup({"metric": "revenue", "year": "2021"}) -> 1402775.0',
    retrieval_context=["Revenue 2021: 1,402,775", "Capex 2021: 49,960"],
)


def test_the_geval_prompt() -> None:
    metric = GEvalMetric.model_validate(
        {
            "name": "Answer format",
            "criteria": "The reply is the number asked for, nothing else.",
            "evaluation_steps": [
                "Find the figure the input asks for.",
                "Check the reply gives only that figure.",
            ],
            "evaluation_params": ["input", "actual_output"],
        }
    )
    assert rubric_for(metric, GIVEN).prompt == textwrap.dedent(
        """\
        Grade the material below against the criteria of the metric 'Answer format'. \
You are given: the user's input (<input>), the agent's reply (<actual_output>).

        <criteria>
        The reply is the number asked for, nothing else.
        </criteria>

        Apply these evaluation steps, in order:
        1. Find the figure the input asks for.
        2. Check the reply gives only that figure.

        Score from 0 (does not meet the criteria at all) to 10 (fully meets them).

        <input>
        What was revenue in 2021?
        </input>

        <actual_output>
        1,402,775
        </actual_output>

        Reply with exactly this JSON object and nothing else:
        {"score": <a number from 0 to 10>, "reason": "<one or two sentences>"}"""
    )


def test_the_groundedness_prompt_on_its_scale_with_the_turns_context() -> None:
    metric = EvaluationMetric.model_validate({"metric": "groundedness", "scale": 3})
    assert rubric_for(metric, GIVEN).prompt == textwrap.dedent(
        """\
        Rate how well the response is grounded in the context: every fact, figure and \
claim it states must appear in the context or follow directly from it. Use no knowledge \
of your own.

        Give a rating from 1 (most of what it states is missing from the context or \
contradicts it) to 3 (everything it states is supported by the context).

        <question>
        What was revenue in 2021?
        </question>

        <context>
        tool lookup({"metric": "revenue", "year": "2021"}) -> 1402775.0
        </context>

        <response>
        1,402,775
        </response>

        Reply with exactly this JSON object and nothing else:
        {"score": <a number from 1 to 3>, "reason": "<one or two sentences>"}"""
    )


def test_a_custom_prompt_replaces_the_task_but_not_the_reply_format() -> None:
    metric = EvaluationMetric.model_validate(
        {"metric": "relevance", "custom_prompt": "Is the figure the one asked for?"}
    )
    prompt = rubric_for(metric, GIVEN).prompt
    assert prompt.startswith("Is the figure the one asked for?\n\nGive a rating from 1 (")
    assert prompt.endswith('{"score": <a number from 1 to 5>, "reason": "<one or two sentences>"}')


@pytest.mark.parametrize(
    "text",
    [
        '{"score": 4}',
        '  ```json\n{"score": 4}\n```  ',
        'Here is my grade:\n{"score": 4}\nThanks.',
    ],
    ids=["bare", "fenced", "wrapped in prose"],
)
def test_the_reply_object_is_found(text: str) -> None:
    assert parse_object(text) == {"score": 4}


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("", "the reply is empty"),
        ("four", "the reply is not a JSON object"),
        ("[4]", "the reply is not a JSON object"),
        ('{"score": 4', "the reply is not a JSON object"),
    ],
)
def test_replies_without_an_object(text: str, why: str) -> None:
    with pytest.raises(MalformedReply, match=f"^{why}$"):
        parse_object(text)


def _read(metric: Any, data: dict[str, Any]) -> tuple[float, str | None]:
    verdict = rubric_for(metric, GIVEN).read(data)
    return round(verdict.score, 6), verdict.reason


RELEVANCE = EvaluationMetric.model_validate({"metric": "relevance"})
STRICT = GEvalMetric.model_validate({"name": "Exact", "criteria": "Exact.", "strict_mode": True})
PRECISION = RAGMetric.model_validate({"metric_type": "contextual_precision"})
FAITHFULNESS = RAGMetric.model_validate({"metric_type": "faithfulness", "include_reason": False})


@pytest.mark.parametrize(
    ("metric", "data", "expected"),
    [
        (RELEVANCE, {"score": 5, "reason": "exact"}, (1.0, "exact")),
        (RELEVANCE, {"score": 1}, (0.2, None)),  # the rating over the scale
        (RELEVANCE, {"score": 3.5, "reason": ["a", "b"]}, (0.7, '["a", "b"]')),
        (STRICT, {"score": 1, "reason": "all met"}, (1.0, "all met")),
        (STRICT, {"score": 0}, (0.0, None)),
        (PRECISION, {"verdicts": [{"verdict": "yes"}, {"verdict": "no"}]}, (1.0, None)),
        (PRECISION, {"verdicts": [{"verdict": "no"}, {"verdict": "no"}]}, (0.0, None)),
        (FAITHFULNESS, {"claims": [], "reason": "not asked for"}, (1.0, None)),
    ],
)
def test_scores(metric: Any, data: dict[str, Any], expected: tuple[float, str | None]) -> None:
    assert _read(metric, data) == expected


@pytest.mark.parametrize(
    ("metric", "data", "why"),
    [
        (RELEVANCE, {"reason": "no score"}, "no 'score' in the reply"),
        (RELEVANCE, {"score": "4"}, "'score' must be a number, got '4'"),
        (RELEVANCE, {"score": True}, "'score' must be a number, got True"),
        (RELEVANCE, {"score": 0}, "'score' must be within [1, 5], got 0"),
        (RELEVANCE, {"score": 6}, "'score' must be within [1, 5], got 6"),
        (STRICT, {"score": 0.5}, "'score' must be 0 or 1 in strict mode, got 0.5"),
        (
            PRECISION,
            {"verdicts": [{"verdict": "yes"}]},
            "'verdicts' must have one entry per passage (2), got 1",
        ),
        (
            PRECISION,
            {"verdicts": [{"verdict": "yes"}, {"verdict": "maybe"}]},
            "verdicts[1].verdict must be one of 'no', 'yes', got 'maybe'",
        ),
        (FAITHFULNESS, {"claims": "all fine"}, "'claims' must be a list"),
    ],
)
def test_malformed_verdicts(metric: Any, data: dict[str, Any], why: str) -> None:
    with pytest.raises(MalformedReply) as caught:
        rubric_for(metric, GIVEN).read(data)
    assert str(caught.value) == why


def test_thresholds_of_judged_metrics() -> None:
    geval = GEvalMetric.model_validate({"name": "T", "criteria": "C.", "threshold": 0.8})
    assert rubric_for(geval, GIVEN).threshold == 0.8
    assert rubric_for(STRICT, GIVEN).threshold is None  # unset: reported, passes
    assert rubric_for(RELEVANCE, GIVEN).threshold is None
    assert rubric_for(PRECISION, GIVEN).threshold == 0.5  # the RAG default
