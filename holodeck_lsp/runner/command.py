"""`holodeck-lsp run` and `holodeck-lsp merge` as functions: options in, exit code out."""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections.abc import Awaitable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO, cast

from holodeck_lsp.exit_codes import EXIT_EXECUTION, EXIT_FAILED
from holodeck_lsp.exit_codes import EXIT_OK as EXIT_PASSED
from holodeck_lsp.exit_codes import EXIT_USAGE as EXIT_CONFIG
from holodeck_lsp.models.llm import ProviderEnum
from holodeck_lsp.models.test_result import RepeatedCase, TestReport
from holodeck_lsp.runner.backends.base import Backend
from holodeck_lsp.runner.backends.choose import BackendConfigError, build_backend, identity
from holodeck_lsp.runner.backends.http import RetryPolicy
from holodeck_lsp.runner.engine import CaseOutcome, EngineSettings, SuiteState, run_suite
from holodeck_lsp.runner.evaluators.code import DEFAULT_GRADER_TIMEOUT
from holodeck_lsp.runner.evaluators.judge import JudgePanel, ledger_line
from holodeck_lsp.runner.evaluators.preflight import (
    MetricSetupError,
    build_panel,
    check_libraries,
    enabled,
)
from holodeck_lsp.runner.events import EventStream, WithEvents
from holodeck_lsp.runner.exchange import (
    Recorder,
    RecordingBackend,
    ReplayBackend,
    ReplayFileError,
    ReplayMiss,
    Table,
    TimedBackend,
    load_replay,
)
from holodeck_lsp.runner.focus import focus
from holodeck_lsp.runner.interrupts import Interrupts
from holodeck_lsp.runner.loading import ConfigError, LoadedSuite, load_suite, tool_line
from holodeck_lsp.runner.output import check_writable
from holodeck_lsp.runner.plan import PlannedCase, plan_suite
from holodeck_lsp.runner.progress import Progress, make_progress
from holodeck_lsp.runner.redaction import Secrets, TerminalStream, activated
from holodeck_lsp.runner.repeat import combine, expand, parse_pass_rule, repeat_line
from holodeck_lsp.runner.report import (
    SUITE_KEY,
    MergeError,
    build_report,
    merge_reports,
    suite_digest,
)
from holodeck_lsp.runner.report_events import ReportError, emit_report, read_report
from holodeck_lsp.runner.reports import renderer_for, write_reports
from holodeck_lsp.runner.resume import ResumeBackend, complete_cases
from holodeck_lsp.runner.secret_sources import config_secrets, environment_secrets
from holodeck_lsp.runner.selection import parse_shard, select
from holodeck_lsp.runner.tools.base import ToolContext, ToolStartError
from holodeck_lsp.runner.tools.box import PreflightError, ToolBox
from holodeck_lsp.runner.unapplied import unapplied_warnings

DEFAULT_LLM_TIMEOUT = 60.0
PARALLEL_ENV = "HOLODECK_PARALLEL_TEST_CASES"
LLM_TIMEOUT_ENV = "HOLODECK_LLM_TIMEOUT"  # read by HoloDeck below the config files


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
        from holodeck_lsp.check.formats import TextFormat
        from holodeck_lsp.check.results import CheckResult, FileResult

        files = [FileResult(f, ds, text) for f, (ds, text) in error.diagnostics.items()]
        TextFormat(colour=False).report(CheckResult(files=files), err)


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


def _turn_limit(
    suite: LoadedSuite, options: RunOptions, env: Mapping[str, str]
) -> tuple[float, str]:
    """Seconds per turn, and the setting that chose them (named when a turn times out):
    as HoloDeck resolves it, the command line, the agent and its config files, then
    HOLODECK_LLM_TIMEOUT, then 60 s."""
    if options.llm_timeout is not None:
        return options.llm_timeout, "--llm-timeout"
    if suite.execution.llm_timeout:
        return float(suite.execution.llm_timeout), "execution.llm_timeout"
    raw = env.get(LLM_TIMEOUT_ENV, "").strip()
    if raw.isdigit() and int(raw) > 0:
        return float(raw), LLM_TIMEOUT_ENV
    return DEFAULT_LLM_TIMEOUT, "the default llm_timeout"


