"""docs/github-actions.yml is a recipe users copy: every `holodeck-lsp` command in it is one
the program takes, and its `suite` job keeps the report main's runs leave, fetches it on a
pull request, posts the comparison as the one comment it finds again, and fails on a
regression."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any

import click
import yaml
from typer.main import get_command

from holodeck_lsp.cli import app
from holodeck_lsp.runner.report.comparison.comparison_markdown import MARKER
from tests.conftest import REPO

RECIPE = REPO / "docs" / "github-actions.yml"


def _jobs() -> dict[str, Any]:
    jobs: dict[str, Any] = yaml.safe_load(RECIPE.read_text("utf-8"))["jobs"]
    return jobs


def _commands(script: str) -> list[list[str]]:
    """The `holodeck-lsp` command lines of a step's script (continuations joined), as
    argument lists without the shell's redirections and alternatives."""
    joined = script.replace("\\\n", " ")
    commands = []
    for line in joined.splitlines():
        words = line.strip().split("||")[0].split(">")[0]
        if words.startswith("holodeck-lsp "):
            commands.append(shlex.split(words)[1:])
    return commands


def _parses(args: list[str]) -> None:
    group = get_command(app)
    assert isinstance(group, click.Group)
    name, *rest = args
    command = group.get_command(click.Context(group), name)
    assert command is not None, name
    command.make_context(name, rest)  # raises on an unknown option or value


def test_every_command_of_the_recipe_is_one_the_program_takes() -> None:
    commands = [
        command
        for job in _jobs().values()
        for step in job["steps"]
        for command in _commands(step.get("run", ""))
    ]
    assert [c[0] for c in commands] == ["check", "check", "run", "compare", "compare"]
    for command in commands:
        _parses(command)


def test_the_suite_job_compares_a_pull_request_with_main(tmp_path: Path) -> None:
    steps = {step.get("name", step.get("uses")): step for step in _jobs()["suite"]["steps"]}
    kept = steps["Keep the report"]["with"]
    assert (kept["name"], kept["path"].split()) == (
        "holodeck-report",
        ["report.json", "report.html"],
    )
    fetch = steps["Fetch main's report"]["run"]
    assert "--name holodeck-report --dir base" in fetch
    comparing = _commands(steps["Compare with main"]["run"])
    assert comparing == [
        [
            "compare", "base/report.json", "report.json",
            "--format", "markdown", "--output", "comment.md", "--fail-on", "never",
        ]
    ]  # fmt: skip
    assert f'startswith("{MARKER}")' in steps["Post or update the comment"]["run"]
    assert _commands(steps["Fail on a regression"]["run"]) == [
        ["compare", "base/report.json", "report.json", "--fail-on", "regressed"]
    ]
    assert list(steps)[-1] == "Fail on a regression"
