"""Reading one kept run (an EvalRun file of ours or of `holodeck test`), as `model_files.py`
reads any file anyone can edit or swap; then the run's record: its metadata and per-turn
outcomes."""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from pathlib import Path
from typing import Any

from holodeck_lsp.history.case_keys import case_keys
from holodeck_lsp.history.model_files import parse_model, read_file_bytes
from holodeck_lsp.history.pass_rule import parse_pass_rule, rule_passes
from holodeck_lsp.history.report_environment import STOP_REASON, made_by, suite_positions
from holodeck_lsp.history.run_records import FAILED, PASSED, SKIPPED, CaseRecord, HistoryRun
from holodeck_lsp.models.eval_run import EvalRun
from holodeck_lsp.models.test_result import TestResult

# A run file is a report (a 1,000-case x 4-turn one is about 9 MB, 100 MB with every
# attempt of `--repeat 10`) and the agent's configuration: room for that, and no more.
MAX_RUN_BYTES = 200_000_000


class EvalRunError(Exception):
    """A run file cannot be used; the message says why, naming the file."""


def read_run_bytes(path: Path) -> bytes:
    """The bytes of a run file; raises EvalRunError."""
    return read_file_bytes(path, MAX_RUN_BYTES, EvalRunError)


def parse_eval_run(data: bytes, path: Path) -> EvalRun:
    """The run ``data`` (read from ``path``) holds; raises EvalRunError."""
    return parse_model(EvalRun, data, path, "a kept run (EvalRun)", EvalRunError)


def read_eval_run(path: Path) -> EvalRun:
    """The run a file holds; raises EvalRunError."""
    return parse_eval_run(read_run_bytes(path), path)


def content_key(data: bytes) -> str:
    """A run's identity: the SHA-256 of its file's bytes."""
    return hashlib.sha256(data).hexdigest()


def read_run_record(path: Path) -> HistoryRun:
    """The record of the run a file holds; raises EvalRunError."""
    data = read_run_bytes(path)
    run = parse_eval_run(data, path)
    try:
        return run_record(run, path, content_key(data))
    except RecursionError:
        raise EvalRunError(f"{path} is nested too deeply to be read") from None


def _letters(result: TestResult) -> str:
    if result.turns is None:  # a single-turn case: the case is its one turn
        return PASSED if result.passed else FAILED
    ordered = sorted(result.turns, key=lambda turn: turn.turn_index)
    return "".join(
        SKIPPED if turn.skipped else PASSED if turn.passed else FAILED for turn in ordered
    )


def _attempts(run: EvalRun, path: Path) -> list[tuple[int, list[TestResult]]]:
    """Each case's place in the suite and its attempts, in suite order: every result of a
    case is one attempt (a `--repeat` run keeps them all in `results`)."""
    report = run.report
    try:
        positions = suite_positions(report)
    except ValueError as exc:
        raise EvalRunError(f"{path}: report.environment.{exc}") from None
    if report.repeats:  # a report of ours with its own field: the attempts are there
        if len(report.repeats) != len(report.results):
            raise EvalRunError(f"{path}: report.repeats do not match the results")
        return [
            (index, repeated.results or [result])
            for index, result, repeated in zip(
                positions, report.results, report.repeats, strict=True
            )
        ]
    grouped: dict[int, list[TestResult]] = defaultdict(list)
    for index, result in zip(positions, report.results, strict=True):
        grouped[index].append(result)
    return sorted(grouped.items())


def run_record(run: EvalRun, path: Path, run_id: str) -> HistoryRun:
    """The record of ``run`` (the file ``path``, whose bytes hash to ``run_id``); raises
    EvalRunError for a record of the suite that is not one."""
    report = run.report
    pass_rule = report.environment.get("pass_rule", "all")
    try:
        share = parse_pass_rule(pass_rule)
    except ValueError as exc:
        raise EvalRunError(f"{path}: report.environment.pass_rule: {exc}") from None
    cases = _attempts(run, path)
    keys = case_keys([attempts[0].test_name for _, attempts in cases], [i for i, _ in cases])
    records = []
    for key, (index, attempts) in zip(keys, cases, strict=True):
        verdicts = "".join(PASSED if a.passed else FAILED for a in attempts)
        passed = (
            attempts[0].passed
            if len(attempts) == 1
            else rule_passes(verdicts.count(PASSED), len(attempts), share)
        )
        letters = tuple(_letters(a) for a in attempts)
        records.append(CaseRecord(key, attempts[0].test_name, index, letters, verdicts, passed))
    usages = [r.token_usage.total_tokens for r in _every_attempt(run) if r.token_usage]
    prompt = run.metadata.prompt_version
    return HistoryRun(
        path=path,
        run_id=run_id,
        timestamp=report.timestamp,
        agent_name=report.agent_name,
        made_by=made_by(report),
        prompt_version=prompt.version,
        prompt_hash=prompt.body_hash,
        model=run.model_name,
        git_commit=run.metadata.git_commit,
        pass_rule=pass_rule,
        pass_share=share,
        duration_ms=report.summary.total_duration_ms,
        tokens=sum(usages) if usages else None,
        interrupted=report.interrupted or STOP_REASON in report.environment,
        cases=tuple(records),
        config=config_lines(run.metadata.agent_config),
    )


def config_lines(config: dict[str, Any]) -> dict[str, str]:
    """A configuration as one line per field path (`tools[0].name` -> `"lookup"`), its test
    cases as their count and a digest: what two runs' configurations differ in, line by line."""
    lines: dict[str, str] = {}

    def walk(value: Any, path: str) -> None:
        if isinstance(value, dict) and value:
            for key, item in value.items():
                walk(item, f"{path}.{key}" if path else str(key))
        elif isinstance(value, list) and value:
            for index, item in enumerate(value):
                walk(item, f"{path}[{index}]")
        else:
            lines[path] = json.dumps(value, ensure_ascii=False)

    cases = config.get("test_cases")
    walk({k: v for k, v in config.items() if k != "test_cases"}, "")
    if isinstance(cases, list):
        digest = hashlib.sha256(json.dumps(cases, sort_keys=True).encode()).hexdigest()
        lines["test_cases"] = f"{len(cases)} test case(s), digest {digest[:12]}"
    return lines


def _every_attempt(run: EvalRun) -> list[TestResult]:
    report = run.report
    if report.repeats:
        return [a for repeated in report.repeats for a in repeated.results]
    return report.results
