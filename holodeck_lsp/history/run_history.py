"""An agent's run history: every run file of its results folder, in time order, each with
its metadata and per-turn outcomes. A file that is not a run is left out with one sentence
saying why (as HoloDeck's dashboard skips it), never a crash."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from holodeck_lsp.history.eval_run_reading import EvalRunError, read_run_record
from holodeck_lsp.history.results_folder import results_folder, run_files
from holodeck_lsp.history.run_records import HistoryRun
from holodeck_lsp.named_files import NotReadable, read_text
from holodeck_lsp.validation.env_refs import ENV_REF
from holodeck_lsp.validation.yaml.loader import load_yaml

_EARLIEST = datetime.min.replace(tzinfo=timezone.utc)
_AGENT_BYTES = 24_000_000  # as `run` reads an agent file


@dataclass
class History:
    """The runs of one results folder, oldest first, and the files that are not runs."""

    folder: Path
    runs: list[HistoryRun] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)  # one sentence per file left out


def time_order(run: HistoryRun) -> tuple[bool, datetime, str, str]:
    """Oldest first; a timestamp that is not ISO 8601 before the others, then by name."""
    moment = run.time
    return (moment is not None, moment or _EARLIEST, run.timestamp, run.path.name)


def read_history(folder: Path, use_index: bool = True) -> History:
    """Every run kept in ``folder`` (none when it does not exist), oldest first.

    ``use_index``: reuse what the folder's index knows of files it has seen unchanged
    (the files stay the truth; see `outcome_index.py`)."""
    history = History(folder)
    try:
        paths = run_files(folder)
    except OSError as exc:
        history.refused.append(f"cannot list {folder}: {exc.strerror or exc}")
        return history
    for path in paths:
        try:
            history.runs.append(read_run_record(path))
        except EvalRunError as exc:
            history.refused.append(str(exc))
    history.runs.sort(key=time_order)
    return history


def agent_name(agent_file: Path) -> str:
    """The `name:` of an agent file (`${VAR}` substituted from the environment, as HoloDeck
    loads it); raises ValueError when it cannot be read or has none."""
    try:
        text = read_text(agent_file, _AGENT_BYTES)
    except NotReadable as exc:
        why = "does not exist" if exc.problem == "missing" else exc.reason
        raise ValueError(f"cannot read {agent_file}: it {why}") from None
    data = load_yaml(text).data
    name = data.get("name") if isinstance(data, dict) else None
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f"{agent_file} names no agent (`name:`)")
    return ENV_REF.sub(lambda m: os.environ.get(m.group(1), m.group(0)), name)


def agent_results_folder(agent_file: Path) -> Path:
    """Where the runs of an agent file are kept: `results/<slug>/` beside it; raises
    ValueError when the file names no agent."""
    return results_folder(agent_file.parent, agent_name(agent_file))
