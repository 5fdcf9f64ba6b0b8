"""`run --agent pkg.mod:factory`: the Python agent contract, sessions and parallelism."""

from __future__ import annotations

from pathlib import Path

import pytest

from holodeck_lsp.runner.collect.run_settings import PARALLEL_ENV, UsageError, resolve_parallelism
from tests.runner.helpers import invoke, run_suite, strip_timings, turns, write

AGENT_HEAD = """
name: scripted
model: {provider: openai, name: unused}
instructions: {inline: unused}
"""

AGENT_MODULE = """
import asyncio

SESSIONS = []
CLOSED = []


class Memory:
    \"\"\"Remembers the conversation; answers from the message.\"\"\"

    def __init__(self):
        self.seen = []
        SESSIONS.append(self)

    def send(self, message):
        self.seen.append(message)
        if message == "raise":
            raise ValueError("the agent broke")
        if message == "count":
            return str(len(self.seen))
        if message == "tools":
            return {
                "text": "done",
                "tool_calls": [
                    {"name": "lookup", "args": {"item": "cash"}, "result": 206588},
                    {"name": "subtract", "args": {"a": 1, "b": 2}, "result": -1},
                ],
                "usage": {"prompt_tokens": 7, "completion_tokens": 3, "total_tokens": 10},
            }
        if message == "bad":
            return 42
        return "echo: " + message

    def close(self):
        CLOSED.append(len(self.seen))


class AsyncMemory(Memory):
    async def send(self, message):
        await asyncio.sleep(0)
        return Memory.send(self, message)


def factory():
    return Memory()


def async_factory():
    return AsyncMemory()


def failing_factory():
    raise RuntimeError("no credentials")
"""


def suite(tmp_path: Path, cases: str) -> Path:
    return write(
        tmp_path,
        {"agent.yaml": AGENT_HEAD + "test_cases:\n" + cases, "my_agent.py": AGENT_MODULE},
    )


@pytest.mark.parametrize("factory", ["my_agent:factory", "my_agent:async_factory"])
def test_one_session_per_test_case_with_its_own_state(tmp_path: Path, factory: str) -> None:
    cases = """
  - name: first
    turns:
      - input: hello
      - input: count
        ground_truth: "2"
        evaluations: [{metric: equality}]
  - name: second
    turns:
      - input: count
        ground_truth: "1"
        evaluations: [{metric: equality}]
"""
    code, report, err = run_suite(suite(tmp_path, cases), "--agent", factory)
    assert code == 0, err
    assert [t["response"] for t in turns(report, 0)] == ["echo: hello", "2"]
    assert [t["response"] for t in turns(report, 1)] == ["1"]
    import my_agent  # type: ignore[import-not-found]

    assert len(my_agent.SESSIONS) == 2
    assert sorted(my_agent.CLOSED) == [1, 2]


def test_mapping_replies_carry_tool_calls_and_usage(tmp_path: Path) -> None:
    cases = """
  - name: tools
    input: tools
    expected_tools:
      - name: look
        args: {item: {fuzzy: " CASH "}}
      - sub
"""
    code, report, err = run_suite(suite(tmp_path, cases), "--agent", "my_agent:factory")
    assert code == 0, err
    assert strip_timings(report["results"][0]) == {
        "test_name": "tools",
        "test_input": "tools",
        "processed_files": [],
        "agent_response": "done",
        "tool_calls": ["lookup", "subtract"],
        "tool_invocations": [
            {
                "name": "lookup",
                "args": {"item": "cash"},
                "result": 206588,
                "bytes": 0,
                "error": None,
            },
            {"name": "subtract", "args": {"a": 1, "b": 2}, "result": -1, "bytes": 0, "error": None},
        ],
        "expected_tools": [
            {"name": "look", "args": {"item": {"fuzzy": " CASH "}}},
            "sub",
        ],
        "tools_matched": True,
        "metric_results": [],
        "ground_truth": None,
        "passed": True,
        "errors": [],
        "token_usage": {
            "prompt_tokens": 7,
            "completion_tokens": 3,
            "total_tokens": 10,
            "cache_creation_tokens": 0,
            "cache_read_tokens": 0,
        },
        "turns": None,
    }


