"""`holodeck-lsp history` as a function: options in, exit code out. Here, beside what it
wires, so `history` starts without loading the runner's backends, tools and HTTP client.

PATH is an agent file (its runs are in `results/<slug>/` beside it) or a results folder.
`holodeck test` keeps its own runs without our redaction (an MCP server's `env:` and
`headers:` in the clear), so what the page shows of a configuration is masked as a run
masks its own: values of credential-named fields and of `env:`/`headers:` mappings, the
credentials of URLs, and every credential-named environment variable's value."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from holodeck_lsp.exit_codes import EXIT_EXECUTION, EXIT_OK, EXIT_USAGE
from holodeck_lsp.history.run_filters import RunFilter, parse_since
from holodeck_lsp.history.run_history import agent_results_folder, read_history
from holodeck_lsp.history.run_records import HistoryRun
from holodeck_lsp.nesting import MAX_FILE_DEPTH, loads
from holodeck_lsp.runner.report.history_views.history_formats import HISTORY_FORMATS
from holodeck_lsp.runner.report.history_views.history_view import history_page
from holodeck_lsp.runner.services.atomic_output import atomic_write
from holodeck_lsp.runner.services.redaction import Secrets, terminal_stream
from holodeck_lsp.runner.services.secret_sources import (
    SECRET_MAPPINGS,
    SECRET_NAME,
    environment_secrets,
    value_secrets,
)
from holodeck_lsp.runner.services.service_targets import url_credentials


@dataclass
class HistoryOptions:
    path: Path
    output_format: str = "text"
    output: Path | None = None  # stdout when none
    last: int | None = None
    since: str | None = None
    prompt_versions: list[str] = field(default_factory=list)
    models: list[str] = field(default_factory=list)
    use_index: bool = True


class HistoryUsageError(Exception):
    """The command cannot start; the message says why (exit 2)."""


def _folder(path: Path) -> Path:
    if path.is_dir():
        return path
    if not path.exists():
        raise HistoryUsageError(f"{path} does not exist: give an agent file or a results folder")
    try:
        return agent_results_folder(path)
    except ValueError as exc:
        raise HistoryUsageError(str(exc)) from None


def _run_filter(options: HistoryOptions) -> RunFilter:
    if options.last is not None and options.last < 0:
        raise HistoryUsageError("--last must be >= 0")
    try:
        since = parse_since(options.since) if options.since is not None else None
    except ValueError as exc:
        raise HistoryUsageError(str(exc)) from None
    return RunFilter(
        last=options.last,
        since=since,
        prompt_versions=tuple(options.prompt_versions),
        models=tuple(options.models),
    )


def _segments(path: str) -> list[str]:
    return [part for part in path.replace("]", "").replace("[", ".").split(".") if part]


def config_secrets_of(runs: list[HistoryRun]) -> list[str]:
    """The secrets the runs' configurations show: what `holodeck test` leaves in the clear."""
    found: list[str] = []
    for run in runs:
        for path, line in run.config.items():
            try:
                value = loads(line, MAX_FILE_DEPTH)
            except ValueError:
                continue
            if not isinstance(value, str):
                continue
            parts = _segments(path)
            named = bool(parts) and SECRET_NAME.search(parts[-1]) is not None
            mapped = len(parts) > 1 and parts[-2] in SECRET_MAPPINGS
            if named or mapped:
                found.extend(value_secrets(value))
            elif "://" in value:
                found.extend(url_credentials(value))
    return found


def history_command(options: HistoryOptions, out: TextIO, err: TextIO) -> int:
    """The whole `history` command; returns the exit code."""
    secrets = Secrets(environment_secrets(os.environ))
    err = terminal_stream(err, secrets)
    try:
        folder = _folder(options.path)
        chosen = _run_filter(options)
    except HistoryUsageError as exc:
        err.write(f"error: {exc}\n")
        return EXIT_USAGE
    history = read_history(folder, use_index=options.use_index)
    runs = chosen.select(history.runs)
    secrets.add_all(config_secrets_of(runs))
    links_from = options.output.parent if options.output is not None else Path.cwd()
    page = history_page(folder, runs, history.refused, links_from)
    text = secrets.mask(HISTORY_FORMATS[options.output_format](page))
    if options.output_format != "text":
        for refused in history.refused:
            err.write(f"warning: not a run: {refused}\n")
    if options.output is None:
        out.write(text)
        return EXIT_OK
    try:
        atomic_write(options.output, text)
    except OSError as exc:
        err.write(f"error: cannot write {options.output}: {exc.strerror or exc}\n")
        return EXIT_EXECUTION
    return EXIT_OK
