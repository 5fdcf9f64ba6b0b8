"""docs/github-actions.yml is a recipe users copy: every `holodeck-lsp` command in it is one
the program takes (the job's variables put in), and its `suite` job keeps main's history
from one run of main to the next, runs a pull request repeated, compares it with that
history, posts the comparison as the one comment it finds again, fails on a regression,
and lets the first runs, with no history yet, pass."""

from __future__ import annotations

import re
import shlex
from typing import Any

import click
import yaml
from typer.main import get_command

from holodeck_lsp.cli import app
from holodeck_lsp.runner.report.comparison.comparison_markdown import MARKER
from tests.conftest import REPO

RECIPE = REPO / "docs" / "github-actions.yml"
_VARIABLE = re.compile(r"\$(\w+)")


def _jobs() -> dict[str, Any]:
    jobs: dict[str, Any] = yaml.safe_load(RECIPE.read_text("utf-8"))["jobs"]
    return jobs


def _commands(script: str, env: dict[str, object] | None = None) -> list[list[str]]:
    """The `holodeck-lsp` command lines of a step's script (continuations joined, the job's
    variables put in), as argument lists without the shell's redirections and
    alternatives."""
    joined = script.replace("\\\n", " ")
    commands = []
    for line in joined.splitlines():
        words = line.strip().split("||")[0].split(">")[0]
        if words.startswith("holodeck-lsp "):
            words = _VARIABLE.sub(lambda m: str((env or {}).get(m.group(1), m.group(0))), words)
            commands.append(shlex.split(words)[1:])
    return commands


def _parses(args: list[str]) -> None:
    group = get_command(app)
    assert isinstance(group, click.Group)
    name, *rest = args
    command = group.get_command(click.Context(group), name)
    assert command is not None, name
    command.make_context(name, rest)  # raises on an unknown option or value


def _steps() -> dict[str, Any]:
    return {step.get("name", step.get("uses")): step for step in _jobs()["suite"]["steps"]}


def test_every_command_of_the_recipe_is_one_the_program_takes() -> None:
    commands = [
        command
        for job in _jobs().values()
        for step in job["steps"]
        for command in _commands(step.get("run", ""), job.get("env"))
    ]
    assert [c[0] for c in commands] == ["check", "check", "run", "run", "compare", "compare"]
    for command in commands:
        _parses(command)


def test_main_adds_each_run_to_its_history_and_keeps_it_for_the_next() -> None:
    steps = _steps()
    env = _jobs()["suite"]["env"]
    fetch = steps["Fetch main's history"]
    assert "--name holodeck-history --dir history" in fetch["run"]
    assert fetch["env"]["BRANCH"] == "${{ github.base_ref || github.ref_name }}"
    on_main = steps["Run the test suite on main, into its history"]
    assert on_main["if"] == "github.event_name == 'push'"
    assert _commands(on_main["run"], env) == [
        ["run", "agent.yaml", "--no-user-config", "--history-dir", "history",
         "-o", "report.json", "-o", "report.html"]
    ]  # fmt: skip
    upload = steps["Upload main's history"]
    assert (upload["if"], upload["with"]["name"], upload["with"]["path"]) == (
        "github.event_name == 'push'",
        "holodeck-history",
        "history/",
    )
    assert "cancel-in-progress" in _jobs()["suite"]["concurrency"]


def test_a_pull_request_runs_repeated_and_is_compared_with_mains_history() -> None:
    steps = _steps()
    env = _jobs()["suite"]["env"]
    on_pr = steps["Run the test suite on the pull request, repeated"]
    assert on_pr["if"] == "github.event_name == 'pull_request'"
    assert _commands(on_pr["run"], env) == [
        ["run", "agent.yaml", "--no-user-config", "--repeat", "5", "--no-history",
         "-o", "report.json", "-o", "report.html"]
    ]  # fmt: skip
    assert _commands(steps["Compare with main's history"]["run"], env) == [
        ["compare", "history", "report.json", "--base-last", "20",
         "--format", "markdown", "--output", "comment.md", "--fail-on", "never"]
    ]  # fmt: skip
    assert f'startswith("{MARKER}")' in steps["Post or update the comment"]["run"]
    assert _commands(steps["Fail on a regression"]["run"], env) == [
        ["compare", "history", "report.json", "--base-last", "20", "--fail-on", "regressed"]
    ]
    assert list(steps)[-1] == "Fail on a regression"


def test_the_first_runs_without_a_history_pass() -> None:
    """No run of main yet, or its artefact gone: the fetch says so and succeeds, main's run
    starts the history, and a pull request's comparison waits for one."""
    steps = _steps()
    fetch = steps["Fetch main's history"]["run"]
    assert "mkdir -p history\n  exit 0" in fetch.replace("    ", "  ")
    assert fetch.rstrip().endswith('echo "found=true" >> "$GITHUB_OUTPUT"')
    for name in ("Compare with main's history", "Post or update the comment",
                 "Fail on a regression"):  # fmt: skip
        assert "steps.history.outputs.found == 'true'" in steps[name]["if"]
    assert "steps.history" not in steps["Run the test suite on main, into its history"].get(
        "if", ""
    )
