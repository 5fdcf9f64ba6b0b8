"""Runs one suite through HoloDeck 0.7.1's `holodeck test run` and through our `run`, against
the same scripted model service, and returns both JSON reports.

HoloDeck runs in its own venv (a subprocess); ours runs in this process (so a test can
inject a fault into it), while HoloDeck's subprocess works, since both only wait on the
loopback service.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import tempfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from holodeck_lsp.runner.command import CollectOptions, ReportOptions, RunOptions, run_command
from tests.runner.fake_model import Action, FakeModelServer, Reply, Script, Turns, last_user_text

# The environment HoloDeck needs to run offline: tracing and telemetry off, Hugging Face
# libraries told not to reach the hub.
_OFFLINE = {
    "OPENAI_AGENTS_DISABLE_TRACING": "1",
    "HF_HUB_OFFLINE": "1",
    "HF_DATASETS_OFFLINE": "1",
    "HF_EVALUATE_OFFLINE": "1",
    "TRANSFORMERS_OFFLINE": "1",
    "DEEPEVAL_TELEMETRY_OPT_OUT": "YES",
    "DO_NOT_TRACK": "1",
}
_KEEP = ("PATH", "LANG", "LC_ALL", "SYSTEMROOT", "TMPDIR")
HOLODECK_DEADLINE_S = 600


@dataclass
class Suite:
    """One agent file and everything its run needs."""

    name: str
    agent: dict[str, Any]  # the agent file, as data
    script: dict[str, list[Action]]  # the model's answers, by user message
    tools: str = ""  # tools.py
    graders: str = ""  # graders.py
    # Why a test case may differ, by case name: deviation ids of `excused.py`.
    excuses: dict[str, set[str]] = field(default_factory=dict)
    # The judge model's answers: a prompt in, the reply's text out (None: not a judge's).
    judge: Callable[[str], str | None] | None = None

    def service_script(self) -> Script:
        """The model service's script: the agent's turns, then the judge's prompts."""
        turns = Turns(self.script)
        judge = self.judge

        def answer(path: str, body: dict[str, Any]) -> Action:
            text = last_user_text(body)
            if text in turns.rules:
                return turns(path, body)
            reply = judge(text) if judge is not None else None
            return Reply(reply if reply is not None else "unscripted")

        return answer

    def write(self, folder: Path) -> Path:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "tools.py").write_text(self.tools, encoding="utf-8")
        (folder / "graders.py").write_text(self.graders, encoding="utf-8")
        agent = folder / "agent.yaml"
        agent.write_text(yaml.safe_dump(self.agent, sort_keys=False), encoding="utf-8")
        return agent

    @property
    def case_names(self) -> list[str]:
        return [str(c.get("name")) for c in self.agent.get("test_cases", [])]


@dataclass
class RunPair:
    """Both reports of one suite (None when a runner wrote none) and how each exited."""

    ours: dict[str, Any] | None
    theirs: dict[str, Any] | None
    our_exit: int
    their_exit: int
    our_stderr: str
    their_output: str


def holodeck_env(url: str, home: Path) -> dict[str, str]:
    env = {k: os.environ[k] for k in _KEEP if k in os.environ}
    env.update(_OFFLINE)
    env.update(
        {
            "HOME": str(home),
            "OPENAI_BASE_URL": url,
            "OPENAI_API_KEY": "sk-differential",
            "NO_PROXY": "127.0.0.1,localhost",
        }
    )
    return env


def _start_holodeck(cli: Path, agent: Path, report: Path, url: str) -> subprocess.Popen[str]:
    home = agent.parent / ".home"
    home.mkdir(exist_ok=True)
    return subprocess.Popen(
        [str(cli), "test", "run", str(agent), "--output", str(report), "--quiet"],
        cwd=agent.parent,
        env=holodeck_env(url, home),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def _run_ours(agent: Path, report: Path, url: str) -> tuple[int, str]:
    env = {"OPENAI_BASE_URL": url, "OPENAI_API_KEY": "sk-differential", "PATH": ""}
    options = RunOptions(
        agent,
        collect=CollectOptions(user_config=False),
        report=ReportOptions(outputs=[report], quiet=True),
    )
    out, err = io.StringIO(), io.StringIO()
    code = run_command(options, out, err, env)
    return code, err.getvalue()


def _read(path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def run_ours_only(suite: Suite) -> dict[str, Any] | None:
    """Our report alone (HoloDeck's is the same for the same suite: it can be reused)."""
    with tempfile.TemporaryDirectory(prefix=f"ours-{suite.name}-") as tmp:
        root = Path(tmp)
        agent = suite.write(root / "ours")
        with FakeModelServer(suite.service_script()) as server:
            _run_ours(agent, root / "ours.json", server.url)
        return _read(root / "ours.json")


@contextlib.contextmanager
def _pair_started(
    suite: Suite, holodeck: Path, workdir: Path | None = None
) -> Iterator[Callable[[], RunPair]]:
    """HoloDeck's run of ``suite`` started against the suite's scripted service; the function
    yielded runs ours against the same service and collects both reports."""
    with tempfile.TemporaryDirectory(prefix=f"diff-{suite.name}-", dir=workdir) as tmp:
        root = Path(tmp)
        theirs_agent = suite.write(root / "holodeck")
        ours_agent = suite.write(root / "ours")
        with FakeModelServer(suite.service_script()) as server:
            theirs = _start_holodeck(holodeck, theirs_agent, root / "theirs.json", server.url)

            def finish() -> RunPair:
                our_exit, our_err = _run_ours(ours_agent, root / "ours.json", server.url)
                their_output, _ = theirs.communicate(timeout=HOLODECK_DEADLINE_S)
                return RunPair(
                    _read(root / "ours.json"),
                    _read(root / "theirs.json"),
                    our_exit,
                    theirs.returncode,
                    our_err,
                    their_output,
                )

            try:
                yield finish
            finally:
                if theirs.poll() is None:
                    theirs.kill()
                    theirs.wait()


def run_pair(suite: Suite, holodeck: Path, workdir: Path | None = None) -> RunPair:
    """Both runners on ``suite`` against one scripted service."""
    with _pair_started(suite, holodeck, workdir) as finish:
        return finish()


def run_pairs(suites: Sequence[Suite], holodeck: Path, at_once: int = 2) -> list[RunPair]:
    """`run_pair` of each suite, HoloDeck's runs ``at_once`` at a time: each is one busy
    process, ours takes a fraction of its time, and the machine has cores to spare."""
    pairs: list[RunPair] = []
    for first in range(0, len(suites), at_once):
        with contextlib.ExitStack() as started:
            finishes = [
                started.enter_context(_pair_started(suite, holodeck))
                for suite in suites[first : first + at_once]
            ]
            pairs.extend(finish() for finish in finishes)
    return pairs
