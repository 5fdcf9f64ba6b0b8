"""Two runs of a suite to compare, as a pull request makes them: the suite and the agent's
answers of the main branch (BASE), then of the change (HEAD); each a real `run` with a
scripted Python agent whose answers are a JSON file beside it."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.runner.helpers import invoke, write

# Each answer is a text, or a list of texts given in turn, one per attempt of the case
# (`--repeat`): the case is told by its first message, its attempts by their order.
SCRIPTED = """
import json, pathlib

ANSWERS = json.loads((pathlib.Path(__file__).parent / "answers.json").read_text())
attempts = {}

def factory():
    class Agent:
        attempt = None

        def send(self, message):
            if self.attempt is None:
                attempts[message] = attempts.get(message, 0) + 1
                self.attempt = attempts[message]
            answer = ANSWERS.get(message, "?")
            if isinstance(answer, list):
                answer = answer[(self.attempt - 1) % len(answer)]
            usage = {"prompt_tokens": 10, "completion_tokens": 2, "total_tokens": 12}
            return {"text": answer, "usage": usage}
    return Agent()
"""

HEADER = """
name: compare-demo
model: {provider: openai, name: unused}
instructions: {inline: unused}
evaluations:
  metrics:
    - {type: standard, metric: equality}
test_cases:
"""


def run_of(
    folder: Path,
    cases: str,
    answers: dict[str, str | list[str]],
    *args: str,
    report: str = "report.json",
) -> Path:
    """`run ARGS` of the suite (`cases`, YAML under `test_cases:`) in ``folder`` with the
    scripted agent; returns its JSON report (``report`` in the folder)."""
    agent = write(
        folder,
        {
            "agent.yaml": HEADER + cases,
            "scripted.py": SCRIPTED,
            "answers.json": json.dumps(answers),
        },
    )
    written = folder / report
    written.parent.mkdir(parents=True, exist_ok=True)
    code, _, err = invoke(
        "run", agent, "--agent", "scripted:factory", "--no-user-config", "-q", "-o", written, *args
    )
    assert code in (0, 1), err
    return written


_TIMESTAMP = re.compile(r"\d{4}-\d\d-\d\dT[\d:.]+(\+00:00)?")
_SECONDS = re.compile(r"[+-]?\d+\.\d\d s\b")


def without_times(text: str) -> str:
    """Output with its timestamps and durations (which change from run to run) as TIME and
    N s."""
    return _SECONDS.sub("N s", _TIMESTAMP.sub("TIME", text))


def compare(*args: str | Path) -> tuple[int, str, str]:
    """`holodeck-lsp compare ARGS...`: (exit code, stdout, stderr)."""
    return invoke("compare", *args)
