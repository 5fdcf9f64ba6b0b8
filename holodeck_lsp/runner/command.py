"""`holodeck-lsp run` and `holodeck-lsp merge` as functions: options in, exit code out."""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from holodeck_lsp.exit_codes import EXIT_EXECUTION, EXIT_FAILED, EXIT_OK, EXIT_USAGE
from holodeck_lsp.models.test_result import TestReport
from holodeck_lsp.run_defaults import DEFAULT_GRADER_TIMEOUT
from holodeck_lsp.runner.backends.backend_choice import identity
from holodeck_lsp.runner.collect.focus import focus
from holodeck_lsp.runner.collect.loading import ConfigError, LoadedSuite, load_suite
from holodeck_lsp.runner.collect.plan import PlannedCase, plan_suite
from holodeck_lsp.runner.collect.repeat_expansion import expand
from holodeck_lsp.runner.collect.run_settings import UsageError, resolve_parallelism, turn_limit
from holodeck_lsp.runner.collect.selection import parse_shard, select
from holodeck_lsp.runner.collect.unapplied import unapplied_warnings
from holodeck_lsp.runner.execute.backend_stack import run_backend, run_judges, run_label
from holodeck_lsp.runner.execute.case_runs import CaseRunSettings
from holodeck_lsp.runner.execute.interrupts import Interrupts
from holodeck_lsp.runner.execute.metric_preflight import MetricSetupError
from holodeck_lsp.runner.execute.recording import ReplayFileError, load_replay
from holodeck_lsp.runner.execute.suite_execution import Progress, SuiteRun, execute
from holodeck_lsp.runner.report.comparison.run_baseline import BaselineMarks, ran_part
from holodeck_lsp.runner.report.comparison.run_sides import RunSide, read_side, report_side
from holodeck_lsp.runner.report.comparison.turn_changes import compare_runs
from holodeck_lsp.runner.report.console import (
    baseline_lines,
    print_config_error,
    print_start_failure,
    repeat_line,
    summary_line,
)
from holodeck_lsp.runner.report.event_stream import EventStream, WithEvents
from holodeck_lsp.runner.report.formats import render_json, renderer_for, write_reports
from holodeck_lsp.runner.report.from_report import emit_report
from holodeck_lsp.runner.report.progress import make_progress
from holodeck_lsp.runner.report.report_reading import ReportError, read_report
from holodeck_lsp.runner.report.run_counts import planned_counts
from holodeck_lsp.runner.report.run_keeping.keep_run import KeepOptions, keep_merged_run, keep_run
from holodeck_lsp.runner.report.shard_merge import merge_reports
from holodeck_lsp.runner.report.test_report import run_environment, run_report, suite_digest
from holodeck_lsp.runner.report.verdict import verdict
from holodeck_lsp.runner.score.attempts import parse_pass_rule
from holodeck_lsp.runner.score.metrics.judge_panel import ledger_line
from holodeck_lsp.runner.services.atomic_output import check_writable
from holodeck_lsp.runner.services.http_client import RetryPolicy
from holodeck_lsp.runner.services.redaction import Secrets, activated, terminal_stream
from holodeck_lsp.runner.services.secret_sources import config_secrets, environment_secrets
from holodeck_lsp.runner.services.service_targets import BackendConfigError
from holodeck_lsp.runner.tools.tool_kind import ToolContext
from holodeck_lsp.runner.tools.toolbox import PreflightError


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
    grader_timeout: float = DEFAULT_GRADER_TIMEOUT
    resume: Path | None = None  # the recording of an interrupted run to finish
    repeat: int = 1  # attempts per test case, each in a fresh session
    pass_rule: str = "all"  # with --repeat: all, any or a fraction of the attempts
    retry: RetryPolicy | None = None  # tests make backoff short
    isolate_mcp: bool = False  # MCP servers per test case instead of once per run
    reingest: bool = False  # embed documents again, ignoring the embeddings cache
    events: str | None = None  # `run --events`: a file, or "-" for stdout
    case: int | None = None  # `--case N`: only the test case at that position
    up_to_turn: int | None = None  # `--up-to-turn T`: its turns 0..T
    from_report: Path | None = None  # `--from-report`: a report's events, nothing run
    baseline: Path | None = None  # `--baseline`: an earlier run's report, compared with
    keeping: KeepOptions = field(default_factory=KeepOptions)  # the run history (`results/`)


