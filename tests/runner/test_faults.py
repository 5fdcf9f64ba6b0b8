"""Faults injected by the model service, a grader or the user: whatever happens, the finished
results are kept, the report says why the run ended, and the exit code says how."""

from __future__ import annotations

import json
import signal
from pathlib import Path
from typing import Any

import pytest
from junitparser import JUnitXml

from holodeck_lsp.runner.services.http_client import RetryPolicy
from tests.runner.fake_model import (
    Action,
    Drop,
    EchoHeaders,
    FakeModelServer,
    Hang,
    Reply,
    Status,
    last_user_text,
)
from tests.runner.faults import CASES, KEY, answer, cli, question, report, suite, verdicts
from tests.runner.helpers import invoke, write

GRADED = "- type: code\n  grader: graders:{name}\n"
# Milliseconds: the runs below take about one second; one that waited for the grader that
# blocks or spins (for 20 s), twenty. The bound lies between, far from both when busy.
HELD_UP_MS = 10_000
GRADERS = """
import asyncio
import time

def sleepy(ctx):
    if ctx.test_case_name == "case 2" and ctx.turn_index == 1:
        time.sleep(20)
    return True

async def sleepy_async(ctx):
    if ctx.test_case_name == "case 2" and ctx.turn_index == 1:
        await asyncio.sleep(20)
    return True

def spin(ctx):
    if ctx.test_case_name == "case 2" and ctx.turn_index == 1:
        end = time.monotonic() + 20
        while time.monotonic() < end:
            pass
    return True

def exits(ctx):
    if ctx.test_case_name == "case 1":
        raise SystemExit(7)
    if ctx.test_case_name == "case 3":
        raise KeyboardInterrupt("from the grader")
    return True
"""


@pytest.fixture
def no_backoff(monkeypatch: pytest.MonkeyPatch) -> None:
    """Retries at once (a wait the service asks for is still honoured)."""
    monkeypatch.setattr(RetryPolicy, "backoff", lambda self, attempt: 0.0)


def graded(tmp_path: Path, url: str, grader: str) -> Path:
    path = suite(tmp_path, url, metrics=GRADED.format(name=grader))
    write(tmp_path, {"graders.py": GRADERS})
    return path


def grader_errors(data: dict[str, Any]) -> list[tuple[str, int, str]]:
    return [
        (r["test_name"], t["turn_index"], m["error"])
        for r in data["results"]
        for t in r["turns"]
        for m in t["metric_results"]
        if m["error"]
    ]


@pytest.mark.parametrize("grader", ["sleepy", "sleepy_async"])
def test_a_grader_that_blocks_fails_its_metric_and_delays_no_other_case(
    tmp_path: Path, grader: str
) -> None:
    with FakeModelServer(answer) as server:
        path = graded(tmp_path, server.url, grader)
        out = tmp_path / "report.json"
        code, _, err = invoke(
            "run", path, "-q", "-p", "3", "--llm-timeout", "5", "--grader-timeout", "1", "-o", out
        )
    data = report(out)
    assert code == 1, err
    assert verdicts(data) == {name: name != "case 2" for name in CASES}
    assert grader_errors(data) == [
        (
            "case 2",
            1,
            "GraderTimeout: the grader did not return within 1s (--grader-timeout); "
            "it was abandoned",
        )
    ]
    # No other turn waited for it (they would have timed out at 5 s), and the run did not.
    assert [e for r in data["results"] for e in r["errors"]] == []
    assert data["summary"]["total_duration_ms"] < HELD_UP_MS


def test_a_grader_that_busy_loops_cannot_hold_the_run(tmp_path: Path) -> None:
    with FakeModelServer(answer) as server:
        path = graded(tmp_path, server.url, "spin")
        out = tmp_path / "report.json"
        process = cli("run", path, "-q", "-p", "3", "--grader-timeout", "1", "-o", out)
        _, err = process.communicate(timeout=60)
    data = report(out)
    assert process.returncode == 1, err
    assert verdicts(data) == {name: name != "case 2" for name in CASES}
    assert data["summary"]["total_duration_ms"] < HELD_UP_MS


