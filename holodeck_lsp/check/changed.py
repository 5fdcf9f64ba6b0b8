"""`check --changed-files`: what each changed file is to HoloDeck, as a pre-commit hook sees it.

pre-commit passes every changed YAML file. An agent (by name or by content) is checked as
named; a file an agent pulls in (its `test_cases_file`, whatever its name, or the
`config.yaml` beside it) is checked through that agent; a stand-alone test-case file no
agent names is checked on its own, as a folder scan would; anything else is not
HoloDeck's and is left alone.

The agents that pull a file in are found by a bounded search: the YAML files directly in
the file's folder and in each folder above it, up to the repository root (the nearest
folder holding `.git`; without one, the current folder when the file is below it, else the
file's own folder). Nothing is cached across runs.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from holodeck_lsp.named_files import NotReadable, read_bytes
from holodeck_lsp.validation.config_merge import find_config
from holodeck_lsp.validation.file_kinds import (
    YAML_SUFFIXES,
    is_config_file,
    kind_of_data,
    looks_like_suite,
    matches_patterns,
)
from holodeck_lsp.validation.project import repository_root
from holodeck_lsp.validation.yaml.loader import load_yaml

# An agent that names a test_cases_file holds no test cases of its own: a small file. Larger
# YAML files, and folders past this many YAML files, are not searched for agents.
MAX_AGENT_BYTES = 1_000_000
MAX_FILES_PER_FOLDER = 500
# Words an agent file holds one of; files with neither are not parsed in the search.
_AGENT_WORDS = (b"test_cases_file", b"instructions")


@dataclass
class Triage:
    """The changed files, sorted by how they are checked."""

    direct: list[Path] = field(default_factory=list)  # agents and stand-alone suites
    through: dict[Path, list[Path]] = field(default_factory=dict)  # file -> its agents


@dataclass
class _FolderAgents:
    agents: list[Path]
    # The resolved test_cases_file of each agent that names one.
    cases: dict[Path, list[Path]]


def _resolved(path: Path) -> Path | None:
    try:
        return path.resolve()
    except (OSError, ValueError, RuntimeError):
        return None


def _parse(path: Path, raw: bytes) -> object:
    try:
        loaded = load_yaml(raw.decode("utf-8"))
    except UnicodeDecodeError:
        return None
    return loaded.data if loaded.parsed else None


class _Search:
    """The agents of each folder, read at most once in a run."""

    def __init__(self, patterns: tuple[str, ...]) -> None:
        self.patterns = patterns
        self.folders: dict[Path, _FolderAgents] = {}

    def _read_agent(self, path: Path) -> tuple[bool, object]:
        """Whether ``path`` is an agent, and its data when parsed."""
        named = matches_patterns(path, self.patterns)
        try:
            raw = read_bytes(path, MAX_AGENT_BYTES)
        except NotReadable:
            return named, None
        if not any(word in raw for word in _AGENT_WORDS):
            return named, None
        data = _parse(path, raw)
        if named:
            return True, data
        is_agent = looks_like_suite(data, path) and kind_of_data(path, data) == "agent"
        return is_agent, data

    def agents_in(self, folder: Path) -> _FolderAgents:
        known = self.folders.get(folder)
        if known is not None:
            return known
        found = _FolderAgents([], {})
        try:
            names = sorted(
                e.name for e in os.scandir(folder) if e.name.endswith(YAML_SUFFIXES)
            )[:MAX_FILES_PER_FOLDER]
        except OSError:
            names = []
        for name in names:
            path = folder / name
            if is_config_file(path):
                continue
            is_agent, data = self._read_agent(path)
            if not is_agent:
                continue
            found.agents.append(path)
            ref = data.get("test_cases_file") if isinstance(data, dict) else None
            if isinstance(ref, str) and ref.strip() and "${" not in ref:
                target = _resolved(Path(ref) if Path(ref).is_absolute() else folder / ref)
                if target is not None:
                    found.cases.setdefault(target, []).append(path)
        self.folders[folder] = found
        return found

    def agents_pulling_in(self, file: Path) -> list[Path]:
        """The agents whose test_cases_file, or whose config, is ``file``."""
        target = _resolved(file)
        if target is None:
            return []
        if is_config_file(file):
            config = find_config(file.parent)
            if config is None or _resolved(config) != target:
                return []  # the other name wins: HoloDeck never reads this one
            return self.agents_in(file.parent).agents
        found: list[Path] = []
        for folder in _folders_up(file):
            found.extend(self.agents_in(folder).cases.get(target, []))
        return found


def _folders_up(file: Path) -> list[Path]:
    """The file's folder and each one above it, up to where the search stops; named
    relative to the current folder when below it, as the changed file usually is."""
    start = _resolved(file.parent)
    if start is None:
        return []
    cwd = Path.cwd()
    top = repository_root(start) or (cwd if start.is_relative_to(cwd) else start)
    chain = [start, *(p for p in start.parents if p.is_relative_to(top))]
    return [Path(os.path.relpath(p, cwd)) if p.is_relative_to(cwd) else p for p in chain]


def triage(paths: list[Path], patterns: tuple[str, ...], limit: int) -> Triage:
    """Sort changed files; what is not HoloDeck's is in neither list."""
    search = _Search(patterns)
    out = Triage()
    for path in paths:
        if not path.name.endswith(YAML_SUFFIXES) or not path.is_file():
            continue
        if matches_patterns(path, patterns):
            out.direct.append(path)
            continue
        agents = search.agents_pulling_in(path)
        if agents:
            out.through[path] = agents
            continue
        if is_config_file(path):
            continue  # a config no agent sits beside
        try:
            raw = read_bytes(path, limit)
        except NotReadable:
            continue
        if looks_like_suite(_parse(path, raw), path):  # the loader bounds what it parses
            out.direct.append(path)
    return out
