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
from holodeck_lsp.runner.report.comparison.multiple_testing import correction_named
from holodeck_lsp.runner.report.comparison.run_sides import read_side
from holodeck_lsp.runner.report.comparison.turn_changes import compare_runs
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


def compare_command(options: CompareOptions, out: TextIO, err: TextIO) -> int:
    """The whole `compare` command; returns the exit code."""
    secrets = Secrets(environment_secrets(os.environ))
    err = terminal_stream(err, secrets)
    if not 0.0 < options.alpha < 1.0:
        err.write(f"error: --alpha must be between 0 and 1, got {options.alpha:g}\n")
        return EXIT_USAGE
    try:
        base, head = read_side(options.base), read_side(options.head)
    except ReportError as exc:
        err.write(f"error: {exc}\n")
        return EXIT_USAGE
    if base.report.agent_name != head.report.agent_name:
        err.write(
            f"warning: BASE is a run of agent {base.report.agent_name!r}, "
            f"HEAD of {head.report.agent_name!r}\n"
        )
    correction = correction_named(options.correction)
    comparison = secrets.mask_model(compare_runs(base, head, options.alpha, correction))
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