def _backend(
    suite: LoadedSuite,
    options: RunOptions,
    parallelism: int,
    err: TextIO,
    env: Mapping[str, str],
    cases: list[PlannedCase],
    resumed: Table | None,
) -> tuple[Backend, Recorder | None, ToolBox | None]:
    """The backend (timed, recording or replaying) and the tools the run must start."""
    agent = suite.agent
    who = identity(agent, suite.folder, options.python_agent)
    if options.replay is not None:
        return ReplayBackend(options.replay, who), None, None  # replies hold the tool calls
    plan = build_backend(agent, suite.folder, options.python_agent, parallelism, env, options.retry)
    for warning in plan.warnings:
        err.write(f"warning: {warning}\n")
    timeout, setting = _turn_limit(suite, options, env)
    backend: Backend = TimedBackend(plan.backend, timeout, setting)
    if resumed is not None:
        recorder = Recorder(who)
        table = resumed
        turns = {case.label: len(case.turns) for case in cases}
        restorable = options.python_agent is None  # the runner holds the conversation
        complete = complete_cases(table, turns)
        return (
            ResumeBackend(backend, table, who, recorder, restorable, complete),
            recorder,
            plan.tools,
        )
    if options.record is None:
        return backend, None, plan.tools
    recorder = Recorder(who)
    return RecordingBackend(backend, recorder), recorder, plan.tools


def _recording_path(options: RunOptions) -> Path | None:
    """Where the run's exchanges go: --record, else the recording being resumed."""
    return options.record or options.resume


STOP_GRACE = 0.5  # seconds the cases get to settle once a run is stopped
# Seconds the tools get to stop: an MCP server is asked to exit, then terminated, then
# killed (the SDK gives each step 2 s); cutting that short would leave it running.
TOOLS_GRACE = 20.0


@dataclass
class Execution:
    """What a run did: every outcome, and when it stopped early, why and what did not run."""

    outcomes: list[CaseOutcome]
    not_run: list[PlannedCase] = field(default_factory=list)
    stop_reason: str | None = None
    exit_code: int | None = None  # set when the run stopped early


@dataclass
class _Run:
    backend: Backend
    cases: list[PlannedCase]
    settings: EngineSettings
    tools: ToolBox | None
    tool_context: ToolContext
    events: EventStream | None = None


async def _bounded(closing: Awaitable[None], grace: float = STOP_GRACE) -> None:
    """Closing a backend must not hold a stopped run: bounded, and its errors ignored."""
    with contextlib.suppress(Exception, asyncio.TimeoutError):
        await asyncio.wait_for(closing, grace)


async def _execute(run: _Run, quiet: bool, err: TextIO, interrupts: Interrupts) -> Execution:
    """Preflight (tools started; `PreflightError` before any model call), then the cases."""
    settings = run.settings
    progress = make_progress(quiet, err)
    if run.events is not None:
        progress = WithEvents(progress, run.events)
    try:
        if run.tools:
            await run.tools.start(run.tool_context)
        progress.start(len(run.cases))
        try:
            return await _cases(run, progress, err, interrupts)
        finally:
            progress.stop()
    finally:
        if run.tools is not None:
            await _bounded(run.tools.close(), TOOLS_GRACE)
        await _bounded(run.backend.close())
        await _bounded(settings.regexes.close())
        if settings.judges is not None:
            await _bounded(settings.judges.close())


