"""Two runs of a suite to compare, as a pull request makes them: the suite and the agent's
answers of the main branch (BASE), then of the change (HEAD); each a real `run` with a
scripted Python agent whose answers are a JSON file beside it."""

from __future__ import annotations

import json
import re
from pathlib import Path

from holodeck_lsp.models.test_result import MetricResult, TestResult, TurnResult
from holodeck_lsp.runner.report.formats import render_json
from holodeck_lsp.runner.report.report_reading import CASE_INDEXES
from holodeck_lsp.runner.report.test_report import build_report
from holodeck_lsp.runner.score.rollup import summarize
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
_MILLISECONDS = re.compile(r"\b\d+ ms\b")


def without_times(text: str) -> str:
    """Output with its timestamps and durations (which change from run to run) as TIME,
    N s and N ms."""
    return _MILLISECONDS.sub("N ms", _SECONDS.sub("N s", _TIMESTAMP.sub("TIME", text)))


def compare(*args: str | Path) -> tuple[int, str, str]:
    """`holodeck-lsp compare ARGS...`: (exit code, stdout, stderr)."""
    return invoke("compare", *args)


def many_cases(path: Path, names: list[str], turns: int, failing: set[tuple[int, int]]) -> Path:
    """A report of `run` (the JSON it writes) of ``names`` cases of ``turns`` turns each,
    the turns in ``failing`` (case, turn) failed: a large report without running it."""
    results = []
    for case, name in enumerate(names):
        passed = [(case, turn) not in failing for turn in range(turns)]
        results.append(
            TestResult(
                test_name=name,
                test_input="?",
                passed=all(passed),
                execution_time_ms=turns,
                timestamp="2026-01-01T00:00:00+00:00",
                turns=[
                    TurnResult(
                        turn_index=turn,
                        input="?",
                        response="!" if ok else "?",
                        metric_results=[
                            MetricResult(metric_name="equality", score=float(ok), passed=ok)
                        ],
                        passed=ok,
                        execution_time_ms=1,
                    )
                    for turn, ok in enumerate(passed)
                ],
            )
        )
    report = build_report("many", "agent.yaml", [], len(names), {})
    report.results = results
    report.summary = summarize(results, len(names))
    report.environment[CASE_INDEXES] = ",".join(map(str, range(len(names))))
    path.write_text(render_json(report), encoding="utf-8")
    return path
