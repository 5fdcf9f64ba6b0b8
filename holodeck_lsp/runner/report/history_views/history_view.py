"""A history as `holodeck-lsp history` tells it (`models/history_report.py`): the runs shown
with their pass rates and intervals, and every turn over those runs."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from holodeck_lsp.history.run_records import PASSED, HistoryRun
from holodeck_lsp.history.turn_history import TurnHistory, turn_histories
from holodeck_lsp.models.history_report import HistoryRunEntry, HistoryTurnEntry, RunHistory
from holodeck_lsp.runner.report.history_views.pass_rate_intervals import clustered, wilson


def run_entry(run: HistoryRun) -> HistoryRunEntry:
    # Attempts passed and run, per case: one pass over the run's cases.
    groups = [(case.verdicts.count(PASSED), len(case.verdicts)) for case in run.cases]
    passed, attempts = sum(y for y, _ in groups), sum(n for _, n in groups)
    repeat = max((n for _, n in groups), default=1)
    if repeat > 1:
        (low, high), interval = clustered(groups), "clustered"
    else:
        (low, high), interval = wilson(passed, attempts), "wilson"
    return HistoryRunEntry(
        id=run.run_id,
        file=str(run.path),
        time=run.timestamp,
        made_by=run.made_by,
        prompt_version=run.prompt_version,
        prompt_hash=run.prompt_hash,
        model=run.model,
        git_commit=run.git_commit,
        cases=len(run.cases),
        cases_passed=sum(case.passed for case in run.cases),
        attempts=attempts,
        attempts_passed=passed,
        pass_rate=passed / attempts if attempts else 0.0,
        pass_rate_low=low,
        pass_rate_high=high,
        interval=interval,
        tokens=run.tokens,
        duration_ms=run.duration_ms,
        repeat=repeat,
        pass_rule=run.pass_rule,
        interrupted=run.interrupted,
    )


def turn_entry(turn: TurnHistory, runs: list[HistoryRun]) -> HistoryTurnEntry:
    since = turn.failing_since
    return HistoryTurnEntry(
        case=turn.case,
        case_index=turn.case_index,
        turn=turn.turn,
        runs=turn.runs,
        runs_passed=turn.passed_runs,
        attempts=turn.attempts,
        attempts_passed=turn.passed_attempts,
        pass_rate=turn.pass_rate,
        flaky=turn.flaky,
        failing_since=runs[since].run_id if since is not None else None,
        outcomes="".join(turn.outcomes),
    )


@dataclass(frozen=True)
class HistoryPage:
    """What a format renders: the view, and for the HTML page the runs and turns it was
    made from, and the folder its links to the run files start from (None: absolute)."""

    view: RunHistory
    runs: list[HistoryRun]
    turns: list[TurnHistory]
    links_from: Path | None = None


def history_page(
    folder: Path, runs: list[HistoryRun], refused: list[str], links_from: Path | None = None
) -> HistoryPage:
    """The page of ``runs`` (oldest first) of ``folder``."""
    turns = turn_histories(runs)
    view = RunHistory(
        folder=str(folder),
        agent=runs[-1].agent_name if runs else None,
        runs=[run_entry(run) for run in runs],
        turns=[turn_entry(turn, runs) for turn in turns],
        refused=refused,
    )
    return HistoryPage(view, runs, turns, links_from)
