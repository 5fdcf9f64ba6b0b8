"""Where completion's tools come from, beside the agent file: the recording (read again only
when it changed) and the editor's last run of the suite (its events' tool calls)."""

from __future__ import annotations

import json
from pathlib import Path

from holodeck_lsp.editing.declared_tools import ToolChoice
from holodeck_lsp.server.run_results import from_events
from holodeck_lsp.server.tool_sources import tool_choices

AGENT = "name: a\ntools:\n  - {name: kb, type: vectorstore, description: d, source: docs}\n"


def _turn(calls: list[dict[str, object]]) -> dict[str, object]:
    return {
        "event": "turn_finished", "case": 0, "turn": 0, "path": "test_cases[0]",
        "passed": True, "skipped": False, "response": "ok", "errors": [],
        "duration_ms": 1, "tool_calls": calls, "failures": [],
    }  # fmt: skip


def test_the_recording_then_the_last_run(tmp_path: Path) -> None:
    recording = tmp_path / "replay.jsonl"
    reply = {"reply": {"tool_invocations": [{"name": "fetch", "args": {"url": "u"}}]}}
    recording.write_text("not json\n" + json.dumps(reply) + "\n", encoding="utf-8")
    runs = from_events([_turn([{"name": "kb", "args": {"query": "q"}},
                               {"name": "search_issues", "args": {"repo": "r"}}])],
                       "test_cases: []\n", "utf-16")  # fmt: skip
    assert runs.calls == [("kb", ["query"]), ("search_issues", ["repo"])]
    found = tool_choices(AGENT, tmp_path / "agent.yaml", recording, runs.calls)
    assert found == [
        ToolChoice("kb", ("query",), "vectorstore tool"),
        ToolChoice("fetch", ("url",), "seen in replay.jsonl"),
        ToolChoice("search_issues", ("repo",), "seen in the last run"),
    ]
    # A new recording is read again.
    reply["reply"]["tool_invocations"] = [{"name": "browse", "args": {}}]
    recording.write_text(json.dumps(reply) + "\n", encoding="utf-8")
    assert tool_choices(AGENT, tmp_path / "agent.yaml", recording, [])[1].name == "browse"