def test_an_exception_in_send_fails_that_turn_only(tmp_path: Path) -> None:
    cases = """
  - name: recovers
    turns:
      - input: raise
      - input: bad
      - input: count
"""
    code, report, _ = run_suite(suite(tmp_path, cases), "--agent", "my_agent:factory")
    first, second, third = turns(report)
    assert code == 1
    # Worded as `holodeck test` words a failed run: an empty reply that used no tokens.
    assert (first["errors"], first["response"], first["token_usage"]["total_tokens"]) == (
        ["Agent error: ValueError: the agent broke"],
        "",
        0,
    )
    assert second["errors"] == [
        "Agent error: send() must return a string or a mapping with 'text', not int"
    ]
    assert (third["response"], third["passed"]) == ("3", True)
    assert report["results"][0]["errors"] == [
        "[turn 0] Agent error: ValueError: the agent broke",
        "[turn 1] Agent error: send() must return a string or a mapping with 'text', not int",
    ]


def test_a_failing_factory_skips_every_turn(tmp_path: Path) -> None:
    cases = """
  - name: no session
    turns:
      - input: hello
      - input: again
"""
    code, report, _ = run_suite(suite(tmp_path, cases), "--agent", "my_agent:failing_factory")
    first, second = turns(report)
    assert code == 3
    assert first["errors"] == [
        "session ended: the agent factory raised RuntimeError: no credentials"
    ]
    assert (second["skipped"], second["errors"]) == (
        True,
        [
            "skipped: the session ended at turn 0: the agent factory raised RuntimeError: "
            "no credentials"
        ],
    )


def test_a_factory_that_does_not_import_is_a_configuration_error(tmp_path: Path) -> None:
    code, out, err = invoke("run", suite(tmp_path, "  - input: hi\n"), "--agent", "my_agent:nope")
    assert (code, out, err) == (
        2,
        "",
        "error: --agent my_agent:nope: module 'my_agent' has no attribute 'nope'\n",
    )


BARRIER_MODULE = """
import asyncio

STARTED = []
ACTIVE = {}


class Gate:
    \"\"\"Each session waits until {n} sessions are open: it only passes if they overlap.\"\"\"

    event = None

    def __init__(self):
        STARTED.append(self)

    async def send(self, message):
        if Gate.event is None:
            Gate.event = asyncio.Event()
        ACTIVE[id(self)] = ACTIVE.get(id(self), 0) + 1
        assert ACTIVE[id(self)] == 1, "two turns of one session overlap"
        if len(STARTED) >= {n}:
            Gate.event.set()
        try:
            await asyncio.wait_for(Gate.event.wait(), 5)
        finally:
            ACTIVE[id(self)] -= 1
        return "ok"


def factory():
    return Gate()
"""


def test_parallel_test_cases_overlap_while_their_turns_stay_sequential(tmp_path: Path) -> None:
    cases = "".join(
        f"  - name: case {i}\n    turns:\n      - input: a\n      - input: b\n" for i in range(4)
    )
    path = write(
        tmp_path,
        {
            "agent.yaml": AGENT_HEAD + "execution: {parallel_test_cases: 1}\ntest_cases:\n" + cases,
            "gate_agent.py": BARRIER_MODULE.replace("{n}", "4"),
        },
    )
    code, report, err = run_suite(path, "--agent", "gate_agent:factory", "--parallel", "4")
    assert code == 0, err
    assert report["environment"]["parallel_test_cases"] == "4"
    assert report["summary"]["passed"] == 4


def test_parallelism_resolution_order(monkeypatch: pytest.MonkeyPatch) -> None:
    assert resolve_parallelism(8, 4, {PARALLEL_ENV: "2"}) == 8
    assert resolve_parallelism(None, 4, {PARALLEL_ENV: "2"}) == 4
    assert resolve_parallelism(None, None, {PARALLEL_ENV: "2"}) == 2
    assert resolve_parallelism(None, None, {}) == 1
    with pytest.raises(UsageError, match="HOLODECK_PARALLEL_TEST_CASES must be an integer"):
        resolve_parallelism(None, None, {PARALLEL_ENV: "many"})


def test_environment_parallelism_applies_when_yaml_is_silent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(PARALLEL_ENV, "3")
    code, report, err = run_suite(suite(tmp_path, "  - input: hi\n"), "--agent", "my_agent:factory")
    assert code == 0, err
    assert report["environment"]["parallel_test_cases"] == "3"


