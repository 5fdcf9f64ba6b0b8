"""`run` with MCP tools: real servers, started and stopped by the run, driven by the
loopback model service scripted to call their tools."""

from __future__ import annotations

import json
import os
import socket
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from holodeck_lsp.runner.services.secret_sources import SECRET_NAME
from tests.runner.fake_model import FakeModelServer, Reply, Script, last_user_text, tool_results
from tests.runner.helpers import run_suite, strip_timings, turns, write
from tests.runner.mcp.conftest import HERE, sdk_server

pytestmark = pytest.mark.slow


def calling(plan: dict[str, list[tuple[str, dict[str, Any]]]]) -> Script:
    """For each user message, call the planned tools one request at a time, then reply
    with what the tools said, joined by ' | '."""

    def script(_path: str, body: dict[str, Any]) -> Reply:
        results = tool_results(body)
        calls = plan.get(last_user_text(body), [])
        if len(results) < len(calls):
            return Reply(tool_calls=[calls[len(results)]])
        return Reply(" | ".join(results) or "no tool called")

    return script


def agent(folder: Path, url: str, tools: str, cases: str) -> Path:
    """An agent file on the loopback model with these tools and test cases (YAML lists)."""
    text = "\n".join(
        [
            "name: mcp-agent",
            "model:",
            "  provider: openai",
            "  name: gpt-test",
            f"  endpoint: {url}",
            "instructions:",
            "  inline: Use your tools.",
            "tools:",
            textwrap.indent(textwrap.dedent(tools).strip("\n"), "  "),
            "test_cases:",
            textwrap.indent(textwrap.dedent(cases).strip("\n"), "  "),
        ]
    )
    return write(folder, {"agent.yaml": text + "\n"})


def line_of(path: Path, text: str) -> int:
    """The 1-based line of the agent file that holds ``text``."""
    lines = path.read_text().splitlines()
    return next(i for i, line in enumerate(lines, 1) if text in line)


def sdk_stdio(
    name: str = "sdk",
    extra: str = "",
    env: dict[str, str] | None = None,
    mode: str = "stdio",
    args: tuple[str, ...] = (),
) -> str:
    """The SDK server of tests/runner/mcp as a stdio tool, started by node."""
    env = {"MCP_PYTHON": sys.executable, **(env or {})}
    server_args = [str(HERE / "launch.js"), mode, *args]
    lines = [
        f"- name: {name}",
        "  type: mcp",
        "  description: The test server.",
        "  command: node",
        f"  args: {json.dumps(server_args)}",
        f"  env: {json.dumps(env)}",
        *("  " + line for line in textwrap.dedent(extra).strip().splitlines()),
    ]
    return "\n".join(lines) + "\n"


MEMORY_CASES = """
- name: remember and recall
  turns:
    - input: Remember that Ada likes tea.
      expected_tools: [create_entities]
    - input: What does Ada like?
      expected_tools:
        - name: open_nodes
          args: {names: [Ada]}
"""

ADA = {"name": "Ada", "entityType": "person", "observations": ["likes tea"]}


