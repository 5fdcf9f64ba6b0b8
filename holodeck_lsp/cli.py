"""The `holodeck-lsp` command: options in, a command called, its exit code out.

Heavy imports (the language server, the runner) happen inside the command that needs
them, so `check` starts fast enough for a pre-commit hook.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import click
import typer
from typer.core import TyperGroup

from holodeck_lsp import __version__
from holodeck_lsp.check.formats import DEFAULT_FORMAT, FORMATS
from holodeck_lsp.exit_codes import EXIT_FAILED, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE
from holodeck_lsp.hygiene.controls import visible
from holodeck_lsp.run_defaults import (
    COMPARE_FORMATS,
    CORRECTIONS,
    DEFAULT_ALPHA,
    DEFAULT_GRADER_TIMEOUT,
    DEFAULT_LLM_TIMEOUT,
    FAIL_ON,
    HISTORY_FORMAT_NAMES,
    REPORT_FORMATS,
)
from holodeck_lsp.validation.codes import (
    SEVERITY_LEVELS,
    UnknownCode,
    UnknownLevel,
    severity_override,
)
from holodeck_lsp.validation.diagnostics import Severity
from holodeck_lsp.validation.file_kinds import DEFAULT_PATTERNS

if TYPE_CHECKING:
    from collections.abc import Callable

    from holodeck_lsp.check.fixing import FixedFile
    from holodeck_lsp.check.results import CheckResult
    from holodeck_lsp.validation.validate import ValidationContext

_COMMAND_LINE = "holodeck_lsp.command_line"


class _Program(TyperGroup):
    """The commands, keeping the arguments they were given (also when called in-process):
    a kept run records its command line, as `holodeck test` records `sys.argv`."""

    def make_context(
        self,
        info_name: str | None,
        args: list[str],
        parent: click.Context | None = None,
        **extra: object,
    ) -> click.Context:
        given = list(args)
        context = super().make_context(info_name, args, parent, **extra)
        context.meta[_COMMAND_LINE] = given
        return context


def _command_line() -> tuple[str, ...]:
    return tuple(click.get_current_context().meta.get(_COMMAND_LINE, ()))


app = typer.Typer(
    cls=_Program,
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    # click's plain help: it wraps long option text at the terminal's width (up to
    # max_content_width), where rich's panels cut words at 80 columns with an ellipsis.
    rich_markup_mode=None,
    context_settings={"max_content_width": 120},
    help="Validate, serve and run HoloDeck agent and test-suite YAML.",
)


def _parse_severities(values: list[str]) -> dict[str, Severity | None]:
    out: dict[str, Severity | None] = {}
    for item in values:
        code, sep, level = item.partition("=")
        try:
            if not sep:
                raise UnknownCode(code)
            key, severity = severity_override(code, level)
        except UnknownCode:
            raise typer.BadParameter(
                f"expected CODE=LEVEL with a known code, got {item!r}"
            ) from None
        except UnknownLevel:
            *others, last = SEVERITY_LEVELS
            raise typer.BadParameter(
                f"level must be {', '.join(others)} or {last}: {item!r}"
            ) from None
        out[key] = severity
    return out


@app.command()
def check(
    paths: Annotated[list[str], typer.Argument(help="Files or folders; '-' reads stdin.")],
    output_format: Annotated[
        str,
        typer.Option(
            "--format", "-f", help="Output format.", click_type=click.Choice(list(FORMATS))
        ),
    ] = DEFAULT_FORMAT,
    stdin_filename: Annotated[
        str | None, typer.Option(help="The path to report (and resolve from) for stdin.")
    ] = None,
    no_user_config: Annotated[
        bool, typer.Option("--no-user-config", help="Ignore ~/.holodeck/config.yaml.")
    ] = False,
    import_graders: Annotated[
        bool,
        typer.Option(
            "--import-graders",
            help="Also import each code grader (in a child process, with a timeout).",
        ),
    ] = False,
    severity: Annotated[
        list[str] | None,
        typer.Option(
            "--severity",
            help=f"Override a rule's severity: CODE={'|'.join(SEVERITY_LEVELS)}. Repeatable.",
        ),
    ] = None,
    pattern: Annotated[
        list[str] | None,
        typer.Option(
            "--pattern",
            help="File-name pattern of agent files in folders "
            f"(default: {', '.join(DEFAULT_PATTERNS)}). Repeatable.",
        ),
    ] = None,
    color: Annotated[bool | None, typer.Option("--color/--no-color", help="Colour text.")] = None,
    fix: Annotated[
        bool,
        typer.Option("--fix", help="Apply the safe quick fixes in place, then report the rest."),
    ] = False,
    diff: Annotated[
        bool,
        typer.Option(
            "--diff",
            help="Print the safe quick fixes as a diff on stdout (changing nothing, or with "
            "--fix what was fixed), and on stderr the report of what they leave.",
        ),
    ] = False,
    changed_files: Annotated[
        bool,
        typer.Option(
            "--changed-files",
            help="The paths are changed files, as pre-commit passes them: an agent is "
            "checked; a file an agent pulls in (its test_cases_file, its config.yaml) is "
            "checked through that agent; any other file is skipped.",
        ),
    ] = False,
) -> None:
    """Validate files and folders; exit 0 clean, 1 on errors, 2 on bad usage or input."""
    from holodeck_lsp.check.checker import CheckOptions, check_changed, check_paths
    from holodeck_lsp.check.formats import TextFormat
    from holodeck_lsp.validation.context import user_config_dir
    from holodeck_lsp.validation.validate import ValidationContext

    overrides = _parse_severities(severity or [])
    context = ValidationContext(
        user_config_dir=None if no_user_config else user_config_dir(),
        search_paths=[Path.cwd()],
        import_graders=import_graders,
        severity_overrides=overrides,
    )
    stdin = None
    targets = []
    for raw in paths:
        if raw == "-":
            if stdin is not None:
                raise typer.BadParameter("'-' may be given once")
            data = sys.stdin.buffer.read(context.max_bytes + 1)  # a size limit, as for files
            if len(data) > context.max_bytes:
                typer.echo(f"stdin has more than {context.max_bytes:,} bytes", err=True)
                raise typer.Exit(EXIT_USAGE)
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                typer.echo("stdin is not UTF-8 text", err=True)
                raise typer.Exit(EXIT_USAGE) from None
            stdin = (stdin_filename or "<stdin>.agent.yaml", text)
        else:
            targets.append(Path(raw))
    options = CheckOptions(context, tuple(pattern) if pattern else DEFAULT_PATTERNS)
    if (fix or diff or changed_files) and stdin is not None:
        raise typer.BadParameter("--fix, --diff and --changed-files work on files, not on '-'")

    def check_all() -> CheckResult:
        if changed_files:
            return check_changed(targets, options)
        return check_paths(targets, options, stdin)

    result = check_all()
    would_change = False
    if fix or diff:
        fixed = _fixes(result, context, write=fix)
        if diff:
            for one in fixed:
                sys.stdout.write(one.diff())
            sys.stdout.flush()  # the patch before the report, also where both streams meet
        if fixed:
            count = sum(one.applied for one in fixed)
            done = "fixed" if fix else "would fix"
            typer.echo(f"{done} {count} problem(s) in {len(fixed)} file(s)", err=True)
            if not fix:  # nothing written: the fixed texts stand in for the files
                context.overlay = _overlay(fixed)
            result = check_all()  # what the fixes leave
        would_change = diff and not fix and bool(fixed)
    chosen = FORMATS[output_format]
    # With --diff, stdout holds the patch alone (`git apply` takes it); the report follows
    # on stderr. Errors no fix removes are reported, and fail, in every mode.
    stream = sys.stderr if diff else sys.stdout
    (TextFormat(color) if chosen is TextFormat else chosen()).report(result, stream)
    if result.unreadable:
        for path, reason in result.unreadable:
            typer.echo(f"error: cannot read {visible(path)}: {visible(reason)}", err=True)
        raise typer.Exit(EXIT_USAGE)
    raise typer.Exit(EXIT_FAILED if result.error_count or would_change else EXIT_OK)


def _fixes(result: CheckResult, context: ValidationContext, write: bool) -> list[FixedFile]:
    """The files the safe fixes change, fixed; with ``write`` (`--fix`) the ones written."""
    from holodeck_lsp.check.fixing import WriteRefused, fix_files, write_fixed

    fixed = fix_files([f for f in result.files if f.diagnostics], context)
    if not write:
        return fixed
    written = []
    for one in fixed:
        try:
            write_fixed(one)
        except (WriteRefused, OSError) as exc:
            typer.echo(f"error: not writing the fixes of {one.file}: {exc}", err=True)
            continue
        written.append(one)
    return written


def _overlay(fixed: list[FixedFile]) -> Callable[[Path], str | None]:
    """The fixed texts, by resolved path, as the validation reads files."""
    texts = {Path(one.file).resolve(): one.after for one in fixed}
    return texts.get


@app.command()
def serve(
    tcp: Annotated[
        str | None, typer.Option(help="Listen on HOST:PORT instead of stdio (for debugging).")
    ] = None,
) -> None:
    """Start the language server (stdio by default)."""
    from holodeck_lsp.server.start import serve as run_server
    from holodeck_lsp.server.start import tcp_address

    if tcp is None:
        run_server()
        return
    try:
        host, port = tcp_address(tcp)
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from None
    run_server(host=host, port=port)


@app.command()
def schema(
    kind: Annotated[str, typer.Option(help="agent or test-cases.")] = "agent",
    output: Annotated[Path | None, typer.Option(help="Write here instead of stdout.")] = None,
) -> None:
    """Print or write the JSON Schema generated from the models."""
    from holodeck_lsp.schema.generate import KINDS, render

    if kind not in KINDS:
        raise typer.BadParameter(f"kind must be one of {', '.join(KINDS)}")
    text = render(kind)
    if output is None:
        sys.stdout.write(text)
    else:
        output.write_text(text, encoding="utf-8")


_HISTORY_DIR_HELP = (
    "Keep the run in this folder instead of results/<slug>/ beside the agent file "
    "(holodeck-lsp history reads it)."
)
_NO_HISTORY_HELP = "Keep no record of this run in the run history."


@app.command()
def run(
    agent_file: Annotated[
        Path, typer.Argument(help="The agent YAML whose test cases run (as holodeck test's).")
    ] = Path("agent.yaml"),
    agent: Annotated[
        str | None,
        typer.Option(
            "--agent", help="Run against a Python agent: pkg.mod:factory (see docs/runner.md)."
        ),
    ] = None,
    parallel: Annotated[
        int | None,
        typer.Option(
            "--parallel",
            "-p",
            "--parallel-test-cases",
            help="Test cases at once (beats execution.parallel_test_cases).",
        ),
    ] = None,
    llm_timeout: Annotated[
        float | None,
        typer.Option(
            "--llm-timeout",
            "--timeout",
            help="Seconds per turn (beats execution.llm_timeout; "
            f"default {DEFAULT_LLM_TIMEOUT:g}).",
        ),
    ] = None,
    grader_timeout: Annotated[
        float,
        typer.Option(help="Seconds a code grader may take per call; then its metric fails."),
    ] = DEFAULT_GRADER_TIMEOUT,
    record: Annotated[
        Path | None, typer.Option(help="Write every exchange with the agent to this JSONL file.")
    ] = None,
    replay: Annotated[
        Path | None, typer.Option(help="Answer every turn from a recorded JSONL file, offline.")
    ] = None,
    repeat: Annotated[
        int,
        typer.Option(help="Run each test case K times in fresh sessions; report pass^k, pass@k."),
    ] = 1,
    pass_rule: Annotated[
        str,
        typer.Option(help="With --repeat: a case passes when all, any or FRACTION attempts pass."),
    ] = "all",
    resume: Annotated[
        Path | None,
        typer.Option(
            help="Finish an interrupted run: recorded exchanges are replayed, the rest run "
            "live; recorded into this file again (or --record)."
        ),
    ] = None,
    output: Annotated[
        list[Path] | None,
        typer.Option("--output", "-o", help="Report file: .json, .md, .xml or .html. Repeatable."),
    ] = None,
    events: Annotated[
        str | None,
        typer.Option(
            "--events",
            metavar="FILE|-",
            help="Write the run as it goes, JSON Lines (docs/run-events.md); - for stdout.",
        ),
    ] = None,
    case: Annotated[
        int | None,
        typer.Option(help="Run only the test case at this position (0-based) in the suite."),
    ] = None,
    up_to_turn: Annotated[
        int | None,
        typer.Option(help="With --case: run its turns up to this one (0-based) only."),
    ] = None,
    from_report: Annotated[
        Path | None,
        typer.Option(
            help="Run nothing: write a report's results as --events of this suite "
            "(an editor places a CI failure this way)."
        ),
    ] = None,
    baseline: Annotated[
        Path | None,
        typer.Option(
            help="An earlier run's JSON report (or a folder of its shards): what changed "
            "since, beside each case on the terminal and in the Markdown and HTML reports."
        ),
    ] = None,
    keyword: Annotated[
        list[str] | None,
        typer.Option("-k", help="Run test cases whose name contains this. Repeatable."),
    ] = None,
    limit: Annotated[
        int | None, typer.Option("--limit", "-n", help="Run the first N test cases only.")
    ] = None,
    shard: Annotated[
        str | None, typer.Option(help="Run shard I of N (I/N), a stable partition.")
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print only the summary.")] = False,
    no_user_config: Annotated[
        bool, typer.Option("--no-user-config", help="Ignore ~/.holodeck/config.yaml.")
    ] = False,
    isolate_mcp: Annotated[
        bool,
        typer.Option(
            "--isolate-mcp", help="Start MCP servers per test case instead of once per run."
        ),
    ] = False,
    reingest: Annotated[
        bool,
        typer.Option(
            "--reingest",
            "--force-ingest",
            "-f",
            help="Embed every document again, ignoring the embeddings cache.",
        ),
    ] = False,
    # HoloDeck's `holodeck test run` options (docs/coming-from-holodeck.md), and ours about it.
    verbose: Annotated[
        bool,
        typer.Option(
            "--verbose", "-v", help="Every test case's line, then each turn's metrics and scores."
        ),
    ] = False,
    report_format: Annotated[
        str | None,
        typer.Option(
            "--format",
            help="Write every --output in this format (default: by its extension, else JSON).",
            click_type=click.Choice(list(REPORT_FORMATS)),
        ),
    ] = None,
    no_dotenv: Annotated[
        bool,
        typer.Option(
            "--no-dotenv", help="Do not load ./.env and ~/.holodeck/.env (holodeck test does)."
        ),
    ] = False,
    strict_parity: Annotated[
        bool,
        typer.Option(
            "--strict-parity",
            help="Stop (exit 2) when a documented difference from holodeck test can change "
            "this suite's verdicts, instead of warning.",
        ),
    ] = False,
    history_dir: Annotated[Path | None, typer.Option(help=_HISTORY_DIR_HELP)] = None,
    no_history: Annotated[bool, typer.Option("--no-history", help=_NO_HISTORY_HELP)] = False,
) -> None:
    """Run the test cases; exit 0 all passed, 1 some failed, 2 configuration, 3 execution error."""
    from holodeck_lsp.runner.command import (
        CollectOptions,
        ExecuteOptions,
        ReportOptions,
        RunOptions,
        run_command,
    )
    from holodeck_lsp.runner.report.run_keeping.keep_run import KeepOptions

    options = RunOptions(
        agent_file=agent_file,
        collect=CollectOptions(
            user_config=not no_user_config,
            keywords=list(keyword or []),
            limit=limit,
            shard=shard,
            case=case,
            up_to_turn=up_to_turn,
            repeat=repeat,
            dotenv=not no_dotenv,
            strict_parity=strict_parity,
        ),
        execute=ExecuteOptions(
            python_agent=agent,
            parallel=parallel,
            llm_timeout=llm_timeout,
            grader_timeout=grader_timeout,
            record=record,
            replay=replay,
            resume=resume,
            isolate_mcp=isolate_mcp,
            reingest=reingest,
        ),
        report=ReportOptions(
            outputs=list(output or []),
            events=events,
            quiet=quiet,
            pass_rule=pass_rule,
            from_report=from_report,
            baseline=baseline,
            verbose=verbose,
            report_format=report_format,
            keeping=KeepOptions(history_dir, not no_history, _command_line(), quiet),
        ),
    )
    raise typer.Exit(run_command(options, sys.stdout, sys.stderr))


@app.command()
def merge(
    reports: Annotated[list[Path], typer.Argument(help="JSON reports of `run` (e.g. shards).")],
    output: Annotated[
        list[Path] | None,
        typer.Option(
            "--output", "-o", help="Merged report: .json, .md, .xml or .html. Repeatable."
        ),
    ] = None,
    allow_partial: Annotated[
        bool,
        typer.Option("--allow-partial", help="Merge even when shards of the run are missing."),
    ] = False,
    history_dir: Annotated[Path | None, typer.Option(help=_HISTORY_DIR_HELP)] = None,
    no_history: Annotated[bool, typer.Option("--no-history", help=_NO_HISTORY_HELP)] = False,
) -> None:
    """Join the JSON reports of shards into one; exit 0 all passed, 1 some failed."""
    from holodeck_lsp.runner.command import merge_command
    from holodeck_lsp.runner.report.run_keeping.keep_run import KeepOptions

    keeping = KeepOptions(history_dir, not no_history, _command_line())
    code = merge_command(
        reports, list(output or []), sys.stdout, sys.stderr, allow_partial, keeping
    )
    raise typer.Exit(code)


@app.command()
def compare(
    base: Annotated[
        Path,
        typer.Argument(
            help="The earlier run: a JSON report (of run, merge or holodeck test), a folder "
            "of shard reports, or a history: a folder of kept runs (results/<slug>/, of run "
            "or holodeck test) or the agent file whose runs they are."
        ),
    ],
    head: Annotated[Path, typer.Argument(help="The later run, as BASE.")],
    output_format: Annotated[
        str,
        typer.Option(
            "--format",
            "-f",
            help="text for a terminal, markdown for a pull-request comment, json.",
            click_type=click.Choice(list(COMPARE_FORMATS)),
        ),
    ] = COMPARE_FORMATS[0],
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Write here instead of stdout.")
    ] = None,
    fail_on: Annotated[
        str,
        typer.Option(
            "--fail-on",
            help="Exit 1 on a regression beyond noise, on any changed turn, or never.",
            click_type=click.Choice(list(FAIL_ON)),
        ),
    ] = FAIL_ON[0],
    alpha: Annotated[
        float,
        typer.Option(
            help="The gate's false-alarm rate: a pass rate fallen with p below it (adjusted "
            "over the turns) is beyond noise."
        ),
    ] = DEFAULT_ALPHA,
    correction: Annotated[
        str,
        typer.Option(
            help="Over the turns tested: bh (Benjamini-Hochberg) or holm.",
            click_type=click.Choice(list(CORRECTIONS)),
        ),
    ] = CORRECTIONS[0],
    base_last: Annotated[
        int | None,
        typer.Option(help="BASE a history: pool only its latest N runs.", show_default=False),
    ] = None,
    base_since: Annotated[
        str | None,
        typer.Option(
            help="BASE a history: pool only its runs made since this ISO 8601 date or time "
            "(UTC unless it says otherwise).",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Compare two runs turn by turn; exit 0, 1 on a regression (--fail-on), 2 bad input."""
    from holodeck_lsp.runner.report.comparison.compare_command import (
        CompareOptions,
        compare_command,
    )

    options = CompareOptions(
        base, head, output_format, output, fail_on, alpha, correction, base_last, base_since
    )
    raise typer.Exit(compare_command(options, sys.stdout, sys.stderr))


