"""One version, from `holodeck_lsp.__version__`: the package metadata, `--version`, SARIF and
the runner's reports (beside HoloDeck's version, in HoloDeck's field) all say the same."""

from __future__ import annotations

import json
from importlib.metadata import version
from pathlib import Path

from holodeck_lsp import __version__
from holodeck_lsp.cli import app
from tests.conftest import FIXTURES, REPO
from tests.runner.helpers import ECHO, run_suite, write
from tests.support.cli_runner import CliRunner

SUITE = """\
name: versioned
model: {provider: openai, name: gpt-4o}
instructions: {inline: Repeat the question.}
test_cases:
  - input: hello
"""


def test_version_prints_the_package_version() -> None:
    result = CliRunner().invoke(app, ["--version"])

    assert (result.exit_code, result.output) == (0, f"holodeck-lsp {__version__}\n")
    assert version("holodeck-lsp") == __version__  # pyproject reads it from the package


def test_sarif_names_the_same_version() -> None:
    result = CliRunner().invoke(
        app, ["check", "--no-user-config", "--format", "sarif", str(FIXTURES / "valid")]
    )

    driver = json.loads(result.output)["runs"][0]["tool"]["driver"]
    assert (driver["name"], driver["version"]) == ("holodeck-lsp", __version__)


def test_a_run_report_names_ours_beside_holodecks_version(tmp_path: Path) -> None:
    agent = write(tmp_path, {"agent.yaml": SUITE, "echo.py": ECHO})

    code, report, err = run_suite(agent, "--agent", "echo:factory")

    assert code == 0, err
    # HoloDeck's field holds HoloDeck's version: that of the `holodeck test` `run` follows,
    # the one the runner differential installs.
    pinned = (REPO / "tests" / "differential" / "runner" / "requirements.txt").read_text()
    assert f"holodeck-ai=={report['holodeck_version']}\n" in pinned
    assert report["environment"]["holodeck_lsp_version"] == __version__
