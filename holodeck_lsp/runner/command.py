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
from holodeck_lsp.history.turn_standings import Standings
from holodeck_lsp.models.comparison import Comparison
from holodeck_lsp.models.test_result import TestReport
from holodeck_lsp.run_defaults import DEFAULT_GRADER_TIMEOUT
from holodeck_lsp.runner.backends.backend_choice import identity
from holodeck_lsp.runner.collect.deviations import closing_line, deviations
from holodeck_lsp.runner.collect.dotenv_files import process_environment, run_dotenv
from holodeck_lsp.runner.collect.focus import focus
from holodeck_lsp.runner.collect.loading import ConfigError, LoadedSuite, load_suite
from holodeck_lsp.runner.collect.plan import PlannedCase, plan_suite
from holodeck_lsp.runner.collect.repeat_expansion import expand
from holodeck_lsp.runner.collect.run_settings import UsageError, resolve_parallelism, turn_limit
from holodeck_lsp.runner.collect.selection import parse_shard, select
from holodeck_lsp.runner.collect.unapplied import unapplied_warnings
from holodeck_lsp.runner.execute.backend_stack import (
    BackendStack,
    run_backend,
    run_judges,
    run_label,
)
from holodeck_lsp.runner.execute.case_runs import CaseRunSettings
from holodeck_lsp.runner.execute.interrupts import Interrupts
from holodeck_lsp.runner.execute.metric_preflight import MetricSetupError
from holodeck_lsp.runner.execute.recording import ReplayFileError, load_replay
from holodeck_lsp.runner.execute.suite_execution import Execution, Progress, SuiteRun, execute
from holodeck_lsp.runner.report.comparison.run_baseline import BaselineMarks, ran_part
from holodeck_lsp.runner.report.comparison.run_sides import RunSide, read_side, report_side
from holodeck_lsp.runner.report.comparison.turn_changes import compare_runs
from holodeck_lsp.runner.report.console import (
    baseline_lines,
    print_config_error,
    print_deviations,
    print_start_failure,
    print_start_notes,
    repeat_line,
    summary_line,
)
from holodeck_lsp.runner.report.event_stream import EventStream, WithEvents
from holodeck_lsp.runner.report.formats import (
    render_json,
    renderer_for,
    unknown_extension,
    write_reports,
)
from holodeck_lsp.runner.report.from_report import emit_report
from holodeck_lsp.runner.report.progress import make_progress
from holodeck_lsp.runner.report.report_reading import ReportError, read_report
from holodeck_lsp.runner.report.run_counts import planned_counts
from holodeck_lsp.runner.report.run_keeping.keep_run import (
    KeepOptions,
    history_before,
    keep_merged_run,
    keep_run,
)
from holodeck_lsp.runner.report.shard_merge import merge_reports
from holodeck_lsp.runner.report.test_report import (
    RecordedReport,
    run_environment,
    run_report,
    suite_digest,
)
from holodeck_lsp.runner.report.verdict import verdict
from holodeck_lsp.runner.score.attempts import parse_pass_rule
from holodeck_lsp.runner.score.metrics.judge_panel import JudgePanel, ledger_line
from holodeck_lsp.runner.score.read_back import read_records
from holodeck_lsp.runner.services.atomic_output import check_writable
from holodeck_lsp.runner.services.http_client import RetryPolicy
from holodeck_lsp.runner.services.redaction import Secrets, activated, terminal_stream
from holodeck_lsp.runner.services.secret_sources import environment_secrets, register_agent
from holodeck_lsp.runner.services.service_targets import BackendConfigError
from holodeck_lsp.runner.tools.tool_kind import ToolContext
from holodeck_lsp.runner.tools.toolbox import PreflightError


@dataclass
class CollectOptions:
    """Collect: which test cases of the suite run, and how often."""

    user_config: bool = True  # read ~/.holodeck/config.yaml
    keywords: list[str] = field(default_factory=list)  # -k
    limit: int | None = None
    shard: str | None = None  # I/N
    case: int | None = None  # `--case N`: only the test case at that position
    up_to_turn: int | None = None  # `--up-to-turn T`: its turns 0..T
    repeat: int = 1  # attempts per test case, each in a fresh session
    # `.env`, then `~/.holodeck/.env` (unless user_config is off), under the environment,
    # as `holodeck test` loads them (docs/coming-from-holodeck.md)
    dotenv: bool = True
    strict_parity: bool = False  # a documented difference from `holodeck test` stops the run