def test_system_exit_and_keyboard_interrupt_of_a_grader_are_that_metrics_error(
    tmp_path: Path,
) -> None:
    with FakeModelServer(answer) as server:
        path = graded(tmp_path, server.url, "exits")
        out = tmp_path / "report.json"
        process = cli("run", path, "-q", "-p", "3", "-o", out)
        stdout, err = process.communicate(timeout=60)
    data = report(out)
    assert (process.returncode, stdout) == (
        1,
        "5 test case(s) run (15 turn(s)): 3 passed, 2 failed (60%) in " + stdout.split(" in ")[1],
    ), err
    assert grader_errors(data) == [("case 1", t, "SystemExit: 7") for t in range(3)] + [
        ("case 3", t, "KeyboardInterrupt: from the grader") for t in range(3)
    ]


def test_an_agent_raising_system_exit_fails_only_that_turn(tmp_path: Path) -> None:
    path = suite(tmp_path, "unused")
    write(
        tmp_path,
        {
            "quitter.py": """
            def factory():
                class Quitter:
                    def send(self, message):
                        if message == "Q1.1":
                            raise SystemExit(4)
                        return "A" + message[1:]
                return Quitter()
            """
        },
    )
    out = tmp_path / "report.json"
    code, _, err = invoke("run", path, "-q", "--agent", "quitter:factory", "-o", out)
    data = report(out)
    assert code == 1, err
    assert verdicts(data) == {name: name != "case 1" for name in CASES}
    assert data["results"][1]["errors"] == ["[turn 1] Agent error: SystemExit: 4"]


def test_a_replay_that_lacks_a_request_writes_a_partial_report(tmp_path: Path) -> None:
    record = tmp_path / "recording.jsonl"
    out = tmp_path / "report.json"
    with FakeModelServer(answer) as server:
        path = suite(tmp_path, server.url)
        invoke("run", path, "-q", "--record", record, "-k", "case 0", "-k", "case 1")
        code, _, _ = invoke("run", path, "-q", "-o", out)
    assert (code, report(out)["summary"]["passed"]) == (0, 5)  # an earlier run's report
    code, stdout, err = invoke("run", path, "-q", "--replay", record, "-o", out)
    data = report(out)
    assert code == 3
    assert err.count("no recorded exchange") == 1  # said once, by the last line
    assert err.splitlines()[-1] == (
        f"exit 3: the run stopped early ({data['stop_reason']}); "
        "2 of 5 test case(s) kept, 3 did not run"
    )
    assert data["interrupted"] is True
    assert data["stop_reason"].startswith("replay: case 2, turn 0: no recorded exchange")
    assert verdicts(data) == {"case 0": True, "case 1": True}
    assert data["not_run"] == ["case 2", "case 3", "case 4"]
    assert stdout.startswith(
        "interrupted: 2 of 5 test case(s) run (6 turn(s)): 2 passed, 0 failed (100%), 3 not run"
    )


def test_an_empty_replay_file_is_a_configuration_error(tmp_path: Path) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    path = suite(tmp_path, "unused")
    assert invoke("run", path, "-q", "-p", "3", "--replay", empty) == (
        2,
        "",
        f"error: replay file {empty} holds no recorded exchange\n",
    )


def test_replay_misses_in_parallel_cases_leave_no_unretrieved_task(tmp_path: Path) -> None:
    record = tmp_path / "recording.jsonl"
    other = {
        "fingerprint": "0" * 24,
        "test_case": "x",
        "turn_index": 0,
        "message": "x",
        "reply": {"text": "x", "tool_invocations": [], "token_usage": None},
    }
    record.write_text(json.dumps(other) + "\n")
    path = suite(tmp_path, "unused")
    process = cli("run", path, "-q", "-p", "3", "--replay", record, "-o", tmp_path / "r.json")
    _, err = process.communicate(timeout=60)
    assert process.returncode == 3
    assert "Traceback" not in err and "never retrieved" not in err
    assert err.splitlines()[-1].startswith("exit 3: the run stopped early (replay: case 0")
    assert report(tmp_path / "r.json")["not_run"] == CASES


def test_an_unwritable_output_is_found_before_the_first_request(tmp_path: Path) -> None:
    with FakeModelServer(answer) as server:
        path = suite(tmp_path, server.url)
        missing = tmp_path / "no-such-folder" / "report.json"
        code, out, err = invoke("run", path, "-o", tmp_path / "ok.json", "-o", missing)
        folder = invoke("run", path, "--record", tmp_path)
        assert server.requests == []
    assert (code, out) == (2, "")
    assert err == (
        f"error: cannot write {missing}: the folder {missing.parent} does not exist "
        "(checked before any request)\n"
    )
    assert folder[0] == 2 and f"{tmp_path} is a directory" in folder[2]
    assert not (tmp_path / "ok.json").exists()


