"""`history --format markdown`: the text format's tables for a pull request or a wiki page.
Every text that comes from a file (a folder, a prompt version, a model, a commit, a test
case's name, why a file is not a run) is an inline code span, so no image loads, no link is
live and no table breaks."""

from __future__ import annotations

from holodeck_lsp.hygiene.markdown import code_cell
from holodeck_lsp.models.history_report import RunHistory
from holodeck_lsp.runner.report.history_views.history_text import (
    passed_cell,
    rate_cell,
    recent,
    single_turn_cases,
    tokens_cell,
    turn_label,
    turn_notes,
    when,
    worth_a_look,
)


def _row(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def render_history_markdown(view: RunHistory) -> str:
    if not view.runs:
        lines = [f"No runs kept in {code_cell(view.folder)}."]
    else:
        lines = [f"**{len(view.runs)} run(s)** kept in {code_cell(view.folder)}, oldest first.", ""]
        repeated = any(run.repeat > 1 for run in view.runs)
        head = ["#", "time (UTC)", "prompt", "model", "commit", "cases passed",
                "pass rate [95%]", "tokens"]  # fmt: skip
        lines.append(_row(head + (["attempts"] if repeated else [])))
        lines.append("|---:|---|---|---|---|---|---|---:|" + ("---:|" if repeated else ""))
        for number, run in enumerate(view.runs, 1):
            cells = [
                str(number),
                code_cell(when(run.time)),
                code_cell(run.prompt_version),
                code_cell(run.model) or "-",
                code_cell(run.git_commit[:10] if run.git_commit else None) or "-",
                passed_cell(run),
                rate_cell(run),
                tokens_cell(run),
            ]
            tried = [f"{run.attempts_passed}/{run.attempts}"] if repeated else []
            lines.append(_row(cells + tried))
        numbers = {run.id: n for n, run in enumerate(view.runs, 1)}
        shown = worth_a_look(view)
        flaky = sum(t.flaky for t in view.turns)
        failing = sum(t.failing_since is not None for t in view.turns)
        lines += ["", f"**{len(view.turns)} turn(s)**: {flaky} flaky, {failing} failing in the "
                  "last run that ran them."]  # fmt: skip
        if shown:
            single = single_turn_cases(view)
            lines += ["", _row(["turn", "passed", "latest runs", ""]), "|---|---|---|---|"]
            for turn in shown:
                lines.append(
                    _row(
                        [
                            code_cell(turn_label(turn, turn.case_index in single)),
                            f"{turn.runs_passed} of {turn.runs} run(s)",
                            f"`{recent(turn.outcomes)}`",
                            turn_notes(turn, numbers),
                        ]
                    )
                )
        others = len(view.turns) - len(shown)
        if others:
            lines += ["", f"{others} other turn(s) passed in every run that ran them."]
    if view.refused:
        lines += ["", "Not runs:", ""] + [f"- {code_cell(why)}" for why in view.refused]
    return "\n".join(lines) + "\n"
