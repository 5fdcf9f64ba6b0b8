"""The `holodeck-lsp run` an editor starts, built in one place: the server's "Run case" and
"Run turn" lenses and "Show report" use it, and the VS Code Testing view asks for it
(`holodeck/runArguments`, features/test_items.py). One recording per suite: the
`run.replay` setting (relative to the suite's folder), else `replay.jsonl` beside the
suite; the report a run is compared with, `run.baseline`, when it is set. Both must lie
in the suite's workspace folder, links resolved (`confined`). Plain data: no lsprotocol.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Literal, get_args

from holodeck_lsp.named_files import NotReadable, resolve
from holodeck_lsp.validation.project import project_root

DEFAULT_RECORDING = "replay.jsonl"
# Events on stdout, nothing else printed there; the editor's runs (a case, a turn, a replay
# clicked again and again) stay out of the suite's run history.
_EVENTS = ("--events", "-", "-q", "--no-history")

# live: call the model; replay: answer every turn from the recording; record: call the
# model and write the recording.
RunMode = Literal["live", "replay", "record"]
RUN_MODES: tuple[str, ...] = get_args(RunMode)


def named_file(agent: Path, setting: str | None) -> Path | None:
    """The file a setting names, relative to the suite's folder; None when it is unset."""
    chosen = (setting or "").strip()
    if not chosen:
        return None
    path = Path(chosen)
    return path if path.is_absolute() else agent.parent / path


class OutsideWorkspace(ValueError):
    """A run setting names a file outside the suite's workspace folder."""


def confined(agent: Path, path: Path, setting: str, roots: Iterable[Path]) -> Path:
    """``path``, links resolved, when it lies in the workspace folder holding ``agent`` (its
    project, as HL607 has it: validation/project.py); OutsideWorkspace otherwise. A cloned
    repository's `.vscode/settings.json` may name any file, or ship a link to one: a run
    started from the editor must neither read (`--replay`, `--baseline`) nor write
    (`--record`) a file elsewhere."""
    project = project_root(agent, roots)
    try:
        resolved: Path | None = resolve(path)
    except NotReadable:
        resolved = None
    if resolved is None or not resolved.is_relative_to(project):
        raise OutsideWorkspace(
            f"{setting} names {path}, outside the workspace folder {project} (links "
            "resolved), so it is not used: name a file inside that folder (copy it there)")
    return resolved


def recording_for(agent: Path, setting: str | None) -> Path:
    """The suite's recording: the one ``setting`` names, else `replay.jsonl` beside the
    suite."""
    return named_file(agent, setting) or agent.parent / DEFAULT_RECORDING


def confined_recording(agent: Path, setting: str | None, roots: Iterable[Path]) -> Path:
    """The suite's recording (`recording_for`), links resolved, in its workspace folder."""
    return confined(agent, recording_for(agent, setting), "run.replay", roots)


def confined_baseline(agent: Path, setting: str | None, roots: Iterable[Path]) -> Path | None:
    """The baseline report `run.baseline` names, links resolved, in the suite's workspace
    folder; None when the setting is unset."""
    named = named_file(agent, setting)
    return None if named is None else confined(agent, named, "run.baseline", roots)


def lens_mode(setting: str | None, recording: Path) -> RunMode:
    """What a lens does: replay the recording the setting names, else the default one
    when it is there, else call the model."""
    named = bool((setting or "").strip())
    return "replay" if named or recording.is_file() else "live"


def run_arguments(
    agent: Path,
    mode: RunMode,
    recording: Path,
    case: int | None = None,
    up_to_turn: int | None = None,
    baseline: Path | None = None,
) -> list[str]:
    """The arguments after the program: the suite (one case of it, up to a turn), its
    events on stdout and nothing else printed there, told against ``baseline``."""
    if up_to_turn is not None and case is None:
        raise ValueError("a turn is run with its case: give the case too")
    args = ["run", str(agent), *_EVENTS]
    if case is not None:
        args += ["--case", str(case)]
        if up_to_turn is not None:
            args += ["--up-to-turn", str(up_to_turn)]
    if mode == "replay":
        args += ["--replay", str(recording)]
    elif mode == "record":
        args += ["--record", str(recording)]
    return [*args, *_baseline(baseline)]


def report_arguments(agent: Path, report: Path, baseline: Path | None = None) -> list[str]:
    """A report produced elsewhere (CI's) as events of the suite: nothing runs."""
    return ["run", str(agent), "--from-report", str(report), *_EVENTS, *_baseline(baseline)]


def _baseline(report: Path | None) -> list[str]:
    return ["--baseline", str(report)] if report is not None else []
