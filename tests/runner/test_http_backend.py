"""`run` against a real HTTP model service on 127.0.0.1 speaking the OpenAI protocol."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from tests.runner.fake_model import Conversation, FakeModelServer, Hang, Reply, Status
from tests.runner.helpers import invoke, run_suite, strip_timings, turns, write

TOOLS = """
TABLE = {("cash", "2009"): 206588, ("cash", "2010"): 181001}

def lookup(item: str, year: str) -> int:
    return TABLE[(item, year)]

def subtract(a: float, b: float) -> float:
    return a - b
"""


def agent(tmp_path: Path, url: str, cases: str, extra: str = "") -> Path:
    return write(
        tmp_path,
        {
            "agent.yaml": textwrap.dedent(f"""
            name: finance
            model:
              provider: openai
              name: gpt-test
              endpoint: {url}
            instructions:
              inline: Answer with the number only.
            tools:
              - name: lookup
                type: function
                description: Look a value up.
                file: tools.py
                function: lookup
              - name: subtract
                type: function
                description: a - b.
                file: tools.py
                function: subtract
            {extra}
            test_cases:
            """)
            + cases,
            "tools.py": TOOLS,
        },
    )


TWO_TURNS = """
  - name: cash change
    turns:
      - input: What was the cash in 2009?
        ground_truth: "206588"
        expected_tools:
          - name: lookup
            args: {item: cash, year: {regex: "20(09|10)"}}
        evaluations:
          - metric: numeric
      - input: And the change to 2010?
        ground_truth: "-25587"
        expected_tools: [subtract]
        evaluations:
          - metric: numeric