async def _cases(run: _Run, progress: Progress, err: TextIO, interrupts: Interrupts) -> Execution:
    """The cases until they finish, a signal stops them or one of them stops the run."""
    state = SuiteState(run.cases)
    cases = asyncio.ensure_future(
        run_suite(
            run.cases, run.backend, run.settings, progress.case_started, progress.case_done, state
        )
    )
    stop = asyncio.ensure_future(interrupts.attach().wait())
    try:
        await asyncio.wait({cases, stop}, return_when=asyncio.FIRST_COMPLETED)
        if not cases.done():
            err.write(f"{interrupts.reason}: stopping (press Ctrl-C again to quit at once)\n")
            cases.cancel()
            await asyncio.wait({cases}, timeout=STOP_GRACE)
            return _stopped(state, interrupts.reason or "interrupted", interrupts.exit_code)
        try:
            return Execution(cases.result())
        except ReplayMiss as exc:
            err.write(f"error: replay: {exc}\n")
            return _stopped(state, f"replay: {exc}", EXIT_EXECUTION)
        except Exception as exc:  # a bug, not a verdict on the agent: say so, exit 3
            reason = f"{type(exc).__name__}: {exc}"
            err.write(f"error: the run stopped: {reason}\n")
            return _stopped(state, reason, EXIT_EXECUTION)
    finally:
        stop.cancel()
        interrupts.detach()


def _stopped(state: SuiteState, reason: str, code: int) -> Execution:
    outcomes, not_run = state.partial(f"the run stopped: {reason}")
    return Execution(outcomes, not_run, reason, code)


def _judges(
    suite: LoadedSuite,
    options: RunOptions,
    cases: list[PlannedCase],
    backend: Backend,
    recorder: Recorder | None,
    parallelism: int,
    env: Mapping[str, str],
    resumed: Table | None,
) -> JudgePanel | None:
    """Judge models of the selected cases' metrics; their libraries are checked too."""
    metrics = enabled(m for case in cases for turn in case.turns for m in turn.metrics)
    check_libraries(metrics)
    timeout, _setting = _turn_limit(suite, options, env)
    return build_panel(
        suite.agent,
        metrics,
        replay=backend if isinstance(backend, ReplayBackend) else None,
        recorder=recorder,
        env=env,
        policy=options.retry,
        parallelism=parallelism,
        timeout=timeout,
        resume=resumed,
    )


def _run_label(suite: LoadedSuite, python_agent: str | None) -> str:
    """How `holodeck test` names a failed agent run of a single-turn case: its OpenAI path
    (openai, azure_openai, ollama) says "OpenAI Agents run failed: "."""
    if python_agent is not None or suite.agent.model.provider is ProviderEnum.ANTHROPIC:
        return ""
    return "OpenAI Agents run failed: "


def _print_start_failure(path: Path, failure: ToolStartError, err: TextIO) -> None:
    line = tool_line(path, failure.tool)
    where = f"{path}:{line}" if line is not None else str(path)
    err.write(f"{where}: error: tool '{failure.tool}' did not start: {failure.message}\n")
    if failure.stderr_tail:
        err.write("  its stderr ended with:\n")
        for text in failure.stderr_tail.splitlines():
            err.write(f"    {text}\n")


def summary_line(report: TestReport) -> str:
    s = report.summary
    return (
        f"{s.total_tests} test case(s) run: {s.passed} passed, {s.failed} failed "
        f"({s.pass_rate:g}%) in {s.total_duration_ms / 1000:.2f} s"
    )


def run(options: RunOptions, out: TextIO, err: TextIO, env: Mapping[str, str] | None = None) -> int:
    """The whole `run` command; returns the exit code."""
    env = os.environ if env is None else env
    # The run's one registry of secrets: what it prints or writes is masked with it.
    secrets = Secrets(environment_secrets(env))
    out, err = _terminal(out, secrets), _terminal(err, secrets)
    with activated(secrets), Interrupts() as interrupts, contextlib.ExitStack() as closing:
        try:
            return _run(options, out, err, env, secrets, interrupts, closing)
        except KeyboardInterrupt:
            err.write(f"exit {interrupts.exit_code}: interrupted before the first request\n")
            return interrupts.exit_code


