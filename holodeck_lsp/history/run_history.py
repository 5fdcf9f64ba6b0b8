"""An agent's run history: every run file of its results folder, in time order, each with
its metadata and per-turn outcomes. A file that is not a run is left out with one sentence
saying why (as HoloDeck's dashboard skips it), never a crash."""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from pathlib import Path

import yaml

from holodeck_lsp.history.eval_run_reading import EvalRunError, read_run_record
from holodeck_lsp.history.outcome_index import OutcomeIndex, index_path, stamp
from holodeck_lsp.history.results_folder import results_folder, run_files
from holodeck_lsp.history.run_records import HistoryRun
from holodeck_lsp.named_files import NotReadable, read_text
from holodeck_lsp.validation.env_refs import ENV_REF

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


def read_history(folder: Path, use_index: bool = True, update_index: bool = True) -> History:
    """Every run kept in ``folder`` (none when it does not exist), oldest first.

    ``use_index``: what the folder's index knows of files it read before and that have
    not changed since is taken from it (the files stay the truth: `outcome_index.py`);
    ``update_index``: what the files read give is added to it (else it is only read)."""
    history = History(folder)
    try:
        paths = run_files(folder)
    except OSError as exc:
        history.refused.append(f"cannot list {folder}: {exc.strerror or exc}")
        return history
    if not use_index:
        for path in paths:
            _read_one(path, history)
    else:
        with OutcomeIndex(index_path(folder), writable=update_index) as index:
            _read_indexed(folder, paths, index, history)
    history.runs.sort(key=time_order)
    return history


def _read_one(path: Path, history: History) -> HistoryRun | None:
    try:
        run = read_run_record(path)
    except EvalRunError as exc:
        history.refused.append(str(exc))
        return None
    history.runs.append(run)
    return run


def _read_indexed(folder: Path, paths: list[Path], index: OutcomeIndex, history: History) -> None:
    """Each file from the index when it knows the file as it is, else read (and indexed)."""
    resolved = folder.resolve()
    stamps: dict[str, str] = {}
    for path in paths:
        try:
            stamps[str(resolved / path.name)] = stamp(os.stat(path))
        except OSError:
            continue  # gone since the listing, or unreadable: reading it says why
    known = index.known(stamps)
    read: dict[str, tuple[str, HistoryRun | None, str | None]] = {}
    for path in paths:
        key = str(resolved / path.name)
        entry = known.get(key)
        if entry is not None and entry.run is not None:
            history.runs.append(replace(entry.run, path=path))
        elif entry is not None and entry.refusal is not None:
            history.refused.append(entry.refusal.replace(_PLACE, str(path)))
        else:
            before = len(history.refused)
            run = _read_one(path, history)
            if key in stamps:
                why = history.refused[-1] if len(history.refused) > before else None
                refusal = why.replace(str(path), _PLACE) if why is not None else None
                read[key] = (stamps[key], run, refusal)
    gone = [p for p in index.paths_under(resolved) if p not in stamps]
    index.store(read, gone)


_PLACE = "\0"  # where a file's name goes in the refusal the index keeps


def _top_level_name(text: str) -> object:
    """The value of the top-level `name:` of a YAML document (the last one, as a YAML load
    keeps it): a string, or None when there is none or it is not a plain string. Read from
    the parser's events, nothing built: a 1,000-case agent file takes milliseconds."""
    events = yaml.parse(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    depth, key_next, named, found = 0, True, False, None
    for event in events:
        if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            if depth == 1:
                found = None if named else found
                named, key_next = False, True
            elif depth == 0 and not isinstance(event, yaml.MappingStartEvent):
                return None
            depth += 1
        elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            depth -= 1
        elif depth == 1 and isinstance(event, (yaml.ScalarEvent, yaml.AliasEvent)):
            if key_next:
                named = isinstance(event, yaml.ScalarEvent) and event.value == "name"
            elif named:
                plain = isinstance(event, yaml.ScalarEvent) and (
                    event.style not in (None, "") or _resolves_to_text(event.value, event.implicit)
                )
                found = event.value if plain and isinstance(event, yaml.ScalarEvent) else None
                named = False
            key_next = not key_next
    return found


def _resolves_to_text(value: str, implicit: tuple[bool, bool]) -> bool:
    resolver = yaml.resolver.Resolver()
    tag: str = resolver.resolve(yaml.ScalarNode, value, implicit)  # type: ignore[no-untyped-call]
    return tag == "tag:yaml.org,2002:str"


def agent_name(agent_file: Path) -> str:
    """The `name:` of an agent file (`${VAR}` substituted from the environment, as HoloDeck
    loads it); raises ValueError when it cannot be read or has none."""
    try:
        text = read_text(agent_file, _AGENT_BYTES)
    except NotReadable as exc:
        why = "does not exist" if exc.problem == "missing" else exc.reason
        raise ValueError(f"cannot read {agent_file}: it {why}") from None
    name = agent_name_in(text)
    if name is None:
        raise ValueError(f"{agent_file} names no agent (`name:`)")
    return name


def agent_name_in(text: str) -> str | None:
    """The `name:` of an agent file's text (`${VAR}` substituted from the environment);
    None when it has none."""
    try:
        name = _top_level_name(text)
    except (yaml.YAMLError, RecursionError):
        return None
    if not isinstance(name, str) or not name.strip():
        return None
    return ENV_REF.sub(lambda m: os.environ.get(m.group(1), m.group(0)), name)


def agent_results_folder(agent_file: Path) -> Path:
    """Where the runs of an agent file are kept: `results/<slug>/` beside it; raises
    ValueError when the file names no agent."""
    return results_folder(agent_file.parent, agent_name(agent_file))
