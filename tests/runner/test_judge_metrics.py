"""LLM-judged metrics against the loopback model service scripting the judge's replies:
valid, malformed then valid, malformed twice, slow then valid, for every judged metric."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.runner.fake_model import Action, FakeModelServer, Status
from tests.runner.helpers import ECHO, invoke, run_suite, strip_timings, turns, write
from tests.runner.judge_script import MALFORMED, SLOW, JudgeScript, valid

HEAD = """
name: judged
model: {provider: openai, name: agent-model, endpoint: "URL"}
instructions: {inline: unused}
evaluations:
  model: {provider: openai, name: judge-model, endpoint: "URL"}
  metrics:
    - {type: standard, metric: fluency}
test_cases:
"""


def suite_at(url: str, cases: str, head: str = HEAD) -> dict[str, str]:
    """The agent file (every model at the loopback service) and its Python agent."""
    return {"agent.yaml": (head + cases).replace("URL", url), "echo.py": ECHO}


def items(name: str, *verdicts: str) -> list[dict[str, Any]]:
    """Judged items (claims, statements, passages...), one per verdict."""
    return [{name: f"{name} {i}", "verdict": v} for i, v in enumerate(verdicts, 1)]


# metric as written in the suite, the judge's valid reply, and what it comes to:
# (metric name, kind, score, threshold, passed).
METRICS: list[tuple[str, str, dict[str, Any], tuple[str, str, float, float | None, bool]]] = [
    (
        "groundedness",
        "{metric: groundedness, threshold: 0.7, scale: 10, timeout_ms: 500}",
        {"score": 7, "reason": "R-groundedness"},
        ("groundedness", "standard", 0.7, 0.7, True),  # 7/10, threshold inclusive
    ),
    (
        "relevance",
        "{metric: relevance, threshold: 0.7, timeout_ms: 500}",
        {"score": 4, "reason": "R-relevance"},
        ("relevance", "standard", 0.8, 0.7, True),  # 4 on the default 1-5 scale
    ),
    (
        "coherence",
        "{metric: coherence, threshold: 0.9, timeout_ms: 500}",
        {"score": 4, "reason": "R-coherence"},
        ("coherence", "standard", 0.8, 0.9, False),
    ),
    (
        "fluency",
        "{metric: fluency, timeout_ms: 500}",
        {"score": 2, "reason": "R-fluency"},
        ("fluency", "standard", 0.4, None, True),  # no threshold: reported, passes
    ),
    (
        "geval",
        "{type: geval, name: Tone, criteria: Polite and precise.}",
        {"score": 4, "reason": "R-geval"},
        # 0-10; no threshold: passes at 0.5 as HoloDeck's `threshold or 0.5` (executor.py:649)
        ("Tone", "geval", 0.4, None, False),
    ),
    (
        "faithfulness",
        "{type: rag, metric_type: faithfulness}",
        {
            "claims": [
                {"claim": "a", "verdict": "yes"},
                {"claim": "b", "verdict": "no"},
                {"claim": "c", "verdict": "idk"},
                {"claim": "d", "verdict": "YES"},
            ],
            "reason": "R-faithfulness",
        },
        ("faithfulness", "rag", 0.75, 0.5, True),  # only the contradicted claim counts
    ),
    (
        "answer_relevancy",
        "{type: rag, metric_type: answer_relevancy, threshold: 0.6}",
        {
            "statements": [
                {"statement": "a", "verdict": "yes"},
                {"statement": "b", "verdict": "no"},
            ],
            "reason": "R-answer_relevancy",
        },
        ("answer_relevancy", "rag", 0.5, 0.6, False),
    ),
    (
        "contextual_relevancy",
        "{type: rag, metric_type: contextual_relevancy}",
        {
            "statements": items("statement", "yes", "yes", "no", "no"),
            "reason": "R-contextual_relevancy",
        },
        ("contextual_relevancy", "rag", 0.5, 0.5, True),
    ),
    (
        "contextual_precision",
        "{type: rag, metric_type: contextual_precision}",
        {
            "verdicts": items("passage", "no", "yes", "yes"),
            "reason": "R-contextual_precision",
        },
        # useful passages at ranks 2 and 3: (1/2 + 2/3) / 2
        ("contextual_precision", "rag", 0.583333, 0.5, True),
    ),
    (
        "contextual_recall",
        "{type: rag, metric_type: contextual_recall}",
        {
            "sentences": items("sentence", "yes", "no", "yes"),
            "reason": "R-contextual_recall",
        },
        ("contextual_recall", "rag", 0.666667, 0.5, True),
    ),
]
SCENARIOS = ("valid", "malformed then valid", "malformed twice", "slow then valid")


def _actions(scenario: str, reply: dict[str, Any]) -> list[Action]:
    good = valid(reply)
    return {
        "valid": [good],
        "malformed then valid": [MALFORMED, good],
        "malformed twice": [MALFORMED, MALFORMED, good],  # the third is never asked for
        "slow then valid": [SLOW, good],
    }[scenario]


def _marker(m: int, s: int) -> str:
    return f"CASE-{m:02d}-{s};"


def matrix_suite(url: str) -> tuple[str, JudgeScript]:
    cases, rules = [], {}
    for m, (label, metric, reply, _) in enumerate(METRICS):
        for s, scenario in enumerate(SCENARIOS):
            marker = _marker(m, s)
            rules[marker] = _actions(scenario, reply)
            cases.append(
                f"  - name: {label} {scenario}\n"
                f'    input: "{marker} What was revenue in 2021?"\n'
                f'    ground_truth: "{marker} Revenue was 1,402,775."\n'
                '    retrieval_context: ["Revenue was 1,402,775.", "Capex was 49,960.", '
                '"Net income grew."]\n'
                f"    evaluations: [{metric}]\n"
            )
    return "".join(cases), JudgeScript(rules)


def _row(m: dict[str, Any]) -> tuple[Any, ...]:
    return (
        m["metric_name"],
        m["kind"],
        round(m["score"], 6),
        m["threshold"],
        m["passed"],
        m["error"],
        m["retry_count"],
        m["reasoning"],
        m["model_used"],
    )


def _expected(label: str, outcome: tuple[Any, ...], scenario: str) -> tuple[Any, ...]:
    name, kind, score, threshold, passed = outcome
    reason = f"R-{label}"
    if scenario == "valid":
        return (name, kind, score, threshold, passed, None, 0, reason, "judge-model")
    if scenario == "malformed twice":
        error = (
            "malformed judge reply (the reply is not a JSON object); raw reply: "
            "'I would rate this a four out of five.' [2 attempt(s)]"
        )
        return (name, kind, 0.0, threshold, False, error, 1, None, "judge-model")
    return (name, kind, score, threshold, passed, None, 1, reason, "judge-model")


def test_every_judged_metric_in_every_scenario(tmp_path: Path) -> None:
    with FakeModelServer(lambda p, b: Status(500)) as server:
        cases, script = matrix_suite(server.url)
        server.script = script
        agent = write(tmp_path, suite_at(server.url, cases))
        code, report, err = run_suite(
            agent, "--agent", "echo:factory", "-p", "4", "--llm-timeout", "0.5"
        )
    assert code == 1, err
    got = {r["test_name"]: _row(r["metric_results"][0]) for r in report["results"]}
    assert got == {
        f"{label} {scenario}": _expected(label, outcome, scenario)
        for label, _, _, outcome in METRICS
        for scenario in SCENARIOS
    }
    # The agent's tokens stay the agent's; the judge's are counted apart.
    assert report["results"][0]["token_usage"]["total_tokens"] == 5
    env = report["environment"]
    assert {k: v for k, v in env.items() if k.startswith("judge_")} == {
        "judge_calls": "70",  # 10 + 3 x 20
        "judge_prompt_tokens": "6000",  # 60 replies x 100; timed-out calls have none
        "judge_completion_tokens": "870",  # 30 valid x 20 + 30 malformed x 9
        "judge_total_tokens": "6870",
    }


def test_a_slow_judge_times_out_per_call_and_is_reported(tmp_path: Path) -> None:
    cases = (
        "  - name: slow\n"
        "    input: q\n"
        "    evaluations:\n"
        "      - {metric: relevance, timeout_ms: 100, retry_on_failure: 2}\n"
    )
    with FakeModelServer(JudgeScript({"<question>": [SLOW]})) as server:
        agent = write(tmp_path, suite_at(server.url, cases))
        code, report, err = run_suite(agent, "--agent", "echo:factory")
        requests = len(server.requests)
    assert code == 1, err
    (result,) = report["results"][0]["metric_results"]
    assert (result["error"], result["retry_count"], result["passed"], requests) == (
        "judge timed out after 0.1s (timeout_ms) [3 attempt(s)]",
        2,
        False,
        3,
    )


def test_the_judge_model_is_the_metrics_then_the_evaluations_then_the_agents(
    tmp_path: Path,
) -> None:
    reply = valid({"score": 5, "reason": "fine"})
    metric_model = '{provider: openai, name: metric-judge, endpoint: "URL"}'
    cases = (
        "  - name: models\n"
        "    input: q\n"
        "    evaluations:\n"
        f"      - {{metric: relevance, model: {metric_model}}}\n"
        "      - {metric: coherence}\n"
    )
    with FakeModelServer(lambda p, b: reply) as server:
        agent = write(tmp_path / "a", suite_at(server.url, cases))
        code, report, err = run_suite(agent, "--agent", "echo:factory")
        assert code == 0, err
        used = [m["model_used"] for m in report["results"][0]["metric_results"]]
        head = HEAD.replace("evaluations:\n  model: ", "evaluations:\n  # model: ")
        agent = write(tmp_path / "b", suite_at(server.url, cases, head))
        code, report, err = run_suite(agent, "--agent", "echo:factory")
        assert code == 0, err
        used += [m["model_used"] for m in report["results"][0]["metric_results"]]
        bodies = server.bodies()
    assert used == ["metric-judge", "judge-model", "metric-judge", "agent-model"]
    assert [b["model"] for b in bodies] == used
    # Judges grade deterministically, with their own instructions and no tools.
    assert {b["temperature"] for b in bodies} == {0.0}
    assert all("tools" not in b for b in bodies)
    assert all(b["messages"][0]["role"] == "system" for b in bodies)


def test_a_judge_that_refuses_the_key_is_an_execution_error(tmp_path: Path) -> None:
    cases = "  - name: refused\n    input: q\n    evaluations: [{metric: relevance}]\n"
    with FakeModelServer(lambda p, b: Status(401, body='{"error": "bad key"}')) as server:
        agent = write(tmp_path, suite_at(server.url, cases))
        code, report, _ = run_suite(agent, "--agent", "echo:factory")
        requests = len(server.requests)
    (result,) = report["results"][0]["metric_results"]
    assert (code, requests) == (3, 1)  # not retried: the key will not get better
    assert result["error"] == ('judge session ended: HTTP 401: {"error": "bad key"} [1 attempt(s)]')


def test_a_judge_model_without_a_key_stops_the_run_before_any_call(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    suite = (
        "name: keyless\nmodel: {provider: openai, name: agent-model}\n"
        "instructions: {inline: unused}\n"
        "test_cases:\n  - input: q\n    evaluations:\n"
        "      - {metric: relevance, model: {provider: openai, name: gpt-judge}}\n"
    )
    agent = write(tmp_path, {"agent.yaml": suite, "echo.py": ECHO})
    code, report, err = run_suite(agent, "--agent", "echo:factory")
    assert (code, report) == (2, {})
    # `holodeck test` would refuse the file too (HL510), and `run` says so first.
    assert err.splitlines()[0].endswith(" warning HL510 `holodeck test` refuses to start (exit 2) "
        "when the model of a standard metric (relevance) has no `endpoint` and `api_key`; give "
        "that model both `endpoint` and `api_key` to run the file there "
        "(test_cases[0].evaluations[0].model)")
    assert err.splitlines()[-1] == (
        "error: judge model 'gpt-judge' of metric 'relevance': no API key: "
        "set model.api_key or OPENAI_API_KEY"
    )


def test_what_a_judged_metric_needs_from_the_turn(tmp_path: Path) -> None:
    cases = """
  - name: needs
    turns:
      - input: no retrieval context here
        evaluations:
          - {type: rag, metric_type: faithfulness}
          - {type: rag, metric_type: answer_relevancy}
      - input: retrieved, but no ground truth
        retrieval_context: [a passage]
        evaluations:
          - {type: rag, metric_type: contextual_recall}
          - {type: rag, metric_type: contextual_precision}
          - {type: geval, name: Match, criteria: Matches., evaluation_params: [expected_output]}
          - {type: rag, metric_type: contextual_relevancy}
      - input: nothing to be grounded in
        evaluations:
          - {metric: groundedness, fail_on_error: true}
      - input: never sent