@dataclass
class ExecuteOptions:
    """Execute: the agent the cases run against, and how."""

    python_agent: str | None = None  # `--agent pkg.mod:factory`
    parallel: int | None = None
    llm_timeout: float | None = None
    grader_timeout: float = DEFAULT_GRADER_TIMEOUT
    record: Path | None = None
    replay: Path | None = None
    resume: Path | None = None  # the recording of an interrupted run to finish
    retry: RetryPolicy | None = None  # tests make backoff short
    isolate_mcp: bool = False  # MCP servers per test case instead of once per run
    reingest: bool = False  # embed documents again, ignoring the embeddings cache


@dataclass
class ReportOptions:
    """Report: what the run leaves and prints."""

    outputs: list[Path] = field(default_factory=list)  # -o: JSON, Markdown, JUnit, HTML
    events: str | None = None  # `run --events`: a file, or "-" for stdout
    quiet: bool = False
    pass_rule: str = "all"  # with --repeat: all, any or a fraction of the attempts
    from_report: Path | None = None  # `--from-report`: a report's events, nothing run
    baseline: Path | None = None  # `--baseline`: an earlier run's report, compared with
    verbose: bool = False  # `-v`: every test case's line, each turn's assertions and metrics
    report_format: str | None = None  # `--format`: every output in this format
    keeping: KeepOptions = field(default_factory=KeepOptions)  # the run history (`results/`)


@dataclass
class RunOptions:
    """`run`'s options, grouped by the stage that reads them."""

    agent_file: Path
    collect: CollectOptions = field(default_factory=CollectOptions)
    execute: ExecuteOptions = field(default_factory=ExecuteOptions)
    report: ReportOptions = field(default_factory=ReportOptions)


@dataclass(frozen=True)
class RunContext:
    """What every step of a run may use: its streams, environment, secrets, interrupts,
    and what closes when it ends."""

    out: TextIO
    err: TextIO
    env: Mapping[str, str]
    secrets: Secrets
    interrupts: Interrupts
    closing: contextlib.ExitStack


@dataclass(frozen=True)
class Collected:
    """What the collect steps found: the suite, its cases and those this run runs."""

    suite: LoadedSuite
    parallelism: int
    planned: list[PlannedCase]  # every case of the suite
    cases: list[PlannedCase]  # selected (-k, --shard, --limit) and focused (--case)
    shard: tuple[int, int] | None
    baseline: RunSide | None  # `--baseline`: the earlier run


@dataclass(frozen=True)
class RunPlan:
    """Everything a run needs, built before any request, then executed."""

    collected: Collected
    stack: BackendStack  # the backend, the recorder, the tools
    judges: JudgePanel | None
    recording: Path | None  # where the exchanges go: --record, else the recording resumed


def _check_options(options: RunOptions) -> tuple[int, int] | None:
    collect, execute = options.collect, options.execute
    if execute.record is not None and execute.replay is not None:
        raise UsageError("--record and --replay cannot be used together")
    if execute.resume is not None and execute.replay is not None:
        raise UsageError("--resume and --replay cannot be used together")
    if collect.limit is not None and collect.limit < 0:
        raise UsageError("--limit must be >= 0")
    if execute.llm_timeout is not None and execute.llm_timeout <= 0:
        raise UsageError("--llm-timeout must be > 0")
    if execute.grader_timeout <= 0:
        raise UsageError("--grader-timeout must be > 0")
    if collect.repeat < 1:
        raise UsageError("--repeat must be >= 1")
    try:
        parse_pass_rule(options.report.pass_rule)
        return parse_shard(collect.shard) if collect.shard else None
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def run_command(
    options: RunOptions, out: TextIO, err: TextIO, env: Mapping[str, str] | None = None
) -> int:
    """The whole `run` command; returns the exit code."""
    own_process = env is None  # the process's own environment: user code reads it too
    env = os.environ if env is None else env
    dotenv = run_dotenv(options.collect.dotenv, options.collect.user_config, env)
    env = dotenv.over(env) if dotenv.values else env
    # The run's one registry of secrets: what it prints or writes is masked with it.
    secrets = Secrets(environment_secrets(env))
    out, err = terminal_stream(out, secrets), terminal_stream(err, secrets)
    report = options.report
    notes = [unknown_extension(path, report.report_format) for path in report.outputs]
    print_start_notes(dotenv, notes, report.verbose, err)
    with activated(secrets), Interrupts() as interrupts, contextlib.ExitStack() as closing:
        if own_process:
            closing.enter_context(process_environment(dotenv.values))
        context = RunContext(
            out=out, err=err, env=env, secrets=secrets, interrupts=interrupts, closing=closing
        )
        try:
            return _run(options, context)
        except KeyboardInterrupt:
            err.write(f"exit {interrupts.exit_code}: interrupted before the first request\n")
            return interrupts.exit_code


