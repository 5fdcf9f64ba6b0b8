"""`holodeck-lsp run` and `holodeck-lsp merge` as functions: options in, exit code out."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from holodeck_lsp.models.llm import ProviderEnum
from holodeck_lsp.models.test_result import TestReport
from holodeck_lsp.runner.backends.base import Backend
from holodeck_lsp.runner.backends.choose import BackendConfigError, build_backend, identity
from holodeck_lsp.runner.backends.http import RetryPolicy
from holodeck_lsp.runner.engine import CaseOutcome, EngineSettings, run_suite
from holodeck_lsp.runner.evaluators.judge import JudgePanel, ledger_line
from holodeck_lsp.runner.evaluators.preflight import (
    MetricSetupError,
    build_panel,
    check_libraries,
    enabled,
)
from holodeck_lsp.runner.exchange import (
    Recorder,
    RecordingBackend,
    ReplayBackend,
    ReplayFileError,
    ReplayMiss,
    TimedBackend,
)
from holodeck_lsp.runner.loading import ConfigError, LoadedSuite, load_suite
from holodeck_lsp.runner.plan import PlannedCase, plan_suite
from holodeck_lsp.runner.progress import make_progress
from holodeck_lsp.runner.report import MergeError, build_report, merge_reports
from holodeck_lsp.runner.reports import renderer_for, write_reports
from holodeck_lsp.runner.selection import parse_shard, select

EXIT_PASSED, EXIT_FAILED, EXIT_CONFIG, EXIT_EXECUTION = 0, 1, 2, 3
DEFAULT_LLM_TIMEOUT = 60.0
PARALLEL_ENV = "HOLODECK_PARALLEL_TEST_CASES"


@dataclass
class RunOptions:
    agent_file: Path
    python_agent: str | None = None
    parallel: int | None = None
    llm_timeout: float | None = None
    record: Path | None = None
    replay: Path | None = None
    outputs: list[Path] = field(default_factory=list)
    keywords: list[str] = field(default_factory=list)
    limit: int | None = None
    shard: str | None = None
    quiet: bool = False
    user_config: bool = True
    retry: RetryPolicy | None = None  # tests make backoff short


class UsageError(Exception):
    """A bad combination of options or a bad value: exit 2."""


def resolve_parallelism(cli: int | None, yaml: int | None, env: Mapping[str, str]) -> int:
    """Command line > agent file > HOLODECK_PARALLEL_TEST_CASES > 1."""
    if cli is not None:
        if cli < 1:
            raise UsageError("--parallel must be >= 1")
        return cli
    if yaml is not None:
        return yaml
    raw = env.get(PARALLEL_ENV)
    if raw is not None and raw.strip():
        try:
            value = int(raw)
        except ValueError:
            value = 0
        if value < 1:
            raise UsageError(f"{PARALLEL_ENV} must be an integer >= 1, got {raw!r}")
        return value
    return 1


def _print_config_error(error: ConfigError, err: TextIO) -> None:
    for line in error.lines:
        err.write(line + "\n")
    if error.diagnostics:
        from holodeck_lsp.check.formats import TextReporter
        from holodeck_lsp.check.runner import CheckResult, FileResult

        files = [FileResult(f, ds, text) for f, (ds, text) in error.diagnostics.items()]
        TextReporter(colour=False).report(CheckResult(files=files), err)


def _check_options(options: RunOptions) -> tuple[int, int] | None:
    if options.record is not None and options.replay is not None:
        raise UsageError("--record and --replay cannot be used together")
    for path in options.outputs:
        try:
            renderer_for(path)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
    if options.limit is not None and options.limit < 0:
        raise UsageError("--limit must be >= 0")
    if options.llm_timeout is not None and options.llm_timeout <= 0:
        raise UsageError("--llm-timeout must be > 0")
    try:
        return parse_shard(options.shard) if options.shard else None
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def _backend(
    suite: LoadedSuite,
    options: RunOptions,
    parallelism: int,
    err: TextIO,
    env: Mapping[str, str],
) -> tuple[Backend, Recorder | None]:
    agent = suite.agent
    who = identity(agent, suite.folder, options.python_agent)
    if options.replay is not None:
        return ReplayBackend(options.replay, who), None
    plan = build_backend(agent, suite.folder, options.python_agent, parallelism, env, options.retry)
    for warning in plan.warnings:
        err.write(f"warning: {warning}\n")
    execution = getattr(agent, "execution", None)
    timeout = options.llm_timeout or getattr(execution, "llm_timeout", None)
    backend: Backend = TimedBackend(plan.backend, float(timeout or DEFAULT_LLM_TIMEOUT))
    if options.record is None:
        return backend, None
    recorder = Recorder(who)
    return RecordingBackend(backend, recorder), recorder


async def _execute(
    backend: Backend, cases: list[PlannedCase], settings: EngineSettings, quiet: bool, err: TextIO
) -> list[CaseOutcome]:
    progress = make_progress(quiet, err)
    progress.start(len(cases))
    try:
        return await run_suite(cases, backend, settings, progress.case_started, progress.case_done)
    finally:
        progress.stop()
        await backend.close()
        if settings.judges is not None:
            await settings.judges.close()


def _judges(
    suite: LoadedSuite,
    options: RunOptions,
    cases: list[PlannedCase],
    backend: Backend,
    recorder: Recorder | None,
    parallelism: int,
    env: Mapping[str, str],
) -> JudgePanel | None:
    """Judge models of the selected cases' metrics; their libraries are checked too."""
    metrics = enabled(m for case in cases for turn in case.turns for m in turn.metrics)
    check_libraries(metrics)
    execution = getattr(suite.agent, "execution", None)
    timeout = options.llm_timeout or getattr(execution, "llm_timeout", None)
    return build_panel(
        suite.agent,
        metrics,
        replay=backend if isinstance(backend, ReplayBackend) else None,
        recorder=recorder,
        env=env,
        policy=options.retry,
        parallelism=parallelism,
        timeout=float(timeout or DEFAULT_LLM_TIMEOUT),
    )


