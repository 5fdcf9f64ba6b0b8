"""`.env` as `holodeck test` loads it (`holodeck/cli/main.py:_load_dotenv_files`): the working
directory's, then `~/.holodeck/.env`, never over a variable already set; its values reach
`${VAR}`, the model's key and the suite's own code, and those named like credentials are
masked. The differential test (both runners from one folder) is
tests/differential/runner/test_dotenv_differential.py."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from holodeck_lsp.runner.collect.dotenv_files import dotenv_paths, load_dotenv_files
from tests.runner.fake_model import FakeModelServer, Reply
from tests.runner.helpers import invoke, run_suite, write

SUITE = """
name: fx
model: {{provider: openai, name: "${{FX_MODEL}}", endpoint: "{url}"}}
instructions: {{inline: Be brief.}}
test_cases:
  - name: leak
    input: say the token
    ground_truth: tok-0123456789abcdef
    evaluations: [{{type: code, grader: "graders:sees_env"}}]
"""
# The suite's own code reads the process's environment, as under `holodeck test`.
GRADERS = 'import os\n\ndef sees_env(ctx):\n    return os.environ.get("FX_WORD") == "from-dotenv"\n'
TOKEN = "tok-0123456789abcdef"


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project folder, the working directory, with nothing of the caller's environment
    that `.env` sets."""
    for name in ("FX_MODEL", "FX_WORD", "FX_API_TOKEN", "OPENAI_API_KEY", "OPENAI_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.delenv("PYTHON_DOTENV_DISABLED", raising=False)
    project = tmp_path / "project"
    project.mkdir()
    monkeypatch.chdir(project)
    return project


def test_a_suite_runs_on_its_dotenv_as_under_holodeck_test(folder: Path) -> None:
    (folder / ".env").write_text(
        "# the project's settings\n"
        "FX_MODEL=gpt-from-dotenv\n"
        "export OPENAI_API_KEY='sk-dotenv-0123456789'\n"
        'FX_WORD="from-dotenv"\n'
        f"FX_API_TOKEN={TOKEN}\n",
        encoding="utf-8",
    )
    with FakeModelServer(lambda _path, _body: Reply(f"the token is {TOKEN}")) as server:
        agent = write(folder, {"agent.yaml": SUITE.format(url=server.url), "graders.py": GRADERS})
        code, report, err = run_suite(agent)
        (_, headers, body) = server.requests[0]
    assert (code, err) == (0, "")  # the grader saw FX_WORD
    assert body["model"] == "gpt-from-dotenv"
    assert headers["Authorization"] == "Bearer sk-dotenv-0123456789"
    result = report["results"][0]
    assert result["metric_results"][0]["passed"] is True
    # FX_API_TOKEN is named like a credential: the reply that leaked it is masked.
    assert result["agent_response"] == "the token is [REDACTED]"
    assert TOKEN not in (folder / "report.json").read_text()
    # The run's additions to the environment are gone once it is over.
    assert "FX_WORD" not in os.environ


def test_the_environment_beats_dotenv_and_dotenv_beats_the_users(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = Path(os.environ["HOME"])
    (home / ".holodeck").mkdir()
    (home / ".holodeck" / ".env").write_text(
        "FX_A=user\nFX_B=user\nFX_C=user\nFX_D=${FX_B}-and-${FX_C}\n", encoding="utf-8"
    )
    (folder / ".env").write_text("FX_A=project\nFX_B=project\nFX_E=${FX_A}\n", encoding="utf-8")
    env = {"FX_A": "shell"}
    load = load_dotenv_files(dotenv_paths(folder, home), env)
    assert load.values == {
        "FX_B": "project",
        "FX_E": "shell",  # `${VAR}` in .env: the environment first, as load_dotenv(override=False)
        "FX_C": "user",
        "FX_D": "project-and-user",  # the user's file sees what the project's set
    }
    assert load.read == [".env", "~/.holodeck/.env"]
    # --no-user-config leaves the user's file out too; python-dotenv's switch turns both off.
    assert load_dotenv_files(dotenv_paths(folder, home, user=False), env).values == {
        "FX_B": "project",
        "FX_E": "shell",
    }
    assert load_dotenv_files(dotenv_paths(folder, home), {"PYTHON_DOTENV_DISABLED": "1"}) == (
        load_dotenv_files([], {})
    )


def test_no_dotenv_leaves_the_variable_unset(folder: Path) -> None:
    (folder / ".env").write_text("FX_MODEL=gpt-from-dotenv\n", encoding="utf-8")
    agent = write(folder, {"agent.yaml": SUITE.format(url="http://127.0.0.1:9/v1")})
    code, _out, err = invoke("run", agent, "--no-dotenv", "-q")
    assert code == 2
    assert "error HL605 environment variable FX_MODEL is not set" in err


def test_a_dotenv_that_is_not_a_file_or_not_dotenv_is_skipped_with_a_warning(
    folder: Path,
) -> None:
    os.mkfifo(folder / ".env")  # HoloDeck would open it and wait forever
    home = Path(os.environ["HOME"])
    (home / ".holodeck").mkdir()
    (home / ".holodeck" / ".env").write_text("FX_MODEL=m\nnot a line\nFX_WORD='x\n", "utf-8")
    files = {"agent.yaml": SUITE.format(url="http://127.0.0.1:9/v1"), "graders.py": GRADERS}
    agent = write(folder, files)
    code, _out, err = invoke("run", agent, "-v", "-n", "0")  # loaded, then nothing runs
    assert err.splitlines()[:4] == [
        "warning: .env not read: it is a FIFO (named pipe), not a regular file",
        "warning: ~/.holodeck/.env:2: not KEY=VALUE: the line is skipped, as `holodeck test` "
        "skips it",
        "warning: ~/.holodeck/.env:3: not KEY=VALUE: the line is skipped, as `holodeck test` "
        "skips it",
        "loaded from ~/.holodeck/.env: FX_MODEL",
    ]
    assert code == 0
