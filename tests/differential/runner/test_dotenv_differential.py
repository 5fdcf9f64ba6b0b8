"""A suite that lives on `.env`, run by `holodeck test` and by `holodeck-lsp run` from the
same folder, each a process of its own with the same environment: both take `${VAR}`, the
model's key and its service's URL from `./.env`, fill what it lacks from
`~/.holodeck/.env`, never replace a variable the shell set, and give the same report."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.differential.runner.compare import compare_reports
from tests.differential.runner.harness import HOLODECK_DEADLINE_S, Suite, holodeck_env
from tests.differential.runner.suites import GRADERS, TOOLS, agent
from tests.runner.fake_model import FakeModelServer, Reply

pytestmark = pytest.mark.slow

KEY = "sk-from-dotenv-0123456789"


def _suite() -> Suite:
    cases = [
        {
            "name": "from the environment",
            # The shell's FX_TOPIC beats the project's .env: the message scripted below.
            "input": "What was ${FX_TOPIC} in 2019?",
            "ground_truth": "206588",
            "evaluations": [{"type": "standard", "metric": "numeric"}],
        },
        {
            "name": "two turns",
            "turns": [
                {"input": "And ${FX_YEAR}?", "ground_truth": "181001"},
                {"input": "Done.", "ground_truth": "ok"},
            ],
            "evaluations": [{"type": "standard", "metric": "equality"}],
        },
    ]
    body = agent("dotenv", cases, [])
    body["model"]["name"] = "${FX_MODEL}"
    body["instructions"] = {"inline": "${FX_INSTRUCTIONS}"}
    script = {
        "What was operating cash in 2019?": [Reply("206588")],
        "And 2020?": [Reply("181,001")],  # equality fails: a verdict both must give
        "Done.": [Reply("ok")],
    }
    return Suite("dotenv", body, script, TOOLS, GRADERS)


def test_both_runners_load_dotenv_alike(holodeck_cli: Path, tmp_path: Path) -> None:
    suite = _suite()
    folder = tmp_path / "project"
    home = tmp_path / "home"
    (home / ".holodeck").mkdir(parents=True)
    with FakeModelServer(suite.service_script()) as server:
        suite.write(folder)
        (folder / ".env").write_text(
            f"OPENAI_BASE_URL={server.url}\n"
            f"export OPENAI_API_KEY='{KEY}'\n"
            "FX_MODEL=gpt-from-dotenv\n"
            "FX_TOPIC=shadowed by the shell\n",
            encoding="utf-8",
        )
        (home / ".holodeck" / ".env").write_text(
            "FX_MODEL=shadowed by the project\n"
            'FX_INSTRUCTIONS="Answer with the figure asked for."\n'
            "FX_YEAR=2020\n",
            encoding="utf-8",
        )
        env = holodeck_env(server.url, home)
        for name in ("OPENAI_BASE_URL", "OPENAI_API_KEY"):
            del env[name]  # from .env only
        env["FX_TOPIC"] = "operating cash"
        theirs = subprocess.run(
            [str(holodeck_cli), "test", "run", "agent.yaml", "--output", "theirs.json", "-q"],
            cwd=folder, env=env, capture_output=True, text=True, timeout=HOLODECK_DEADLINE_S,
        )  # fmt: skip
        their_requests = list(server.requests)
        ours_program = Path(sys.executable).with_name("holodeck-lsp")
        ours = subprocess.run(
            [str(ours_program), "run", "agent.yaml", "--output", "ours.json", "-q"],
            cwd=folder, env={**env, "PATH": os.environ["PATH"]}, capture_output=True, text=True,
            timeout=120,
        )  # fmt: skip
        our_requests = server.requests[len(their_requests) :]
    assert (ours.returncode, theirs.returncode) == (1, 1), (ours.stderr, theirs.stdout[-2000:])
    their_report = json.loads((folder / "theirs.json").read_text(encoding="utf-8"))
    our_report = json.loads((folder / "ours.json").read_text(encoding="utf-8"))
    assert compare_reports(our_report, their_report) == []
    assert [r["passed"] for r in our_report["results"]] == [True, False]
    for requests in (their_requests, our_requests):
        assert requests, "no request reached the service named in .env"
        assert {body["model"] for _, _, body in requests} == {"gpt-from-dotenv"}
        assert {headers["Authorization"] for _, headers, _ in requests} == {f"Bearer {KEY}"}
    # The key came from .env and is named like one: it is in no file we wrote.
    assert KEY not in (folder / "ours.json").read_text(encoding="utf-8")
