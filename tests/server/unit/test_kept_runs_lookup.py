"""The kept runs' lookup behind every hover: an agent with no `results/` folder beside it
keeps no run, and its text is not parsed for its name (a whole parse per hover while
the user types, 10 ms at 100 cases, on a thread beside the event loop)."""

from __future__ import annotations

from pathlib import Path

import pytest

from holodeck_lsp.history import run_history
from holodeck_lsp.server.kept_runs import KeptRuns


def test_an_agent_without_a_results_folder_is_not_parsed_for_its_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    parsed: list[str] = []
    monkeypatch.setattr(run_history, "agent_name_in", lambda text: parsed.append(text) or "a")
    agent = tmp_path / "agent.yaml"
    assert KeptRuns()._for_agent(agent, "name: a\n") is None
    assert parsed == []
    # With a results folder, the name is read and its folder looked up.
    (tmp_path / "results").mkdir()
    assert KeptRuns()._for_agent(agent, "name: a\n") is None  # no run kept under a/ yet
    assert parsed == ["name: a\n"]