def _run(options: RunOptions, run: RunContext) -> int:
    """The run in three phases: collect, plan (a problem found in either is a usage error,
    exit 2, before any request), execute. Each step is a function taking named arguments,
    called in order in `_collect`, `_plan` or `_execute`: a new step goes there, and what
    it builds into `Collected` or `RunPlan`."""
    try:
        collected = _collect(options, run=run)
        if options.report.from_report is not None:
            return _from_report(options, collected=collected, run=run)
        plan = _plan(options, collected=collected, run=run)
    except ConfigError as exc:
        print_config_error(exc, run.err)
        return EXIT_USAGE
    except (UsageError, BackendConfigError, ReplayFileError, MetricSetupError, ReportError) as exc:
        run.err.write(f"error: {exc}\n")
        return EXIT_USAGE
    return _execute(plan, options=options, run=run)


# Collect: the suite and its cases.


def _collect(options: RunOptions, *, run: RunContext) -> Collected:
    shard, collect = _check_options(options), options.collect
    secrets_needed = options.execute.replay is None  # a replay sends no key: one may be unset
    suite = load_suite(options.agent_file, run.env, collect.user_config, secrets_needed)
    register_agent(run.secrets, suite.agent, run.env)  # the secrets its configuration names
    _announce_differences(suite, strict=collect.strict_parity, err=run.err)
    parallel = suite.execution.parallel_test_cases
    parallelism = resolve_parallelism(options.execute.parallel, parallel, run.env)
    planned = plan_suite(suite.agent)
    cases = select(planned, collect.keywords, shard, collect.limit)
    try:
        cases = focus(cases, collect.case, collect.up_to_turn)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    baseline = options.report.baseline
    baseline_side = read_side(baseline) if baseline is not None else None
    return Collected(suite=suite, parallelism=parallelism, planned=planned, cases=cases,
                     shard=shard, baseline=baseline_side)


def _announce_differences(suite: LoadedSuite, *, strict: bool, err: TextIO) -> None:
    """The documented differences from `holodeck test` the suite meets, warned about as
    `check` warns; with `--strict-parity`, errors that stop the run."""
    found = deviations(suite)
    if found:
        print_deviations(found, strict, err)
        if strict:
            raise UsageError(closing_line(found, strict))


def _from_report(options: RunOptions, *, collected: Collected, run: RunContext) -> int:
    """`--from-report`: the report's results as events of this suite; nothing runs."""
    assert options.report.from_report is not None
    if options.report.events is None:
        raise UsageError("--from-report writes events: give --events FILE or -")
    report = read_report(options.report.from_report)
    events = _event_stream(options, collected=collected, run=run)
    assert events is not None
    return emit_report(report, collected.cases, events)


# Plan: what the cases run against, and what the run writes.


