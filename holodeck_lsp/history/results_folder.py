"""Where an agent's runs are kept, as HoloDeck keeps them: `results/<slug>/` in the agent
file's folder, one `*.json` file per run."""

from __future__ import annotations

import os
import re
from pathlib import Path

RESULTS = "results"
RUN_SUFFIX = ".json"
_NOT_SLUG = re.compile(r"[^a-z0-9-]+")
_HYPHENS = re.compile(r"-+")


def slugify(name: str) -> str:
    """The agent's name as its folder (HoloDeck's `lib/eval_run/slugify.py`): lowercase,
    every run of other characters one `-`, none at either end; raises ValueError when
    nothing is left."""
    slug = _HYPHENS.sub("-", _NOT_SLUG.sub("-", name.lower())).strip("-")
    if not slug:
        raise ValueError(f"agent.name slugified to empty string: {name!r}")
    return slug


def results_folder(agent_folder: Path, agent_name: str) -> Path:
    """The folder of an agent's runs; raises ValueError for a name without a slug."""
    return agent_folder / RESULTS / slugify(agent_name)


def agent_folder_of(folder: Path) -> Path | None:
    """The agent's folder when ``folder`` is a `results/<slug>/` folder, else None."""
    parent = folder.parent
    return parent.parent if parent.name == RESULTS else None


def run_files(folder: Path) -> list[Path]:
    """The run files of a folder (its `*.json` files, as HoloDeck's dashboard globs them),
    sorted by name; none for a folder that does not exist. Raises OSError when it cannot
    be listed."""
    if not folder.is_dir():
        return []
    with os.scandir(folder) as entries:
        names = [
            entry.name
            for entry in entries
            if entry.name.endswith(RUN_SUFFIX) and not entry.is_dir()
        ]
    return [folder / name for name in sorted(names)]