"""
    reply = {
        "score": 4,
        "statements": [{"statement": "s", "verdict": "yes"}],
        "reason": "ok",
    }
    with FakeModelServer(lambda p, b: valid(reply)) as server:
        agent = write(tmp_path, suite_at(server.url, cases))
        code, report, _ = run_suite(agent, "--agent", "echo:factory")
    first, second, third, fourth = turns(report)
    assert code == 1
    # Metrics whose input the turn lacks do not run there (as text metrics without a
    # ground truth); the others do.
    assert [m["metric_name"] for m in first["metric_results"]] == ["answer_relevancy"]
    assert [m["metric_name"] for m in second["metric_results"]] == ["contextual_relevancy"]
    (grounded,) = third["metric_results"]
    assert (grounded["passed"], grounded["error"]) == (
        False,
        "groundedness needs a context to judge against, and this turn has none "
        "(no retrieval_context, files or tool calls)",
    )
    assert third["errors"] == [
        "metric 'groundedness' could not be computed: groundedness needs a context to judge "
        "against, and this turn has none (no retrieval_context, files or tool calls) "
        "(fail_on_error)"
    ]
    assert (fourth["skipped"], fourth["errors"]) == (
        True,
        ["skipped: metric 'groundedness' failed with fail_on_error"],
    )


def test_include_reason_false_leaves_the_reasoning_out(tmp_path: Path) -> None:
    cases = """
  - input: q
    retrieval_context: [p]
    evaluations: [{type: rag, metric_type: faithfulness, include_reason: false}]
