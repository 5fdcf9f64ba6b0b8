"""Roll-ups, record -> replay, shard + merge, JUnit and Markdown reports, selection."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from junitparser import Error, Failure, JUnitXml, Skipped

from holodeck_lsp.models.test_result import MetricResult, ToolInvocation, TurnResult
from holodeck_lsp.models.token_usage import TokenUsage
from holodeck_lsp.runner.score.rollup import roll_up_case, summarize
from tests.runner.fake_model import (
    Action,
    FakeModelServer,
    Reply,
    Status,
    last_user_text,
    tool_results,
)
from tests.runner.helpers import invoke, run_suite, strip_timings, write


def turn(index: int, passed: bool, metrics: list[MetricResult], **extra: object) -> TurnResult:
    return TurnResult(
        turn_index=index,
        input=f"q{index}",
        response=f"a{index}",
        metric_results=metrics,
        passed=passed,
        execution_time_ms=10,
        **extra,  # type: ignore[arg-type]
    )


def m(name: str, score: float, passed: bool | None) -> MetricResult:
    return MetricResult(metric_name=name, score=score, passed=passed)


def test_roll_up_follows_the_seed_table() -> None:
    usage = TokenUsage(prompt_tokens=10, completion_tokens=2, total_tokens=13, cache_read_tokens=4)
    turns = [
        turn(
            0,
            True,
            [m("numeric", 1.0, True), m("grader", 0.5, True)],
            tool_calls=["lookup"],
            tool_invocations=[ToolInvocation(name="lookup")],
            expected_tools=["lookup"],
            tools_matched=True,
            token_usage=usage,
        ),
        turn(
            1,
            False,
            [m("numeric", 0.0, False)],
            errors=["timed out"],
            expected_tools=["lookup", {"name": "subtract", "count": 1}],
            tools_matched=False,
            token_usage=usage,
        ),
        turn(2, True, [], tool_calls=["divide"], tool_invocations=[ToolInvocation(name="divide")]),
    ]
    result = roll_up_case("case", turns, [], 40, "2026-01-01T00:00:00Z")
    dumped = result.model_dump(mode="json", exclude={"turns"})
    assert dumped == {
        "test_name": "case",
        "test_input": "q0\n---\nq1\n---\nq2",
        "processed_files": [],
        "agent_response": "a2",
        "tool_calls": ["lookup", "divide"],
        "tool_invocations": [
            {
                "name": "lookup",
                "args": {},
                "result": None,
                "bytes": 0,
                "duration_ms": None,
                "error": None,
            },
            {
                "name": "divide",
                "args": {},
                "result": None,
                "bytes": 0,
                "duration_ms": None,
                "error": None,
            },
        ],
        "expected_tools": None,  # the assertions stay in the turns
        "tools_matched": False,
        "metric_results": [
            {
                "metric_name": "numeric",
                "kind": "standard",
                "score": 0.5,
                "threshold": None,
                "passed": False,
                "scale": None,
                "error": None,
                "retry_count": 0,
                "evaluation_time_ms": 0,
                "model_used": None,
                "reasoning": None,
            },
            {
                "metric_name": "grader",
                "kind": "standard",
                "score": 0.5,
                "threshold": None,
                "passed": True,
                "scale": None,
                "error": None,
                "retry_count": 0,
                "evaluation_time_ms": 0,
                "model_used": None,
                "reasoning": None,
            },
        ],
        "ground_truth": None,
        "passed": False,
        "execution_time_ms": 40,
        "errors": ["[turn 1] timed out"],
        "timestamp": "2026-01-01T00:00:00Z",
        "token_usage": {
            "prompt_tokens": 20,
            "completion_tokens": 4,
            "total_tokens": 26,
            "cache_creation_tokens": 0,
            "cache_read_tokens": 8,
        },
    }


T = "2026-01-01T00:00:00Z"


def test_tools_matched_is_none_when_no_turn_asserts_tools() -> None:
    result = roll_up_case("c", [turn(0, True, [])], [], 1, T)
    assert (result.tools_matched, result.token_usage, result.metric_results) == (None, None, [])


def test_summary_counts_test_cases_not_turns() -> None:
    passed = roll_up_case("a", [turn(0, True, [m("x", 1.0, True)]), turn(1, True, [])], [], 1, T)
    failed = roll_up_case("b", [turn(0, False, [m("x", 0.0, False)])], [], 1, T)
    summary = summarize([passed, failed], 99)
    assert summary.model_dump() == {
        "total_tests": 2,
        "passed": 1,
        "failed": 1,
        "pass_rate": 50.0,
        "total_duration_ms": 99,
        "metrics_evaluated": {"x": 2},
        "average_scores": {"x": 0.5},
    }


SUITE = """
name: shop
model: {{provider: openai, name: gpt-test, endpoint: "{url}"}}
instructions: {{inline: Be brief.}}
tools:
  - {{name: price, type: function, description: Price of an item., file: tools.py,
     function: price}}
