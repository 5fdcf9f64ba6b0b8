"""`check --changed-files`, as the pre-commit hooks run it: every changed YAML file comes in;
an agent is checked, a file an agent pulls in is checked through that agent (its
diagnostics, in that file), anything else is left alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from holodeck_lsp.cli import app
from tests.support.cli_runner import CliRunner

runner = CliRunner()

AGENT = """\
name: support
model:
  provider: openai
  name: gpt-4o
instructions:
  inline: Answer briefly.
tools:
  - name: lookup
    description: Look a figure up.
    type: function
    file: tools.py
    function: lookup
test_cases_file: data/cases.yaml
"""
# Two problems: a number where text goes (an error in any context) and a tool name only
# the agent can judge (no declared tool contains it: a warning through the agent only).
CASES = """\
- name: revenue
  input: What was the revenue?
  expected_tools: [lookpu]
  ground_truth: 25587
"""
WORKFLOW = "name: ci\non: [push]\njobs: {}\n"
CASES_THROUGH_AGENT = [
    "agents/x/data/cases.yaml:3:20: warning HL307 no tool of this agent has a name containing "
    "'lookpu' (tools: lookup) (test case \"revenue\": test_cases[0].expected_tools[0])",
    "    expected_tools: [lookpu]",
    "                     ^^^^^^",
    "agents/x/data/cases.yaml:4:17: error HL103 expected text, got the number 25587 (unquoted "
    'in YAML); quote it: "25587" (test case "revenue": test_cases[0].ground_truth)',
    "    ground_truth: 25587",
    "                  ^^^^^",
]


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A repository: agents/x/agent.yaml naming agents/x/data/cases.yaml, and other YAML."""
    root = tmp_path / "project"
    files = {
        "agents/x/agent.yaml": AGENT,
        "agents/x/data/cases.yaml": CASES,
        ".github/workflows/ci.yml": WORKFLOW,
        "agents/x/data/prices.yaml": "currency: EUR\nrates: [1, 2]\n",
        "deploy/config.yaml": "replicas: 3\n",
    }
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    (root / ".git").mkdir()  # where the search for agents stops
    monkeypatch.chdir(root)
    return root


def changed(*paths: str) -> tuple[int, list[str]]:
    result = runner.invoke(
        app, ["check", "--no-user-config", "--no-color", "--changed-files", *paths]
    )
    return result.exit_code, result.output.splitlines()


def test_a_test_cases_file_is_checked_through_the_agent_that_names_it(project: Path) -> None:
    assert changed("agents/x/data/cases.yaml") == (
        1,
        [*CASES_THROUGH_AGENT, "1 file(s) checked: 1 error(s), 1 warning(s)"],
    )


def test_found_from_any_folder_below_the_agent_and_reported_as_named(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(project / "agents" / "x" / "data")
    code, lines = changed("cases.yaml")
    assert code == 1
    assert lines[0].startswith("cases.yaml:3:20: warning HL307 ")


def test_yaml_that_is_not_holodecks_is_left_alone(project: Path) -> None:
    others = (".github/workflows/ci.yml", "agents/x/data/prices.yaml", "deploy/config.yaml")
    assert changed(*others) == (0, ["0 file(s) checked: 0 error(s), 0 warning(s)"])


def test_the_agent_and_its_test_cases_changed_together_report_each_problem_once(
    project: Path,
) -> None:
    assert changed("agents/x/agent.yaml", "agents/x/data/cases.yaml") == (
        1,
        [*CASES_THROUGH_AGENT, "2 file(s) checked: 1 error(s), 1 warning(s)"],
    )


def test_an_agent_above_the_folder_naming_a_deeper_file_is_found(project: Path) -> None:
    (project / "agent.yaml").write_text(
        AGENT.replace("data/cases.yaml", "suites/smoke/first.yaml"), encoding="utf-8"
    )
    (project / "suites" / "smoke").mkdir(parents=True)
    (project / "suites" / "smoke" / "first.yaml").write_text(CASES, encoding="utf-8")
    code, lines = changed("suites/smoke/first.yaml")
    assert code == 1
    assert lines[0].startswith("suites/smoke/first.yaml:3:20: warning HL307 ")


def test_the_config_beside_an_agent_is_checked_and_one_holodeck_ignores_is_not(
    project: Path,
) -> None:
    (project / "agents/x/config.yaml").write_text("vectorstores: 3\n", encoding="utf-8")
    assert changed("agents/x/config.yaml") == (
        1,
        [
            "agents/x/config.yaml:1:15: error HL103 expected a mapping, got the number 3 "
            "(vectorstores)",
            "  vectorstores: 3",
            "                ^",
            "1 file(s) checked: 1 error(s), 0 warning(s)",
        ],
    )
    # With config.yml beside it, HoloDeck reads that one: config.yaml is nobody's file.
    (project / "agents/x/config.yml").write_text("{}\n", encoding="utf-8")
    assert changed("agents/x/config.yaml") == (0, ["0 file(s) checked: 0 error(s), 0 warning(s)"])


def test_a_suite_no_agent_names_is_checked_on_its_own(project: Path) -> None:
    (project / "loose.cases.yaml").write_text(CASES, encoding="utf-8")
    code, lines = changed("loose.cases.yaml")
    assert code == 1
    assert lines[0].startswith("loose.cases.yaml:4:17: error HL103 ")
    assert lines[-1] == "1 file(s) checked: 1 error(s), 0 warning(s)"


def test_the_search_stops_at_the_repository_root(project: Path, tmp_path: Path) -> None:
    """An agent outside the repository is not this repository's: the file stands alone."""
    (tmp_path / "agent.yaml").write_text(
        AGENT.replace("data/cases.yaml", "project/agents/x/data/cases.yaml"), encoding="utf-8"
    )
    (project / "agents/x/agent.yaml").write_text(
        AGENT.replace("test_cases_file: data/cases.yaml\n", ""), encoding="utf-8"
    )
    code, lines = changed("agents/x/data/cases.yaml")
    assert code == 1
    assert lines[0].startswith("agents/x/data/cases.yaml:4:17: error HL103 ")


def test_a_named_file_without_the_option_is_checked_as_today(project: Path) -> None:
    """Named without the option, a file is checked whatever it is (here: as an agent)."""
    result = runner.invoke(app, ["check", "--no-user-config", "agents/x/data/prices.yaml"])
    assert result.exit_code == 1
    assert result.output.splitlines()[-1] == "1 file(s) checked: 5 error(s), 0 warning(s)"
