"""A run as HoloDeck's EvalRun keeps it: the report in HoloDeck's shape, and its metadata
(the redacted configuration, the prompt version, the command line, the commit).

HoloDeck's report has no field for what only `run` does, so a kept run says it in the
report's own terms: with `--repeat K` every attempt is a result (K per case, each naming
its case's place in `environment.case_indexes`, the summary counting attempts, as the
dashboard then shows the attempts' pass rate); a run that stopped early says why in
`environment.stop_reason`. `holodeck-lsp history` reads both back.
"""

from __future__ import annotations

from pathlib import Path

from holodeck_lsp.history.report_environment import CASE_INDEXES, STOP_REASON, suite_positions
from holodeck_lsp.hygiene.controls import encodable
from holodeck_lsp.models.agent import Agent
from holodeck_lsp.models.eval_run import EvalRun, EvalRunMetadata
from holodeck_lsp.models.test_result import TestReport
from holodeck_lsp.runner.report.formats import OWN_FIELDS
from holodeck_lsp.runner.report.run_keeping.agent_snapshot import agent_snapshot
from holodeck_lsp.runner.report.run_keeping.git_commits import git_commit
from holodeck_lsp.runner.report.run_keeping.prompt_versions import prompt_version
from holodeck_lsp.runner.score.rollup import summarize
from holodeck_lsp.runner.services.redaction import Secrets, map_strings

_EXCLUDED = {"report": set(OWN_FIELDS)}


def holodeck_report(report: TestReport) -> TestReport:
    """``report`` in HoloDeck's shape: every attempt a result, why it stopped in its
    environment, none of our own fields."""
    environment = dict(report.environment)
    results, summary = report.results, report.summary
    if report.repeats:
        places = suite_positions(report)
        results = [a for repeated in report.repeats for a in repeated.results]
        environment[CASE_INDEXES] = ",".join(
            str(place)
            for place, repeated in zip(places, report.repeats, strict=True)
            for _ in repeated.results
        )
        summary = summarize(results, report.summary.total_duration_ms)
    if report.interrupted:
        environment[STOP_REASON] = report.stop_reason or "stopped early"
    return TestReport(
        agent_name=report.agent_name,
        agent_config_path=report.agent_config_path,
        results=results,
        summary=summary,
        timestamp=report.timestamp,
        holodeck_version=report.holodeck_version,
        environment=environment,
    )


def build_eval_run(
    report: TestReport,
    agent: Agent,
    agent_file: Path,
    secrets: Secrets,
    command_line: list[str],
) -> EvalRun:
    """The kept run of ``report``; raises PromptVersionError when the prompt's version
    cannot be told, ValueError when the parts do not make one run."""
    metadata = EvalRunMetadata(
        agent_config=agent_snapshot(agent, secrets),
        prompt_version=prompt_version(agent.instructions, agent_file),
        holodeck_version=report.holodeck_version,
        cli_args=[secrets.mask(arg) for arg in command_line],
        git_commit=git_commit(agent_file.parent),
    )
    kept = secrets.mask_model(holodeck_report(report))
    return EvalRun(report=kept, metadata=metadata)


def eval_run_text(run: EvalRun, secrets: Secrets) -> str:
    """The kept run's file: JSON of HoloDeck's fields, masked once more. Not indented, as
    HoloDeck's are: a file for programs (its dashboard, `history`), half the size (a
    1,000-case x 4-turn run: 5.7 MB instead of 11 MB) and quicker to read."""
    try:
        text = run.model_dump_json(exclude=_EXCLUDED)
    except ValueError:  # a lone surrogate from a service's JSON: written as an escape
        run = map_strings(run, encodable)
        text = run.model_dump_json(exclude=_EXCLUDED)
    return secrets.mask(text)
