"""Neovim 0.7 runs a turn from its code lens: the lenses are offered above every case and
turn, executing "Run turn" (through `workspace/executeCommand`, replaying the example's
recording named in initializationOptions) publishes the run's diagnostics on the failing
lines, hover shows the last result, and editing a failed line clears its diagnostic."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.conftest import REPO
from tests.server.neovim import NVIM, run_script

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        NVIM is None,
        reason="nvim is not installed; run tests/server/nvim/setup.sh (Debian's neovim, 0.7)",
    ),
]


def test_neovim_runs_a_turn_from_its_code_lens(tmp_path: Path) -> None:
    folder = tmp_path / "convfinqa"
    shutil.copytree(REPO / "examples" / "convfinqa", folder)
    agent = folder / "agent.yaml"
    text = agent.read_text().replace('ground_truth: "181001"', 'ground_truth: "190000"', 1)
    text = text.replace('year: {regex: "2020"}', 'year: {regex: "2021"}', 1)
    agent.write_text(text)
    lines = text.splitlines()
    truth_line = lines.index('        ground_truth: "190000"')
    arg_line = next(i for i, line in enumerate(lines) if 'year: {regex: "2021"}' in line)
    result = run_script("runs.lua", folder, agent, tmp_path, HL_REPLAY="replay.jsonl")
    first = lines.index("test_cases:")
    cases = [i for i, line in enumerate(lines) if i > first and line.startswith("  - name: ")]
    turns = [i for i, line in enumerate(lines) if line.startswith("      - input: ")]
    assert [(lens["line"], lens["title"]) for lens in result["lenses"]] == sorted(
        [(line, "▶ Run case") for line in cases] + [(line, "▶ Run turn") for line in turns]
    )
    assert result["executed"] == {"exitCode": 1, "passed": 0, "failed": 1}
    error = 1
    failed_truth = (truth_line, error)  # the failed comparison, on ground_truth
    failed_arg = (arg_line, error)  # the failed matcher, on its argument
    assert [(d["lnum"], d["severity"]) for d in result["diagnostics"]] == [
        failed_truth,
        failed_arg,
    ]
    assert result["diagnostics"][1]["message"] == "expected regex '2021', got '2020' (last run)"
    # The field's documentation, then the turn's last result.
    assert "\n\n---\n\n**Last run: FAIL** turn 1 (" in result["hover"]
    assert "tool calls: `lookup(metric='operating_cash_flow', year='2020')`" in result["hover"]
    # The ground truth corrected: its diagnostic is gone, the others stay.
    assert [(d["lnum"], d["severity"]) for d in result["edited"]] == [failed_arg]
    assert result["stopped"] is True
