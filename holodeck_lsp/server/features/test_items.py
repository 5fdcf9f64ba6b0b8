"""What a test explorer (VS Code's Testing view) asks of the server, so its items and
failure locations come from the same parse as the diagnostics:

- `holodeck/testItems` `{textDocument, recording?}` -> `{uri, recording, cases: [{index,
  label, detail, range, selection, turns: [{index, label, detail, range}]}]}` for an agent
  file: its inline `test_cases`, or those of its `test_cases_file` (`uri` is the document
  the ranges are in); `recording` the suite's recording (the client's `recording` setting,
  else `run.replay`, else `replay.jsonl` beside the suite: server/run_command_line.py);
  `cases` empty when it has none; null when its text does not parse (keep the last items);
  a case or turn with a record over the runs kept beside the agent has `history: {runs,
  passed, flaky, failingSince, text}` (server/kept_runs.py);
- `holodeck/fieldLocations` `{textDocument, paths}` -> one location `{uri, range}` or null
  per field path of `run --events` (`test_cases[0].turns[1].ground_truth`, in the agent's
  terms), where a result about that field is shown (as the run's diagnostics are placed);
  a path under `test_cases` of an agent with a `test_cases_file` is in that file;
- `holodeck/runArguments` `{textDocument, mode, case?, upToTurn?, recording?, baseline?}`
  -> `{args, cwd, recording}`: the arguments of `holodeck-lsp` that run the suite (a case
  of it, up to a turn) in `mode` (`live`, `replay` or `record` its recording), against the
  baseline report (the client's `baseline` setting, else `run.baseline`), as the server's
  own lenses run it; a recording or baseline outside the suite's workspace folder, links
  resolved, is refused (RequestFailed, server/run_command_line.py's `confined`).

A document the client has not opened is read from disk, on the query worker (never on
the event loop), and only if it is a regular file within the size limit (a
`test_cases_file: /dev/zero` or a FIFO is never opened). One past the editor's size limit
(docs/editors.md) is not parsed: null items, null locations.
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lsprotocol import types
from pygls.uris import from_fs_path

from holodeck_lsp.editing.outline import Symbol, suite_items
from holodeck_lsp.history.case_keys import CaseKey
from holodeck_lsp.named_files import NotReadable, read_text
from holodeck_lsp.server.jobs import MAX_BYTES, MAX_TEXT
from holodeck_lsp.server.kept_runs import document_keys
from holodeck_lsp.server.open_documents import uri_path
from holodeck_lsp.server.positions import PositionMap
from holodeck_lsp.server.routes import Refused, Route
from holodeck_lsp.server.run_command_line import (
    RUN_MODES,
    OutsideWorkspace,
    RunMode,
    confined_baseline,
    confined_recording,
    recording_for,
    run_arguments,
)
from holodeck_lsp.server.run_results import field_ranges
from holodeck_lsp.server.session import Session
from holodeck_lsp.validation.diagnostics import Range
from holodeck_lsp.validation.yaml.loader import load_yaml

if TYPE_CHECKING:  # the history's reader loads on the kept runs' worker (kept_runs.py)
    from holodeck_lsp.history.turn_standings import Standings

TEST_ITEMS = "holodeck/testItems"
FIELD_LOCATIONS = "holodeck/fieldLocations"
RUN_ARGUMENTS = "holodeck/runArguments"
_NAMES_CASES_FILE = re.compile(r"^test_cases_file\s*:", re.MULTILINE)


@dataclass(frozen=True)
class Source:
    """A document's text, as the editor has it open or as it is on disk."""

    uri: str
    text: str


def _get(params: Any, name: str) -> Any:
    """A field of the params, whether pygls left them a dict or made them an object."""
    return params.get(name) if isinstance(params, dict) else getattr(params, name, None)


