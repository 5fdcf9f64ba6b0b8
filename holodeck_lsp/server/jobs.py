"""What runs on the worker: one validation of a snapshot, placed for the client.

Nothing here touches the session: a job sees only its immutable snapshot, and its
outcome is applied (or dropped as stale) back on the event loop. Nothing here loads
lsprotocol either (a third of a second at start-up): the worker places each diagnostic
in the client's units, and the server builds the protocol's objects (`lsp_diagnostics`).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from pygls.uris import from_fs_path

from holodeck_lsp.named_files import UTF8_WIDEST, NotReadable, read_text
from holodeck_lsp.server import timing
from holodeck_lsp.server.positions import PositionMap
from holodeck_lsp.server.settings import Settings
from holodeck_lsp.validation.codes import rule
from holodeck_lsp.validation.diagnostics import Diagnostic, Range
from holodeck_lsp.validation.file_kinds import (
    Kind,
    is_config_file,
    looks_like_suite,
    matches_patterns,
)
from holodeck_lsp.validation.yaml.loader import load_yaml

if TYPE_CHECKING:
    from lsprotocol import types

log = logging.getLogger(__name__)
SOURCE = "holodeck-lsp"
# The editor validates on every keystroke and answers queries from whole parses: a file
# longer than this gets one HL007 (`check` validates up to the core's larger limit).
MAX_TEXT = 2_000_000
MAX_BYTES = MAX_TEXT * UTF8_WIDEST  # a file on disk past this cannot be within MAX_TEXT
_HOLODECK_LANGUAGE_IDS = frozenset({"holodeck", "holodeck-yaml"})
# Cheap signs that a YAML file may be a HoloDeck file, before paying for a parse.
_HINTS = ("test_cases", "turns", "instructions", "input")


@dataclass(frozen=True)
class Snapshot:
    uri: str
    path: Path
    text: str
    version: int | None
    language_id: str
    others: dict[Path, str]  # every other open buffer, by path
    versions: dict[Path, int | None]  # the version of each open buffer in this snapshot
    settings: Settings
    roots: tuple[Path, ...]
    encoding: str
    related_information: bool
    known: bool  # already recognised as a HoloDeck file (or referenced by one)
    user_config_dir: Path | None
    generation: int = 0  # the scheduler's settings generation when the snapshot was taken


Span = tuple[int, int, int, int]  # start line, character, end line, character


class Placed(NamedTuple):
    """Where a diagnostic stands in the client's units, and its related locations."""

    range: Span
    related: tuple[tuple[str, Span, str], ...] | None  # (uri, range, message)


@dataclass
class Outcome:
    tracked: bool
    kind: Kind | None = None
    core: dict[Path, list[Diagnostic]] = field(default_factory=dict)
    # The worker's placement of each core diagnostic, per file; the server turns them
    # into `lsp` (lsp_diagnostics.attach) when the outcome arrives.
    placed: dict[Path, list[Placed]] = field(default_factory=dict)
    lsp: dict[Path, list[types.Diagnostic]] = field(default_factory=dict)
    deps: frozenset[Path] = frozenset()
    error: str | None = None  # the validation itself failed (a bug): nothing is claimed


def is_holodeck_language(language_id: str) -> bool:
    """A language id a client assigns to HoloDeck files explicitly."""
    return language_id in _HOLODECK_LANGUAGE_IDS


def is_holodeck_file(snap: Snapshot) -> bool:
    """Whether an open document is one this server validates: known already, marked as
    HoloDeck by the client, matching `files.include`, a `config.yaml` beside a file that
    does, or text that reads as a suite."""
    if snap.known or is_holodeck_language(snap.language_id):
        return True
    if matches_patterns(snap.path, snap.settings.include):
        return True
    if is_config_file(snap.path):
        try:
            siblings = list(snap.path.parent.iterdir())
        except OSError:
            return False
        return any(matches_patterns(p, snap.settings.include) for p in siblings)
    if not any(hint in snap.text for hint in _HINTS):
        return False
    loaded = load_yaml(snap.text, MAX_TEXT)
    return loaded.parsed and looks_like_suite(loaded.data, snap.path)