def _plan(options: RunOptions, *, collected: Collected, run: RunContext) -> RunPlan:
    suite, cases, execute = collected.suite, collected.cases, options.execute
    # The recording being resumed: read once, the agent and the judges share it.
    resumed = load_replay(execute.resume) if execute.resume is not None else None
    limit = turn_limit(suite, execute.llm_timeout, run.env)
    stack = run_backend(
        suite, python_agent=execute.python_agent, replay=execute.replay, record=execute.record,
        retry=execute.retry, turn_limit=limit, parallelism=collected.parallelism, err=run.err,
        env=run.env, cases=cases, resumed=resumed)
    judges = run_judges(
        suite, cases=cases, stack=stack, retry=execute.retry, timeout=limit[0],
        parallelism=collected.parallelism, env=run.env, resumed=resumed)
    recording = execute.record or execute.resume
    events = options.report.events
    writes = [*options.report.outputs, *([recording] if recording else []),
              *([Path(events)] if events is not None and events != "-" else [])]
    problems = [p for p in map(check_writable, writes) if p is not None]
    if problems:
        raise UsageError("cannot write " + "; ".join(problems) + " (checked before any request)")
    if not cases:
        run.err.write("warning: no test case selected\n")
    return RunPlan(collected=collected, stack=stack, judges=judges, recording=recording)


# Execute: the cases run, the report written and printed, the exit code.


def _execute(plan: RunPlan, *, options: RunOptions, run: RunContext) -> int:
    suite, reporting = plan.collected.suite, options.report
    if options.execute.python_agent is None:
        _warn_unapplied(suite, err=run.err)
    events = _event_stream(options, collected=plan.collected, run=run)
    out = run.err if reporting.events == "-" else run.out  # stdout holds the events alone
    start = time.perf_counter()
    try:
        done = _run_cases(plan, options=options, events=events, run=run)
    except PreflightError as exc:
        for failure in exc.failures:
            print_start_failure(suite.path, failure, run.err)
        return EXIT_USAGE
    duration = int((time.perf_counter() - start) * 1000)
    built = _report(plan, options=options, done=done, duration=duration)
    comparison = _comparison(plan, options=options, report=built.report)
    # The runs kept before this one, for the HTML report to show each turn's record.
    history = history_before(reporting.outputs, agent_file=options.agent_file,
                             agent_name=suite.agent.name, options=reporting.keeping,
                             chosen=reporting.report_format)
    problems = _write_outputs(plan, options=options, built=built, comparison=comparison,
                              secrets=run.secrets, history=history)
    _print_summary(built.report, comparison=comparison, out=out)
    # Kept in its history (`results/<slug>/` beside the agent file): a warning, never the
    # exit code, when it cannot be; a shard keeps nothing (`merge` does).
    keep_run(built.report, agent=suite.agent, agent_file=options.agent_file,
             options=reporting.keeping, secrets=run.secrets, out=out, err=run.err,
             shard=plan.collected.shard)
    return _verdict(built.report, done=done, problems=problems, events=events, err=run.err)


def _warn_unapplied(suite: LoadedSuite, *, err: TextIO) -> None:
    """What the file asks that `run` does not apply (an --agent factory is the agent: the
    file's fields are not, so this step is skipped with one)."""
    resolved = suite.agent.model_copy(update={"execution": suite.execution})
    for warning in unapplied_warnings(resolved):  # config.yaml's execution included
        err.write(f"warning: {warning}\n")


def _event_stream(
    options: RunOptions, *, collected: Collected, run: RunContext
) -> EventStream | None:
    target, baseline = options.report.events, collected.baseline
    if target is None:
        return None
    if target == "-":
        stream = run.out
    else:
        stream = run.closing.enter_context(open(target, "w", encoding="utf-8"))  # noqa: SIM115
    marks = BaselineMarks(baseline, collected.planned) if baseline is not None else None
    return EventStream(stream, collected.suite.agent, str(options.agent_file), collected.cases,
                       run.secrets, repeat=options.collect.repeat, baseline=marks)


def _run_cases(
    plan: RunPlan, *, options: RunOptions, events: EventStream | None, run: RunContext
) -> Execution:
    """Tools started, then the cases; `PreflightError` before any model call."""
    suite, cases, how = plan.collected.suite, plan.collected.cases, options.execute
    settings = CaseRunSettings(
        suite.folder, suite.graders, parallelism=plan.collected.parallelism, judges=plan.judges,
        grader_timeout=how.grader_timeout, run_label=run_label(suite, how.python_agent),
        on_turn=events.turn_finished if events is not None else None)
    context = ToolContext(suite.folder, run.env, isolate_mcp=how.isolate_mcp,
                          reingest=how.reingest, database_origins=suite.database_origins)
    repeat, report = options.collect.repeat, options.report
    counts = planned_counts(cases, repeat)
    progress: Progress = make_progress(report.quiet, counts, run.err, report.verbose)
    if events is not None:
        progress = WithEvents(progress, events)
    suite_run = SuiteRun(backend=plan.stack.backend, cases=expand(cases, repeat),
                         settings=settings, tools=plan.stack.tools, tool_context=context,
                         progress=progress)
    return asyncio.run(execute(suite_run, run.err, run.interrupts))


