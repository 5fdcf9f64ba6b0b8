"""What a judge model is asked for each LLM-judged metric, and how its reply is scored.

Every prompt ends with the exact JSON object expected back. Scores are computed here from
that object, in [0, 1]:

- `groundedness`, `relevance`, `coherence`, `fluency`: a rating from 1 to `scale`
  (default 5), divided by `scale`.
- `geval`: a rating from 0 to 10, divided by 10; with `strict_mode`, 1 or 0.

As for every metric but code graders, `passed` is `score >= threshold`, and a metric
without a threshold reports its score and passes (`geval` passes at 0.5:
`judged_metrics.pass_mark`).
- RAG metrics: the judge gives one verdict per claim, statement, sentence or passage and
  the score is counted from the verdicts, so it does not rest on a number the judge
  picked.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from holodeck_lsp.models.evaluation import EvaluationMetric, GEvalMetric, RAGMetric
from holodeck_lsp.runner.score.metrics.judge_replies import MalformedReply, number, reason, verdicts

SYSTEM_PROMPT = (
    "You grade the work of an AI agent for an automated test suite. Follow the grading "
    "instructions in the user message exactly and judge only from the material it gives. "
    "Answer with a single JSON object and nothing else: no prose before or after it."
)
DEFAULT_SCALE = 5
GEVAL_MAX = 10


@dataclass(frozen=True)
class JudgeInputs:
    """The parts of a turn a judge may see."""

    input: str
    response: str
    ground_truth: str | None
    context: str | None  # retrieval passages, files and tool results of the turn
    retrieval_context: list[str] | None


@dataclass(frozen=True)
class Verdict:
    score: float  # in [0, 1]
    reason: str | None


@dataclass(frozen=True)
class Rubric:
    """One judge request: the prompt, and how to turn the reply into a verdict."""

    prompt: str
    read: Callable[[dict[str, Any]], Verdict]
    threshold: float | None


def _block(tag: str, text: str) -> str:
    return f"<{tag}>\n{text.strip()}\n</{tag}>"


def _passages(items: list[str]) -> str:
    return "\n".join(f"[{i}] {item.strip()}" for i, item in enumerate(items, 1))


def _reply_format(fields: str) -> str:
    return f"Reply with exactly this JSON object and nothing else:\n{fields}"


# --- groundedness, relevance, coherence, fluency -------------------------------------

_STANDARD_TASKS = {
    "groundedness": (
        "Rate how well the response is grounded in the context: every fact, figure and "
        "claim it states must appear in the context or follow directly from it. Use no "
        "knowledge of your own.",
        "most of what it states is missing from the context or contradicts it",
        "everything it states is supported by the context",
    ),
    "relevance": (
        "Rate how well the response answers the question: does it address what was "
        "actually asked, completely, without drifting to other matters?",
        "it ignores or misreads the question",
        "it answers exactly what was asked, completely",
    ),
    "coherence": (
        "Rate the coherence of the response: are its ideas in a sensible order, does each "
        "sentence follow from the previous ones, and does it read as one consistent answer "
        "to the question?",
        "it is disjointed or contradicts itself",
        "it is logically ordered and consistent throughout",
    ),
    "fluency": (
        "Rate the fluency of the response as written language: grammar, spelling, word "
        "choice and how naturally the sentences read. Do not judge whether it is correct.",
        "it is hard to read, with frequent errors",
        "it reads naturally and has no language errors",
    ),
}


def standard_rubric(metric: EvaluationMetric, given: JudgeInputs) -> Rubric:
    scale = metric.scale or DEFAULT_SCALE
    task, low, high = _STANDARD_TASKS[metric.metric]
    if metric.custom_prompt:
        task = metric.custom_prompt.strip()
    parts = [task, f"Give a rating from 1 ({low}) to {scale} ({high})."]
    parts.append(_block("question", given.input))
    if metric.metric == "groundedness":
        parts.append(_block("context", given.context or ""))
    parts.append(_block("response", given.response))
    parts.append(
        _reply_format(
            f'{{"score": <a number from 1 to {scale}>, "reason": "<one or two sentences>"}}'
        )
    )

    def read(data: dict[str, Any]) -> Verdict:
        return Verdict(number(data, "score", 1, scale) / scale, reason(data))

    return Rubric("\n\n".join(parts), read, metric.threshold)


# --- geval ---------------------------------------------------------------------------

_GEVAL_PARTS = {
    "input": ("input", "the user's input"),
    "actual_output": ("actual_output", "the agent's reply"),
    "expected_output": ("expected_output", "the expected reply"),
    "context": ("context", "background material"),
    "retrieval_context": ("retrieval_context", "passages retrieved for the agent"),
}


def _geval_value(param: str, given: JudgeInputs) -> str:
    if param == "input":
        return given.input
    if param == "actual_output":
        return given.response
    if param == "expected_output":
        return given.ground_truth or ""
    if param == "context":
        return given.context or ""
    return _passages(given.retrieval_context or [])


def geval_rubric(metric: GEvalMetric, given: JudgeInputs) -> Rubric:
    shown = [_GEVAL_PARTS[p] for p in dict.fromkeys(metric.evaluation_params)]
    listing = ", ".join(f"{what} (<{tag}>)" for tag, what in shown)
    parts = [
        f"Grade the material below against the criteria of the metric "
        f"'{metric.name}'. You are given: {listing}.",
        _block("criteria", metric.criteria),
    ]
    if metric.evaluation_steps:
        steps = "\n".join(f"{i}. {s.strip()}" for i, s in enumerate(metric.evaluation_steps, 1))
        parts.append("Apply these evaluation steps, in order:\n" + steps)
    else:
        parts.append(
            "First work out the concrete checks these criteria call for, then apply each of "
            "them to the material."
        )
    if metric.strict_mode:
        parts.append("Score 1 if the material fully meets every criterion, otherwise 0.")
        fields = '{"score": <0 or 1>, "reason": "<one or two sentences>"}'
    else:
        parts.append(
            f"Score from 0 (does not meet the criteria at all) to {GEVAL_MAX} (fully meets them)."
        )
        fields = (
            f'{{"score": <a number from 0 to {GEVAL_MAX}>, "reason": "<one or two sentences>"}}'
        )
    parts += [_block(tag, _geval_value(tag, given)) for tag, _ in shown]
    parts.append(_reply_format(fields))

    def read(data: dict[str, Any]) -> Verdict:
        if metric.strict_mode:
            value = number(data, "score", 0, 1)
            if value not in (0.0, 1.0):
                raise MalformedReply(f"'score' must be 0 or 1 in strict mode, got {value:g}")
            return Verdict(value, reason(data))
        return Verdict(number(data, "score", 0, GEVAL_MAX) / GEVAL_MAX, reason(data))

    return Rubric("\n\n".join(parts), read, metric.threshold)


# --- RAG metrics ---------------------------------------------------------------------

_YES_NO = ("yes", "no")
_YES_NO_IDK = ("yes", "no", "idk")


def _reason_field(include: bool) -> str:
    return ', "reason": "<one or two sentences summing up>"' if include else ""


def _share(hits: int, total: int) -> float:
    return hits / total if total else 1.0


def _faithfulness(given: JudgeInputs, include: bool) -> tuple[str, Callable[..., float]]:
    prompt = "\n\n".join(
        [
            "List every factual claim the response makes, then check each against the "
            "retrieved passages: 'yes' if the passages support it, 'no' if they contradict "
            "it, 'idk' if they say nothing about it. Use no knowledge of your own.",
            _block("retrieval_context", _passages(given.retrieval_context or [])),
            _block("response", given.response),
            _reply_format(
                '{"claims": [{"claim": "<the claim>", "verdict": "yes" | "no" | "idk"}]'
                + _reason_field(include)
                + "}"
            ),
        ]
    )

    def score(data: dict[str, Any]) -> float:
        found = verdicts(data, "claims", _YES_NO_IDK)
        # Only contradicted claims count against the response; a reply with no claim
        # has nothing unfaithful in it.
        return _share(sum(v != "no" for v in found), len(found))

    return prompt, score


def _answer_relevancy(given: JudgeInputs, include: bool) -> tuple[str, Callable[..., float]]:
    prompt = "\n\n".join(
        [
            "Split the response into its statements, then say of each whether it helps "
            "answer the input: 'yes' if it does, 'no' if it is beside the point, 'idk' if it "
            "is supporting detail that neither helps nor hurts.",
            _block("input", given.input),
            _block("response", given.response),
            _reply_format(
                '{"statements": [{"statement": "<the statement>", '
                '"verdict": "yes" | "no" | "idk"}]' + _reason_field(include) + "}"
            ),
        ]
    )

    def score(data: dict[str, Any]) -> float:
        found = verdicts(data, "statements", _YES_NO_IDK)
        return _share(sum(v != "no" for v in found), len(found))

    return prompt, score


def _non_empty(found: list[str], key: str) -> list[str]:
    if not found:
        raise MalformedReply(f"'{key}' is empty")
    return found


def _share_of_yes(data: dict[str, Any], key: str) -> float:
    """The share of the items under ``key`` judged 'yes' (at least one item is needed)."""
    found = _non_empty(verdicts(data, key, _YES_NO), key)
    return sum(v == "yes" for v in found) / len(found)


def _contextual_relevancy(given: JudgeInputs, include: bool) -> tuple[str, Callable[..., float]]:
    prompt = "\n\n".join(
        [
            "Split the retrieved passages into their statements, then say of each whether "
            "it is relevant to the input: 'yes' or 'no'.",
            _block("input", given.input),
            _block("retrieval_context", _passages(given.retrieval_context or [])),
            _reply_format(
                '{"statements": [{"statement": "<the statement>", "verdict": "yes" | "no"}]'
                + _reason_field(include)
                + "}"
            ),
        ]
    )

    return prompt, lambda data: _share_of_yes(data, "statements")


def _contextual_precision(given: JudgeInputs, include: bool) -> tuple[str, Callable[..., float]]:
    passages = given.retrieval_context or []
    prompt = "\n\n".join(
        [
            f"For each of the {len(passages)} retrieved passages, in their order, say whether "
            "it was useful for arriving at the expected output for this input: 'yes' or 'no'.",
            _block("input", given.input),
            _block("expected_output", given.ground_truth or ""),
            _block("retrieval_context", _passages(passages)),
            _reply_format(
                '{"verdicts": [{"passage": <its number>, "verdict": "yes" | "no"}]'
                + _reason_field(include)
                + "}"
            ),
        ]
    )

    def score(data: dict[str, Any]) -> float:
        found = verdicts(data, "verdicts", _YES_NO)
        if len(found) != len(passages):
            raise MalformedReply(
                f"'verdicts' must have one entry per passage ({len(passages)}), got {len(found)}"
            )
        # Mean precision at the rank of each useful passage: useful passages ranked
        # first score higher.
        useful, total = 0, 0.0
        for rank, verdict in enumerate(found, 1):
            if verdict == "yes":
                useful += 1
                total += useful / rank
        return total / useful if useful else 0.0

    return prompt, score


def _contextual_recall(given: JudgeInputs, include: bool) -> tuple[str, Callable[..., float]]:
    prompt = "\n\n".join(
        [
            "Split the expected output into its sentences, then say of each whether it can "
            "be attributed to the retrieved passages: 'yes' or 'no'.",
            _block("expected_output", given.ground_truth or ""),
            _block("retrieval_context", _passages(given.retrieval_context or [])),
            _reply_format(
                '{"sentences": [{"sentence": "<the sentence>", "verdict": "yes" | "no"}]'
                + _reason_field(include)
                + "}"
            ),
        ]
    )

    return prompt, lambda data: _share_of_yes(data, "sentences")


_RAG = {
    "faithfulness": _faithfulness,
    "answer_relevancy": _answer_relevancy,
    "contextual_relevancy": _contextual_relevancy,
    "contextual_precision": _contextual_precision,
    "contextual_recall": _contextual_recall,
}


def rag_rubric(metric: RAGMetric, given: JudgeInputs) -> Rubric:
    prompt, score = _RAG[metric.metric_type.value](given, metric.include_reason)

    def read(data: dict[str, Any]) -> Verdict:
        value = score(data)
        return Verdict(value, reason(data) if metric.include_reason else None)

    return Rubric(prompt, read, metric.threshold)


def rubric_for(metric: EvaluationMetric | GEvalMetric | RAGMetric, given: JudgeInputs) -> Rubric:
    if isinstance(metric, GEvalMetric):
        return geval_rubric(metric, given)
    if isinstance(metric, RAGMetric):
        return rag_rubric(metric, given)
    return standard_rubric(metric, given)
