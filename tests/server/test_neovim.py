"""Neovim 0.7's built-in client against the real server, with every default.

Neovim takes pushed diagnostics only, sends no configuration, ignores dynamic
registration and inserts no snippets. Install it with tests/server/nvim/setup.sh.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.server.neovim import NVIM, run_script

TEXT = """name: bot
model:
  provider: opnai
  name: gpt-4o
instructions:
  inline: Be brief.
test_cases:
  - name: sum
    input: 2 + 2?
    ground_truth: 4
"""

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        NVIM is None,
        reason="nvim is not installed; run "
        "tests/server/nvim/setup.sh (Debian's neovim package, 0.7)",
    ),
]


def test_neovim_shows_diagnostics_hover_completion_and_symbols(workspace: Path) -> None:
    agent = workspace / "bot.agent.yaml"
    agent.write_text(TEXT)
    result = run_script("holodeck.lua", workspace, agent, workspace.parent)
    provider = {
        "lnum": 2,
        "col": 12,
        "end_lnum": 2,
        "end_col": 17,
        "severity": 1,
        "source": "holodeck-lsp",
        "message": "unknown value 'opnai'; expected one of openai, azure_openai, anthropic, "
        "ollama; did you mean 'openai'? (model.provider)",
    }
    answer = {
        "lnum": 9,
        "col": 18,
        "end_lnum": 9,
        "end_col": 19,
        "severity": 1,
        "source": "holodeck-lsp",
        "message": 'expected text, got the number 4 (unquoted in YAML); quote it: "4" '
        '(test case "sum": test_cases[0].ground_truth)',
    }
    assert result["opened"] == [provider, answer]
    assert result["hover"] == {
        "contents": {
            "kind": "markdown",
            "value": "**provider** (text, required)\n\nModel provider: `openai`, "
            "`azure_openai`, `anthropic` or `ollama`.\n\nAllowed values: `openai`, "
            "`azure_openai`, `anthropic`, `ollama`",
        },
        "range": {"start": {"line": 2, "character": 2}, "end": {"line": 2, "character": 10}},
    }
    assert result["completion"] == ["openai", "azure_openai", "anthropic", "ollama"]
    assert result["symbols"] == ["name", "model", "instructions", "test_cases"]
    assert result["edited"] == [answer]
    assert result["stopped"] is True