def _read(path: Path, snap: Snapshot) -> str | None:
    if path == snap.path:
        return snap.text
    if path in snap.others:
        return snap.others[path]
    try:
        return read_text(path, MAX_BYTES)
    except NotReadable:
        return None


def place(d: Diagnostic, positions: PositionMap, snap: Snapshot) -> Placed:
    s, e = d.range.start, d.range.end
    related = None
    if snap.related_information and d.related:
        related = []
        for info in d.related:
            file = Path(info.file).resolve()
            text = _read(file, snap) or ""
            where = PositionMap(text, snap.encoding).span(
                (info.range.start.line, info.range.start.character),
                (info.range.end.line, info.range.end.character),
            )
            related.append((from_fs_path(str(file)) or str(file), where, info.message))
    return Placed(positions.span((s.line, s.character), (e.line, e.character)),
                  tuple(related) if related is not None else None)


def run(snap: Snapshot) -> Outcome:
    """Validate one snapshot; a failure of the validation itself becomes an empty outcome."""
    try:
        return _run(snap)
    except Exception as exc:  # a bug must cost one result, not the session
        log.exception("validating %s failed", snap.path)
        return Outcome(
            tracked=True,
            placed={snap.path: []},
            core={snap.path: []},
            error=f"{type(exc).__name__}: {exc}",
        )


def overran(snap: Snapshot, before: Outcome | None) -> Outcome:
    """A validation stopped past the time limit: one HL801 on line 1 of the document, and
    what it was known to read (``before``'s), so that their changes try it again."""
    overrun = "HL801"
    outcome = Outcome(tracked=True, core={snap.path: []}, placed={snap.path: []})
    if before is not None:
        outcome.kind, outcome.deps = before.kind, before.deps
    severity = snap.settings.severity.get(overrun, rule(overrun).severity)
    if severity is None:  # turned off
        return outcome
    end = snap.text.find("\n", 0, 200)
    first_line = snap.text[:end] if end != -1 else snap.text[:200]
    limit = snap.settings.time_limit
    outcome.core[snap.path] = [Diagnostic(
        Range.of(0, 0, 0, max(1, len(first_line))), severity, overrun,
        f"validating this file took longer than {limit:g} s, the server's limit "
        "(validation.timeLimit), so it was stopped and nothing of it is checked; it is "
        "validated again when it changes")]
    positions = PositionMap(first_line, snap.encoding)
    outcome.placed[snap.path] = [place(d, positions, snap) for d in outcome.core[snap.path]]
    return outcome


def _run(snap: Snapshot) -> Outcome:
    # Preloaded in the worker (server/preload.py); the server process never loads it.
    from holodeck_lsp.validation.validate import ValidationContext, validate_text

    if not is_holodeck_file(snap):
        return Outcome(tracked=False)
    context = ValidationContext(
        overlay=lambda p: snap.others.get(p),
        user_config_dir=snap.user_config_dir,
        search_paths=list(snap.roots),
        import_graders=snap.settings.import_graders,
        severity_overrides=snap.settings.severity,
        incremental=True,
        max_text=MAX_TEXT,
        workspace_folders=snap.roots,
    )
    timing.mark("validation starts")
    result = validate_text(snap.text, snap.path, context)
    timing.mark("validated (parse, models, lints)")
    outcome = Outcome(tracked=True, kind=result.kind)
    for file, diagnostics in result.by_file.items():
        path = Path(file).resolve()
        outcome.core[path] = diagnostics
        outcome.placed[path] = []
        if diagnostics:  # a line table costs a pass over the text: only when needed
            positions = PositionMap(_read(path, snap) or "", snap.encoding)
            outcome.placed[path] = [place(d, positions, snap) for d in diagnostics]
    deps = {Path(f).resolve() for f in result.referenced}
    deps |= result.grader_modules
    outcome.deps = frozenset(deps)
    return outcome