test_cases:
"""
TOOLS = "def price(item: str) -> float:\n    return {'apple': 0.5, 'pear': 0.75}.get(item, 1.0)\n"
ITEMS = ["apple", "pear", "fig", "plum", "kiwi", "lime"]


def shop_cases() -> str:
    out = []
    for i, item in enumerate(ITEMS):
        out.append(
            f"  - name: {item} price\n    turns:\n"
            f'      - input: Price of {item}?\n        ground_truth: "0.5"\n'
            f"        expected_tools: [{{name: price, args: {{item: {item}}}}}]\n"
            f"        evaluations: [{{metric: numeric}}]\n"
            f"      - input: Thanks {i}\n"
        )
    return "".join(out)


def shop_script(path: str, body: dict[str, Any]) -> Action:
    """Stateless, so one server serves several runs: call the tool, then answer."""
    text = last_user_text(body)
    if text == "Price of plum?":
        return Status(500)  # a backend error, recorded and replayed
    if text.startswith("Price of "):
        if not tool_results(body):
            return Reply(tool_calls=[("price", {"item": text[9:-1]})])
        return Reply("0.5")
    return Reply("You are welcome.")


def test_record_then_replay_offline_gives_the_same_report(tmp_path: Path) -> None:
    record = tmp_path / "replay.jsonl"
    with FakeModelServer(shop_script) as server:
        path = write(
            tmp_path, {"agent.yaml": SUITE.format(url=server.url) + shop_cases(), "tools.py": TOOLS}
        )
        code, live, _ = run_suite(path, "--record", record, "-p", "3")
    lines = [json.loads(line) for line in record.read_text().splitlines()]
    assert code == 3  # plum's backend error
    assert [(e["test_case"], e["turn_index"]) for e in lines] == [
        (f"{item} price", t) for item in ITEMS for t in (0, 1)
    ]
    assert lines[6]["error"]["kind"] == "backend"
    # The server is gone: replay never touches the network.
    replay_code, replayed, err = run_suite(path, "--replay", record)
    assert replay_code == code, err
    assert strip_timings(replayed) == strip_timings(live)
    assert replayed["environment"]["replay"] == str(record)


def test_a_request_missing_from_the_replay_file_fails_loudly(tmp_path: Path) -> None:
    record = tmp_path / "replay.jsonl"
    with FakeModelServer(shop_script) as server:
        path = write(
            tmp_path, {"agent.yaml": SUITE.format(url=server.url) + shop_cases(), "tools.py": TOOLS}
        )
        invoke("run", path, "--record", record, "--quiet", "-k", "apple")
    code, _, err = invoke("run", path, "--replay", record, "--quiet", "-k", "pear")
    assert code == 3
    # Said once, in the last line (the reason the exit code is 3).
    assert err.count("no recorded exchange") == 1
    assert err.splitlines()[-1].startswith(
        "exit 3: the run stopped early (replay: pear price, turn 0: no recorded exchange for "
        "this request in "
    )
    corrupt = tmp_path / "corrupt.jsonl"
    corrupt.write_text('{"fingerprint": "x"}\n')
    code, _, err = invoke("run", path, "--replay", corrupt)
    assert (code, err.split(" (")[0]) == (2, f"error: {corrupt}:1: not a recorded exchange")


def test_shards_merged_equal_the_unsharded_run(tmp_path: Path) -> None:
    with FakeModelServer(shop_script) as server:
        path = write(
            tmp_path, {"agent.yaml": SUITE.format(url=server.url) + shop_cases(), "tools.py": TOOLS}
        )
        whole = tmp_path / "whole.json"
        code, _, _ = invoke("run", path, "-q", "-o", whole, "-o", tmp_path / "whole.xml")
        shards = []
        for i in (1, 2, 3):
            shard = tmp_path / f"shard{i}.json"
            invoke("run", path, "-q", "--shard", f"{i}/3", "-o", shard)
            shards.append(shard)
    sizes = [len(json.loads(s.read_text())["results"]) for s in shards]
    assert sum(sizes) == len(ITEMS)
    merged = tmp_path / "merged.json"
    merge_code, out, err = invoke(
        "merge", *shards, "-o", merged, "-o", tmp_path / "merged.xml", "-o", tmp_path / "merged.md"
    )
    assert (merge_code, code) == (3 - 2, 3), err  # merge: 1 (failures); run: 3 (backend error)
    assert out.startswith("6 test case(s) run (12 turn(s)): 5 passed, 1 failed")
    assert strip_timings(json.loads(merged.read_text())) == strip_timings(
        json.loads(whole.read_text())
    )
    counts = [
        (s.name, s.tests, s.failures, s.errors)
        for s in JUnitXml.fromfile(str(tmp_path / "merged.xml"))
    ]
    assert counts == [
        (s.name, s.tests, s.failures, s.errors)
        for s in JUnitXml.fromfile(str(tmp_path / "whole.xml"))
    ]
    busy = next(s for s, size in zip(shards, sizes, strict=True) if size)
    overlap = invoke("merge", busy, busy)
    assert overlap[0] == 2 and f"is in both {busy} and {busy}" in overlap[2]


def test_merge_refuses_missing_shards_and_other_suites(tmp_path: Path) -> None:
    with FakeModelServer(shop_script) as server:
        path = write(
            tmp_path, {"agent.yaml": SUITE.format(url=server.url) + shop_cases(), "tools.py": TOOLS}
        )
        shards = [tmp_path / f"shard{i}.json" for i in (1, 2)]
        for i, shard in enumerate(shards, 1):
            invoke("run", path, "-q", "--shard", f"{i}/2", "-o", shard)
        other = write(
            tmp_path / "other",
            {
                "agent.yaml": SUITE.format(url=server.url)
                + shop_cases().replace("Thanks 5", "Thanks!"),
                "tools.py": TOOLS,
            },
        )
        invoke("run", other, "-q", "--shard", "2/2", "-o", tmp_path / "other2.json")
    merged = tmp_path / "merged.json"
    assert invoke("merge", shards[0], "-o", merged) == (
        2,
        "",
        f"error: shard 2/2 is missing: given {shards[0]} (1/2) "
        "(pass --allow-partial to merge anyway)\n",
    )
    assert not merged.exists()
    code, out, _ = invoke("merge", shards[0], "--allow-partial", "-o", merged)
    partial = json.loads(merged.read_text())
    assert (code, partial["environment"]["missing_shards"]) == (0, "2/2")
    assert out.startswith(f"{len(partial['results'])} test case(s) run (")
    code, _, err = invoke("merge", shards[0], tmp_path / "other2.json")
    assert (code, err.split(":")[0]) == (2, "error")
    assert "reports are of different test suites (suite digest)" in err


def test_selection_by_keyword_and_limit(tmp_path: Path) -> None:
    with FakeModelServer(shop_script) as server:
        path = write(
            tmp_path, {"agent.yaml": SUITE.format(url=server.url) + shop_cases(), "tools.py": TOOLS}
        )
        _, by_keyword, _ = run_suite(path, "-k", "EAR", "-k", "lime")
        _, limited, _ = run_suite(path, "--limit", "2")
        bad = invoke("run", path, "--shard", "4/3")
    assert [r["test_name"] for r in by_keyword["results"]] == ["pear price", "lime price"]
    assert [r["test_name"] for r in limited["results"]] == ["apple price", "pear price"]
    assert bad == (2, "", "error: --shard I/N needs 1 <= I <= N <= 10,000, got '4/3'\n")


JUNIT_AGENT = """
class Scripted:
    def __init__(self):
        self.n = 0

    def send(self, message):
        if message == "explode":
            raise RuntimeError("kaput")
        if message == "die":
            raise SystemError("unreachable")
        return {"text": "42", "tool_calls": [{"name": "add", "args": {"a": 1}}]}