"""


def test_multi_turn_with_tool_calls_carries_history_and_reports_every_field(
    tmp_path: Path,
) -> None:
    script = Conversation(
        {
            "What was the cash in 2009?": [
                Reply(tool_calls=[("lookup", {"item": "cash", "year": "2009"})], usage=(20, 4)),
                Reply("206588", usage=(30, 2)),
            ],
            "And the change to 2010?": [
                Reply(tool_calls=[("subtract", {"a": 181001, "b": 206588})], usage=(40, 4)),
                Reply("-25587", usage=(50, 2)),
            ],
        }
    )
    with FakeModelServer(script) as server:
        code, report, err = run_suite(agent(tmp_path, server.url, TWO_TURNS))
        bodies = server.bodies()
    assert code == 0, err
    # The tool result went back to the model, and turn 1 was sent with turn 0's exchange.
    assert bodies[1]["messages"][-1] == {
        "role": "tool",
        "tool_call_id": "call_1_0",
        "content": "206588",
    }
    assert [m["role"] for m in bodies[2]["messages"]] == [
        "system",
        "user",
        "assistant",
        "tool",
        "assistant",
        "user",
    ]
    assert bodies[0]["tools"][0] == {
        "type": "function",
        "function": {
            "name": "lookup",
            "description": "Look a value up.",
            "parameters": {
                "type": "object",
                "properties": {"item": {"type": "string"}, "year": {"type": "string"}},
                "required": ["item", "year"],
                "additionalProperties": False,
            },
        },
    }
    usage = {"cache_creation_tokens": 0, "cache_read_tokens": 0}
    numeric = {
        "metric_name": "numeric",
        "kind": "standard",
        "score": 1.0,
        "threshold": None,
        "passed": True,
        "scale": "0-1",
        "error": None,
        "retry_count": 0,
        "model_used": None,
        "reasoning": None,
    }
    assert strip_timings(report["results"][0]) == {
        "test_name": "cash change",
        "test_input": "What was the cash in 2009?\n---\nAnd the change to 2010?",
        "processed_files": [],
        "agent_response": "-25587",
        "tool_calls": ["lookup", "subtract"],
        "tool_invocations": [
            {
                "name": "lookup",
                "args": {"item": "cash", "year": "2009"},
                "result": "206588",
                "bytes": 8,
                "error": None,
            },
            {
                "name": "subtract",
                "args": {"a": 181001, "b": 206588},
                "result": "-25587",
                "bytes": 8,
                "error": None,
            },
        ],
        "expected_tools": None,
        "tools_matched": True,
        "metric_results": [numeric],
        "ground_truth": None,
        "passed": True,
        "errors": [],
        "token_usage": {
            "prompt_tokens": 140,
            "completion_tokens": 12,
            "total_tokens": 152,
            **usage,
        },
        "turns": [
            {
                "turn_index": 0,
                "input": "What was the cash in 2009?",
                "response": "206588",
                "ground_truth": "206588",
                "expected_tools": [
                    {"name": "lookup", "args": {"item": "cash", "year": {"regex": "20(09|10)"}}}
                ],
                "tool_calls": ["lookup"],
                "tool_invocations": [
                    {
                        "name": "lookup",
                        "args": {"item": "cash", "year": "2009"},
                        "result": "206588",
                        "bytes": 8,
                        "error": None,
                    }
                ],
                "tools_matched": True,
                "arg_match_details": [
                    {
                        "expected_tool": "lookup",
                        "args_asserted": {"item": "cash", "year": {"regex": "20(09|10)"}},
                        "matched_call_index": 0,
                        "unmatched_reason": None,
                    }
                ],
                "metric_results": [numeric],
                "passed": True,
                "token_usage": {
                    "prompt_tokens": 50,
                    "completion_tokens": 6,
                    "total_tokens": 56,
                    **usage,
                },
                "errors": [],
                "skipped": False,
                "grader_details": None,
            },
            {
                "turn_index": 1,
                "input": "And the change to 2010?",
                "response": "-25587",
                "ground_truth": "-25587",
                "expected_tools": ["subtract"],
                "tool_calls": ["subtract"],
                "tool_invocations": [
                    {
                        "name": "subtract",
                        "args": {"a": 181001, "b": 206588},
                        "result": "-25587",
                        "bytes": 8,
                        "error": None,
                    }
                ],
                "tools_matched": True,
                "arg_match_details": None,
                "metric_results": [numeric],
                "passed": True,
                "token_usage": {
                    "prompt_tokens": 90,
                    "completion_tokens": 6,
                    "total_tokens": 96,
                    **usage,
                },
                "errors": [],
                "skipped": False,
                "grader_details": None,
            },
        ],
    }
    assert strip_timings(report["summary"]) == {
        "total_tests": 1,
        "passed": 1,
        "failed": 0,
        "pass_rate": 100.0,
        "metrics_evaluated": {"numeric": 1},
        "average_scores": {"numeric": 1.0},
    }


def test_a_hung_turn_times_out_and_the_next_turn_still_runs(tmp_path: Path) -> None:
    script = Conversation(
        {"What was the cash in 2009?": [Hang()], "And the change to 2010?": [Reply("-25587")]}
    )
    with FakeModelServer(script) as server:
        code, report, _ = run_suite(agent(tmp_path, server.url, TWO_TURNS), "--llm-timeout", "0.3")
        second = server.bodies()[1]
    first, last = turns(report)
    assert code == 1
    assert first["errors"] == [
        "timeout",
        "expected lookup(item=cash, year~20(09|10)): no call to 'lookup' found",
    ]
    assert (first["response"], first["passed"], first["skipped"]) == (None, False, False)
    assert first["tools_matched"] is False
    # The timed-out turn left no trace in the conversation the model sees.
    assert [m["role"] for m in second["messages"]] == ["system", "user"]
    # The scripted reply called no tool: the turn's assertion fails, its metric passes.
    assert (last["response"], last["errors"], last["metric_results"][0]["passed"]) == (
        "-25587",
        ["expected tool(s) not called in this turn: subtract"],
        True,
    )
    assert report["results"][0]["errors"][0] == "[turn 0] timeout"


def test_429_and_503_are_retried_until_the_reply_comes(tmp_path: Path) -> None:
    script = Conversation(
        {
            "What was the cash in 2009?": [Status(429), Status(503), Reply("206588")],
            "And the change to 2010?": [Reply("-25587")],
        }
    )
    cases = TWO_TURNS.replace("expected_tools: [subtract]", "").replace(
        """        expected_tools:
          - name: lookup
            args: {item: cash, year: {regex: "20(09|10)"}}