def test_turn_timeout_applies_to_a_blocking_python_agent(tmp_path: Path) -> None:
    module = """
import threading

RELEASE = threading.Event()


class Slow:
    def send(self, message):
        if message == "block":
            RELEASE.wait(10)
        return "fine"


def factory():
    return Slow()
"""
    cases = "  - name: slow\n    turns:\n      - input: block\n      - input: next\n"
    path = write(
        tmp_path, {"agent.yaml": AGENT_HEAD + "test_cases:\n" + cases, "slow_agent.py": module}
    )
    try:
        code, report, _ = run_suite(path, "--agent", "slow_agent:factory", "--llm-timeout", "0.2")
    finally:
        import slow_agent  # type: ignore[import-not-found]

        slow_agent.RELEASE.set()
    first, second = turns(report)
    assert code == 1
    assert (first["errors"], first["response"]) == (["timeout"], None)
    assert second["response"] == "fine"


# An `--agent` whose reply never comes in time (it waits until the test releases it).
STUCK_AGENT = """
import threading

HOLD = threading.Event()


class Stuck:
    def send(self, message):
        HOLD.wait(10)
        return "late"


def factory():
    return Stuck()
"""


def test_a_single_turn_case_times_out_too(tmp_path: Path) -> None:
    # `holodeck test` sends a case without turns with no time limit (a deviation: see docs).
    cases = "  - name: single\n    input: block\n"
    path = write(
        tmp_path,
        {"agent.yaml": AGENT_HEAD + "test_cases:\n" + cases, "stuck_agent.py": STUCK_AGENT},
    )
    try:
        code, report, _ = run_suite(path, "--agent", "stuck_agent:factory", "--llm-timeout", "0.2")
    finally:
        import stuck_agent  # type: ignore[import-not-found]

        stuck_agent.HOLD.set()
    (single,) = report["results"]
    assert code == 1
    assert (single["errors"], single["agent_response"]) == (
        ["Agent invocation timeout after 0.2s"],
        None,
    )


def test_files_go_with_their_turn_only(tmp_path: Path) -> None:
    module = """
class Recorder:
    def send(self, message):
        return message

def factory():
    return Recorder()
"""
    cases = """
  - name: with a file
    turns:
      - input: Read this.
        files:
          - {path: notes.txt, type: text, description: the notes}
          - {path: chart.pdf, type: pdf}
      - input: And now?
"""
    path = write(
        tmp_path,
        {
            "agent.yaml": AGENT_HEAD + "test_cases:\n" + cases,
            "parrot.py": module,
            "notes.txt": "cash: 206588\n",
            "chart.pdf": "%PDF-1.4\n",
        },
    )
    code, report, err = run_suite(path, "--agent", "parrot:factory")
    assert code == 0, err
    first, second = turns(report)
    assert first["response"] == (
        "Read this.\n\nFile: notes.txt (text) - the notes\n\ncash: 206588\n\nFile: chart.pdf (pdf)"
    )
    assert second["response"] == "And now?"
    processed = report["results"][0]["processed_files"]
    assert [(p["original"]["path"], p["markdown_content"], p["error"]) for p in processed] == [
        ("notes.txt", "cash: 206588\n", None),
        ("chart.pdf", "", "pdf files are referenced, not converted, by this runner"),
    ]


def test_execution_settings_of_config_yaml_apply_below_the_agents_own(tmp_path: Path) -> None:
    # HoloDeck resolves each execution field: the command line, the agent, the project's
    # config.yaml, the user's, HOLODECK_* variables, the default.
    path = write(
        tmp_path,
        {
            "agent.yaml": AGENT_HEAD
            + "execution: {parallel_test_cases: 2}\ntest_cases:\n  - input: block\n",
            "config.yaml": "execution:\n  llm_timeout: 1\n  parallel_test_cases: 3\n",
            "stuck_agent.py": STUCK_AGENT,
        },
    )
    try:
        code, report, _ = run_suite(path, "--agent", "stuck_agent:factory")
    finally:
        import stuck_agent  # type: ignore[import-not-found]

        stuck_agent.HOLD.set()
    assert code == 1
    assert report["results"][0]["errors"] == ["Agent invocation timeout after 1s"]
    assert report["environment"]["parallel_test_cases"] == "2"
