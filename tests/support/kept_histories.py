"""Run histories at any size, for the history's benchmark and browser tests: one run that
`run` kept, made into N runs with the outcomes a real history has. Most turns pass nearly
always, some are flaky, a few break for good two thirds of the way; the prompt's version
changes twice, the model once, the commit every ten runs. Each run is written as `run`
writes a kept run (a `results/<slug>/` file named by its timestamp)."""

from __future__ import annotations

import hashlib
import json
import random
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

STEADY, FLAKY = 0.998, 0.7  # chance a steady, a flaky turn passes
START = datetime(2026, 1, 1, 9, 0, tzinfo=timezone.utc)


def _turn_odds(cases: list[dict[str, Any]], seed: int) -> list[list[tuple[float, float]]]:
    """Per case and turn: its chance to pass before and after the turn of the history."""
    rng = random.Random(seed)
    odds = []
    for case in cases:
        row = []
        for _ in case.get("turns") or [case]:
            draw = rng.random()
            if draw < 0.06:
                row.append((FLAKY, FLAKY))
            elif draw < 0.08:
                row.append((STEADY, 0.0))  # breaks for good
            else:
                row.append((STEADY, STEADY))
        odds.append(row)
    return odds


def _prompt(index: int, runs: int) -> dict[str, Any]:
    version = "v1" if index < runs * 0.3 else "v2" if index < runs * 0.7 else "v3"
    body = hashlib.sha256(f"Answer using the tools ({version}).".encode()).hexdigest()
    return {"version": version, "author": None, "description": None, "tags": [],
            "source": "inline", "file_path": None, "body_hash": body, "extra": {}}  # fmt: skip


def write_history(base: Path, folder: Path, runs: int, seed: int = 7) -> list[Path]:
    """``runs`` kept runs made from the kept run ``base``, written into ``folder``."""
    run = json.loads(base.read_text(encoding="utf-8"))
    report, metadata = run["report"], run["metadata"]
    cases = report["results"]
    odds = _turn_odds(cases, seed)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for index in range(runs):
        rng = random.Random(seed * 100_003 + index)
        after = index >= runs * 2 // 3
        passed_cases = 0
        for case, turn_odds in zip(cases, odds, strict=True):
            turns = case.get("turns") or []
            verdicts = [rng.random() < (late if after else early) for early, late in turn_odds]
            for turn, verdict in zip(turns, verdicts, strict=False):
                turn["passed"] = verdict
            case["passed"] = all(verdicts)
            passed_cases += case["passed"]
        moment = START + timedelta(hours=index, seconds=rng.randrange(60))
        report["timestamp"] = moment.isoformat(timespec="milliseconds")
        summary = report["summary"]
        summary.update(passed=passed_cases, failed=len(cases) - passed_cases,
                       pass_rate=100.0 * passed_cases / len(cases))  # fmt: skip
        metadata["prompt_version"] = _prompt(index, runs)
        metadata["git_commit"] = hashlib.sha1(f"commit {index // 10}".encode()).hexdigest()
        metadata["agent_config"]["model"]["name"] = "gpt-4o" if after else "gpt-4o-mini"
        path = folder / (report["timestamp"].replace(":", "-") + ".json")
        path.write_text(json.dumps(run, separators=(",", ":")), encoding="utf-8")
        written.append(path)
    return written