def _report(
    plan: RunPlan, *, options: RunOptions, done: Execution, duration: int
) -> RecordedReport:
    collected, execute = plan.collected, options.execute
    suite = collected.suite
    environment = run_environment(
        backend=identity(suite.agent, suite.folder, execute.python_agent),
        parallelism=collected.parallelism, digest=suite_digest(collected.planned),
        replay=execute.replay, resumed_from=execute.resume, shard=collected.shard,
        judges=plan.judges)
    return run_report(
        agent_name=suite.agent.name, agent_file=str(options.agent_file),
        repeat=options.collect.repeat, pass_rule=options.report.pass_rule, done=done,
        duration=duration, environment=environment)


def _comparison(plan: RunPlan, *, options: RunOptions, report: TestReport) -> Comparison | None:
    """`--baseline`: the baseline, cut to what this run ran, against this run (named by the
    JSON reports it writes)."""
    collected, chosen = plan.collected, options.report.report_format
    if collected.baseline is None:
        return None
    before = ran_part(collected.baseline, collected.planned, collected.cases)
    written = [p for p in options.report.outputs if renderer_for(p, chosen) is render_json]
    return compare_runs(before, report_side(report, written, "this run"))


def _write_outputs(plan: RunPlan, *, options: RunOptions, built: RecordedReport,
                   comparison: Comparison | None, secrets: Secrets, history: Standings | None
                   ) -> list[str]:
    """The reports (rendered from the records this run built) and the recording; what
    could not be written."""
    problems = write_reports(built.report, built.records, options.report.outputs,
                             secrets=secrets, baseline=comparison,
                             chosen=options.report.report_format, history=history)
    recorder, recording = plan.stack.recorder, plan.recording
    if recorder is not None and recording is not None:
        try:
            recorder.write(recording, secrets)
        except OSError as exc:
            problems.append(f"cannot write {recording}: {exc.strerror or exc}")
    return problems


def _print_summary(report: TestReport, *, comparison: Comparison | None, out: TextIO) -> None:
    out.write(summary_line(report) + "\n")
    if report.repeats:
        out.write(repeat_line(report.repeats) + "\n")
    judged = ledger_line(report.environment)
    if judged is not None:
        out.write(judged + "\n")
    if comparison is not None:
        out.write("".join(line + "\n" for line in baseline_lines(comparison)))


def _verdict(report: TestReport, *, done: Execution, problems: list[str],
             events: EventStream | None, err: TextIO) -> int:
    for problem in problems:
        err.write(f"error: {problem}\n")
    code, why = verdict(report, done, problems)
    if events is not None:
        events.run_ended(report, code)
        if events.problem is not None:
            err.write(f"warning: {events.problem}\n")
    if why is not None:
        err.write(f"exit {code}: {why}\n")  # the last line: why the exit code is this
    return code


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
    for path in outputs:
        note = unknown_extension(path)
        if note is not None:
            err.write(f"note: {note}\n")
    try:
        report = merge_reports(paths, allow_partial)
    except (ValueError, ReportError) as exc:
        err.write(f"error: {exc}\n")
        return EXIT_USAGE
    problems = write_reports(report, read_records(report), outputs, secrets)
    for problem in problems:
        err.write(f"error: {problem}\n")
    if problems:
        err.write(f"exit {EXIT_EXECUTION}: {len(problems)} file(s) could not be written\n")
        return EXIT_EXECUTION
    out.write(summary_line(report) + "\n")
    judged = ledger_line(report.environment)
    if judged is not None:
        out.write(judged + "\n")
    keeping = keeping or KeepOptions()
    keep_merged_run(report, paths=paths, options=keeping, secrets=secrets, out=out, err=err)
    return EXIT_OK if report.summary.failed == 0 else EXIT_FAILED
