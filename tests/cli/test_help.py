"""`--help` says every option's text whole: wrapped at the terminal's width (up to 120
columns), never cut with an ellipsis at 80."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import click
import pytest
import typer

from holodeck_lsp.cli import app
from tests.support.cli_runner import CliRunner

COMMANDS = ["check", "serve", "schema", "run", "merge"]
PROGRAM = Path(sys.executable).with_name("holodeck-lsp")


def _help(command: str, columns: int) -> str:
    """What a user sees, in a terminal this wide (or piped with COLUMNS set)."""
    env = {**os.environ, "COLUMNS": str(columns)}
    done = subprocess.run(
        [str(PROGRAM), command, "--help"], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def _option_texts(command: str) -> list[str]:
    group = typer.main.get_command(app)
    assert isinstance(group, click.Group)
    params = group.commands[command].params
    return [p.help for p in params if isinstance(p, click.Option) and p.help]


def _letters(text: str) -> str:
    """The text without the whitespace (and the hyphen breaks) wrapping adds."""
    return re.sub(r"\s+", "", text)


@pytest.mark.parametrize("command", COMMANDS)
def test_every_option_text_is_shown_whole_at_80_columns(command: str) -> None:
    result = CliRunner().invoke(app, [command, "--help"], terminal_width=80)
    assert result.exit_code == 0, result.output
    shown = result.output
    assert [t for t in _option_texts(command) if _letters(t) not in _letters(shown)] == []
    assert "…" not in shown
    assert max(map(len, shown.splitlines())) <= 80


def test_a_wide_terminal_gets_wider_help() -> None:
    lines = _help("check", 200).splitlines()
    assert 80 < max(map(len, lines)) <= 120
    assert (
        "  --stdin-filename TEXT           The path to report (and resolve from) for stdin."
        in lines
    )