def factory():
    return Scripted()

def broken():
    raise ConnectionError("down")
"""
JUNIT_CASES = """
name: ci
model: {provider: openai, name: unused}
instructions: {inline: unused}
test_cases:
  - name: mixed
    turns:
      - input: fine
        ground_truth: "42"
        evaluations: [{metric: numeric}]
      - input: wrong args
        expected_tools: [{name: add, args: {a: 2}}]
      - input: explode
      - input: wrong number
        ground_truth: "41"
        evaluations: [{metric: numeric}]
  - name: single
    input: fine
    ground_truth: "42"
    evaluations: [{metric: equality}]
"""


def test_junit_parses_with_a_standard_reader(tmp_path: Path) -> None:
    path = write(tmp_path, {"agent.yaml": JUNIT_CASES, "scripted.py": JUNIT_AGENT})
    xml, md = tmp_path / "r.xml", tmp_path / "r.md"
    code, _, _ = invoke("run", path, "--agent", "scripted:factory", "-q", "-o", xml, "-o", md)
    assert code == 1
    suites = list(JUnitXml.fromfile(str(xml)))
    assert [(s.name, s.tests, s.failures, s.errors, s.skipped) for s in suites] == [
        ("mixed", 4, 2, 1, 0),
        ("single", 1, 0, 0, 0),
    ]
    cases = list(suites[0])
    kinds = [[type(r).__name__ for r in c.result] for c in cases]
    assert [c.name for c in cases] == [
        "turn 0: fine",
        "turn 1: wrong args",
        "turn 2: explode",
        "turn 3: wrong number",
    ]
    assert kinds == [[], ["Failure"], ["Error"], ["Failure"]]
    failure = cases[1].result[0]
    assert isinstance(failure, Failure)
    assert failure.message == "expected add(a=2): arg 'a' mismatch: expected 2, got 1"
    error = cases[2].result[0]
    assert isinstance(error, Error) and error.message == "Agent error: RuntimeError: kaput"
    assert cases[0].classname == "ci.mixed"

    skipped_path = write(tmp_path, {"agent.yaml": JUNIT_CASES})
    invoke("run", skipped_path, "--agent", "scripted:broken", "-q", "-o", xml)
    first = next(iter(JUnitXml.fromfile(str(xml))))
    assert (first.errors, first.skipped) == (1, 3)
    assert isinstance(list(first)[1].result[0], Skipped)


SINGLE_TURN_TOOLS = """
name: ci
model: {provider: openai, name: unused}
instructions: {inline: unused}
test_cases:
  - name: missing name
    input: fine
    expected_tools: [divide]
  - name: wrong argument
    input: fine
    expected_tools: [divide, {name: add, args: {a: 2}}]
  - name: timed out
    input: explode
    expected_tools: [{name: add, args: {a: 1}}]
