"""A 5-case x 3-turn suite against the loopback model service, and the CLI in a process
of its own (for signals, exit codes and what reaches stderr)."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

from tests.runner.fake_model import Action, Reply, last_user_text
from tests.runner.helpers import write
from tests.support.suites import numbered_cases

CASES = [f"case {i}" for i in range(5)]
KEY = "sk-live-0123456789abcdef"  # the key every artefact is searched for


def question(case: int, turn: int) -> str:
    return f"Q{case}.{turn}"


def suite(
    folder: Path,
    endpoint: str,
    *,
    provider: str = "openai",
    metrics: str = "",
    extra: str = "",
    key: str | None = KEY,
) -> Path:
    """Five cases of three turns each; every turn expects the answer 'A<case>.<turn>' and is
    scored by equality and ``metrics`` (more items of its `evaluations:`, flush left)."""
    model = f"  provider: {provider}\n  name: m\n  endpoint: {endpoint}\n"
    if key is not None:
        model += f"  api_key: {key}\n"
    evaluations = "evaluations:\n  - metric: equality\n" + textwrap.indent(metrics, "  ")
    text = (
        f"name: faults\nmodel:\n{model}instructions:\n  inline: Answer.\n"
        + textwrap.dedent(extra)
        + "test_cases:\n"
        + numbered_cases(len(CASES), 3, lambda c, t: (
            f'input: {question(c, t)}\nground_truth: "A{c}.{t}"\n{evaluations}'))
    )
    return write(folder, {"agent.yaml": text})


def answer(path: str, body: dict[str, Any]) -> Action:
    """The right answer to every question."""
    return Reply("A" + last_user_text(body)[1:])


def cli(*args: str | Path) -> subprocess.Popen[str]:
    """`holodeck-lsp ARGS...` in a process of its own."""
    code = "from holodeck_lsp.cli import main; main()"
    return subprocess.Popen(
        [sys.executable, "-c", code, *map(str, args)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def report(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text())  # type: ignore[no-any-return]


def verdicts(data: dict[str, Any]) -> dict[str, bool]:
    return {r["test_name"]: r["passed"] for r in data["results"]}