""",
        "",
    )
    with FakeModelServer(script) as server:
        code, report, err = run_suite(agent(tmp_path, server.url, cases))
        assert len(server.requests) == 4
    assert code == 0, err
    assert [t["response"] for t in turns(report)] == ["206588", "-25587"]


def test_a_service_that_keeps_failing_is_an_execution_error(tmp_path: Path) -> None:
    script = Conversation(
        {"What was the cash in 2009?": [Status(500)], "And the change to 2010?": [Reply("-25587")]}
    )
    with FakeModelServer(script) as server:
        code, report, _ = run_suite(agent(tmp_path, server.url, TWO_TURNS))
    first = turns(report)[0]
    assert code == 3
    assert first["errors"] == [
        'backend error: HTTP 500: {"error": {"message": "scripted failure"}} '
        "(gave up after 5 attempts)",
        "expected lookup(item=cash, year~20(09|10)): no call to 'lookup' found",
    ]
    assert turns(report)[1]["response"] == "-25587"


def test_a_refused_key_ends_the_session_and_skips_the_remaining_turns(tmp_path: Path) -> None:
    script = Conversation({"What was the cash in 2009?": [Status(401, retry_after=None)]})
    with FakeModelServer(script) as server:
        code, report, _ = run_suite(agent(tmp_path, server.url, TWO_TURNS))
        assert len(server.requests) == 1
    first, second = turns(report)
    reason = 'HTTP 401: {"error": {"message": "scripted failure"}}'
    assert code == 3
    assert first["errors"] == [
        f"session ended: {reason}",
        "expected lookup(item=cash, year~20(09|10)): no call to 'lookup' found",
    ]
    assert strip_timings(second) == {
        "turn_index": 1,
        "input": "And the change to 2010?",
        "response": None,
        "ground_truth": "-25587",
        "expected_tools": ["subtract"],
        "tool_calls": [],
        "tool_invocations": [],
        "tools_matched": None,
        "arg_match_details": None,
        "metric_results": [],
        "passed": False,
        "token_usage": None,
        "errors": [f"skipped: the session ended at turn 0: {reason}"],
        "skipped": True,
        "grader_details": None,
    }


def test_server_latency_within_the_timeout_is_fine(tmp_path: Path) -> None:
    script = Conversation(
        {
            "What was the cash in 2009?": [Reply("206588", delay=0.05)],
            "And the change to 2010?": [Reply("-25587", delay=0.05)],
        }
    )
    cases = "\n".join(
        line
        for line in TWO_TURNS.splitlines()
        if "expected_tools" not in line
        and "- name: lookup" not in line
        and "args: {item" not in line
    )
    with FakeModelServer(script) as server:
        code, report, err = run_suite(agent(tmp_path, server.url, cases), "--llm-timeout", "5")
    assert code == 0, err
    assert report["summary"]["passed"] == 1


def test_unset_variable_is_a_configuration_error_before_any_call(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("HL_TEST_MISSING_KEY", raising=False)
    with FakeModelServer(Conversation()) as server:
        path = agent(tmp_path, server.url, TWO_TURNS, extra="")
        text = path.read_text().replace(
            "name: gpt-test", "name: gpt-test\n  api_key: ${HL_TEST_MISSING_KEY}"
        )
        path.write_text(text)
        code, out, err = invoke("run", path)
        assert server.requests == []
    assert (code, out) == (2, "")
    assert err == (
        f"{path}:5:12: error HL605 environment variable HL_TEST_MISSING_KEY is not set\n"
        "    api_key: ${HL_TEST_MISSING_KEY}\n"  # a reference, as written: not a secret
        f"             {'^' * len('${HL_TEST_MISSING_KEY}')}\n"
        "1 file(s) checked: 1 error(s), 0 warning(s)\n"
    )


def test_set_variables_are_substituted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    script = Conversation({"Hi": [Reply("hello")]})
    with FakeModelServer(script) as server:
        monkeypatch.setenv("HL_TEST_ENDPOINT", server.url)
        monkeypatch.setenv("HL_TEST_KEY", "sk-test")
        path = agent(tmp_path, "${HL_TEST_ENDPOINT}", "  - input: Hi\n")
        path.write_text(
            path.read_text().replace("name: gpt-test", "name: gpt-test\n  api_key: ${HL_TEST_KEY}")
        )
        code, _, err = run_suite(path)
        headers = server.requests[0][1]
    assert code == 0, err
    assert headers["Authorization"] == "Bearer sk-test"


def test_validation_errors_stop_the_run_with_diagnostics(tmp_path: Path) -> None:
    with FakeModelServer(Conversation()) as server:
        path = agent(tmp_path, server.url, "  - name: bad\n    turns: []\n")
        code, out, err = invoke("run", path)
        assert server.requests == []
    assert (code, out) == (2, "")
    assert err.splitlines()[0].startswith(f"{path}:")
    assert "HL" in err.splitlines()[0] and "turns" in err.splitlines()[0]
    assert err.endswith("1 file(s) checked: 1 error(s), 0 warning(s)\n")


def test_a_grader_that_does_not_import_stops_the_run(tmp_path: Path) -> None:
    cases = """
  - name: graded
    turns:
      - input: Hi
        evaluations:
          - type: code
            grader: broken_graders:exact