"""


def test_junit_of_single_turn_cases_names_what_their_report_lines_do_not(
    tmp_path: Path,
) -> None:
    """A single-turn case writes no line for a missing bare name (as `holodeck test`): the
    JUnit failure then says the tools did not match; the same JUnit comes from the JSON
    report read back by `merge`."""
    path = write(tmp_path, {"agent.yaml": SINGLE_TURN_TOOLS, "scripted.py": JUNIT_AGENT})
    xml, report, merged = tmp_path / "r.xml", tmp_path / "r.json", tmp_path / "merged.xml"
    code, _, err = invoke(
        "run", path, "--agent", "scripted:factory", "-q", "-o", xml, "-o", report
    )
    assert code == 1, err
    cases = [next(iter(suite)) for suite in JUnitXml.fromfile(str(xml))]
    assert [(type(c.result[0]).__name__, c.result[0].text) for c in cases] == [
        ("Failure", "expected tools not matched: ['divide']; calls: add"),
        ("Failure", "expected add(a=2): arg 'a' mismatch: expected 2, got 1"),
        (
            "Error",
            "Agent invocation error: RuntimeError: kaput\n"
            "expected add(a=1): no call to 'add' found",
        ),
    ]
    assert invoke("merge", report, "-o", merged)[0] == 1
    assert merged.read_text() == xml.read_text()


# The expected report is compared whole; its long lines are the report's own.
def test_markdown_names_the_failing_turn_tool_and_argument(tmp_path: Path) -> None:
    path = write(tmp_path, {"agent.yaml": JUNIT_CASES, "scripted.py": JUNIT_AGENT})
    md = tmp_path / "r.md"
    invoke("run", path, "--agent", "scripted:factory", "-q", "-o", md)
    text = re.sub(r"\d+ ms", "N ms", md.read_text())
    text = re.sub(r"in \d+\.\d+ s; [^;]+;", "in T s; TIME;", text)
    tool_line = "- turn 1: `expected add(a=2): arg 'a' mismatch: expected 2, got 1`"
    metric_line = (
        "- turn 3: metric `numeric` failed: `score 0: not the ground truth within tolerance`"
    )
    assert (
        text
        == f"""# Test report: `ci`