@dataclass(frozen=True)
class Opened:
    """The open documents' texts, taken on the event loop for a job on the query worker."""

    by_uri: dict[str, Source]
    by_path: dict[Path, Source]

    @classmethod
    def of(cls, session: Session) -> Opened:
        docs = session.documents.all()
        return cls(
            {d.uri: Source(d.uri, d.text) for d in docs},
            {d.path: Source(d.uri, d.text) for d in docs},
        )

    def read(self, uri: str) -> Source | None:
        """The open text, else the disk's (on the worker: a read may take a while)."""
        source = self.by_uri.get(uri) or self.by_path.get(uri_path(uri))
        if source is None:
            try:
                source = Source(uri, read_text(uri_path(uri), MAX_BYTES))
            except NotReadable:
                return None
        return source if len(source.text) <= MAX_TEXT else None


def _agent_uri(params: Any) -> str:
    uri = _get(_get(params, "textDocument"), "uri")
    if not isinstance(uri, str):
        raise ValueError("textDocument.uri is required")
    return uri


def _cases_file(opened: Opened, agent: Source) -> Source | None:
    """The agent's `test_cases_file`, when it names one (and has no inline cases)."""
    if _NAMES_CASES_FILE.search(agent.text) is None:  # no parse of a large inline suite
        return None
    loaded = load_yaml(agent.text)
    data = loaded.data if loaded.parsed else None
    if not isinstance(data, dict) or data.get("test_cases") is not None:
        return None
    ref = data.get("test_cases_file")
    if not isinstance(ref, str) or not ref.strip() or "${" in ref:
        return None
    # The models are a tenth of a second the server does not load before `initialize`.
    from holodeck_lsp.models.test_cases_file import test_cases_file_path

    target = test_cases_file_path(ref, uri_path(agent.uri))
    uri = from_fs_path(str(target))
    return opened.read(uri) if uri is not None else None


def _range(positions: PositionMap, r: Range) -> dict[str, Any]:
    where = positions.range_to_lsp((r.start.line, r.start.character), (r.end.line, r.end.character))
    return _plain(where)


def _plain(r: types.Range) -> dict[str, Any]:
    return {
        "start": {"line": r.start.line, "character": r.start.character},
        "end": {"line": r.end.line, "character": r.end.character},
    }


def items(
    agent: Source, side: Source | None, encoding: str, standings: Standings | None = None
) -> dict[str, Any] | None:
    """The answer to `holodeck/testItems` (run on the query worker); ``side`` is the
    agent's `test_cases_file`; ``standings``, the records over the runs kept beside it."""
    cases = suite_items(agent.text)
    where = agent
    if cases == [] and side is not None:
        cases, where = suite_items(side.text, standalone=True), side
    if cases is None:
        return None
    positions = PositionMap(where.text, encoding)

    def history(key: CaseKey, turn: int | None) -> dict[str, Any]:
        standing = standings.of(key, turn) if standings is not None else None
        return {"history": standing.as_json()} if standing is not None else {}

    def turn(symbol: Symbol, key: CaseKey) -> dict[str, Any]:
        return {
            "index": symbol.index,
            "label": symbol.name,
            "detail": symbol.detail,
            "range": _range(positions, symbol.range),
            **history(key, symbol.index),
        }

    return {
        "uri": where.uri,
        "cases": [
            {
                "index": case.index,
                "label": case.name,
                "detail": case.detail,
                "range": _range(positions, case.range),
                "selection": _range(positions, case.selection),
                "turns": [turn(child, key) for child in case.children],
                **history(key, None),
            }
            for case, key in zip(cases, document_keys(cases), strict=True)
        ],
    }


