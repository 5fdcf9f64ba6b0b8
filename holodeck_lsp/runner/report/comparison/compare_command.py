"""`holodeck-lsp compare` as a function: options in, exit code out. Here, beside what it
wires, rather than in `runner/command.py`: `compare` starts without loading the runner's
backends, tools and HTTP client."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from holodeck_lsp.exit_codes import EXIT_EXECUTION, EXIT_FAILED, EXIT_OK, EXIT_USAGE
from holodeck_lsp.run_defaults import COMPARE_FORMATS, CORRECTIONS, DEFAULT_ALPHA, FAIL_ON
from holodeck_lsp.runner.report.comparison.change_groups import fails, verdict_line
from holodeck_lsp.runner.report.comparison.comparison_formats import COMPARISON_FORMATS
from holodeck_lsp.runner.report.comparison.history_side import (
    HistoryChoice,
    history_folder,
    parse_since,
    read_history_base,
)
from holodeck_lsp.runner.report.comparison.multiple_testing import correction_named
from holodeck_lsp.runner.report.comparison.run_sides import RunSide, read_side
from holodeck_lsp.runner.report.comparison.side_outcomes import SideOutcomes, report_outcomes
from holodeck_lsp.runner.report.comparison.turn_changes import compare_sides
from holodeck_lsp.runner.report.report_reading import ReportError
from holodeck_lsp.runner.services.atomic_output import atomic_write
from holodeck_lsp.runner.services.redaction import Secrets, terminal_stream
from holodeck_lsp.runner.services.secret_sources import environment_secrets


@dataclass
class CompareOptions:
    base: Path
    head: Path
    output_format: str = COMPARE_FORMATS[0]
    output: Path | None = None  # stdout when none
    fail_on: str = FAIL_ON[0]
    alpha: float = DEFAULT_ALPHA
    correction: str = CORRECTIONS[0]
    base_last: int | None = None  # BASE a history: its latest N runs
    base_since: str | None = None  # BASE a history: its runs since this date


def _usage_error(options: CompareOptions) -> str | None:
    if not 0.0 < options.alpha < 1.0:
        return f"--alpha must be between 0 and 1, got {options.alpha:g}"
    if options.base_last is not None and options.base_last < 1:
        return f"--base-last must be at least 1, got {options.base_last}"
    if options.base_since is not None:
        try:
            parse_since(options.base_since)
        except ValueError as exc:
            return str(exc)
    return None


def read_base(options: CompareOptions, head: RunSide, err: TextIO) -> SideOutcomes:
    """BASE: a history (an agent file, or a folder of kept runs), else a report or a folder
    of shard reports; raises ReportError."""
    folder = history_folder(options.base)
    if folder is not None:
        since = parse_since(options.base_since) if options.base_since else None
        head_cases = tuple(case.key for case in head.cases)
        choice = HistoryChoice(
            options.base_last, since, frozenset({head.report.timestamp}), head_cases
        )
        history = read_history_base(folder, choice)
        if history is not None:
            for note in history.notes:
                err.write(f"note: {note}\n")
            return history.side
        if folder != options.base:  # an agent file whose results folder holds no run
            raise ReportError(f"{folder}, the history of {options.base}, holds no kept run")
    if options.base_last is not None or options.base_since is not None:
        raise ReportError(
            f"--base-last and --base-since choose runs of a history; {options.base} is not one"
        )
    return report_outcomes(read_side(options.base))


def compare_command(options: CompareOptions, out: TextIO, err: TextIO) -> int:
    """The whole `compare` command; returns the exit code."""
    secrets = Secrets(environment_secrets(os.environ))
    err = terminal_stream(err, secrets)
    problem = _usage_error(options)
    if problem is not None:
        err.write(f"error: {problem}\n")
        return EXIT_USAGE
    try:
        head = read_side(options.head)
        base = read_base(options, head, err)
    except ReportError as exc:
        err.write(f"error: {exc}\n")
        return EXIT_USAGE
    if base.summary.agent_name != head.report.agent_name:
        err.write(
            f"warning: BASE is a run of agent {base.summary.agent_name!r}, "
            f"HEAD of {head.report.agent_name!r}\n"
        )
    correction = correction_named(options.correction)
    comparison = compare_sides(base, report_outcomes(head), options.alpha, correction)
    comparison = secrets.mask_model(comparison)
    text = secrets.mask(COMPARISON_FORMATS[options.output_format](comparison, options.fail_on))
    if options.output is None:
        out.write(text)
    else:
        try:
            atomic_write(options.output, text)
        except OSError as exc:
            err.write(f"error: cannot write {options.output}: {exc.strerror or exc}\n")
            return EXIT_EXECUTION
    if options.output is not None or options.output_format != "text":
        err.write(verdict_line(comparison, options.fail_on) + "\n")
    return EXIT_FAILED if fails(comparison, options.fail_on) else EXIT_OK