def _check_options(options: RunOptions) -> tuple[int, int] | None:
    if options.record is not None and options.replay is not None:
        raise UsageError("--record and --replay cannot be used together")
    if options.resume is not None and options.replay is not None:
        raise UsageError("--resume and --replay cannot be used together")
    for path in options.outputs:
        try:
            renderer_for(path)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
    if options.limit is not None and options.limit < 0:
        raise UsageError("--limit must be >= 0")
    if options.llm_timeout is not None and options.llm_timeout <= 0:
        raise UsageError("--llm-timeout must be > 0")
    if options.grader_timeout <= 0:
        raise UsageError("--grader-timeout must be > 0")
    if options.repeat < 1:
        raise UsageError("--repeat must be >= 1")
    try:
        parse_pass_rule(options.pass_rule)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    try:
        return parse_shard(options.shard) if options.shard else None
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def run_command(
    options: RunOptions, out: TextIO, err: TextIO, env: Mapping[str, str] | None = None
) -> int:
    """The whole `run` command; returns the exit code."""
    env = os.environ if env is None else env
    # The run's one registry of secrets: what it prints or writes is masked with it.
    secrets = Secrets(environment_secrets(env))
    out, err = terminal_stream(out, secrets), terminal_stream(err, secrets)
    with activated(secrets), Interrupts() as interrupts, contextlib.ExitStack() as closing:
        try:
            return _run(options, out, err, env, secrets, interrupts, closing)
        except KeyboardInterrupt:
            err.write(f"exit {interrupts.exit_code}: interrupted before the first request\n")
            return interrupts.exit_code


def _event_stream(
    options: RunOptions,
    out: TextIO,
    suite: LoadedSuite,
    cases: list[PlannedCase],
    secrets: Secrets,
    closing: contextlib.ExitStack,
    marks: BaselineMarks | None,
) -> EventStream | None:
    if options.events is None:
        return None
    if options.events == "-":
        stream = out
    else:
        stream = closing.enter_context(open(options.events, "w", encoding="utf-8"))  # noqa: SIM115
    return EventStream(
        stream,
        suite.agent,
        str(options.agent_file),
        cases,
        secrets,
        repeat=options.repeat,
        baseline=marks,
    )


def _from_report(
    options: RunOptions,
    suite: LoadedSuite,
    cases: list[PlannedCase],
    out: TextIO,
    secrets: Secrets,
    closing: contextlib.ExitStack,
    marks: BaselineMarks | None,
) -> int:
    """`--from-report`: the report's results as events of this suite; nothing runs."""
    assert options.from_report is not None
    if options.events is None:
        raise UsageError("--from-report writes events: give --events FILE or -")
    report = read_report(options.from_report)
    events = _event_stream(options, out, suite, cases, secrets, closing, marks)
    assert events is not None
    return emit_report(report, cases, events)


