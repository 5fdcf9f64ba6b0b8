"""The `holodeck-lsp` command: options in, a command called, its exit code out.

Heavy imports (the language server, the runner) happen inside the command that needs
them, so `check` starts fast enough for a pre-commit hook.
"""

from __future__ import annotations

import gc
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import click
import typer

from holodeck_lsp import __version__
from holodeck_lsp.check.formats import FORMATS
from holodeck_lsp.exit_codes import EXIT_FAILED, EXIT_OK, EXIT_USAGE
from holodeck_lsp.validation.codes import (
    SEVERITY_LEVELS,
    UnknownCode,
    UnknownLevel,
    severity_override,
)
from holodeck_lsp.validation.diagnostics import Severity

if TYPE_CHECKING:
    from holodeck_lsp.check.results import CheckResult
    from holodeck_lsp.validation.validate import ValidationContext

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
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
    ] = "text",
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
            help="Override a rule's severity: CODE=error|warning|information|hint|off. Repeatable.",
        ),
    ] = None,
    pattern: Annotated[
        list[str] | None,
        typer.Option(
            "--pattern",
            help="File-name pattern of agent files in folders "
            "(default: agent.yaml, agent.yml, *.agent.yaml, *.agent.yml). Repeatable.",
        ),
    ] = None,
    color: Annotated[bool | None, typer.Option("--color/--no-color", help="Colour text.")] = None,
    fix: Annotated[
        bool,
        typer.Option("--fix", help="Apply the safe quick fixes in place, then report the rest."),
    ] = False,
    diff: Annotated[
        bool,
        typer.Option("--diff", help="Print the safe quick fixes as a diff; change nothing."),
    ] = False,
) -> None:
    """Validate files and folders; exit 0 clean, 1 on errors, 2 on bad usage or input."""
    # A short-lived process building many long-lived objects: the cyclic collector would
    # rescan them over and over (a large suite checks 3x faster without it), and
    # reference counting frees what little is garbage.
    gc.disable()
    from holodeck_lsp.check.checker import CheckOptions, check_paths
    from holodeck_lsp.check.formats import TextFormat
    from holodeck_lsp.validation.documents import DEFAULT_PATTERNS
    from holodeck_lsp.validation.validate import ValidationContext

    overrides = _parse_severities(severity or [])
    context = ValidationContext(
        user_config_dir=None if no_user_config else Path.home() / ".holodeck",
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
            data = sys.stdin.buffer.read()
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                typer.echo("stdin is not UTF-8 text", err=True)
                raise typer.Exit(EXIT_USAGE) from None
            stdin = (stdin_filename or "<stdin>.agent.yaml", text)
        else:
            targets.append(Path(raw))
    options = CheckOptions(context, tuple(pattern) if pattern else DEFAULT_PATTERNS)
    if (fix or diff) and stdin is not None:
        raise typer.BadParameter("--fix and --diff work on files, not on '-'")
    result = check_paths(targets, options, stdin)
    if diff:
        raise typer.Exit(_print_fixes(result, context))
    if fix and _apply_fixes(result, context):
        result = check_paths(targets, options, stdin)  # what is left
    chosen = FORMATS[output_format]
    (TextFormat(color) if chosen is TextFormat else chosen()).report(result, sys.stdout)
    if result.unreadable:
        for path, reason in result.unreadable:
            typer.echo(f"error: cannot read {path}: {reason}", err=True)
        raise typer.Exit(EXIT_USAGE)
    raise typer.Exit(EXIT_FAILED if result.error_count else EXIT_OK)


def _print_fixes(result: CheckResult, context: ValidationContext) -> int:
    """`--diff`: exit 1 when a fix would change a file, else 0."""
    from holodeck_lsp.check.fixing import fix_files

    fixed = fix_files([(f.file, f.text) for f in result.files if f.diagnostics], context)
    for one in fixed:
        sys.stdout.write(one.diff())
    return EXIT_FAILED if fixed else EXIT_OK


def _apply_fixes(result: CheckResult, context: ValidationContext) -> bool:
    """`--fix`: writes the fixed files; whether any changed."""
    from holodeck_lsp.check.fixing import fix_files, write_fixed

    fixed = fix_files([(f.file, f.text) for f in result.files if f.diagnostics], context)
    for one in fixed:
        write_fixed(one)
    if fixed:
        count = sum(one.applied for one in fixed)
        typer.echo(f"fixed {count} problem(s) in {len(fixed)} file(s)", err=True)
    return bool(fixed)


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


@app.command()
def run(
    agent_file: Annotated[Path, typer.Argument(help="The agent YAML whose test cases run.")],
    agent: Annotated[
        str | None,
        typer.Option(
            "--agent", help="Run against a Python agent: pkg.mod:factory (see docs/runner.md)."
        ),
    ] = None,
    parallel: Annotated[
        int | None,
        typer.Option(
            "--parallel", "-p", help="Test cases at once (beats execution.parallel_test_cases)."
        ),
    ] = None,
    llm_timeout: Annotated[
        float | None,
        typer.Option(help="Seconds per turn (beats execution.llm_timeout; default 60)."),
    ] = None,
    grader_timeout: Annotated[
        float,
        typer.Option(help="Seconds a code grader may take per call; then its metric fails."),
    ] = 30.0,
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
    keyword: Annotated[
        list[str] | None,
        typer.Option("-k", help="Run test cases whose name contains this. Repeatable."),
    ] = None,
    limit: Annotated[int | None, typer.Option(help="Run at most N test cases.")] = None,
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
            "--reingest", help="Embed every document again, ignoring the embeddings cache."
        ),
    ] = False,
) -> None:
    """Run the test cases; exit 0 all passed, 1 some failed, 2 configuration, 3 execution error."""
    from holodeck_lsp.runner.command import RunOptions
    from holodeck_lsp.runner.command import run as run_suite

    options = RunOptions(
        agent_file=agent_file,
        python_agent=agent,
        parallel=parallel,
        llm_timeout=llm_timeout,
        grader_timeout=grader_timeout,
        resume=resume,
        repeat=repeat,
        pass_rule=pass_rule,
        record=record,
        replay=replay,
        outputs=list(output or []),
        keywords=list(keyword or []),
        limit=limit,
        shard=shard,
        quiet=quiet,
        user_config=not no_user_config,
        isolate_mcp=isolate_mcp,
        reingest=reingest,
        events=events,
        case=case,
        up_to_turn=up_to_turn,
        from_report=from_report,
    )
    raise typer.Exit(run_suite(options, sys.stdout, sys.stderr))


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
) -> None:
    """Join the JSON reports of shards into one; exit 0 all passed, 1 some failed."""
    from holodeck_lsp.runner.command import merge as merge_reports

    code = merge_reports(reports, list(output or []), sys.stdout, sys.stderr, allow_partial)
    raise typer.Exit(code)


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
        sys.exit(130)
    except Exception as exc:
        print(f"holodeck-lsp: internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
        sys.exit(EXIT_USAGE)
