"""`equality`, `numeric` and code graders, at their boundaries; metric precedence."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from holodeck_lsp.models.evaluation import EvaluationMetric, GEvalMetric, MetricConfig, RAGMetric
from holodeck_lsp.runner.score.metrics.code_graders import (
    GraderReturnError,
    interpret,
    make_context,
)
from holodeck_lsp.runner.score.metrics.comparisons import equality, numeric
from holodeck_lsp.runner.score.metrics.turn_metrics import TurnView, evaluate
from tests.runner.helpers import run_suite, turns, write


def metric(**flags: Any) -> EvaluationMetric:
    return EvaluationMetric.model_validate({"metric": flags.pop("name", "numeric"), **flags})


EQUALITY = [
    ("exact", {}, "Paris", "Paris", True),
    ("case differs", {}, "paris", "Paris", False),
    ("case folded", {"case_insensitive": True}, "PARIS", "paris", True),
    ("whitespace differs", {}, " Paris  France", "Paris France", False),
    ("whitespace collapsed", {"strip_whitespace": True}, " Paris \n France ", "Paris France", True),
    ("punctuation differs", {}, "Paris.", "Paris", False),
    ("punctuation stripped", {"strip_punctuation": True}, "Paris!", "Paris", True),
    (
        "all flags",
        {"case_insensitive": True, "strip_whitespace": True, "strip_punctuation": True},
        "  PARIS,  france! ",
        "paris france",
        True,
    ),
]


@pytest.mark.parametrize(
    ("flags", "actual", "expected", "passed"),
    [r[1:] for r in EQUALITY],
    ids=[r[0] for r in EQUALITY],
)
def test_equality(flags: dict[str, Any], actual: str, expected: str, passed: bool) -> None:
    assert equality(actual, expected, metric(name="equality", **flags)).passed is passed


NUMERIC = [
    ("exact", {}, "25587", "25587", True),
    ("default tolerance is 1e-6", {}, "1.0000009", "1", True),
    ("just past the default", {}, "1.000002", "1", False),
    ("absolute tolerance is inclusive", {"absolute_tolerance": 0.5}, "100.5", "100", True),
    ("past the absolute tolerance", {"absolute_tolerance": 0.5}, "100.5001", "100", False),
    ("relative tolerance is inclusive", {"relative_tolerance": 0.25}, "125", "100", True),
    ("past the relative tolerance", {"relative_tolerance": 0.25}, "125.001", "100", False),
    ("relative of the expected", {"relative_tolerance": 0.5}, "1", "2", True),
    ("relative not of the actual", {"relative_tolerance": 0.5}, "2", "1", False),
    ("percent read as /100", {"accept_percent": True}, "33.2%", "0.332", True),
    ("percent without the flag", {}, "33.2%", "0.332", False),
    ("separators", {"accept_thousands_separators": True}, "1,234,567.5", "1234567.5", True),
    ("separators without the flag", {}, "1,234", "1234", False),
    (
        "underscore and narrow space",
        {"accept_thousands_separators": True},
        "1_234\u202f000",
        "1234000",
        True,
    ),
    ("no-break space with the flag", {"accept_thousands_separators": True}, "1\xa00", "10", True),
    ("no-break space without the flag", {}, "1\u00a0000", "1000", False),
    ("plain space is no separator", {"accept_thousands_separators": True}, "1 000", "1e3", False),
    ("relative tolerance 0 adds nothing", {"relative_tolerance": 0.0}, "1.1", "1", False),
    ("nan never equals nan", {}, "nan", "nan", False),
    ("empty reply", {}, "  ", "1", False),
    ("negative", {}, "-25587", "-25587.0", True),
    ("sign matters", {}, "25587", "-25587", False),
]


@pytest.mark.parametrize(
    ("flags", "actual", "expected", "passed"), [r[1:] for r in NUMERIC], ids=[r[0] for r in NUMERIC]
)
def test_numeric(flags: dict[str, Any], actual: str, expected: str, passed: bool) -> None:
    assert numeric(actual, expected, metric(**flags)).passed is passed


def test_numeric_values_that_do_not_parse_fail_with_a_reason() -> None:
    assert numeric("about 5", "5", metric()).reason == (
        "could not parse 'about 5' as number: could not convert string to float: 'about 5'"
    )
    refused = numeric("5", "1,000", metric()).reason
    assert refused == "thousands separator in '1,000' but flag is off"
    assert numeric("5", "5", metric()).passed is True


GRADER_SHAPES: list[tuple[str, Any, float | None, tuple[float, bool]]] = [
    ("true", True, None, (1.0, True)),
    ("false", False, None, (0.0, False)),
    ("score at 0.5 passes by default", 0.5, None, (0.5, True)),
    ("score below 0.5 fails by default", 0.49, None, (0.49, False)),
    ("threshold decides a bare score", 0.7, 0.8, (0.7, False)),
    ("threshold is inclusive", 0.8, 0.8, (0.8, True)),
]


@pytest.mark.parametrize(
    ("value", "threshold", "expected"),
    [r[1:] for r in GRADER_SHAPES],
    ids=[r[0] for r in GRADER_SHAPES],
)
def test_grader_result_shapes(
    value: Any, threshold: float | None, expected: tuple[float, bool]
) -> None:
    outcome = interpret(value, threshold)
    assert (outcome.score, outcome.passed) == expected


def test_a_result_object_with_attributes() -> None:
    @dataclasses.dataclass
    class Graded:
        score: float
        passed: bool | None = None
        reason: str | None = None
        details: Any = None

    outcome = interpret(Graded(0.4, reason="close", details={"diff": 1}), 0.3)
    assert (outcome.score, outcome.passed, outcome.reason, outcome.details) == (
        0.4,
        True,
        "close",
        {"diff": 1},
    )


@dataclasses.dataclass
class Result:
    """Shaped as HoloDeck's GraderResult: an object with attributes."""

    score: Any = None
    passed: Any = None
    reason: str | None = None
    details: Any = None


