"""`--resume`: a run stopped by Ctrl-C, finished later, reports what an uninterrupted run
with the same replies reports; only what the recording lacks is sent."""

from __future__ import annotations

import json
import signal
from pathlib import Path
from typing import Any

import pytest

from tests.runner.fake_model import Action, FakeModelServer, Hang, Reply, last_user_text
from tests.runner.faults import CASES, answer, cli, question, report, suite
from tests.runner.helpers import invoke, strip_timings, write

JUDGED = "- metric: relevance\n  threshold: 0.5\n"


def judged_answer(path: str, body: dict[str, Any]) -> Action:
    """Right answers, and a judge that rates every reply 4 of 5."""
    text = last_user_text(body)
    if text.startswith("Q"):
        return Reply("A" + text[1:])
    return Reply('{"score": 4, "reasoning": "on topic"}')


def interrupted(tmp_path: Path, server: FakeModelServer, path: Path) -> Path:
    """Runs until case 3's turn 1 hangs, then Ctrl-C: the recording of what finished."""
    record = tmp_path / "recording.jsonl"
    process = cli("run", path, "-q", "-o", tmp_path / "partial.json", "--record", record)
    # Cases 0-2 and case 3's turn 0 are done (with their judge calls), turn 1 hangs.
    server.wait_for_requests(11 if "relevance" not in path.read_text() else 21)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=10)
    assert process.returncode == 130, err
    assert report(tmp_path / "partial.json")["not_run"] == ["case 3", "case 4"]
    return record


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
@pytest.mark.parametrize("judged", [False, True])
def test_resume_after_ctrl_c_gives_the_uninterrupted_report(
    tmp_path: Path, provider: str, judged: bool
) -> None:
    replies = judged_answer if judged else answer

    def hanging(path: str, body: dict[str, Any]) -> Action:
        return Hang() if last_user_text(body) == question(3, 1) else replies(path, body)

    with FakeModelServer(replies) as server:
        url = server.url if provider == "openai" else server.root
        path = suite(tmp_path, url, provider=provider, metrics=JUDGED if judged else "")
        whole = tmp_path / "whole.json"
        full_record = tmp_path / "full.jsonl"
        invoke("run", path, "-q", "-o", whole, "--record", full_record)
    with FakeModelServer(hanging) as server:
        path = suite(
            tmp_path,
            server.url if provider == "openai" else server.root,
            provider=provider,
            metrics=JUDGED if judged else "",
        )
        record = interrupted(tmp_path, server, path)
    with FakeModelServer(replies) as server:
        path = suite(
            tmp_path,
            server.url if provider == "openai" else server.root,
            provider=provider,
            metrics=JUDGED if judged else "",
        )
        final = tmp_path / "final.json"
        code, _, err = invoke("run", path, "-q", "--resume", record, "-o", final)
        sent = [last_user_text(body) for body in server.bodies()]
        resumed_turn = server.bodies()[0]
    assert code == 0, err
    assert strip_timings(report(final)) == strip_timings(report(whole))
    # Only what the recording lacked went out: case 3's last two turns, case 4.
    agent_requests = [s for s in sent if s.startswith("Q")]
    assert agent_requests == [question(3, 1), question(3, 2)] + [question(4, t) for t in range(3)]
    # Case 3's live turn carried the replayed turn 0 in its conversation.
    contents = [m["content"] for m in resumed_turn["messages"] if m["role"] != "system"]
    assert contents[:2] in (["Q3.0", "A3.0"], ["Q3.0", [{"type": "text", "text": "A3.0"}]])

    # The recording now holds every exchange, as an uninterrupted run's does.
    def exchanges(path: Path) -> list[tuple[str, int, str]]:
        lines = [json.loads(line) for line in path.read_text().splitlines()]
        return sorted((e["test_case"], e["turn_index"], e.get("judge", "")) for e in lines)

    assert exchanges(record) == exchanges(full_record)
    assert [name for name in CASES] == [r["test_name"] for r in report(final)["results"]]


def test_an_agent_object_starts_a_half_finished_case_again(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "counting.py": """
            def factory():
                class Counting:
                    def __init__(self):
                        self.seen = 0

                    def send(self, message):
                        self.seen += 1
                        return f"A{message[1:]}" if self.seen == int(message[-1]) + 1 else "lost"
                return Counting()
            """
        },
    )
    path = suite(tmp_path, "unused")
    record = tmp_path / "recording.jsonl"
    invoke("run", path, "-q", "--agent", "counting:factory", "--record", record)
    whole = [json.loads(line) for line in record.read_text().splitlines()]
    # Case 2 stopped after its turn 0: keep that exchange and cases 0-1 only.
    kept = [e for e in whole if e["test_case"] in ("case 0", "case 1")]
    kept += [e for e in whole if e["test_case"] == "case 2" and e["turn_index"] == 0]
    record.write_text("".join(json.dumps(e) + "\n" for e in kept))
    final = tmp_path / "final.json"
    code, _, err = invoke(
        "run", path, "-q", "--agent", "counting:factory", "--resume", record, "-o", final
    )
    assert code == 0, err  # case 2 ran again from its first turn, so its agent counted right
    assert report(final)["summary"]["passed"] == 5
