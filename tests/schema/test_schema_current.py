"""The committed schemas are exactly what `holodeck-lsp schema` generates, and sound."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft7Validator

from holodeck_lsp.cli import app
from holodeck_lsp.schema.generate import DRAFT_07, FILE_NAMES, KINDS, command, render
from tests.conftest import REPO
from tests.support.cli_runner import CliRunner

SCHEMA_DIR = REPO / "schema"


def _committed(kind: str) -> str:
    return (SCHEMA_DIR / FILE_NAMES[kind]).read_text(encoding="utf-8")


@pytest.mark.parametrize("kind", KINDS)
def test_committed_schema_is_current(kind: str) -> None:
    assert _committed(kind) == render(kind), f"stale schema: run `{command(kind)}`"


@pytest.mark.parametrize("kind", KINDS)
def test_schema_is_valid_draft_07_and_names_its_command(kind: str) -> None:
    schema = json.loads(_committed(kind))
    Draft7Validator.check_schema(schema)
    assert schema["$schema"] == DRAFT_07
    assert f"`{command(kind)}`" in schema["$comment"]


@pytest.mark.parametrize("kind", KINDS)
def test_cli_writes_the_committed_schema(kind: str, tmp_path: Path) -> None:
    out = tmp_path / "schema.json"
    result = CliRunner().invoke(app, ["schema", "--kind", kind, "--output", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_text(encoding="utf-8") == _committed(kind)


def test_cli_refuses_an_unknown_kind() -> None:
    result = CliRunner().invoke(app, ["schema", "--kind", "config"])
    assert result.exit_code == 2


def _described(node: Any, where: str = "") -> list[str]:
    """Paths of properties without both descriptions (conditions are never shown)."""
    missing: list[str] = []
    if isinstance(node, dict):
        for name, prop in node.get("properties", {}).items():
            if isinstance(prop, dict) and not {"description", "markdownDescription"} <= set(prop):
                missing.append(f"{where}/{name}")
        for key, value in node.items():
            if key not in ("if", "not"):
                missing += _described(value, f"{where}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            missing += _described(value, f"{where}/{index}")
    return missing


@pytest.mark.parametrize("kind", KINDS)
def test_every_property_is_described_for_hover(kind: str) -> None:
    assert _described(json.loads(_committed(kind))) == []


def test_agent_schema_offers_enum_values_and_snippets() -> None:
    schema = json.loads(_committed("agent"))
    defs = schema["definitions"]
    metric = defs["EvaluationMetric"]["properties"]["metric"]["else"]
    assert metric["enum"][:3] == ["groundedness", "relevance", "coherence"]
    file_type = defs["FileInput"]["properties"]["type"]["else"]
    assert file_type["enum"] == ["image", "pdf", "text", "excel", "word", "powerpoint", "csv"]
    labels = {
        name: [s["label"] for s in defs[name]["defaultSnippets"]]
        for name in ("TestCaseModel", "Turn", "ExpectedTool")
    }
    assert labels == {
        "TestCaseModel": ["New test case (multi-turn)", "New test case (single-turn)"],
        "Turn": ["New turn"],
        "ExpectedTool": ["New expected tool with args"],
    }