"""
    with FakeModelServer(Conversation()) as server:
        path = agent(tmp_path, server.url, cases)
        write(
            tmp_path,
            {
                "broken_graders.py": """
            raise RuntimeError("GRADER_CONFIG is not set")

            def exact(ctx):
                return True
            """
            },
        )
        code, _, err = invoke("run", path, "--no-user-config")
        assert server.requests == []
    assert code == 2
    assert err == (
        f"{path}: error: grader 'broken_graders:exact' "
        "(test_cases[0].turns[0].evaluations[0].grader): cannot import 'broken_graders': "
        "RuntimeError: GRADER_CONFIG is not set\n"
    )


def test_anthropic_messages_with_tool_use(tmp_path: Path) -> None:
    script = Conversation(
        {
            "What was the cash in 2009?": [
                Reply("Looking it up.", tool_calls=[("lookup", {"item": "cash", "year": "2009"})]),
                Reply("206588"),
            ],
            "And the change to 2010?": [
                Reply(tool_calls=[("subtract", {"a": 181001, "b": 206588})]),
                Reply("-25587"),
            ],
        }
    )
    with FakeModelServer(script) as server:
        path = agent(tmp_path, server.root, TWO_TURNS)
        path.write_text(
            path.read_text()
            .replace("provider: openai", "provider: anthropic")
            .replace("name: gpt-test", "name: claude-test\n  api_key: sk-ant-test")
        )
        code, report, err = run_suite(path)
        path_seen, headers, body = server.requests[1]
        last_body = server.bodies()[2]
    assert code == 0, err
    assert path_seen == "/v1/messages"
    assert (headers["x-api-key"], headers["anthropic-version"]) == ("sk-ant-test", "2023-06-01")
    assert body["system"] == "Answer with the number only."
    assert body["messages"][-1] == {
        "role": "user",
        "content": [{"type": "tool_result", "tool_use_id": "toolu_1_0", "content": "206588"}],
    }
    assert [m["role"] for m in last_body["messages"]] == [
        "user",
        "assistant",
        "user",
        "assistant",
        "user",
    ]
    assert [t["response"] for t in turns(report)] == ["206588", "-25587"]
    assert report["results"][0]["token_usage"]["total_tokens"] == 60


def test_missing_api_key_is_a_configuration_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    path = agent(tmp_path, "x", "  - input: Hi\n")
    path.write_text(path.read_text().replace("  endpoint: x\n", ""))
    code, _, err = invoke("run", path)
    assert (code, err) == (2, "error: no API key: set model.api_key or OPENAI_API_KEY\n")


@pytest.mark.parametrize(
    ("provider", "blocks", "limit"),
    [
        # HoloDeck runs anthropic (and ollama) agents on its Claude backend: `claude:` counts.
        ("anthropic", "claude:\n  max_turns: 2\nopenai:\n  max_turns: 7\n", 2),
        ("openai", "claude:\n  max_turns: 9\nopenai:\n  max_turns: 3\n", 3),
    ],
)
def test_max_turns_is_read_from_the_block_of_the_agents_backend(
    tmp_path: Path, provider: str, blocks: str, limit: int
) -> None:
    looping = Reply(tool_calls=[("lookup", {"item": "cash", "year": "2009"})])
    with FakeModelServer(lambda _path, _body: looping) as server:
        url = server.root if provider == "anthropic" else server.url
        path = agent(tmp_path, url, "  - input: What was the cash in 2009?\n")
        path.write_text(
            path.read_text()
            .replace("test_cases:", blocks + "test_cases:")
            .replace("provider: openai", f"provider: {provider}")
            .replace("name: gpt-test", "name: a-model\n  api_key: sk-test")
        )
        code, report, _err = run_suite(path)
        sent = len(server.requests)
    assert code == 1
    [error] = report["results"][0]["errors"]
    assert error.endswith(f"MaxTurnsExceeded: Max turns ({limit}) exceeded")
    assert sent == limit
