"""Emacs (Debian's emacs-nox 28 with elpa-eglot) in batch mode, set up with
editors/emacs/holodeck-lsp.el, against the real server: an agent's planted errors reach
flymake on their lines, hover answers, a quick fix applies, and a GitHub workflow of the
same project gets nothing. Slow: it needs Emacs (`.ci/run` installs it)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import FOREIGN_YAML, REPO
from tests.server.lsp_client import SERVER, server_env
from tests.server.test_diagnostics import BROKEN as AGENT

EMACS = shutil.which("emacs")
SCRIPT = Path(__file__).with_name("emacs_eglot.el")
SETUP = REPO / "editors" / "emacs" / "holodeck-lsp.el"

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        EMACS is None, reason="emacs is not installed (Debian: emacs-nox elpa-eglot)"
    ),
]



def _run(tmp_path: Path, script: Path, **extra: str) -> subprocess.CompletedProcess[str]:
    assert EMACS is not None
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    env = server_env(home)
    env.update(extra)
    # Without -Q: Debian's site-start activates the elpa packages (eglot).
    return subprocess.run(
        [EMACS, "--batch", "-l", str(script)],
        env=env, cwd=tmp_path, capture_output=True, text=True, timeout=300,
        stdin=subprocess.DEVNULL,
    )  # fmt: skip


def test_setup_file_byte_compiles_without_warnings(tmp_path: Path) -> None:
    target = tmp_path / "holodeck-lsp.el"
    shutil.copy(SETUP, target)
    check = tmp_path / "compile.el"
    check.write_text(
        "(setq byte-compile-error-on-warn t)\n"
        f'(unless (byte-compile-file "{target}") (kill-emacs 1))\n'
    )
    done = _run(tmp_path, check)
    assert done.returncode == 0, done.stderr
    assert target.with_suffix(".elc").is_file()


def test_eglot_shows_diagnostics_hover_and_applies_a_fix_and_leaves_workflows_alone(
    tmp_path: Path,
) -> None:
    ws = tmp_path / "project"
    (ws / ".github" / "workflows").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(ws)], check=True)  # one project, one server
    agent = ws / "agent.yaml"
    agent.write_text(AGENT)
    workflow = ws / ".github" / "workflows" / "ci.yml"
    shutil.copy(FOREIGN_YAML / ".github" / "workflows" / "ci.yml", workflow)
    out = tmp_path / "emacs.json"
    done = _run(
        tmp_path, SCRIPT, HL_SETUP=str(SETUP), HL_CMD=json.dumps(SERVER),
        HL_AGENT=str(agent), HL_WORKFLOW=str(workflow), HL_OUT=str(out),
    )  # fmt: skip
    assert out.exists(), done.stderr
    result = json.loads(out.read_text())
    assert "error" not in result, (result, done.stderr[-3000:])
    assert result["same-server"] is True
    assert result["server-name"] == "holodeck-lsp"
    provider = {
        "line": 3,
        "type": "eglot-error",
        "text": "holodeck-lsp [HL104]: unknown value 'opnai'; expected one of openai, "
        "azure_openai, anthropic, ollama; did you mean 'openai'? (model.provider)",
    }
    answer = {
        "line": 10,
        "type": "eglot-error",
        "text": "holodeck-lsp [HL103]: expected text, got the number 4 (unquoted in YAML); "
        'quote it: "4" (test case "sum": test_cases[0].ground_truth)',
    }
    assert sorted(result["agent"], key=lambda d: d["line"]) == [provider, answer]
    assert result["workflow"] == []  # flymake holds nothing for it
    assert result["workflow-published"] is False  # and the server never published for it
    # Plain text: eglot 1.9 asks for Markdown only where markdown-mode is installed.
    assert result["hover"].startswith("provider (text, required)\n\nModel provider:")
    assert result["actions"] == ["Change 'opnai' to 'openai'"]
    assert result["fixed-line"] == "  provider: openai"
    assert result["after-fix"] == [answer]
