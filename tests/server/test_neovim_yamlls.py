"""yaml-language-server with HoloDeck's published schema and holodeck-lsp both attached in
Neovim 0.7: without the recipe each problem of an agent shows twice; with
editors/neovim/yamlls_alongside.lua, once (holodeck-lsp's, with its fixes), while YAML
that is not HoloDeck's keeps yaml-language-server's diagnostics. Slow: Neovim
(tests/server/nvim/setup.sh) and yaml-language-server (tests/schema/yaml-ls/setup.sh)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import HOLODECK_SCHEMA, REPO
from tests.schema.test_yaml_language_server import NODE
from tests.schema.test_yaml_language_server import SERVER as YAML_LS
from tests.server.neovim import NVIM, run_script

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(NVIM is None, reason="nvim is not installed: tests/server/nvim/setup.sh"),
    pytest.mark.skipif(
        not (YAML_LS.is_file() and NODE), reason="yaml-language-server is not installed: "
        "tests/schema/yaml-ls/setup.sh",
    ),
]
RECIPE = REPO / "editors" / "neovim" / "yamlls_alongside.lua"
AGENT = """# yaml-language-server: $schema=./holodeck.schema.json
name: bot
model:
  provider: opnai
  name: gpt-4o
  temprature: 0.2
instructions:
  inline: Be brief.
"""
OTHER = "services:\n  web:\n    image: nginx\n   ports: [80]\n"  # a bad indent


def _run(workspace: Path, recipe: Path | None) -> Any:
    shutil.copy(HOLODECK_SCHEMA, workspace / "holodeck.schema.json")
    agent = workspace / "bot.agent.yaml"
    agent.write_text(AGENT)
    other = workspace / "compose.yaml"
    other.write_text(OTHER)
    return run_script(
        "yamlls.lua", workspace, agent, workspace.parent,
        HL_YAMLLS=json.dumps([NODE, str(YAML_LS), "--stdio"]),
        HL_OTHER=str(other), HL_RECIPE=str(recipe or ""),
    )  # fmt: skip


def _per_line(found: list[dict[str, Any]]) -> dict[int, list[str]]:
    lines: dict[int, list[str]] = {}
    for d in found:
        lines.setdefault(d["line"], []).append(d["source"] or "?")
    return lines


def test_without_the_recipe_each_problem_shows_twice(workspace: Path) -> None:
    result = _run(workspace, None)
    assert result["raw"]["holodeck"] == 2
    assert result["raw"]["yamlls"] >= 2
    lines = _per_line(result["agent"])
    assert sorted(lines) == [3, 5]
    assert all(len(sources) == 2 and "holodeck-lsp" in sources for sources in lines.values())


def test_with_the_recipe_each_problem_shows_once_and_other_yaml_keeps_yaml_ls(
    workspace: Path,
) -> None:
    result = _run(workspace, RECIPE)
    # Both servers did report the agent's problems: the recipe chose what is shown.
    assert result["raw"]["yamlls"] >= 2 and result["raw"]["holodeck"] == 2
    assert [(d["line"], d["source"]) for d in result["agent"]] == [
        (3, "holodeck-lsp"),
        (5, "holodeck-lsp"),
    ]
    assert "did you mean 'openai'?" in result["agent"][0]["message"]
    assert "did you mean 'temperature'?" in result["agent"][1]["message"]
    # Not HoloDeck's: holodeck-lsp says nothing, yaml-language-server's syntax error stays.
    assert result["raw"]["holodeck_other"] is None
    assert result["other"] and all(d["source"] != "holodeck-lsp" for d in result["other"])
