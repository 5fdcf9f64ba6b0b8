"""One reading of every failure: a suite that fails every way there is (tools not called, an
argument that does not match, too few calls, each kind of metric, a grader that raises or
returns what it may not, a judge that cannot be read, an agent error, a timeout, turns
skipped after a fatal grader) gives, in every output of every format, a score with its
threshold or a reason, and never `None`: the console (`-v`: each case's line, as without
it, and each turn's), the JSON report (a null stays null, never the string "None"),
Markdown, JUnit, the HTML page's text, the events, `merge`, and `compare` in its three
formats."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from tests.runner.fake_model import (
    Action,
    FakeModelServer,
    Hang,
    Reply,
    last_user_text,
    tool_results,
)
from tests.runner.helpers import invoke, write
from tests.runner.judge_script import MALFORMED, valid
from tests.runner.test_html_report import Page

SUITE = """
name: fails every way
model: {provider: openai, name: agent-model, endpoint: "URL"}
instructions: {inline: Answer.}
tools:
  - {name: lookup, type: function, file: tools.py, function: lookup, description: A figure.}
evaluations:
  model: {provider: openai, name: judge-model, endpoint: "URL", api_key: sk-judge-0123}
  metrics: [{type: code, grader: "graders:low", enabled: false}]  # none of its own
execution: {llm_timeout: 1}
test_cases:
  - name: tools
    turns:
      - input: call nothing
        expected_tools: [lookup]
      - input: call with x
        expected_tools:
          - name: lookup
            args: {q: {regex: "y+"}, missing: 1}
      - input: call once
        expected_tools: [{name: lookup, count: 2}]
  - name: deterministic
    turns:
      - {input: say b, ground_truth: a, evaluations: [{metric: equality}]}
      - {input: say 7, ground_truth: "9", evaluations: [{metric: numeric}]}
      - {input: say b, ground_truth: a b c d, evaluations: [{metric: bleu, threshold: 0.9}]}
      - {input: say b, ground_truth: a, evaluations: [{metric: rouge, threshold: 0.9}]}
  - name: graders
    turns:
      - {input: say b, evaluations: [{type: code, grader: "graders:low", threshold: 0.8}]}
      - {input: say b, evaluations: [{type: code, grader: "graders:low"}]}
      - {input: say b, evaluations: [{type: code, grader: "graders:refuses"}]}
      - {input: say b, evaluations: [{type: code, grader: "graders:odd"}]}
      - {input: say b, evaluations: [{type: code, grader: "graders:outside"}]}
  - name: judged
    turns:
      - input: say b
        retrieval_context: [a passage]
        evaluations:
          - {type: geval, name: Tone, criteria: Polite., threshold: 0.9}
          - {metric: coherence, threshold: 0.9}
          - {type: rag, metric_type: faithfulness}
          - {type: rag, metric_type: answer_relevancy, threshold: 0.6}
  - name: broken turns
    turns:
      - input: explode
      - input: stall
      - input: say b
        evaluations: [{type: code, grader: "graders:raises", fail_on_error: true}]
      - input: never sent
  - name: single
    input: say b
    ground_truth: a
    expected_tools: [lookup]
    evaluations: [{metric: equality}, {type: code, grader: "graders:raises"}]
"""
GRADERS = """
from dataclasses import dataclass

@dataclass
class Result:
    score: float
    passed: bool

def low(ctx):
    return 0.3

def refuses(ctx):
    return Result(0.9, False)  # a high score, yet failed by the grader

def odd(ctx):
    return {"score": 1}

def outside(ctx):
    return 1.5

def raises(ctx):
    raise ValueError("grader broke")
