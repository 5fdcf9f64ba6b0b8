"""Neovim 0.7's built-in client against the real server, with every default.

Neovim takes pushed diagnostics only, sends no configuration, ignores dynamic
registration and inserts no snippets. Install it with tests/server/nvim/setup.sh.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.server.lsp_client import SERVER, server_env

NVIM = shutil.which("nvim")
SCRIPT = Path(__file__).parent / "nvim" / "holodeck.lua"
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
    assert NVIM is not None
    agent = workspace / "bot.agent.yaml"
    agent.write_text(TEXT)
    out = workspace.parent / "nvim.json"
    home = workspace.parent / "home"
    home.mkdir(exist_ok=True)
    env = server_env(home)
    env.update(
        HL_CMD=json.dumps(SERVER),
        HL_ROOT=str(workspace),
        HL_FILE=str(agent),
        HL_OUT=str(out),
        XDG_CONFIG_HOME=str(home / ".config"),
        XDG_DATA_HOME=str(home / ".local"),
        XDG_STATE_HOME=str(home / ".state"),
    )
    done = subprocess.run(
        [NVIM, "--headless", "--clean", "-n", "-c", f"luafile {SCRIPT}"],
        env=env,
        cwd=workspace,
        capture_output=True,
        text=True,
        timeout=300,
        stdin=subprocess.DEVNULL,
    )
    assert out.exists(), done.stderr
    result = json.loads(out.read_text())
    assert "error" not in result, result
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