"""
    reply = valid({"claims": [{"claim": "c", "verdict": "yes"}], "reason": "unasked"})
    with FakeModelServer(lambda p, b: reply) as server:
        agent = write(tmp_path, suite_at(server.url, cases))
        code, report, _ = run_suite(agent, "--agent", "echo:factory")
        prompt = server.bodies()[0]["messages"][1]["content"]
    (result,) = report["results"][0]["metric_results"]
    assert (code, result["score"], result["reasoning"]) == (0, 1.0, None)
    assert '"reason"' not in prompt


def test_judge_calls_are_recorded_and_replay_offline_identically(tmp_path: Path) -> None:
    cases = """
  - name: replayed
    turns:
      - input: CASE-A; first
        evaluations: [{type: geval, name: Tone, criteria: Polite.}]
      - input: CASE-B; second
        evaluations: [{metric: relevance, threshold: 0.9}]
"""
    script = JudgeScript(
        {
            "CASE-A;": [MALFORMED, valid({"score": 9, "reason": "polite"})],
            "CASE-B;": [valid({"score": 3, "reason": "partly"})],
        }
    )
    record = tmp_path / "replay.jsonl"
    with FakeModelServer(script) as server:
        agent = write(tmp_path, suite_at(server.url, cases))
        live_code, live, _ = run_suite(agent, "--agent", "echo:factory", "--record", record)
    entries = [json.loads(line) for line in record.read_text().splitlines()]
    assert [(e["turn_index"], e.get("judge"), "reply" in e) for e in entries] == [
        (0, None, True),
        (0, "Tone", True),  # the malformed reply
        (0, "Tone", True),  # the retry
        (1, None, True),
        (1, "relevance", True),
    ]
    # The service is gone: the judge's replies come from the recording.
    report = tmp_path / "replayed.json"
    code, out, err = invoke(
        "run", agent, "--agent", "echo:factory", "--replay", record, "-o", report
    )
    replayed = json.loads(report.read_text())
    assert (live_code, code) == (1, 1), err
    assert out.splitlines()[1] == "judge: 3 call(s), 349 token(s) (300 prompt, 49 completion)"
    assert strip_timings(replayed) == strip_timings(live)
    assert {k: v for k, v in replayed["environment"].items() if k.startswith("judge_")} == {
        k: v for k, v in live["environment"].items() if k.startswith("judge_")
    }
    # A changed judge prompt is a request the recording never saw.
    write(tmp_path, suite_at("http://127.0.0.1:9/v1", cases.replace("Polite.", "Curt.")))
    code, _, err = invoke("run", agent, "--agent", "echo:factory", "--replay", record, "-q")
    assert code == 3
    assert err.splitlines()[-1].startswith(
        "exit 3: the run stopped early (replay: replayed, turn 0 (judge of 'Tone'): no "
        "recorded exchange for this "
    )


def test_merged_shards_add_up_judge_calls(tmp_path: Path) -> None:
    cases = "".join(
        f"  - name: case {i}\n    input: q{i}\n    evaluations: [{{metric: fluency}}]\n"
        for i in range(4)
    )
    with FakeModelServer(lambda p, b: valid({"score": 5})) as server:
        agent = write(tmp_path, suite_at(server.url, cases))
        shards = []
        for i in (1, 2):
            shard = tmp_path / f"shard{i}.json"
            invoke("run", agent, "--agent", "echo:factory", "-q", "--shard", f"{i}/2", "-o", shard)
            shards.append(shard)
    merged = tmp_path / "merged.json"
    code, out, _ = invoke("merge", *shards, "-o", merged)
    assert code == 0
    judged, kept = out.splitlines()[1:]
    assert judged == "judge: 4 call(s), 480 token(s) (400 prompt, 80 completion)"
    # The shards kept nothing; the merged run is kept once.
    (run,) = (tmp_path / "results" / "judged").iterdir()
    assert kept == f"run kept: {run}"
    assert json.loads(merged.read_text())["environment"]["judge_calls"] == "4"


def test_an_anthropic_judge(tmp_path: Path) -> None:
    judge = '{provider: anthropic, name: claude-judge, endpoint: "ROOT"}'
    cases = f"  - input: q\n    evaluations: [{{metric: relevance, model: {judge}}}]\n"
    with FakeModelServer(lambda p, b: valid({"score": 5, "reason": "on point"})) as server:
        files = suite_at(server.url, cases)
        files["agent.yaml"] = files["agent.yaml"].replace("ROOT", server.root)
        agent = write(tmp_path, files)
        code, report, err = run_suite(agent, "--agent", "echo:factory")
        ((path, _, body),) = server.requests
    (result,) = report["results"][0]["metric_results"]
    assert code == 0, err
    assert (result["score"], result["reasoning"], result["model_used"]) == (
        1.0,
        "on point",
        "claude-judge",
    )
    assert (path, body["model"], body["temperature"]) == ("/v1/messages", "claude-judge", 0.0)
    assert body["system"].startswith("You grade the work of an AI agent")