def locations(
    agent: Source, side: Source | None, encoding: str, paths: list[str]
) -> list[dict[str, Any] | None]:
    """The answer to `holodeck/fieldLocations` (run on the query worker); ``side`` is the
    agent's `test_cases_file`, where the paths under `test_cases` are."""
    own = field_ranges(agent.text, encoding, paths)
    if side is None:
        return [None if found is None else _location(agent, found) for found in own]
    # `test_cases[i]...` is itself in a file with a `test_cases:` mapping, `[i]...` in a list.
    as_is = field_ranges(side.text, encoding, paths)
    listed = field_ranges(side.text, encoding, [p.removeprefix("test_cases") for p in paths])
    out: list[dict[str, Any] | None] = []
    for path, mine, first, second in zip(paths, own, as_is, listed, strict=True):
        where, found = (side, first or second) if path.startswith("test_cases[") else (agent, mine)
        out.append(None if found is None else _location(where, found))
    return out


def _location(source: Source, found: types.Range) -> dict[str, Any]:
    return {"uri": source.uri, "range": _plain(found)}


def _items_job(
    opened: Opened, uri: str, encoding: str, standings: Standings | None
) -> dict[str, Any] | None:
    agent = opened.read(uri)
    if agent is None:
        return None
    return items(agent, _cases_file(opened, agent), encoding, standings)


def _locations_job(
    opened: Opened, uri: str, encoding: str, paths: list[str]
) -> list[dict[str, Any] | None]:
    agent = opened.read(uri)
    if agent is None:
        return [None for _ in paths]
    return locations(agent, _cases_file(opened, agent), encoding, paths)


def _setting(params: Any, name: str, own: str | None) -> str | None:
    """The client's setting for the suite if it sends one, else the server's."""
    sent = _get(params, name)
    return sent if isinstance(sent, str) else own


def _recording(session: Session, params: Any, agent: Path) -> Path:
    return recording_for(agent, _setting(params, "recording", session.settings.run_replay))


async def test_items(session: Session, params: Any) -> dict[str, Any] | None:
    uri = _agent_uri(params)
    opened = Opened.of(session)
    source = opened.by_uri.get(uri)
    standings = await session.kept_runs.for_agent(
        uri_path(uri), source.text if source is not None else None
    )
    job = session.queries.submit(_items_job, opened, uri, session.encoding, standings)
    found: dict[str, Any] | None = await asyncio.wrap_future(job)
    if found is not None:
        found["recording"] = str(_recording(session, params, uri_path(uri)))
    return found


def _position(params: Any, name: str) -> int | None:
    value = _get(params, name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{name} must be a position (an integer >= 0), got {value!r}")
    return value


async def run_arguments_request(session: Session, params: Any) -> dict[str, Any]:
    agent = uri_path(_agent_uri(params))
    mode = _get(params, "mode")
    if mode not in RUN_MODES:
        raise ValueError(f"mode must be one of {', '.join(RUN_MODES)}, got {mode!r}")
    replay = _setting(params, "recording", session.settings.run_replay)
    try:
        recording = confined_recording(agent, replay, session.roots)
        baseline = confined_baseline(
            agent, _setting(params, "baseline", session.settings.run_baseline), session.roots)
    except OutsideWorkspace as exc:
        raise Refused(f"{RUN_ARGUMENTS} refused: {exc}") from None
    chosen: RunMode = mode
    case, turn = _position(params, "case"), _position(params, "upToTurn")
    args = run_arguments(agent, chosen, recording, case, turn, baseline)
    return {"args": args, "cwd": str(agent.parent), "recording": str(recording)}


async def field_locations(session: Session, params: Any) -> list[dict[str, Any] | None]:
    paths = _get(params, "paths")
    if not isinstance(paths, list) or not all(isinstance(p, str) for p in paths):
        raise ValueError("paths must be a list of field paths")
    uri = _agent_uri(params)
    job = session.queries.submit(_locations_job, Opened.of(session), uri, session.encoding, paths)
    return await asyncio.wrap_future(job)


ROUTES = [
    Route(TEST_ITEMS, test_items),
    Route(FIELD_LOCATIONS, field_locations, empty=list),
    Route(RUN_ARGUMENTS, run_arguments_request),
]
