"""`history --format text`: the runs as a table, then the turns worth a look (flaky, or
failing in the last run that ran them), each with its pass rate over the runs, its latest
outcomes and the run where it started failing. Every turn is in `--format json`."""

from __future__ import annotations

from holodeck_lsp.history.run_records import display_time
from holodeck_lsp.models.history_report import HistoryRunEntry, HistoryTurnEntry, RunHistory

SHOWN_OUTCOMES = 20  # the latest runs a turn's outcomes show


def when(time: str) -> str:
    """A run's time in UTC to the second, or as written when it is not ISO 8601."""
    return display_time(time)


def percent(rate: float) -> str:
    return f"{rate * 100:.0f}%"


def rate_cell(run: HistoryRunEntry) -> str:
    return f"{percent(run.pass_rate)} [{percent(run.pass_rate_low)}, {percent(run.pass_rate_high)}]"


def commit_cell(run: HistoryRunEntry) -> str:
    return run.git_commit[:10] if run.git_commit else "-"


def tokens_cell(run: HistoryRunEntry) -> str:
    return f"{run.tokens:,}" if run.tokens is not None else "-"


def passed_cell(run: HistoryRunEntry) -> str:
    cell = f"{run.cases_passed}/{run.cases}"
    return cell + (" (stopped early)" if run.interrupted else "")


def recent(outcomes: str) -> str:
    shown = outcomes[-SHOWN_OUTCOMES:]
    return ("... " if len(outcomes) > SHOWN_OUTCOMES else "") + " ".join(shown)


def worth_a_look(view: RunHistory) -> list[HistoryTurnEntry]:
    """Failing turns first (longest failing first), then flaky ones (least passing first)."""
    numbers = {run.id: n for n, run in enumerate(view.runs, 1)}
    failing = [t for t in view.turns if t.failing_since is not None]
    failing.sort(key=lambda t: numbers[t.failing_since or ""])
    flaky = [t for t in view.turns if t.flaky and t.failing_since is None]
    flaky.sort(key=lambda t: t.pass_rate)
    return failing + flaky


def turn_label(turn: HistoryTurnEntry, single: bool) -> str:
    return turn.case if single else f"{turn.case}, turn {turn.turn}"


def single_turn_cases(view: RunHistory) -> set[int]:
    """The cases (by index) of which only turn 0 ever ran: shown without a turn number."""
    turns: dict[int, set[int]] = {}
    for turn in view.turns:
        turns.setdefault(turn.case_index, set()).add(turn.turn)
    return {index for index, found in turns.items() if found == {0}}


def turn_notes(turn: HistoryTurnEntry, numbers: dict[str, int]) -> str:
    notes = ["flaky"] if turn.flaky else []
    if turn.failing_since is not None:
        notes.append(f"failing since run {numbers[turn.failing_since]}")
    return "; ".join(notes)


def _table(rows: list[list[str]], right: set[int]) -> list[str]:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = []
    for row in rows:
        cells = [
            cell.rjust(widths[i]) if i in right else cell.ljust(widths[i])
            for i, cell in enumerate(row)
        ]
        lines.append("  " + "  ".join(cells).rstrip())
    return lines


RUN_HEAD = ["#", "time (UTC)", "prompt", "model", "commit", "cases passed", "pass rate [95%]",
            "tokens"]  # fmt: skip
TURN_HEAD = ["turn", "passed", "latest runs", ""]


def run_row(number: int, run: HistoryRunEntry, repeated: bool) -> list[str]:
    """A run's cells, as every format's table has them (`attempts` when one repeated)."""
    row = [
        str(number),
        when(run.time),
        run.prompt_version,
        run.model or "-",
        commit_cell(run),
        passed_cell(run),
        rate_cell(run),
        tokens_cell(run),
    ]
    return row + ([f"{run.attempts_passed}/{run.attempts}"] if repeated else [])


def turn_rows(view: RunHistory) -> list[list[str]]:
    """The cells of each turn worth a look (`worth_a_look`), as the text and Markdown
    formats list them."""
    numbers = {run.id: n for n, run in enumerate(view.runs, 1)}
    single = single_turn_cases(view)
    return [
        [
            turn_label(turn, turn.case_index in single),
            f"{turn.runs_passed} of {turn.runs} run(s)",
            recent(turn.outcomes),
            turn_notes(turn, numbers),
        ]
        for turn in worth_a_look(view)
    ]


def turns_line(view: RunHistory) -> tuple[str, str]:
    """How many turns, and how many of them are flaky and failing."""
    flaky = sum(t.flaky for t in view.turns)
    failing = sum(t.failing_since is not None for t in view.turns)
    kinds = f"{flaky} flaky, {failing} failing in the last run that ran them"
    return f"{len(view.turns)} turn(s)", kinds


def render_history_text(view: RunHistory) -> str:
    if not view.runs:
        lines = [f"no runs kept in {view.folder}"]
        return "\n".join(lines + [f"not a run: {r}" for r in view.refused]) + "\n"
    lines = [f"{len(view.runs)} run(s) kept in {view.folder}, oldest first:", ""]
    repeated = any(run.repeat > 1 for run in view.runs)
    rows = [RUN_HEAD + (["attempts"] if repeated else [])]
    rows += [run_row(number, run, repeated) for number, run in enumerate(view.runs, 1)]
    lines += _table(rows, right={0, 7})
    shown = turn_rows(view)
    count, kinds = turns_line(view)
    lines += ["", f"{count}: {kinds}"]
    if shown:
        lines += _table([TURN_HEAD, *shown], right=set())
    others = len(view.turns) - len(shown)
    if others:
        lines.append(f"{others} other turn(s) passed in every run that ran them")
    lines += [f"not a run: {refused}" for refused in view.refused]
    return "\n".join(lines) + "\n"
