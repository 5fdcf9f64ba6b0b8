"""BASE as a history: the runs an agent kept in `results/<slug>/` (ours or `holodeck
test`'s), read by `history/`, each turn's passes and attempts pooled over the runs chosen
(`--base-last N`, `--base-since DATE`). A history is a run repeated over time: the gate
judges it as it judges a `--repeat` report.

Which test cases BASE has is what its latest run had (a case dropped from the suite long ago
is not "removed" by every pull request), and HEAD's that an earlier run had (the latest may
have stopped early). Their turns count every run that ran them."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from holodeck_lsp.history.case_keys import CaseKey, case_label
from holodeck_lsp.history.pass_rule import rule_passes
from holodeck_lsp.history.run_history import agent_results_folder, read_history
from holodeck_lsp.history.run_records import PASSED, HistoryRun, parse_time
from holodeck_lsp.models.comparison import RunSummary, TurnOutcome
from holodeck_lsp.runner.report.comparison.pooled_letters import count_turns
from holodeck_lsp.runner.report.comparison.side_outcomes import CaseOutcomes, SideOutcomes
from holodeck_lsp.runner.report.report_reading import ReportError

AGENT_SUFFIXES = (".yaml", ".yml")


@dataclass(frozen=True)
class HistoryChoice:
    """Which of a history's runs BASE pools, and which test cases."""

    last: int | None = None  # the latest N
    since: datetime | None = None  # made at or after
    leave_out: frozenset[str] = frozenset()  # report timestamps (HEAD's own run)
    head_cases: tuple[CaseKey, ...] = ()  # kept from earlier runs when the latest lacks them


@dataclass
class _Pool:
    name: str | None
    index: int
    turns: dict[int, list[int]] = field(default_factory=dict)  # passed, attempts
    cases: list[int] = field(default_factory=lambda: [0, 0])


def parse_since(text: str) -> datetime:
    """`--base-since`: an ISO 8601 date or time (UTC when it names no offset)."""
    moment = parse_time(text)
    if moment is None:
        raise ValueError(f"--base-since takes an ISO 8601 date or time, got {text!r}")
    return moment


def history_folder(path: Path) -> Path | None:
    """The folder that may be BASE's history: an agent file's `results/<slug>/`, or a
    folder (of kept runs, or of shard reports: reading it tells); None for a file. Raises
    ReportError for an agent file that names no agent."""
    if path.suffix.lower() in AGENT_SUFFIXES and path.is_file():
        try:
            return agent_results_folder(path)
        except ValueError as exc:
            raise ReportError(str(exc)) from None
    return path if path.is_dir() else None


def chosen_runs(runs: list[HistoryRun], choice: HistoryChoice) -> list[HistoryRun]:
    """The runs BASE pools, oldest first."""
    kept = [run for run in runs if run.timestamp not in choice.leave_out]
    if choice.since is not None:
        since = choice.since
        kept = [run for run in kept if run.time is not None and run.time >= since]
    if choice.last is not None:
        kept = kept[-choice.last :] if choice.last > 0 else []
    return kept


def _pool(runs: list[HistoryRun]) -> dict[CaseKey, _Pool]:
    pools: dict[CaseKey, _Pool] = {}
    attempts: dict[CaseKey, list[str]] = {}
    for run in runs:
        for case in run.cases:
            pool = pools.get(case.key)
            if pool is None:
                pool = pools[case.key] = _Pool(case.name, case.index)
                attempts[case.key] = []
            pool.name, pool.index = case.name, case.index
            pool.cases[0] += case.verdicts.count(PASSED)
            pool.cases[1] += len(case.verdicts)
            attempts[case.key].extend(case.attempts)
    for key, letters in attempts.items():
        count_turns(pools[key].turns, letters)
    return pools


def _turn(passed: int, attempts: int, share: float) -> TurnOutcome:
    return TurnOutcome.model_construct(
        passed=rule_passes(passed, attempts, share),
        attempts=attempts,
        passed_attempts=passed,
        duration_ms=None,
        total_tokens=None,
        metric_scores={},
        problem=None,
    )


def history_outcomes(
    folder: Path, runs: list[HistoryRun], also: Collection[CaseKey] = ()
) -> SideOutcomes:
    """BASE as the pooled runs (at least one, oldest first) of ``folder``: the test cases
    of the latest run, and those of ``also`` (HEAD's) that an earlier run has (the latest
    may have stopped before them)."""
    latest = runs[-1]
    share = latest.pass_share
    pools = _pool(runs)
    keys = [record.key for record in latest.cases]
    in_latest = set(keys)
    keys += [key for key in also if key in pools and key not in in_latest]
    cases = []
    for position, key in enumerate(keys):
        pool = pools[key]
        passed, attempts = pool.cases
        cases.append(
            CaseOutcomes(
                key=key,
                label=case_label(pool.name, pool.index),
                index=pool.index,
                position=position,
                passed=rule_passes(passed, attempts, share),
                attempts=attempts,
                passed_attempts=passed,
                turns={t: _turn(p, n, share) for t, (p, n) in sorted(pool.turns.items())},
            )
        )
    summary = RunSummary(
        reports=[str(folder)],
        agent_name=latest.agent_name,
        runner=latest.made_by,
        timestamp=latest.timestamp,
        total_tests=len(latest.cases),
        passed=latest.passed_cases,
        failed=len(latest.cases) - latest.passed_cases,
        duration_ms=latest.duration_ms,
        total_tokens=latest.tokens,
        repeat=latest.repeat,
        pass_rule=latest.pass_rule,
        runs=len(runs),
        first_timestamp=runs[0].timestamp,
    )
    return SideOutcomes(summary, cases, average_scores=None)


@dataclass(frozen=True)
class HistoryBase:
    side: SideOutcomes
    notes: list[str]  # what was left out, one sentence each


def read_history_base(folder: Path, choice: HistoryChoice) -> HistoryBase | None:
    """The history in ``folder`` as BASE; None when the folder holds no kept run (a folder
    of shard reports, say); raises ReportError when the options leave no run."""
    history = read_history(folder)
    if not history.runs:
        return None
    notes = list(history.refused)
    runs = chosen_runs(history.runs, choice)
    left_out = [run for run in history.runs if run.timestamp in choice.leave_out]
    notes += [f"{run.path} is HEAD's own run: left out of BASE" for run in left_out]
    if not runs:
        raise ReportError(
            f"{folder}: none of its {len(history.runs)} run(s) is left by --base-last and "
            "--base-since"
        )
    return HistoryBase(history_outcomes(folder, runs, choice.head_cases), notes)
