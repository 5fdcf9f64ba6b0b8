"""Keeping a run in its history, as `holodeck test` keeps it (`_persist_eval_run` in
`holodeck/cli/commands/test.py`): after a run with results, its EvalRun goes to
`results/<slug>/` beside the agent file (or `--history-dir`); `--no-history` keeps nothing.
Keeping never changes the run's exit code: a run that cannot be kept is a warning.

Shards are one run: a `--shard` run keeps nothing, and `merge` keeps the merged run (once,
however often it is retried), its metadata read from the agent file the shards ran.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from holodeck_lsp.history.report_environment import SUITE_KEY
from holodeck_lsp.history.results_folder import results_folder
from holodeck_lsp.history.turn_standings import Standings, standings
from holodeck_lsp.models.agent import Agent
from holodeck_lsp.models.test_result import TestReport
from holodeck_lsp.runner.collect.loading import ConfigError, load_suite
from holodeck_lsp.runner.collect.plan import plan_suite
from holodeck_lsp.runner.report.formats import renderer_for
from holodeck_lsp.runner.report.formats.html_report import render_html
from holodeck_lsp.runner.report.report_reading import ReportError, read_report
from holodeck_lsp.runner.report.run_keeping.eval_run_building import (
    build_eval_run,
    eval_run_text,
)
from holodeck_lsp.runner.report.run_keeping.kept_run_files import keep_file
from holodeck_lsp.runner.report.run_keeping.prompt_versions import PromptVersionError
from holodeck_lsp.runner.report.test_report import suite_digest
from holodeck_lsp.runner.services.redaction import Secrets
from holodeck_lsp.runner.services.secret_sources import config_secrets


@dataclass(frozen=True)
class KeepOptions:
    """Where a run is kept (`--history-dir`, else `results/<slug>/`), or not (`--no-history`)."""

    folder: Path | None = None
    keep: bool = True
    command_line: tuple[str, ...] = ()
    quiet: bool = False


def history_before(
    outputs: list[Path],
    agent_file: Path,
    agent_name: str,
    options: KeepOptions,
    chosen: str | None = None,
) -> Standings | None:
    """The records of the runs kept before this one (where this run is kept), for an HTML
    report to show beside each case and turn; read only when one is written, and never a
    reason for a run to fail."""
    if not any(renderer_for(path, chosen) is render_html for path in outputs):
        return None
    try:
        folder = options.folder or results_folder(agent_file.resolve().parent, agent_name)
        return standings(folder, update_index=True)
    except Exception:
        return None


def _shown(path: Path) -> str:
    """Relative to the working folder when inside it, as HoloDeck prints it."""
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def _not_kept(err: TextIO, why: str) -> None:
    err.write(f"warning: the run was not kept in its history ({why}); the exit code is the run's\n")


def keep_run(
    report: TestReport,
    *,
    agent: Agent,
    agent_file: Path,
    options: KeepOptions,
    secrets: Secrets,
    out: TextIO,
    err: TextIO,
    shard: tuple[int, int] | None = None,
) -> Path | None:
    """Keep a finished run; returns its file (None when none was kept)."""
    if not options.keep or not report.results:
        return None
    if shard is not None:
        if not options.quiet:
            out.write("shard run not kept: `merge` of the shards keeps the whole run\n")
        return None
    try:
        folder = options.folder or results_folder(agent_file.resolve().parent, report.agent_name)
        run = build_eval_run(report, agent, agent_file, secrets, list(options.command_line))
        path, written = keep_file(folder, report.timestamp, eval_run_text(run, secrets))
    except OSError as exc:
        _not_kept(err, f"{exc.filename or ''}{': ' if exc.filename else ''}{exc.strerror or exc}")
        return None
    except (PromptVersionError, ValueError) as exc:
        _not_kept(err, str(exc).splitlines()[0])
        return None
    except Exception as exc:  # never the run's exit code, whatever went wrong
        _not_kept(err, f"{type(exc).__name__}: {exc}")
        return None
    if not options.quiet:
        out.write(f"run kept{'' if written else ' already'}: {_shown(path)}\n")
    return path


def _sharded(paths: list[Path]) -> bool:
    """Whether `merge` joined shards: more than one report, or the one shard of `1/1`."""
    if len(paths) != 1:
        return True
    try:
        return "shard" in read_report(paths[0]).environment
    except ReportError:
        return False


def keep_merged_run(
    report: TestReport,
    *,
    paths: list[Path],
    options: KeepOptions,
    secrets: Secrets,
    out: TextIO,
    err: TextIO,
) -> Path | None:
    """Keep the run `merge` joined from the shard reports ``paths`` (a merge of whole
    runs keeps nothing: each was kept when it ran). The agent file is the one the shards
    ran, read without running any of its code; it must still hold the suite they ran."""
    if not options.keep or not report.results or not _sharded(paths):
        return None
    agent_file = Path(report.agent_config_path)
    try:
        suite = load_suite(agent_file, secrets_needed=False, import_code=False)
    except ConfigError:
        _not_kept(err, f"its agent file {agent_file} does not load")
        return None
    if suite_digest(plan_suite(suite.agent)) != report.environment.get(SUITE_KEY):
        _not_kept(err, f"{agent_file} no longer holds the test cases the shards ran")
        return None
    secrets.add_all(config_secrets(suite.agent))
    return keep_run(
        report,
        agent=suite.agent,
        agent_file=agent_file,
        options=options,
        secrets=secrets,
        out=out,
        err=err,
    )