def _terminal(stream: TextIO, secrets: Secrets) -> TextIO:
    return cast(TextIO, TerminalStream(stream, secrets))


def _event_stream(
    options: RunOptions,
    out: TextIO,
    suite: LoadedSuite,
    cases: list[PlannedCase],
    secrets: Secrets,
    closing: contextlib.ExitStack,
) -> EventStream | None:
    if options.events is None:
        return None
    if options.events == "-":
        stream = out
    else:
        stream = closing.enter_context(open(options.events, "w", encoding="utf-8"))  # noqa: SIM115
    return EventStream(
        stream, suite.agent, str(options.agent_file), cases, secrets, repeat=options.repeat
    )


def _from_report(
    options: RunOptions,
    suite: LoadedSuite,
    cases: list[PlannedCase],
    out: TextIO,
    secrets: Secrets,
    closing: contextlib.ExitStack,
) -> int:
    """`--from-report`: the report's results as events of this suite; nothing runs."""
    assert options.from_report is not None
    if options.events is None:
        raise UsageError("--from-report writes events: give --events FILE or -")
    report = read_report(options.from_report)
    events = _event_stream(options, out, suite, cases, secrets, closing)
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
        suite = load_suite(options.agent_file, env, options.user_config)
        secrets.add_all(config_secrets(suite.agent))
        yaml_parallel = suite.execution.parallel_test_cases
        parallelism = resolve_parallelism(options.parallel, yaml_parallel, env)
        planned = plan_suite(suite.agent)
        cases = select(planned, options.keywords, shard, options.limit)
        try:
            cases = focus(cases, options.case, options.up_to_turn)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
        if options.from_report is not None:
            return _from_report(options, suite, cases, out, secrets, closing)
        # The recording being resumed: read once, the agent and the judges share it.
        resumed = load_replay(options.resume) if options.resume is not None else None
        backend, recorder, tools = _backend(suite, options, parallelism, err, env, cases, resumed)
        judges = _judges(suite, options, cases, backend, recorder, parallelism, env, resumed)
        recording = _recording_path(options)
        events_file = [Path(options.events)] if options.events not in (None, "-") else []
        _check_writable([*options.outputs, *([recording] if recording else []), *events_file])
        if not cases:
            err.write("warning: no test case selected\n")
    except ConfigError as exc:
        _print_config_error(exc, err)
        return EXIT_CONFIG
    except (UsageError, BackendConfigError, ReplayFileError, MetricSetupError, ReportError) as exc:
        err.write(f"error: {exc}\n")
        return EXIT_CONFIG
    if options.python_agent is None:  # an --agent factory is the agent: the file's are not
        resolved = suite.agent.model_copy(update={"execution": suite.execution})
        for warning in unapplied_warnings(resolved):  # config.yaml's execution included
            err.write(f"warning: {warning}\n")
    events = _event_stream(options, out, suite, cases, secrets, closing)
    if options.events == "-":
        out = err  # stdout holds the events alone
    settings = EngineSettings(
        suite.folder,
        suite.graders,
        parallelism,
        judges,
        options.grader_timeout,
        _run_label(suite, options.python_agent),
        on_turn=events.turn_finished if events is not None else None,
    )
    context = ToolContext(
        suite.folder, env, isolate_mcp=options.isolate_mcp, reingest=options.reingest
    )
    start = time.perf_counter()
    try:
        done = asyncio.run(
            _execute(
                _Run(backend, expand(cases, options.repeat), settings, tools, context, events),
                options.quiet,
                err,
                interrupts,
            )
        )
    except PreflightError as exc:
        for failure in exc.failures:
            _print_start_failure(suite.path, failure, err)
        return EXIT_CONFIG
    duration = int((time.perf_counter() - start) * 1000)
    environment = {
        "backend": identity(suite.agent, suite.folder, options.python_agent),
        "parallel_test_cases": str(parallelism),
        SUITE_KEY: suite_digest(planned),
    }
    if options.replay is not None:
        environment["replay"] = str(options.replay)
    if options.resume is not None:
        environment["resumed_from"] = str(options.resume)
    if shard is not None:
        environment["shard"] = f"{shard[0]}/{shard[1]}"
    if judges is not None:
        environment.update(judges.ledger.environment())
    report = _report(suite, options, done, duration, environment)
    problems = write_reports(report, options.outputs, secrets)
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
    for problem in problems:
        err.write(f"error: {problem}\n")
    code, why = _verdict(report, done, problems)
    if events is not None:
        events.run_ended(report, code)
        if events.problem is not None:
            err.write(f"warning: {events.problem}\n")
    if why is not None:
        err.write(f"exit {code}: {why}\n")  # the last line: why the exit code is this
    return code


