"""An agent valid only through its configs is valid; a config's own errors land in it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from holodeck_lsp.cli import app
from tests.support.cli_runner import CliRunner

AGENT = """name: partial
model:
  provider: openai
instructions:
  inline: hi
tools:
  - name: kb
    type: vectorstore
    description: Knowledge base.
    source: data/
    database: shared_store
test_cases:
  - input: hi
"""


def check(*args: str) -> tuple[int, dict[str, list[tuple[str, int]]]]:
    result = CliRunner().invoke(app, ["check", "--format", "json", *args])
    files = json.loads(result.output)["files"]
    return result.exit_code, {
        Path(f["file"]).name: [(d["code"], d["line"]) for d in f["diagnostics"]] for f in files
    }


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "agent.yaml").write_text(AGENT)
    return tmp_path


def test_model_name_from_the_user_config(project: Path) -> None:
    home = Path.home() / ".holodeck"
    home.mkdir(parents=True)
    (home / "config.yaml").write_text(
        "providers:\n  openai:\n    provider: openai\n    name: gpt-4o\n"
    )
    # No config defines the vector store `shared_store`: HoloDeck runs it in memory.
    assert check(str(project / "agent.yaml")) == (
        0,
        {"agent.yaml": [("HL606", 11)], "config.yaml": []},
    )
    code, files = check("--no-user-config", str(project / "agent.yaml"))
    assert (code, files) == (1, {"agent.yaml": [("HL102", 2), ("HL606", 11)]})


def test_project_config_fills_model_and_vector_store(project: Path) -> None:
    (project / "config.yml").write_text(
        "providers:\n  openai: {provider: openai, name: gpt-4o}\n"
        "vectorstores:\n  shared_store:\n    provider: postgresql\n"
        "    connection_string: postgresql://localhost/kb\n"
    )
    (project / "config.yaml").write_text("this file: [is ignored, because .yml wins\n")
    assert check("--no-user-config", str(project / "agent.yaml")) == (
        0,
        {"agent.yaml": [], "config.yml": []},
    )


def test_broken_project_config_is_reported_in_the_config(project: Path) -> None:
    (project / "config.yaml").write_text("providers:\n  openai:\n    provider: openia\n")
    code, files = check("--no-user-config", str(project / "agent.yaml"))
    assert code == 1
    # Unmerged, the agent also lacks the model name the config was meant to give it.
    assert files == {
        "agent.yaml": [("HL604", 1), ("HL102", 2)],
        "config.yaml": [("HL102", 2), ("HL104", 3)],
    }