def test_result_objects_explicit_passed_wins() -> None:
    assert interpret(Result(0.1, True), 0.9).passed is True
    assert interpret(Result(0.9), 0.95).passed is False
    assert interpret(Result(passed=False), None).score == 0.0


UNSUPPORTED = "grader returned unsupported type {}; expected bool, float, or GraderResult"


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("yes", UNSUPPORTED.format("str")),
        (None, UNSUPPORTED.format("NoneType")),
        # A mapping is no result object, as in `holodeck test`.
        ({"score": 1.0, "passed": True}, UNSUPPORTED.format("dict")),
        (1.5, "score must be within [0, 1], got 1.5"),
        (Result("high"), "'score' must be a number, got 'high'"),
        (Result(reason="no verdict"), "a grader result needs 'score' or 'passed'"),
    ],
)
def test_grader_results_outside_the_contract(value: Any, message: str) -> None:
    with pytest.raises(GraderReturnError) as caught:
        interpret(value, None)
    assert str(caught.value) == message


def test_the_grader_context_is_read_only() -> None:
    ctx = make_context(
        turn_input="q",
        agent_response="a",
        ground_truth=None,
        tool_invocations=[],
        retrieval_context=["doc"],
        turn_index=0,
        test_case_name="t",
        turn_config={"k": 1},
    )
    with pytest.raises(dataclasses.FrozenInstanceError):
        ctx.agent_response = "changed"  # type: ignore[misc]
    with pytest.raises(TypeError):
        ctx.turn_config["k"] = 2  # type: ignore[index]
    assert ctx.retrieval_context == ("doc",)


GRADERS = """
def exact(ctx):
    return ctx.agent_response == ctx.ground_truth

class Result:
    def __init__(self, score, reason=None, details=None):
        self.score, self.reason, self.details = score, reason, details

def half(ctx):
    return Result(0.5, "half", {"turn": ctx.turn_index,
                  "config": dict(ctx.turn_config), "case": ctx.test_case_name})

def boom(ctx):
    raise ValueError("boom at turn %d" % ctx.turn_index)

async def uses_tools(ctx):
    return len(ctx.tool_invocations) == 0
"""

ECHO = """
class Echo:
    def send(self, message):
        return message.upper()

def factory():
    return Echo()
"""


def graded_suite(tmp_path: Path, cases: str, agent_metrics: str = "") -> Path:
    return write(
        tmp_path,
        {
            "agent.yaml": "name: graded\nmodel: {provider: openai, name: unused}\n"
            "instructions: {inline: unused}\n" + agent_metrics + "test_cases:\n" + cases,
            "grading.py": GRADERS,
            "echo_agent.py": ECHO,
        },
    )


