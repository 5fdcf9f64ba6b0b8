"""`history --format markdown`: the text format's tables for a pull request or a wiki page.
Every text that comes from a file (a folder, a prompt version, a model, a commit, a test
case's name, why a file is not a run) is an inline code span, so no image loads, no link is
live and no table breaks."""

from __future__ import annotations

from holodeck_lsp.hygiene.markdown import code_cell
from holodeck_lsp.models.history_report import RunHistory
from holodeck_lsp.runner.report.history_views.history_text import (
    RUN_HEAD,
    TURN_HEAD,
    run_row,
    turn_rows,
    turns_line,
)


def _row(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |"


# The cells holding a file's text (a time as written, a prompt version, a model, a commit).
_FROM_FILES = {1, 2, 3, 4}


def render_history_markdown(view: RunHistory) -> str:
    if not view.runs:
        lines = [f"No runs kept in {code_cell(view.folder)}."]
    else:
        lines = [f"**{len(view.runs)} run(s)** kept in {code_cell(view.folder)}, oldest first.", ""]
        repeated = any(run.repeat > 1 for run in view.runs)
        lines.append(_row(RUN_HEAD + (["attempts"] if repeated else [])))
        lines.append("|---:|---|---|---|---|---|---|---:|" + ("---:|" if repeated else ""))
        for number, run in enumerate(view.runs, 1):
            cells = run_row(number, run, repeated)
            lines.append(_row([
                (code_cell(cell) if cell != "-" else cell) if i in _FROM_FILES else cell
                for i, cell in enumerate(cells)
            ]))  # fmt: skip
        count, kinds = turns_line(view)
        lines += ["", f"**{count}**: {kinds}."]
        shown = turn_rows(view)
        if shown:
            lines += ["", _row(TURN_HEAD), "|---|---|---|---|"]
            lines += [
                _row([code_cell(label), passed, f"`{recent}`", notes])
                for label, passed, recent, notes in shown
            ]
        others = len(view.turns) - len(shown)
        if others:
            lines += ["", f"{others} other turn(s) passed in every run that ran them."]
    if view.refused:
        lines += ["", "Not runs:", ""] + [f"- {code_cell(why)}" for why in view.refused]
    return "\n".join(lines) + "\n"