def _run_label(suite: LoadedSuite, python_agent: str | None) -> str:
    """How `holodeck test` names a failed agent run of a single-turn case: its OpenAI path
    (openai, azure_openai, ollama) says "OpenAI Agents run failed: "."""
    if python_agent is not None or suite.agent.model.provider is ProviderEnum.ANTHROPIC:
        return ""
    return "OpenAI Agents run failed: "


def summary_line(report: TestReport) -> str:
    s = report.summary
    return (
        f"{s.total_tests} test case(s) run: {s.passed} passed, {s.failed} failed "
        f"({s.pass_rate:g}%) in {s.total_duration_ms / 1000:.2f} s"
    )


def run(options: RunOptions, out: TextIO, err: TextIO, env: Mapping[str, str] | None = None) -> int:
    """The whole `run` command; returns the exit code."""
    env = os.environ if env is None else env
    try:
        shard = _check_options(options)
        suite = load_suite(options.agent_file, env, options.user_config)
        execution = getattr(suite.agent, "execution", None)
        yaml_parallel = getattr(execution, "parallel_test_cases", None)
        parallelism = resolve_parallelism(options.parallel, yaml_parallel, env)
        cases = select(plan_suite(suite.agent), options.keywords, shard, options.limit)
        backend, recorder = _backend(suite, options, parallelism, err, env)
        judges = _judges(suite, options, cases, backend, recorder, parallelism, env)
        if not cases:
            err.write("warning: no test case selected\n")
    except ConfigError as exc:
        _print_config_error(exc, err)
        return EXIT_CONFIG
    except (UsageError, BackendConfigError, ReplayFileError, MetricSetupError) as exc:
        err.write(f"error: {exc}\n")
        return EXIT_CONFIG
    run_label = _run_label(suite, options.python_agent)
    settings = EngineSettings(suite.folder, suite.graders, parallelism, judges, run_label)
    start = time.perf_counter()
    try:
        outcomes = asyncio.run(_execute(backend, cases, settings, options.quiet, err))
    except ReplayMiss as exc:
        err.write(f"error: replay: {exc}\n")
        return EXIT_EXECUTION
    except Exception as exc:  # a bug, not a verdict on the agent: say so, exit 3
        err.write(f"error: the run stopped: {type(exc).__name__}: {exc}\n")
        return EXIT_EXECUTION
    duration = int((time.perf_counter() - start) * 1000)
    environment = {
        "backend": identity(suite.agent, suite.folder, options.python_agent),
        "parallel_test_cases": str(parallelism),
    }
    if options.replay is not None:
        environment["replay"] = str(options.replay)
    if shard is not None:
        environment["shard"] = f"{shard[0]}/{shard[1]}"
    if judges is not None:
        environment.update(judges.ledger.environment())
    report = build_report(
        suite.agent.name, str(options.agent_file), outcomes, duration, environment
    )
    try:
        write_reports(report, options.outputs)
        if recorder is not None and options.record is not None:
            recorder.write(options.record)
    except OSError as exc:
        err.write(f"error: cannot write: {exc}\n")
        return EXIT_EXECUTION
    out.write(summary_line(report) + "\n")
    judged = ledger_line(report.environment)
    if judged is not None:
        out.write(judged + "\n")
    if any(o.execution_errors for o in outcomes):
        return EXIT_EXECUTION
    return EXIT_PASSED if report.summary.failed == 0 else EXIT_FAILED


def merge(paths: list[Path], outputs: list[Path], out: TextIO, err: TextIO) -> int:
    """The whole `merge` command; returns the exit code."""
    try:
        for path in outputs:
            renderer_for(path)
        report = merge_reports(paths)
    except (ValueError, MergeError) as exc:
        err.write(f"error: {exc}\n")
        return EXIT_CONFIG
    try:
        write_reports(report, outputs)
    except OSError as exc:
        err.write(f"error: cannot write: {exc}\n")
        return EXIT_EXECUTION
    out.write(summary_line(report) + "\n")
    judged = ledger_line(report.environment)
    if judged is not None:
        out.write(judged + "\n")
    return EXIT_PASSED if report.summary.failed == 0 else EXIT_FAILED