def test_memory_server_stores_an_entity_in_turn_1_and_reads_it_back_in_turn_2(
    tmp_path: Path, npm_servers: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tools = f"""
    - name: memory
      type: mcp
      description: A knowledge graph that remembers.
      command: npx
      args: ["-y", "@modelcontextprotocol/server-memory"]
      env:
        MEMORY_FILE_PATH: {tmp_path / "memory.jsonl"}
    """
    script = calling(
        {
            "Remember that Ada likes tea.": [("create_entities", {"entities": [ADA]})],
            "What does Ada like?": [("open_nodes", {"names": ["Ada"]})],
        }
    )
    recording = tmp_path / "memory.replay.jsonl"
    with FakeModelServer(script) as server:
        path = agent(tmp_path, server.url, tools, MEMORY_CASES)
        code, report, err = run_suite(path, "--record", recording)
        offered = [t["function"]["name"] for t in server.bodies()[0]["tools"]]
    assert code == 0, err
    assert offered == [
        "create_entities",
        "create_relations",
        "add_observations",
        "delete_entities",
        "delete_observations",
        "delete_relations",
        "read_graph",
        "search_nodes",
        "open_nodes",
    ]
    created = json.dumps([ADA], indent=2)
    opened = json.dumps({"entities": [ADA], "relations": []}, indent=2)
    usage = {"cache_creation_tokens": 0, "cache_read_tokens": 0}
    calls = [
        {
            "name": "create_entities",
            "args": {"entities": [ADA]},
            "result": created,
            "bytes": len(json.dumps(created)),
            "error": None,
        },
        {
            "name": "open_nodes",
            "args": {"names": ["Ada"]},
            "result": opened,
            "bytes": len(json.dumps(opened)),
            "error": None,
        },
    ]
    turn = {
        "ground_truth": None,
        "tools_matched": True,
        "metric_results": [],
        "passed": True,
        "token_usage": {"prompt_tokens": 20, "completion_tokens": 10, "total_tokens": 30, **usage},
        "errors": [],
        "skipped": False,
        "grader_details": None,
    }
    assert strip_timings(report["results"][0]) == {
        "test_name": "remember and recall",
        "test_input": "Remember that Ada likes tea.\n---\nWhat does Ada like?",
        "processed_files": [],
        # The scripted model answers with what the tool said: the entity came back.
        "agent_response": opened,
        "tool_calls": ["create_entities", "open_nodes"],
        "tool_invocations": calls,
        "expected_tools": None,
        "tools_matched": True,
        "metric_results": [],
        "ground_truth": None,
        "passed": True,
        "errors": [],
        "token_usage": {"prompt_tokens": 40, "completion_tokens": 20, "total_tokens": 60, **usage},
        "turns": [
            {
                **turn,
                "turn_index": 0,
                "input": "Remember that Ada likes tea.",
                "response": created,
                "expected_tools": ["create_entities"],
                "tool_calls": ["create_entities"],
                "tool_invocations": calls[:1],
                "arg_match_details": None,
            },
            {
                **turn,
                "turn_index": 1,
                "input": "What does Ada like?",
                "response": opened,
                "expected_tools": [{"name": "open_nodes", "args": {"names": ["Ada"]}}],
                "tool_calls": ["open_nodes"],
                "tool_invocations": calls[1:],
                "arg_match_details": [
                    {
                        "expected_tool": "open_nodes",
                        "args_asserted": {"names": ["Ada"]},
                        "matched_call_index": 0,
                        "unmatched_reason": None,
                    }
                ],
            },
        ],
    }
    # The memory lives in the server's file, written in turn 1.
    assert '"name":"Ada"' in (tmp_path / "memory.jsonl").read_text()

    # Replay: no model service, no npx on the PATH, another folder: the same report.
    monkeypatch.setenv("PATH", str(tmp_path / "nothing-here"))
    monkeypatch.chdir(tmp_path)
    code, replayed, err = run_suite(path, "--replay", recording)
    assert code == 0, err
    assert strip_timings(replayed["results"]) == strip_timings(report["results"])


def test_filesystem_server_reads_a_file_under_a_folder_given_relative_to_the_agent(
    tmp_path: Path, npm_servers: Path
) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "fact.txt").write_text("The vault code is 7431.\n")
    tools = """
    - name: files
      type: mcp
      description: Reads the documents.
      command: npx
      args: ["-y", "@modelcontextprotocol/server-filesystem", "./docs"]
    """
    cases = """
    - name: read
      input: What is the vault code?
    """
    fact = str((tmp_path / "docs" / "fact.txt").resolve())
    script = calling({"What is the vault code?": [("read_text_file", {"path": fact})]})
    with FakeModelServer(script) as server:
        code, report, err = run_suite(agent(tmp_path, server.url, tools, cases))
    assert code == 0, err
    assert report["results"][0]["agent_response"] == "The vault code is 7431.\n"