**1/2 test cases passed** (50%; 5 turn(s)) in T s; TIME; `{path}`

| test case | result | turns passed | time |
|---|---|---|---|
| `mixed` | FAIL | 1/4 | N ms |
| `single` | PASS | single turn | N ms |

| metric | cases | mean score |
|---|---|---|
| `numeric` | 1 | 0.500 |
| `equality` | 1 | 1.000 |

## FAIL: `mixed`

| turn | result | input | response | tool calls | metrics | time |
|---|---|---|---|---|---|---|
| 0 | PASS | `fine` | `42` | `add` | `numeric 1.00 pass` | N ms |
| 1 | FAIL | `wrong args` | `42` | `add` |  | N ms |
| 2 | FAIL | `explode` |  |  |  | N ms |
| 3 | FAIL | `wrong number` | `42` | `add` | `numeric 0.00 fail` | N ms |

Failures:

{tool_line}
- turn 2: `Agent error: RuntimeError: kaput`
{metric_line}

## PASS: `single`

- input: `fine`
- response: `42`
- tool calls: `add`
- metrics: `equality 1.00 pass`
"""
    )


def test_exit_codes_and_summary_line(tmp_path: Path) -> None:
    path = write(tmp_path, {"agent.yaml": JUNIT_CASES, "scripted.py": JUNIT_AGENT})
    code, out, _ = invoke("run", path, "--agent", "scripted:factory", "-k", "single")
    assert code == 0
    kept = tmp_path / "results" / "ci"
    assert re.fullmatch(
        r"1 test case\(s\) run \(1 turn\(s\)\): 1 passed, 0 failed \(100%\) in \d+\.\d\d s\n"
        + f"run kept: {re.escape(str(kept))}/[0-9T.+-]+\\.json\n",
        out,
    )
    assert invoke("run", path, "--agent", "scripted:factory", "-q")[0] == 1
    assert invoke("run", path, "--agent", "scripted:broken", "-q")[0] == 3
    # Another extension is JSON, as `holodeck test --output` writes it, and said so.
    text_report = tmp_path / "r.txt"
    code, _, err = invoke("run", path, "--agent", "scripted:factory", "-q", "-o", text_report)
    assert code == 1
    assert json.loads(text_report.read_text())["summary"]["failed"] == 1
    assert err.startswith(f"note: {text_report}: written as JSON, as holodeck test ")
    assert invoke("run", tmp_path / "missing.yaml")[0] == 2
    code, _, err = invoke("run", path, "--agent", "scripted:factory", "-k", "single")
    assert err.splitlines() == ["running 1 test case(s) (1 turn(s))", err.splitlines()[1]]
    assert re.fullmatch(r"PASS  single \(1 turn, \d+ ms\)", err.splitlines()[1])


def test_progress_on_a_terminal_is_a_live_bar(tmp_path: Path) -> None:
    import io

    from holodeck_lsp.runner.report.progress import PlainProgress, RichProgress, make_progress
    from holodeck_lsp.runner.report.run_counts import RunCounts

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    path = write(tmp_path, {"agent.yaml": JUNIT_CASES, "scripted.py": JUNIT_AGENT})
    from holodeck_lsp.runner.command import ExecuteOptions, RunOptions, run_command

    screen = Terminal()
    counts = RunCounts(2, 0, 1, 2, 5)
    assert isinstance(make_progress(False, counts, screen), RichProgress)
    assert isinstance(make_progress(False, counts, io.StringIO()), PlainProgress)
    code = run_command(
        RunOptions(path, execute=ExecuteOptions(python_agent="scripted:factory")),
        io.StringIO(),
        screen,
    )
    assert code == 1
    text = screen.getvalue()
    assert "FAIL  mixed (4 turns" in text and "test cases" in text and "2/2" in text


@pytest.mark.parametrize(
    ("rate", "shown"),
    [(100.0, "100%"), (0.0, "0%"), (50.0, "50%"), (200 / 3, "66.7%"), (100 / 3, "33.3%"),
     (99.96, "99.9%"), (0.04, "0.1%")],
)
def test_a_pass_rate_reads_as_holodeck_test_prints_it(rate: float, shown: str) -> None:
    """One decimal at most, as `holodeck test`'s summary (never `66.6667%`), and never 100%
    or 0% unless it is."""
    from holodeck_lsp.runner.report.run_counts import pass_rate_text

    assert pass_rate_text(rate) == shown