def test_a_retried_stale_connection_sends_one_request_per_attempt(
    tmp_path: Path, no_backoff: None
) -> None:
    def script(path: str, body: dict[str, Any]) -> Action:
        text = last_user_text(body)
        # Every connection answers its first request and is closed on the next.
        return Drop() if text == question(0, 2) else Reply("A" + text[1:])

    with FakeModelServer(script) as server:
        path = suite(tmp_path, server.url)
        out = tmp_path / "report.json"
        code, _, err = invoke("run", path, "-q", "-k", "case 0", "-o", out)
        sent = [last_user_text(b) for b in server.bodies()]
    assert code == 3, err
    assert sent.count(question(0, 2)) == 5  # 5 attempts, 5 requests
    error = report(out)["results"][0]["turns"][2]["errors"][0]
    assert error.startswith("backend error: RemoteProtocolError: the server closed the connection")
    assert error.endswith("(gave up after 5 attempts)")


def test_a_service_that_keeps_answering_429_past_the_timeout_is_a_service_failure(
    tmp_path: Path,
) -> None:
    def script(path: str, body: dict[str, Any]) -> Action:
        text = last_user_text(body)
        return Status(429, retry_after="0.2") if text == question(0, 0) else Reply("A" + text[1:])

    with FakeModelServer(script) as server:
        path = suite(tmp_path, server.url)
        out = tmp_path / "report.json"
        code, _, err = invoke("run", path, "-q", "-k", "case 0", "--llm-timeout", "0.5", "-o", out)
    error = report(out)["results"][0]["turns"][0]["errors"][0]
    assert code == 3, err
    assert error.startswith('backend error: HTTP 429: {"error": {"message": "scripted failure"}} ')
    assert "(timed out after 0.5s (--llm-timeout) while retrying, " in error
    assert err.splitlines()[-1].startswith("exit 3: the model service failed 1 time(s)")


def test_a_refused_key_stops_sending_after_two_refusals(tmp_path: Path) -> None:
    with FakeModelServer(lambda path, body: Status(401, retry_after=None)) as server:
        path = suite(tmp_path, server.url)
        out = tmp_path / "report.json"
        code, _, err = invoke("run", path, "-q", "-o", out)
        assert len(server.requests) == 2
    data = report(out)
    first = [r["turns"][0]["errors"][0] for r in data["results"]]
    refused = 'session ended: HTTP 401: {"error": {"message": "scripted failure"}}'
    assert code == 3, err
    assert first == [refused] * 2 + [f"{refused} (not sent: the service refused the key)"] * 3


@pytest.mark.parametrize("source", ["literal", "variable", "environment"])
@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_no_artefact_holds_the_api_key(
    tmp_path: Path, provider: str, source: str, monkeypatch: pytest.MonkeyPatch, no_backoff: None
) -> None:
    def script(path: str, body: dict[str, Any]) -> Action:
        text = last_user_text(body)
        case = int(text[1])
        faults: list[Action] = [
            EchoHeaders(401),
            EchoHeaders(500),
            Status(400, body=f'{{"error": "bad key {KEY}", "Authorization": "Bearer {KEY}"}}'),
        ]
        if source == "literal":  # a timeout's words do not depend on where the key came from
            faults.append(Hang())
        return faults[case] if case < len(faults) else Reply("A" + text[1:])

    # The key written in the agent file, substituted from ${VAR}, or read by the backend
    # from the provider's variable.
    key = {"literal": KEY, "variable": "${HL_TEST_SECRET}", "environment": None}[source]
    monkeypatch.setenv("HL_TEST_SECRET", KEY)
    monkeypatch.setenv("OPENAI_API_KEY" if provider == "openai" else "ANTHROPIC_API_KEY", KEY)
    with FakeModelServer(script) as server:
        url = server.url if provider == "openai" else server.root
        path = suite(tmp_path, url, provider=provider, key=key)
        outputs = [tmp_path / f"report.{ext}" for ext in ("json", "md", "xml")]
        record = tmp_path / "recording.jsonl"
        args = [a for o in outputs for a in ("-o", o)]
        code, out, err = invoke("run", path, "--llm-timeout", "0.5", "--record", record, *args)
        echoed = [s for s in ("x-api-key", "Authorization") if s in str(server.requests[0][1])]
    assert code == 3
    assert echoed  # the service did see the key, and echoed it back
    texts = {p.name: p.read_text() for p in [*outputs, record]} | {"stdout": out, "stderr": err}
    assert "[REDACTED]" in texts["report.json"]
    assert {name: KEY in text for name, text in texts.items()} == dict.fromkeys(texts, False)


