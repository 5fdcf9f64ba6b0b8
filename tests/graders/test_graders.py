"""Graders are found without running user code; importing them is opt-in and isolated."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from holodeck_lsp.cli import app
from holodeck_lsp.graders.isolated import import_grader
from holodeck_lsp.graders.static import GraderLocation, Resolution, resolve_grader
from tests.support.cli_runner import CliRunner

MODULE = """\
import os

LIMIT = 3
helper = os.path.join


def exact(ctx):
    return True


async def judged(ctx):
    return 0.5


class Scorer:
    def __call__(self, ctx):
        return True


try:
    from fast import speedy
except ImportError:
    def speedy(ctx):
        return False

unpacked, COUNT = (lambda ctx: True), 2
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "graders").mkdir()
    (tmp_path / "graders" / "__init__.py").write_text("raise RuntimeError('never imported')\n")
    (tmp_path / "graders" / "checks.py").write_text(MODULE)
    (tmp_path / "broken.py").write_text("def oops(:\n")
    (tmp_path / "loud.py").write_text("raise SystemExit('refuses to import')\ndef grade(c): ...\n")
    (tmp_path / "slow.py").write_text("import time\ntime.sleep(60)\ndef grade(c): ...\n")
    return tmp_path


@pytest.mark.parametrize(
    ("spec", "status", "line"),
    [
        ("graders.checks:exact", "ok", 6),
        ("graders.checks:judged", "ok", 10),
        ("graders.checks:Scorer", "ok", 14),
        ("graders.checks:speedy", "ok", 22),  # the fallback def, the last binding
        ("graders.checks:helper", "ok", 3),
        ("graders.checks:LIMIT", "not-callable", 2),
        ("graders.checks:unpacked", "ok", 25),  # bound by unpacking: callability unknown
        ("graders.checks:COUNT", "ok", 25),  # so no not-callable either: no false positive
        ("graders.checks:nothing", "attr-missing", None),
        ("graders.nope:exact", "module-missing", None),
        ("broken:oops", "syntax-error", None),
        ("json:dumps", "ok", None),  # from the environment's path: found, never imported
    ],
)
def test_static_resolution(project: Path, spec: str, status: str, line: int | None) -> None:
    result = resolve_grader(spec, [project, *map(Path, __import__("sys").path[1:])])
    assert result.status == status, result.message
    if line is not None:
        column = 4 if spec.endswith("speedy") else 0
        assert result.target == GraderLocation(project / "graders" / "checks.py", line, column)


def test_static_resolution_runs_no_code(project: Path) -> None:
    # graders/__init__.py raises when imported: static resolution must not notice.
    assert resolve_grader("graders.checks:exact", [project]).status == "ok"
    assert resolve_grader("loud:grade", [project]) == Resolution(
        "ok", module_file=project / "loud.py", target=GraderLocation(project / "loud.py", 1, 0)
    )


def test_isolated_import_reports_what_import_raises(project: Path) -> None:
    assert import_grader("graders.checks:exact", [project]).status == "import-failed"
    loud = import_grader("loud:grade", [project])
    assert (loud.status, loud.message) == ("import-failed", "SystemExit: refuses to import")
    assert import_grader("json:dumps", [project]).status == "ok"


def test_isolated_import_has_a_time_limit(project: Path) -> None:
    outcome = import_grader("slow:grade", [project], timeout=1.0)
    assert outcome.status == "timeout"


def test_check_imports_only_when_asked(project: Path) -> None:
    (project / "agent.yaml").write_text(
        "name: a\nmodel: {provider: openai, name: gpt-4o}\ninstructions: {inline: hi}\n"
        "evaluations:\n  metrics:\n    - type: code\n      grader: loud:grade\n"
        "test_cases:\n  - input: hi\n"
    )
    runner = CliRunner()
    quiet = runner.invoke(
        app, ["check", "--no-user-config", "--format", "json", str(project / "agent.yaml")]
    )
    assert quiet.exit_code == 0, quiet.output
    loud = runner.invoke(
        app,
        [
            "check",
            "--no-user-config",
            "--format",
            "json",
            "--import-graders",
            str(project / "agent.yaml"),
        ],
    )
    diagnostics = json.loads(loud.output)["files"][0]["diagnostics"]
    assert [(d["code"], d["line"], d["message"]) for d in diagnostics] == [
        (
            "HL505",
            7,
            "importing grader 'loud:grade' failed: SystemExit: refuses to import "
            "(evaluations.metrics[0].grader)",
        ),
    ]
    assert loud.exit_code == 1


def test_import_graders_from_the_parent_folder_finds_a_grader_beside_the_agent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # As pre-commit runs it: from the repository root, with a path relative to it.
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "agent.yaml").write_text(
        "name: a\nmodel: {provider: openai, name: gpt-4o}\ninstructions: {inline: hi}\n"
        "evaluations:\n  metrics:\n    - type: code\n      grader: scoring:grade\n"
        "test_cases:\n  - input: hi\n"
    )
    (tmp_path / "sub" / "scoring.py").write_text("def grade(ctx):\n    return True\n")
    monkeypatch.chdir(tmp_path)

    result = CliRunner().invoke(
        app, ["check", "--no-user-config", "--format", "json", "--import-graders", "sub/agent.yaml"]
    )

    assert json.loads(result.output)["files"][0]["diagnostics"] == []
    assert result.exit_code == 0
