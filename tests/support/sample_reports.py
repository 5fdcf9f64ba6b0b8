"""A report worth looking at, for the HTML report's browser tests and its screenshot in
the docs: the bundled ConvFinQA example replayed with `--repeat 3`, offline, where

- `operating cash flow change` fails turn 1 in every attempt (its ground truth is edited
  to 190000; the reply says 181,001), and
- `capex share of revenue` is flaky: in its second attempt, turn 1 looks up the revenue
  of 2020 instead of 2021 (the recording holds that reply between two right ones), so its
  argument assertion fails once in three attempts.
"""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

from holodeck_lsp.runner.command import (
    CollectOptions,
    ExecuteOptions,
    ReportOptions,
    RunOptions,
    run_command,
)

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "convfinqa"
FLAKY_CASE = "capex share of revenue"


def _flaky_recording(source: Path, target: Path) -> None:
    lines = []
    for line in source.read_text(encoding="utf-8").splitlines():
        lines.append(line)
        entry = json.loads(line)
        if (entry["test_case"], entry["turn_index"], entry.get("judge")) == (FLAKY_CASE, 1, None):
            wrong = json.loads(line)
            wrong["reply"]["tool_invocations"][0]["args"]["year"] = "2020"
            lines += [json.dumps(wrong), line]  # attempts 1 and 3 right, attempt 2 wrong
    target.write_text("\n".join(lines) + "\n", encoding="utf-8")


def repeated_example_report(folder: Path, *outputs: str) -> list[Path]:
    """Runs the example as described above in ``folder``; the reports named ``outputs``
    (`report.html`, `report.json`, ...) are written there and returned."""
    copy = folder / "convfinqa"
    shutil.copytree(EXAMPLE, copy)
    agent = copy / "agent.yaml"
    text = agent.read_text(encoding="utf-8")
    agent.write_text(text.replace('ground_truth: "181001"', 'ground_truth: "190000"', 1))
    recording = copy / "flaky-replay.jsonl"
    _flaky_recording(copy / "replay.jsonl", recording)
    paths = [folder / name for name in outputs]
    options = RunOptions(
        agent,
        collect=CollectOptions(repeat=3, user_config=False),
        execute=ExecuteOptions(replay=recording),
        report=ReportOptions(outputs=paths, quiet=True),
    )
    out, err = io.StringIO(), io.StringIO()
    code = run_command(options, out, err)
    if code != 1:  # one case always fails, nothing stops the run
        raise RuntimeError(f"the sample run ended with exit {code}: {err.getvalue()}")
    return paths