def test_sdk_server_over_stdio_env_config_filter_errors_and_timeouts(tmp_path: Path) -> None:
    (tmp_path / "server.env").write_text("# for the server\nFROM_FILE=file value\nBOTH=file\n")
    extra = """
    env_file: server.env
    request_timeout: 1
    config:
      allowed_tools: [echo, env, refuse, sleep]
      region: north
    """
    tools = sdk_stdio(extra=extra, env={"BOTH": "yaml"})
    cases = """
    - name: everything
      input: Go.
    """
    plan = [
        ("echo", {"text": "hello"}),
        ("env", {"name": "FROM_FILE"}),
        ("env", {"name": "BOTH"}),
        ("env", {"name": "MCP_CONFIG"}),
        ("refuse", {"reason": "not today"}),
        ("sleep", {"seconds": 5}),
        ("count", {}),
    ]
    with FakeModelServer(calling({"Go.": plan})) as server:
        code, report, err = run_suite(agent(tmp_path, server.url, tools, cases))
        offered = [t["function"]["name"] for t in server.bodies()[0]["tools"]]
    assert code == 0, err  # failed tool calls go back to the model; they fail no turn
    assert offered == ["echo", "env", "refuse", "sleep"]  # allowed_tools, in server order
    calls = [(c["result"], c["error"]) for c in report["results"][0]["tool_invocations"]]
    refused = "Error executing tool refuse: refused: not today"
    assert calls[:5] == [
        ("echo: hello", None),
        ("file value", None),  # a setting: named like no credential, nor shaped like one
        ("yaml", None),  # env: beats env_file
        (
            json.dumps({"allowed_tools": ["echo", "env", "refuse", "sleep"], "region": "north"}),
            None,
        ),
        (refused, refused),  # the model gets the server's text; the report marks it failed
    ]
    (slept, slept_error), (counted, count_error) = calls[5:]
    assert slept is None and slept_error is not None and "imed out" in slept_error
    assert (counted, count_error) == (None, "unknown tool 'count'")  # filtered out


@pytest.mark.parametrize("transport", ["http", "sse"])
@pytest.mark.parametrize("flags", [(), ("--isolate-mcp",)])
def test_sdk_server_over_the_network_transports(
    tmp_path: Path, transport: str, flags: tuple[str, ...]
) -> None:
    plan = {
        f"Echo {n}.": [
            ("echo", {"text": n}),
            ("header", {"name": "X-Test"}),
            ("header", {"name": "X-Api-Key"}),
            ("count", {}),
        ]
        for n in ("one", "two")
    }
    with sdk_server(transport) as url, FakeModelServer(calling(plan)) as model:
        tools = f"""
        - name: remote
          type: mcp
          description: The test server, remote.
          transport: {transport}
          url: {url}
          headers: {{X-Test: from the agent file, X-Api-Key: key of the agent file}}
          timeout: 20
          sse_read_timeout: 60
        """
        code, report, err = run_suite(agent(tmp_path, model.url, tools, TWO_CASES), *flags)
    assert code == 0, err
    # One server, whose state both cases see, isolated or not: only its connection is new.
    # The headers reached it (the server echoed their values); a credential header's value
    # is a secret to the report, masked there, and another header's is not.
    assert [r["agent_response"] for r in report["results"]] == [
        "echo: one | from the agent file | [REDACTED] | 1",
        "echo: two | from the agent file | [REDACTED] | 2",
    ]


TWO_CASES = """
- name: first
  input: Echo one.
- name: second
  input: Echo two.
"""


@pytest.mark.parametrize(("flags", "counts"), [((), ["1", "2"]), (("--isolate-mcp",), ["1", "1"])])
def test_servers_are_shared_by_the_run_unless_isolated(
    tmp_path: Path, flags: tuple[str, ...], counts: list[str]
) -> None:
    plan = {
        "Echo one.": [("echo", {"text": "one"}), ("count", {})],
        "Echo two.": [("echo", {"text": "two"}), ("count", {})],
    }
    with FakeModelServer(calling(plan)) as server:
        code, report, err = run_suite(agent(tmp_path, server.url, sdk_stdio(), TWO_CASES), *flags)
    assert code == 0, err
    assert [r["tool_invocations"][1]["result"] for r in report["results"]] == counts