def test_grader_exceptions_fail_only_that_metric_on_that_turn(tmp_path: Path) -> None:
    cases = """
  - name: graded
    evaluations:
      - {type: code, grader: "grading:boom"}
      - {type: code, grader: "grading:half", name: halfway}
      - {type: code, grader: "grading:uses_tools"}
    turns:
      - input: a
        turn_config: {strict: true}
      - input: b
"""
    code, report, err = run_suite(graded_suite(tmp_path, cases), "--agent", "echo_agent:factory")
    first, second = turns(report)
    assert code == 1, err
    assert [
        (m["metric_name"], m["kind"], m["score"], m["passed"], m["error"])
        for m in first["metric_results"]
    ] == [
        ("boom", "code", 0.0, False, "ValueError: boom at turn 0"),
        ("halfway", "code", 0.5, True, None),
        ("uses_tools", "code", 1.0, True, None),
    ]
    assert first["grader_details"] == {
        "halfway": {"turn": 0, "config": {"strict": True}, "case": "graded"}
    }
    # The next turn still ran, and the test case carries no error: only a failed metric.
    assert (second["response"], second["errors"], second["skipped"]) == ("B", [], False)
    assert report["results"][0]["errors"] == []
    # The roll-up keeps scores and verdicts; the errors stay in the turns.
    rolled = {
        m["metric_name"]: (m["score"], m["passed"], m["error"])
        for m in report["results"][0]["metric_results"]
    }
    assert rolled == {
        "boom": (0.0, False, None),
        "halfway": (0.5, True, None),
        "uses_tools": (1.0, True, None),
    }


def test_fail_on_error_fails_the_case_and_stops_its_remaining_turns(tmp_path: Path) -> None:
    cases = """
  - name: strict
    turns:
      - input: a
      - input: b
        evaluations: [{type: code, grader: "grading:boom", fail_on_error: true}]
      - input: c
"""
    code, report, _ = run_suite(graded_suite(tmp_path, cases), "--agent", "echo_agent:factory")
    first, second, third = turns(report)
    assert code == 1
    assert first["passed"] is True
    # As in `holodeck test`: the turn is lost with its grader (reply, tokens and metrics
    # dropped), and the turns after it are skipped.
    assert {k: second[k] for k in ("response", "metric_results", "token_usage", "errors")} == {
        "response": None,
        "metric_results": [],
        "token_usage": None,
        "errors": ["TestCaseFatal(boom) at turn 1 of 'strict': ValueError: boom at turn 1"],
    }
    assert (third["skipped"], third["expected_tools"], third["errors"]) == (
        True,
        None,
        ["session became unrecoverable after two consecutive BackendSessionError hits"],
    )


def test_fail_on_error_in_a_single_turn_case_fails_that_case_only(tmp_path: Path) -> None:
    # `holodeck test` stops the whole run here, with no report (a deviation: see docs).
    cases = """
  - name: strict
    input: a
    evaluations: [{type: code, grader: "grading:boom", fail_on_error: true}]
  - name: next
    input: b
"""
    code, report, _ = run_suite(graded_suite(tmp_path, cases), "--agent", "echo_agent:factory")
    strict, following = report["results"]
    assert code == 1
    assert strict["errors"] == [
        "TestCaseFatal(boom) at turn 0 of 'strict': ValueError: boom at turn 0"
    ]
    assert strict["metric_results"][0]["error"] == "ValueError: boom at turn 0"
    assert following["passed"] is True


def test_metric_precedence_turn_over_case_over_agent(tmp_path: Path) -> None:
    agent_metrics = 'evaluations:\n  metrics:\n    - {type: code, grader: "grading:half"}\n'
    cases = """
  - name: agent level
    input: a
  - name: case level
    evaluations: [{metric: equality, case_insensitive: true}]
    turns:
      - input: a
        ground_truth: a
      - input: b
        ground_truth: b
        evaluations: [{type: code, grader: "grading:exact"}]
"""
    code, report, _ = run_suite(
        graded_suite(tmp_path, cases, agent_metrics), "--agent", "echo_agent:factory"
    )
    names = [[m["metric_name"] for m in t["metric_results"]] for t in turns(report, 1)]
    assert [m["metric_name"] for m in report["results"][0]["metric_results"]] == ["half"]
    assert names == [["equality"], ["exact"]]
    assert code == 1  # "B" is not exactly "b"


def test_text_metrics_run_only_on_turns_with_ground_truth(tmp_path: Path) -> None:
    cases = """
  - name: partial truth
    evaluations: [{metric: numeric}, {metric: equality}]
    turns:
      - input: "5"
        ground_truth: "5"
      - input: no truth here
"""
    code, report, err = run_suite(graded_suite(tmp_path, cases), "--agent", "echo_agent:factory")
    assert code == 0, err
    first, second = turns(report)
    assert [m["metric_name"] for m in first["metric_results"]] == ["numeric", "equality"]
    assert second["metric_results"] == []
    assert report["summary"]["metrics_evaluated"] == {"numeric": 1, "equality": 1}


