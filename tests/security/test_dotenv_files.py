"""`.env` is read as `holodeck test` reads it, and no more: by `run` alone, from the folder it
starts in, as a regular file of bounded size (a FIFO, on which HoloDeck would wait for ever,
is skipped with a warning); a credential it holds is masked in every artefact of the run;
`check` and the language server read none, in a trusted workspace or not."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO
from tests.runner.conftest import _forget_user_code  # noqa: F401 (autouse: user code unloaded)
from tests.runner.fake_model import FakeModelServer
from tests.security.test_secret_masking import SECRET, _no_backoff, leaks, run_all, script, suite

__all__ = ["_no_backoff"]  # autouse: no backoff between retries
PROGRAM = Path(sys.executable).with_name("holodeck-lsp")


def test_a_credential_of_dotenv_reaches_no_artefact(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Named like a credential, used by nothing the file says: the name alone makes the
    value a secret, as it does for the shell's variables."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("FX_SERVICE_TOKEN", raising=False)
    escaped = SECRET.replace("\\", "\\\\").replace('"', '\\"')
    (tmp_path / ".env").write_text(f'FX_SERVICE_TOKEN="{escaped}"\n', encoding="utf-8")
    with FakeModelServer(script) as server:
        code, artefacts = run_all(suite(tmp_path, server.url, "sk-innocuous-000"))
    assert code == 3, artefacts["stderr"]
    assert "[REDACTED]" in artefacts["report.json"]
    assert leaks(artefacts) == []


def _fifo_project(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    project, home = tmp_path / "project", tmp_path / "home"
    (home / ".holodeck").mkdir(parents=True)
    project.mkdir()
    for folder in (project, home / ".holodeck"):
        os.mkfifo(folder / ".env")  # opened for reading, it would wait for a writer
    (project / "agent.yaml").write_text(
        "name: a\nmodel: {provider: openai, name: m}\ninstructions: {inline: x}\n"
        "test_cases:\n  - input: hello\n",
        encoding="utf-8",
    )
    env = {"PATH": os.environ["PATH"], "HOME": str(home), "NO_COLOR": "1", "OPENAI_API_KEY": "sk-x"}
    return project, env


def test_a_fifo_dotenv_is_skipped_never_waited_on(tmp_path: Path) -> None:
    project, env = _fifo_project(tmp_path)
    done = subprocess.run(
        [str(PROGRAM), "run", "agent.yaml", "-n", "0"],
        cwd=project, env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines()[:2] == [
        "warning: .env not read: it is a FIFO (named pipe), not a regular file",
        "warning: ~/.holodeck/.env not read: it is a FIFO (named pipe), not a regular file",
    ]


def test_check_reads_no_dotenv(tmp_path: Path) -> None:
    project, env = _fifo_project(tmp_path)
    done = subprocess.run(
        [str(PROGRAM), "check", "."],
        cwd=project, env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert (done.returncode, ".env" in done.stdout + done.stderr) == (0, False), done.stdout


def test_only_the_run_command_loads_dotenv() -> None:
    """`check` and the server (which starts `run` only in a trusted workspace, in a child
    of its own) never import what reads `.env`."""
    importers = set()
    for path in (REPO / "holodeck_lsp").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = (
                [node.module or ""] if isinstance(node, ast.ImportFrom)
                else [a.name for a in node.names] if isinstance(node, ast.Import) else []
            )  # fmt: skip
            if any(n.endswith("dotenv_files") or n.split(".")[0] == "dotenv" for n in names):
                importers.add(path.relative_to(REPO / "holodeck_lsp").as_posix())
    assert importers == {
        "runner/command.py",
        "runner/report/console.py",
        "runner/collect/dotenv_files.py",
    }