def test_a_server_that_does_not_start_stops_the_run_before_any_model_call(
    tmp_path: Path,
) -> None:
    tools = sdk_stdio("db", mode="crash") + sdk_stdio("other")
    with FakeModelServer(calling({})) as server:
        path = agent(tmp_path, server.url, tools, TWO_CASES)
        code, report, err = run_suite(path)
        requests = server.bodies()
    assert (code, report, requests) == (2, {}, [])
    assert err.splitlines()[:4] == [
        f"{path}:{line_of(path, '- name: db')}: error: tool 'db' did not start: "
        "MCPError: Connection closed",
        "  its stderr ended with:",
        "    starting the test server",
        "    fatal: the database is locked",
    ]
    assert err.splitlines()[4].startswith("  its environment held only ")
    assert err.count("did not start") == 1  # 'other' started fine (and was stopped again)


def test_a_server_missing_a_key_of_the_shell_is_told_how_to_pass_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The variables the SDK hands every server, known here; one key exported in the shell.
    for name in [n for n in os.environ if SECRET_NAME.search(n)]:
        monkeypatch.delenv(name)
    for name in ("LOGNAME", "SHELL", "TERM", "USER"):
        monkeypatch.setenv(name, "x")
    monkeypatch.setenv("HL_TEST_SERVICE_TOKEN", "tok-5f2a9c81e7")
    needs_token = {"mode": "needs", "args": ("HL_TEST_SERVICE_TOKEN",)}
    with FakeModelServer(calling({})) as server:
        path = agent(tmp_path, server.url, sdk_stdio("db", **needs_token), TWO_CASES)
        code, report, err = run_suite(path)
    assert (code, report) == (2, {})
    assert err.splitlines() == [
        f"{path}:{line_of(path, '- name: db')}: error: tool 'db' did not start: "
        "MCPError: Connection closed",
        "  its stderr ended with:",
        "    fatal: HL_TEST_SERVICE_TOKEN is not set",
        "  its environment held only HOME, LOGNAME, PATH, SHELL, TERM, USER (the MCP SDK's "
        "defaults); MCP_PYTHON (its env:)",
        "  not passed from this shell: HL_TEST_SERVICE_TOKEN",
        "  pass a variable under the tool's `env:` (NAME: ${NAME}) or in its `env_file:`",
    ]
    # Passed as the note says, it reaches the server.
    passed = {"HL_TEST_SERVICE_TOKEN": "${HL_TEST_SERVICE_TOKEN}"}
    with FakeModelServer(calling({})) as server:
        path = agent(tmp_path, server.url, sdk_stdio("db", env=passed, **needs_token), TWO_CASES)
        code, report, err = run_suite(path)
    assert code == 0, err


def test_servers_that_cannot_be_reached_are_each_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    tools = f"""
    - name: local
      type: mcp
      description: Started by npx.
      command: npx
      args: ["-y", "@modelcontextprotocol/server-memory"]
    - name: remote
      type: mcp
      description: Over HTTP.
      transport: http
      url: http://127.0.0.1:{port}/mcp
    - name: settings
      type: mcp
      description: With an env file.
      command: npx
      args: ["-y", "@modelcontextprotocol/server-memory"]
      env_file: missing.env
    """
    monkeypatch.setenv("PATH", str(tmp_path / "no-commands-here"))
    with FakeModelServer(calling({})) as server:
        path = agent(tmp_path, server.url, tools, TWO_CASES)
        code, _report, err = run_suite(path)
        requests = server.bodies()
    assert (code, requests) == (2, [])
    assert err.splitlines() == [
        f"{path}:{line_of(path, '- name: local')}: error: tool 'local' did not start: "
        "cannot run 'npx': No such file or directory",
        f"{path}:{line_of(path, '- name: remote')}: error: tool 'remote' did not start: "
        "ConnectError: All connection attempts failed",
        f"{path}:{line_of(path, '- name: settings')}: error: tool 'settings' did not start: "
        f"cannot read env_file {tmp_path / 'missing.env'}: [Errno 2] No such file or "
        f"directory: '{tmp_path / 'missing.env'}'",
    ]


def test_two_servers_offering_one_name_is_a_preflight_error(tmp_path: Path) -> None:
    tools = sdk_stdio("first") + sdk_stdio("second")
    with FakeModelServer(calling({})) as server:
        path = agent(tmp_path, server.url, tools, TWO_CASES)
        code, _report, err = run_suite(path)
    assert code == 2
    assert err.splitlines()[0] == (
        f"{path}:{line_of(path, '- name: second')}: error: tool 'second' did not start: "
        "offers a function named 'echo', as tool 'first' does: names the model sees must be unique"
    )