@app.command()
def history(
    path: Annotated[
        Path,
        typer.Argument(
            help="An agent file (its runs are in results/<slug>/ beside it) or a results folder."
        ),
    ],
    output_format: Annotated[
        str,
        typer.Option(
            "--format",
            "-f",
            help="text for a terminal, json (docs/history.schema.json), markdown, or html (one "
            "self-contained page).",
            click_type=click.Choice(list(HISTORY_FORMAT_NAMES)),
        ),
    ] = HISTORY_FORMAT_NAMES[0],
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Write here instead of stdout.")
    ] = None,
    last: Annotated[int | None, typer.Option(help="Only the last N runs.")] = None,
    since: Annotated[
        str | None, typer.Option(help="Only runs at or after this date or ISO 8601 time (UTC).")
    ] = None,
    prompt_version: Annotated[
        list[str] | None,
        typer.Option("--prompt-version", help="Only runs of this prompt version. Repeatable."),
    ] = None,
    model: Annotated[
        list[str] | None, typer.Option(help="Only runs of this model (model.name). Repeatable.")
    ] = None,
    no_index: Annotated[
        bool,
        typer.Option("--no-index", help="Read every run file, ignoring the index of outcomes."),
    ] = False,
) -> None:
    """The runs kept beside an agent (by run and holodeck test): pass rates, flaky turns."""
    from holodeck_lsp.runner.report.history_views.history_command import (
        HistoryOptions,
        history_command,
    )

    options = HistoryOptions(
        path=path,
        output_format=output_format,
        output=output,
        last=last,
        since=since,
        prompt_versions=list(prompt_version or []),
        models=list(model or []),
        use_index=not no_index,
    )
    raise typer.Exit(history_command(options, sys.stdout, sys.stderr))


def _print_version(asked: bool) -> None:
    if asked:
        typer.echo(f"holodeck-lsp {__version__}")
        raise typer.Exit(EXIT_OK)


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_print_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    """Validate, serve and run HoloDeck agent and test-suite YAML."""


def main() -> None:
    """The command line (from `holodeck_lsp.__main__`, the console entry point): any
    unexpected crash is exit 2 with a message, never a trace."""
    try:
        app()
    except SystemExit:
        raise
    except KeyboardInterrupt:
        sys.exit(EXIT_INTERRUPTED)
    except Exception as exc:
        print(f"holodeck-lsp: internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
        sys.exit(EXIT_USAGE)