def _report(
    suite: LoadedSuite,
    options: RunOptions,
    done: Execution,
    duration: int,
    environment: dict[str, str],
) -> TestReport:
    """The report: with --repeat, one result per case by the pass rule, and every attempt."""
    outcomes, repeats = done.outcomes, list[RepeatedCase]()
    if options.repeat > 1:
        environment.update(repeat=str(options.repeat), pass_rule=options.pass_rule)
        outcomes, repeats = combine(outcomes, parse_pass_rule(options.pass_rule))
    report = build_report(
        suite.agent.name, str(options.agent_file), outcomes, duration, environment
    )
    report.repeats = repeats
    if done.stop_reason is not None:
        report.interrupted = True
        report.stop_reason = done.stop_reason
        ran = {o.case.index for o in done.outcomes}
        unique = {case.index: case for case in done.not_run if case.index not in ran}
        report.not_run = [case.label for case in unique.values()]
    return report


def _check_writable(paths: list[Path]) -> None:
    problems = [p for p in (check_writable(path) for path in paths) if p is not None]
    if problems:
        raise UsageError("cannot write " + "; ".join(problems) + " (checked before any request)")


def _verdict(report: TestReport, done: Execution, problems: list[str]) -> tuple[int, str | None]:
    """The exit code and, unless the summary says it all, why it is that."""
    if done.stop_reason is not None and done.exit_code is not None:
        kept = f"{len(done.outcomes)} test case(s) kept, {len(done.not_run)} did not run"
        return done.exit_code, f"the run stopped early ({done.stop_reason}); {kept}"
    if problems:
        return EXIT_EXECUTION, f"{len(problems)} file(s) could not be written"
    lost = sum(o.execution_errors for o in done.outcomes)
    if lost:
        return EXIT_EXECUTION, (
            f"the model service failed {lost} time(s) (a turn, a session or a judge call); "
            "the errors are in the report"
        )
    return (EXIT_PASSED if report.summary.failed == 0 else EXIT_FAILED), None


def merge(
    paths: list[Path],
    outputs: list[Path],
    out: TextIO,
    err: TextIO,
    allow_partial: bool = False,
) -> int:
    """The whole `merge` command; returns the exit code."""
    secrets = Secrets(environment_secrets(os.environ))
    out, err = _terminal(out, secrets), _terminal(err, secrets)
    try:
        for path in outputs:
            renderer_for(path)
        report = merge_reports(paths, allow_partial)
    except (ValueError, MergeError) as exc:
        err.write(f"error: {exc}\n")
        return EXIT_CONFIG
    problems = write_reports(report, outputs, secrets)
    for problem in problems:
        err.write(f"error: {problem}\n")
    if problems:
        err.write(f"exit 3: {len(problems)} file(s) could not be written\n")
        return EXIT_EXECUTION
    out.write(summary_line(report) + "\n")
    judged = ledger_line(report.environment)
    if judged is not None:
        out.write(judged + "\n")
    return EXIT_PASSED if report.summary.failed == 0 else EXIT_FAILED