async def test_a_judged_metric_without_a_judge_is_an_error_never_a_pass() -> None:
    view = TurnView("q", "a", "a", [], ["passage"], 0, "judged", None)
    metrics: list[MetricConfig] = [
        EvaluationMetric.model_validate({"metric": "relevance"}),
        GEvalMetric.model_validate({"name": "Tone", "criteria": "Polite"}),
        RAGMetric.model_validate({"metric_type": "faithfulness"}),
    ]
    outcome = await evaluate(metrics, view, {})
    assert [(m.metric_name, m.kind, m.passed, m.error) for m in outcome.results] == [
        ("relevance", "standard", False, "no judge model is available to this evaluation"),
        ("Tone", "geval", False, "no judge model is available to this evaluation"),
        ("faithfulness", "rag", False, "no judge model is available to this evaluation"),
    ]


def test_response_path_grades_one_field_of_a_json_reply(tmp_path: Path) -> None:
    module = """
class Json:
    def send(self, message):
        return '{"answer": {"values": [0.5, "33.2%"]}}'

def factory():
    return Json()
"""
    cases = """
  - name: json
    turns:
      - input: q
        ground_truth: "0.332"
        evaluations:
          - {metric: numeric, response_path: "answer.values[1]", accept_percent: true}
      - input: q2
        ground_truth: "1"
        evaluations:
          - {metric: numeric, response_path: "answer.missing"}
"""
    path = graded_suite(tmp_path, cases)
    write(tmp_path, {"json_agent.py": module})
    code, report, _ = run_suite(path, "--agent", "json_agent:factory")
    first, second = turns(report)
    assert code == 1
    assert first["metric_results"][0]["passed"] is True
    assert (second["metric_results"][0]["passed"], second["metric_results"][0]["error"]) == (
        False,
        "response_path='answer.missing': key 'missing' not found (available: ['values'])",
    )


def test_a_disabled_metric_does_not_run(tmp_path: Path) -> None:
    # `holodeck test` runs a disabled standard metric anyway (a deviation: see docs; HL507).
    cases = """
  - name: disabled
    turns:
      - input: a
        ground_truth: b
        evaluations:
          - {metric: equality, enabled: false}
          - {type: code, grader: "grading:exact", enabled: false}
"""
    code, report, _ = run_suite(graded_suite(tmp_path, cases), "--agent", "echo_agent:factory")
    assert code == 0
    assert turns(report)[0]["metric_results"] == []


def test_each_metric_keeps_its_own_flags(tmp_path: Path) -> None:
    # `holodeck test` grades both with the last one's flags (a deviation: see docs; HL508).
    cases = """
  - name: strict
    turns:
      - {input: paris, ground_truth: Paris, evaluations: [{metric: equality}]}
  - name: loose
    turns:
      - input: paris
        ground_truth: Paris
        evaluations: [{metric: equality, case_insensitive: true}]
"""
    _, report, _ = run_suite(graded_suite(tmp_path, cases), "--agent", "echo_agent:factory")
    verdicts = [r["turns"][0]["metric_results"][0]["passed"] for r in report["results"]]
    assert verdicts == [False, True]  # "PARIS" (the echo) is "Paris" only ignoring case


def test_a_single_turn_grader_sees_its_tool_calls(tmp_path: Path) -> None:
    # `holodeck test` hands a single-turn case's grader no tool calls and no test case name
    # (a deviation: see docs).
    module = """
class Tools:
    def send(self, message):
        return {"text": "42", "tool_calls": [{"name": "add", "args": {"a": 1}, "result": 42}]}

def factory():
    return Tools()
"""
    graders = """
def sees(ctx):
    return len(ctx.tool_invocations) == 1 and ctx.test_case_name == "single"
"""
    cases = """
  - name: single
    input: q
    evaluations: [{type: code, grader: "seeing:sees"}]
"""
    path = graded_suite(tmp_path, cases)
    write(tmp_path, {"tools_agent.py": module, "seeing.py": graders})
    code, report, _ = run_suite(path, "--agent", "tools_agent:factory")
    assert code == 0
    assert report["results"][0]["metric_results"][0]["score"] == 1.0