def _run(
    options: RunOptions,
    out: TextIO,
    err: TextIO,
    env: Mapping[str, str],
    secrets: Secrets,
    interrupts: Interrupts,
    closing: contextlib.ExitStack,
) -> int:
    try:
        shard = _check_options(options)
        # A replay calls no service: a key it would have sent may be unset.
        secrets_needed = options.replay is None
        suite = load_suite(options.agent_file, env, options.user_config, secrets_needed)
        secrets.add_all(config_secrets(suite.agent))
        yaml_parallel = suite.execution.parallel_test_cases
        parallelism = resolve_parallelism(options.parallel, yaml_parallel, env)
        planned = plan_suite(suite.agent)
        cases = select(planned, options.keywords, shard, options.limit)
        try:
            cases = focus(cases, options.case, options.up_to_turn)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
        baseline = read_side(options.baseline) if options.baseline is not None else None
        marks = BaselineMarks(baseline, planned) if baseline is not None else None
        if options.from_report is not None:
            return _from_report(options, suite, cases, out, secrets, closing, marks)
        # The recording being resumed: read once, the agent and the judges share it.
        resumed = load_replay(options.resume) if options.resume is not None else None
        limit = turn_limit(suite, options.llm_timeout, env)
        backend, recorder, tools = run_backend(
            suite,
            options.python_agent,
            options.replay,
            options.record,
            options.retry,
            limit,
            parallelism,
            err,
            env,
            cases,
            resumed,
        )
        judges = run_judges(
            suite, cases, backend, recorder, options.retry, limit[0], parallelism, env, resumed
        )
        # Where the run's exchanges go: --record, else the recording being resumed.
        recording = options.record or options.resume
        events_file = [Path(options.events)] if options.events not in (None, "-") else []
        _check_writable([*options.outputs, *([recording] if recording else []), *events_file])
        if not cases:
            err.write("warning: no test case selected\n")
    except ConfigError as exc:
        print_config_error(exc, err)
        return EXIT_USAGE
    except (UsageError, BackendConfigError, ReplayFileError, MetricSetupError, ReportError) as exc:
        err.write(f"error: {exc}\n")
        return EXIT_USAGE
    if options.python_agent is None:  # an --agent factory is the agent: the file's are not
        resolved = suite.agent.model_copy(update={"execution": suite.execution})
        for warning in unapplied_warnings(resolved):  # config.yaml's execution included
            err.write(f"warning: {warning}\n")
    events = _event_stream(options, out, suite, cases, secrets, closing, marks)
    if options.events == "-":
        out = err  # stdout holds the events alone
    settings = CaseRunSettings(
        suite.folder,
        suite.graders,
        parallelism,
        judges,
        options.grader_timeout,
        run_label(suite, options.python_agent),
        on_turn=events.turn_finished if events is not None else None,
    )
    context = ToolContext(
        suite.folder,
        env,
        isolate_mcp=options.isolate_mcp,
        reingest=options.reingest,
        database_origins=suite.database_origins,
    )
    progress: Progress = make_progress(options.quiet, planned_counts(cases, options.repeat), err)
    if events is not None:
        progress = WithEvents(progress, events)
    run = SuiteRun(backend, expand(cases, options.repeat), settings, tools, context, progress)
    start = time.perf_counter()
    try:
        done = asyncio.run(execute(run, err, interrupts))
    except PreflightError as exc:
        for failure in exc.failures:
            print_start_failure(suite.path, failure, err)
        return EXIT_USAGE
    duration = int((time.perf_counter() - start) * 1000)
    environment = run_environment(
        identity(suite.agent, suite.folder, options.python_agent),
        parallelism,
        suite_digest(planned),
        options.replay,
        options.resume,
        shard,
        judges,
    )
    report = run_report(
        suite.agent.name,
        str(options.agent_file),
        options.repeat,
        options.pass_rule,
        done,
        duration,
        environment,
    )
    comparison = None
    if baseline is not None:
        before = ran_part(baseline, planned, cases)
        comparison = compare_runs(before, _this_run(report, options.outputs))
    problems = write_reports(report, options.outputs, secrets, comparison)
    if recorder is not None and recording is not None:
        try:
            recorder.write(recording, secrets)
        except OSError as exc:
            problems.append(f"cannot write {recording}: {exc.strerror or exc}")
    out.write(summary_line(report) + "\n")
    if report.repeats:
        out.write(repeat_line(report.repeats) + "\n")
    judged = ledger_line(report.environment)
    if judged is not None:
        out.write(judged + "\n")
    if comparison is not None:
        out.write("".join(line + "\n" for line in baseline_lines(comparison)))
    for problem in problems:
        err.write(f"error: {problem}\n")
    keep_run(report, suite.agent, options.agent_file, options.keeping, secrets, out, err, shard)
    code, why = verdict(report, done, problems)
    if events is not None:
        events.run_ended(report, code)
        if events.problem is not None:
            err.write(f"warning: {events.problem}\n")
    if why is not None:
        err.write(f"exit {code}: {why}\n")  # the last line: why the exit code is this
    return code


def _this_run(report: TestReport, outputs: list[Path]) -> RunSide:
    """The run just made, as the HEAD of its comparison with `--baseline`."""
    written = [path for path in outputs if renderer_for(path) is render_json]
    return report_side(report, written, "this run")


def _check_writable(paths: list[Path]) -> None:
    problems = [p for p in (check_writable(path) for path in paths) if p is not None]
    if problems:
        raise UsageError("cannot write " + "; ".join(problems) + " (checked before any request)")


def merge_command(
    paths: list[Path],
    outputs: list[Path],
    out: TextIO,
    err: TextIO,
    allow_partial: bool = False,
    keeping: KeepOptions | None = None,
) -> int:
    """The whole `merge` command; returns the exit code."""
    secrets = Secrets(environment_secrets(os.environ))
    out, err = terminal_stream(out, secrets), terminal_stream(err, secrets)
    try:
        for path in outputs:
            renderer_for(path)
        report = merge_reports(paths, allow_partial)
    except (ValueError, ReportError) as exc:
        err.write(f"error: {exc}\n")
        return EXIT_USAGE
    problems = write_reports(report, outputs, secrets)
    for problem in problems:
        err.write(f"error: {problem}\n")
    if problems:
        err.write(f"exit {EXIT_EXECUTION}: {len(problems)} file(s) could not be written\n")
        return EXIT_EXECUTION
    out.write(summary_line(report) + "\n")
    judged = ledger_line(report.environment)
    if judged is not None:
        out.write(judged + "\n")
    keep_merged_run(report, paths, keeping or KeepOptions(), secrets, out, err)
    return EXIT_OK if report.summary.failed == 0 else EXIT_FAILED
