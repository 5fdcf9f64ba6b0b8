"""`check --format sarif` produces SARIF 2.1.0 that code scanning accepts."""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

import pytest
import yaml
from jsonschema import Draft4Validator

from holodeck_lsp.cli import app
from tests.conftest import FIXTURES, REPO
from tests.support.cli_runner import CliRunner

SARIF_SCHEMA = json.loads(
    (REPO / "tests" / "data" / "sarif-2.1.0-rtm.4.json").read_text(encoding="utf-8")
)


def _sarif(path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[int, dict[str, Any]]:
    """Run from the repository root, as a CI job does, so locations are repo-relative."""
    monkeypatch.chdir(REPO)
    rel = path.relative_to(REPO).as_posix()
    result = CliRunner().invoke(app, ["check", "--no-user-config", "--format", "sarif", rel])
    return result.exit_code, json.loads(result.stdout)


def _schema_errors(document: dict[str, Any]) -> list[str]:
    validator = Draft4Validator(SARIF_SCHEMA)
    return [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(document)]


def test_the_sarif_schema_is_a_valid_schema() -> None:
    Draft4Validator.check_schema(SARIF_SCHEMA)


def test_every_invalid_fixture_gives_valid_sarif(monkeypatch: pytest.MonkeyPatch) -> None:
    code, document = _sarif(FIXTURES / "invalid", monkeypatch)
    assert code == 1
    assert _schema_errors(document) == []
    (run,) = document["runs"]
    rules = run["tool"]["driver"]["rules"]
    results = run["results"]
    assert len(results) > 40
    for result in results:
        # What code scanning needs to place an alert: a known rule and a relative file.
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        (location,) = result["locations"]
        uri = location["physicalLocation"]["artifactLocation"]["uri"]
        assert uri.startswith("tests/fixtures/invalid/"), uri


def test_one_error_as_code_scanning_sees_it(monkeypatch: pytest.MonkeyPatch) -> None:
    code, document = _sarif(FIXTURES / "invalid" / "wrong_type_unquoted.yaml", monkeypatch)
    assert code == 1
    first = document["runs"][0]["results"][0]
    assert first == {
        "ruleId": "HL103",
        "ruleIndex": first["ruleIndex"],
        "level": "error",
        "message": {
            "text": 'expected text, got the number 25587 (unquoted in YAML); quote it: "25587" '
            "(test_cases[0].ground_truth)"
        },
        "locations": [
            {
                "physicalLocation": {
                    "artifactLocation": {"uri": "tests/fixtures/invalid/wrong_type_unquoted.yaml"},
                    "region": {"startLine": 9, "startColumn": 19, "endLine": 9, "endColumn": 24},
                }
            }
        ],
    }


def test_a_clean_run_is_valid_sarif_without_results(monkeypatch: pytest.MonkeyPatch) -> None:
    code, document = _sarif(FIXTURES / "valid", monkeypatch)
    assert code == 0
    assert _schema_errors(document) == []
    assert document["runs"][0]["results"] == []


def _workflow_steps() -> list[dict[str, Any]]:
    workflow = yaml.safe_load((REPO / "docs" / "github-actions.yml").read_text("utf-8"))
    steps: list[dict[str, Any]] = workflow["jobs"]["check"]["steps"]
    return steps


def _check_commands(script: str) -> list[list[str]]:
    """The `holodeck-lsp check` command lines of a step's script, as argument lists."""
    commands = []
    for line in script.splitlines():
        if line.strip().startswith("holodeck-lsp check"):
            words = shlex.split(line.split(">")[0].split("||")[0])
            commands.append(words[1:])
    return commands


def test_example_workflow_annotates_and_uploads_what_check_writes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    steps = _workflow_steps()
    scripts = [step["run"] for step in steps if "holodeck-lsp check" in step.get("run", "")]
    commands = [c for script in scripts for c in _check_commands(script)]
    formats = [c[c.index("--format") + 1] for c in commands]
    assert formats == ["github", "sarif"]
    (upload,) = [s for s in steps if s.get("uses", "").startswith("github/codeql-action/upload")]
    assert f"> {upload['with']['sarif_file']}" in scripts[1]
    # The commands work as written, here on a clean folder of this repository.
    monkeypatch.chdir(FIXTURES / "valid")
    for args in commands:
        result = CliRunner().invoke(app, args)
        assert result.exit_code == 0, result.output