PROBE = """
from types import SimpleNamespace

def show(ctx):
    context = list(ctx.retrieval_context or [])
    return SimpleNamespace(score=1.0, details={"context": context})
"""


def test_retrieval_servers_feed_the_retrieval_context_and_other_servers_do_not(
    tmp_path: Path,
) -> None:
    tools = sdk_stdio("library", "is_retrieval: true", env={"MCP_SERVER_NAME": "lib_"})
    tools += sdk_stdio("chat")
    probe = "evaluations: [{type: code, grader: probe:show}]"
    cases = f"""
    - name: look up
      turns:
        - input: Find tea.
          {probe}
        - input: Thanks.
          {probe}
        - input: And coffee?
          {probe}
    """
    plan = {
        "Find tea.": [("lib_passages", {"topic": "tea"}), ("echo", {"text": "not a passage"})],
        "And coffee?": [("lib_passages", {"topic": "coffee"})],
    }
    recording = tmp_path / "replay.jsonl"
    with FakeModelServer(calling(plan)) as server:
        path = agent(tmp_path, server.url, tools, cases)
        write(tmp_path, {"probe.py": PROBE})
        code, report, err = run_suite(path, "--record", recording)
    assert code == 0, err
    tea, coffee = "tea passage one\ntea passage two", "coffee passage one\ncoffee passage two"
    # Each turn's metrics see everything retrieved so far in the test case, in call order,
    # and never what the other server said.
    assert [t["grader_details"] for t in turns(report)] == [
        {"show": {"context": [tea]}},
        {"show": {"context": [tea]}},
        {"show": {"context": [tea, coffee]}},
    ]
    replies = [json.loads(line)["reply"] for line in recording.read_text().splitlines()]
    assert [r.get("retrieval") for r in replies] == [[tea], None, [coffee]]


def test_a_server_that_dies_mid_run_fails_its_calls_not_the_run(tmp_path: Path) -> None:
    cases = """
    - name: crash
      input: Die.
    - name: after
      input: Echo after.
    """
    plan = {"Die.": [("die", {}), ("echo", {"text": "still there?"})]}
    plan["Echo after."] = [("echo", {"text": "later"})]
    with FakeModelServer(calling(plan)) as server:
        code, report, err = run_suite(agent(tmp_path, server.url, sdk_stdio(), cases))
    assert code == 0, err
    gone = {"MCPError: Connection closed", "RuntimeError: MCP server 'sdk' is not connected"}
    calls = [c for r in report["results"] for c in r["tool_invocations"]]
    assert [(c["name"], c["result"], c["error"] in gone) for c in calls] == [
        ("die", None, True),
        ("echo", None, True),
        ("echo", None, True),
    ]


def test_websocket_servers_are_skipped_with_a_warning(tmp_path: Path) -> None:
    tools = """
    - name: socket
      type: mcp
      description: Over a websocket.
      transport: websocket
      url: ws://127.0.0.1:1/ws
    """
    cases = """
    - name: plain
      input: Hello.
    """
    with FakeModelServer(calling({})) as server:
        code, _report, err = run_suite(agent(tmp_path, server.url, tools, cases))
        body = server.bodies()[0]
    assert code == 0, err
    assert "tools" not in body
    assert err.splitlines() == [
        "warning: tool 'socket' is not offered to the model: MCP over websocket is not "
        "supported (as in HoloDeck)"
    ]


def test_without_the_mcp_extra_the_run_stops_naming_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "mcp", None)  # what an environment without it sees
    with FakeModelServer(calling({})) as server:
        path = agent(tmp_path, server.url, sdk_stdio(), TWO_CASES)
        code, _report, err = run_suite(path)
    assert code == 2
    assert err.splitlines() == [
        f"{path}:{line_of(path, '- name: sdk')}: error: tool 'sdk' did not start: "
        "the MCP client is not installed: pip install -e '.[mcp]' in a clone of "
        "holodeck-lsp (once it is on PyPI: pip install 'holodeck-lsp[mcp]')"
    ]
