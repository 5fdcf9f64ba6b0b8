"""Shared helpers of the runner tests: write a suite, run the CLI, read the report."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import Any

from holodeck_lsp.cli import app
from tests.support.cli_runner import CliRunner

# A `--agent` module whose agent replies with the message it gets, and reports token usage.
ECHO = """
def factory():
    class Echo:
        def send(self, message):
            return {"text": message, "usage": {"prompt_tokens": 3, "completion_tokens": 2,
                                               "total_tokens": 5}}
    return Echo()
"""

_TIMING_KEYS = frozenset(
    {
        "timestamp",
        "execution_time_ms",
        "total_duration_ms",
        "evaluation_time_ms",
        "duration_ms",
        "processing_time_ms",
        "environment",
    }
)


def write(folder: Path, files: dict[str, str]) -> Path:
    """Write dedented files; returns the folder's agent.yaml."""
    for name, text in files.items():
        target = folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return folder / "agent.yaml"


def invoke(*args: str | Path) -> tuple[int, str, str]:
    """`holodeck-lsp ARGS...` in-process: (exit code, stdout, stderr)."""
    result = CliRunner().invoke(app, [str(a) for a in args])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def run_suite(agent: Path, *args: str | Path) -> tuple[int, dict[str, Any], str]:
    """`run AGENT --quiet -o report.json ARGS...`: (exit code, report, stderr)."""
    report = agent.parent / "report.json"
    code, _out, err = invoke("run", agent, "--quiet", "-o", report, *args)
    data = json.loads(report.read_text()) if report.exists() else {}
    return code, data, err


def strip_timings(value: Any) -> Any:
    """The report without what changes from run to run (times, environment)."""
    if isinstance(value, dict):
        return {k: strip_timings(v) for k, v in value.items() if k not in _TIMING_KEYS}
    if isinstance(value, list):
        return [strip_timings(v) for v in value]
    return value


def turns(report: dict[str, Any], case: int = 0) -> list[dict[str, Any]]:
    return report["results"][case]["turns"]  # type: ignore[no-any-return]