@pytest.mark.parametrize(
    ("signal_number", "code", "name"),
    [(signal.SIGINT, 130, "Ctrl-C (SIGINT)"), (signal.SIGTERM, 143, "SIGTERM")],
)
def test_ctrl_c_stops_the_run_and_writes_what_finished(
    tmp_path: Path, signal_number: int, code: int, name: str
) -> None:
    def script(path: str, body: dict[str, Any]) -> Action:
        text = last_user_text(body)
        return Hang() if text == question(3, 1) else Reply("A" + text[1:])

    with FakeModelServer(script) as server:
        path = suite(tmp_path, server.url)
        out, record = tmp_path / "report.json", tmp_path / "recording.jsonl"
        md, xml, html = (tmp_path / f"report.{ext}" for ext in ("md", "xml", "html"))
        process = cli("run", path, "-o", out, "-o", md, "-o", xml, "-o", html, "--record", record)
        server.wait_for_requests(11)  # cases 0-2 done, case 3's turn 0 done, turn 1 hangs
        process.send_signal(signal_number)
        stdout, err = process.communicate(timeout=10)
    data = report(out)
    assert process.returncode == code, err
    assert data["interrupted"] is True
    assert data["stop_reason"] == f"interrupted by {name}"
    # Case 3 was cut short after its first turn: it did not run, it did not fail.
    assert verdicts(data) == {"case 0": True, "case 1": True, "case 2": True}
    assert data["not_run"] == ["case 3", "case 4"]
    assert stdout.startswith(
        "interrupted: 3 of 5 test case(s) run (9 turn(s)): 3 passed, 0 failed (100%), 2 not run"
    )
    # What it sent and got is kept: --resume goes on from there.
    lines = [json.loads(line) for line in record.read_text().splitlines()]
    assert [(e["test_case"], e["turn_index"]) for e in lines] == [
        (name, t) for name in CASES[:3] for t in range(3)
    ] + [("case 3", 0)]
    assert err.splitlines()[-1] == (
        f"exit {code}: the run stopped early (interrupted by {name}); "
        "3 of 5 test case(s) kept, 2 did not run"
    )
    assert (
        f"**The run stopped early** (`interrupted by {name}`): 3 of 5 test case(s) kept, "
        "2 did not run. Not run: `case 3`, `case 4`.\n" in md.read_text()
    )
    assert (
        f'<p class="banner">The run stopped early (interrupted by {name}): 3 of 5 test case(s) '
        "kept, 2 did not run. Not run: case 3, case 4.</p>" in html.read_text()
    )
    suites = {s.name: s for s in JUnitXml.fromfile(str(xml))}
    assert [(s.tests, s.skipped) for s in map(suites.get, CASES)] == [
        (3, 0),
        (3, 0),
        (3, 0),
        (1, 1),
        (1, 1),
    ]


def test_a_second_ctrl_c_exits_at_once(tmp_path: Path) -> None:
    # An agent that, once cancelled, blocks the whole process for 30 s: only a second
    # Ctrl-C gets out of that, and at once.
    write(
        tmp_path,
        {
            "stubborn.py": """
            import asyncio
            import sys
            import time

            def factory():
                class Stubborn:
                    async def send(self, message):
                        print("waiting", file=sys.stderr, flush=True)
                        try:
                            await asyncio.sleep(60)
                        except asyncio.CancelledError:
                            time.sleep(30)
                            raise
                return Stubborn()
            """
        },
    )
    path = suite(tmp_path, "unused")
    out = tmp_path / "report.json"
    process = cli("run", path, "-q", "--agent", "stubborn:factory", "-o", out)
    assert process.stderr is not None
    assert process.stderr.readline() == "waiting\n"
    process.send_signal(signal.SIGINT)
    assert process.stderr.readline().startswith("interrupted by Ctrl-C (SIGINT): stopping")
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=10)  # well before the agent's 30 s
    assert process.returncode == 130
    assert err == "interrupted again: exiting at once, nothing more is written\n"
    assert not out.exists()
