"""The fault matrix: each fault the model service can inject, for both HTTP backends, on a
5-case x 3-turn suite at parallel 3. Each row says how many requests the faulted turn costs,
the exit code, and the error the report gives that turn; every case and turn is reported."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from holodeck_lsp.runner.services.http_client import RetryPolicy
from tests.runner.fake_model import (
    Action,
    Drop,
    FakeModelServer,
    Hang,
    Raw,
    Reply,
    Status,
    Truncate,
    last_user_text,
)
from tests.runner.faults import CASES, question, report, suite
from tests.runner.helpers import invoke

FAULTED = question(1, 1)  # case 1, turn 1
OK = Reply("A1.1")
SCRIPTED = '{"error": {"message": "scripted failure"}}'
REFUSED = f"session ended: HTTP 401: {SCRIPTED}"


@dataclass(frozen=True)
class Row:
    actions: list[Action]  # answers to the faulted turn, in order; the last one repeats
    requests: int  # requests the faulted turn costs
    code: int
    error: str | None  # the faulted turn's error (a prefix), None when it passes
    anthropic_error: str | None = None  # when the Messages backend words it differently


ROWS = {
    "429 with Retry-After": Row([Status(429, retry_after="0"), OK], 2, 0, None),
    "429 without Retry-After": Row([Status(429, retry_after=None), OK], 2, 0, None),
    "500": Row([Status(500, retry_after=None), OK], 2, 0, None),
    "502": Row([Status(502, retry_after=None), OK], 2, 0, None),
    "503": Row([Status(503, retry_after=None), OK], 2, 0, None),
    "529": Row([Status(529, retry_after=None), OK], 2, 0, None),
    "500 always": Row(
        [Status(500, retry_after=None)],
        5,
        3,
        f"backend error: HTTP 500: {SCRIPTED} (gave up after 5 attempts)",
    ),
    "reset once": Row([Drop(), OK], 2, 0, None),
    "reset always": Row(
        [Drop()], 5, 3, "backend error: RemoteProtocolError: the server closed the connection"
    ),
    "closed mid-body once": Row([Truncate(), OK], 2, 0, None),
    "closed mid-body always": Row([Truncate()], 5, 3, "backend error: ReadError: "),
    "hang past the timeout": Row([Hang()], 1, 1, "timeout"),
    "malformed JSON": Row(
        [Raw('{"choices": [')], 1, 3, 'backend error: the model service sent invalid JSON: {"'
    ),
    "empty choices": Row(
        [Raw('{"choices": [], "content": null}')],
        1,
        3,
        "backend error: the reply has no choices[0].message",
        "backend error: the reply has no content list",
    ),
    "400": Row([Status(400, retry_after=None)], 1, 3, f"backend error: HTTP 400: {SCRIPTED}"),
    "401 for one case": Row([Status(401, retry_after=None)], 1, 3, REFUSED),
}


class Faulty:
    """Right answers, except for the faulted turn, which gets its row's actions."""

    def __init__(self, actions: list[Action]) -> None:
        self.actions = list(actions)
        self.lock = threading.Lock()

    def __call__(self, path: str, body: dict[str, Any]) -> Action:
        text = last_user_text(body)
        if text != FAULTED:
            return Reply("A" + text[1:])
        with self.lock:
            return self.actions.pop(0) if len(self.actions) > 1 else self.actions[0]


@pytest.fixture(autouse=True)
def no_backoff(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(RetryPolicy, "delay", lambda self, attempt, retry_after: 0.0)


def endpoint(server: FakeModelServer, provider: str) -> str:
    return server.url if provider == "openai" else server.root


def run_matrix(
    tmp_path: Path, server: FakeModelServer, provider: str
) -> tuple[int, dict[str, Any]]:
    path = suite(tmp_path, endpoint(server, provider), provider=provider)
    out = tmp_path / "report.json"
    code, _, _ = invoke("run", path, "-q", "-p", "3", "--llm-timeout", "1", "-o", out)
    return code, report(out)


def every_case_and_turn(data: dict[str, Any]) -> list[tuple[str, list[int]]]:
    return [(r["test_name"], [t["turn_index"] for t in r["turns"]]) for r in data["results"]]


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
@pytest.mark.parametrize("fault", list(ROWS))
def test_fault(tmp_path: Path, provider: str, fault: str) -> None:
    row = ROWS[fault]
    with FakeModelServer(Faulty(row.actions)) as server:
        code, data = run_matrix(tmp_path, server, provider)
        sent = [last_user_text(body) for body in server.bodies()]
    assert sent.count(FAULTED) == row.requests
    skipped = 1 if fault.startswith("401") else 0  # the refused session's last turn
    assert len(sent) == 14 - skipped + row.requests  # every other turn: one request
    assert code == row.code
    assert every_case_and_turn(data) == [(name, [0, 1, 2]) for name in CASES]
    turn = data["results"][1]["turns"][1]
    expected = (row.anthropic_error if provider == "anthropic" else None) or row.error
    if expected is None:
        assert (turn["errors"], turn["passed"]) == ([], True)
        assert data["summary"]["passed"] == 5
        return
    assert len(turn["errors"]) == 1 and turn["errors"][0].startswith(expected)
    assert [r["passed"] for r in data["results"]] == [True, False, True, True, True]
    later = data["results"][1]["turns"][2]
    if fault.startswith("401"):
        # The session ended: its last turn was not sent.
        assert later["skipped"] and later["errors"][0].startswith("skipped: the session ended")
    else:
        assert (later["errors"], later["passed"]) == ([], True)


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_401_for_every_case(tmp_path: Path, provider: str) -> None:
    with FakeModelServer(lambda path, body: Status(401, retry_after=None)) as server:
        path = suite(tmp_path, endpoint(server, provider), provider=provider)
        out = tmp_path / "report.json"
        code, _, err = invoke("run", path, "-q", "-o", out)
        requests = len(server.requests)
    data = report(out)
    assert (code, requests) == (3, 2)  # two refusals in a row: no further request
    assert every_case_and_turn(data) == [(name, [0, 1, 2]) for name in CASES]
    firsts = [r["turns"][0]["errors"][0] for r in data["results"]]
    assert firsts == [REFUSED] * 2 + [f"{REFUSED} (not sent: the service refused the key)"] * 3
    assert all(t["skipped"] for r in data["results"] for t in r["turns"][1:])
    assert err.splitlines()[-1].startswith("exit 3: the model service failed 5 time(s)")