"""
TOOLS = "def lookup(q: str) -> str:\n    return q\n"
NONE = re.compile(r"\bNone\b")


def answer(path: str, body: dict[str, Any]) -> Action:
    """The agent's replies (by message), then the judge's (by what its prompt asks)."""
    text = last_user_text(body)
    calls = {
        "call with x": [("lookup", {"q": "x"})],
        "call once": [("lookup", {"q": "y"})],
    }
    if text in calls:
        return Reply("done") if tool_results(body) else Reply(tool_calls=calls[text])
    if text == "explode":
        return Reply(tool_calls=[("no_such_tool", {})])
    if text == "stall":
        return Hang()
    if text.startswith(("call", "say", "never")):
        return Reply(text.split()[-1])
    if "Tone" in text:
        return valid({"score": 2, "reason": ""})
    if "coherence" in text.lower():
        return valid({"score": 2, "reason": "hard to follow"})
    if "statements" in text:
        return valid({"statements": [{"statement": "a", "verdict": "yes"},
                                     {"statement": "b", "verdict": "no"}], "reason": ""})
    return MALFORMED


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def test_no_output_of_any_format_reads_none(tmp_path: Path) -> None:
    with FakeModelServer(answer) as server:
        files = {"agent.yaml": SUITE.replace("URL", server.url), "graders.py": GRADERS}
        agent = write(tmp_path, {**files, "tools.py": TOOLS})
        outputs = [tmp_path / f"report.{ext}" for ext in ("json", "md", "xml", "html")]
        events = tmp_path / "events.jsonl"
        args = [f"-o{path}" for path in outputs]
        code, out, err = invoke("run", agent, "-v", "--events", events, *args)
    assert code == 1, err
    report = json.loads(outputs[0].read_text())
    assert [r["passed"] for r in report["results"]] == [False] * 6
    texts = {"stdout": out, "stderr": err}  # `-v`: each case's line as without it, and more
    texts |= {path.name: path.read_text() for path in (*outputs[1:3], events)}
    texts["report.html (text)"] = "\n".join(Page(outputs[3].read_text()).text)
    # JSON: a value missing is null, never "None" in a string.
    texts["report.json (strings)"] = "\n".join(_strings(report))
    texts["events (strings)"] = "\n".join(
        s for line in events.read_text().splitlines() for s in _strings(json.loads(line))
    )
    # merge and compare read the report back; compare against a run that passed everything.
    texts["merge"] = "".join(invoke("merge", outputs[0], "-o", tmp_path / "merged.md")[1:])
    texts["merged.md"] = (tmp_path / "merged.md").read_text()
    base = _all_passed(report, tmp_path / "base.json")
    for chosen in ("text", "markdown", "json"):
        texts[f"compare {chosen}"] = "".join(invoke("compare", base, outputs[0], "-f", chosen)[1:])
    shown = {name: NONE.findall(text) for name, text in texts.items()}
    assert {name: found for name, found in shown.items() if found} == {}
    # Each way of failing is read with its numbers or its reason, as the console gives it.
    for expected in (
        "[turn 0] no call to 'lookup' found",
        "tool lookup: arg 'q' mismatch: expected regex 'y+', got 'x'",
        "tool lookup: expected 2 matching call(s), got 1",
        "equality FAIL: score 0: not the ground truth",
        "numeric FAIL: score 0: not the ground truth within tolerance",
        "rouge FAIL: score 0 below threshold 0.9",
        "odd FAIL: grader returned unsupported type dict; expected bool, float, or "
        "GraderResult (score 0)",
        "outside FAIL: score must be within [0, 1], got 1.5",
        "low FAIL: score 0.3 below threshold 0.8",
        "low FAIL: score 0.3: below 0.5, the pass mark of a grader without a threshold",
        "refuses FAIL: score 0.9, yet the grader returned passed: false",
        "Tone FAIL: score 0.2 below threshold 0.9",
        "coherence FAIL: hard to follow (score 0.4 / threshold 0.9)",
        "answer_relevancy FAIL: score 0.5 below threshold 0.6",
        "faithfulness FAIL: malformed judge reply (the reply is not a JSON object); raw reply: "
        "'I would rate this a four out of five.' [2 attempt(s)] (score 0 / threshold 0.5)",
        "[turn 0] Agent error: MaxTurnsExceeded: Max turns (20) exceeded",
        "  turn 1 FAIL\n    timeout",
        "  turn 3 SKIP\n    session became unrecoverable",
    ):
        assert expected in err, expected


def _all_passed(report: dict[str, Any], path: Path) -> Path:
    """The report as if every turn had passed: the BASE every failure is a regression of."""
    base = json.loads(json.dumps(report))
    for result in base["results"]:
        result.update(passed=True, errors=[])
        for turn in result["turns"] or []:
            turn.update(passed=True, errors=[], skipped=False)
    base["summary"].update(passed=len(base["results"]), failed=0, pass_rate=100.0)
    path.write_text(json.dumps(base))
    return path
