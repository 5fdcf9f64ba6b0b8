"""What a test explorer (VS Code's Testing view) asks of the server, so its items and
failure locations come from the same parse as the diagnostics:

- `holodeck/testItems` `{textDocument}` -> `{cases: [{index, label, range, selection,
  turns: [{index, label, detail, range}]}]}` for an agent file (`cases` empty when it has
  no inline `test_cases`), or null when its text does not parse (keep the last items);
- `holodeck/fieldRanges` `{textDocument, paths}` -> one range or null per field path of
  `run --events` (`test_cases[0].turns[1].ground_truth`), where a result about that field
  is shown (the same place as the run's diagnostics).

A document the client has not opened is read from disk. One past the editor's size limit
(docs/editors.md) is not parsed: null items, null ranges.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from lsprotocol import types

from holodeck_lsp.editing.outline import Symbol, suite_items
from holodeck_lsp.server.documents import uri_path
from holodeck_lsp.server.jobs import MAX_TEXT
from holodeck_lsp.server.positions import PositionMap
from holodeck_lsp.server.routes import Route
from holodeck_lsp.server.run_results import field_ranges
from holodeck_lsp.server.session import Session
from holodeck_lsp.validation.diagnostics import Range

TEST_ITEMS = "holodeck/testItems"
FIELD_RANGES = "holodeck/fieldRanges"


def _get(params: Any, name: str) -> Any:
    """A field of the params, whether pygls left them a dict or made them an object."""
    return params.get(name) if isinstance(params, dict) else getattr(params, name, None)


def _text(session: Session, params: Any) -> str | None:
    uri = _get(_get(params, "textDocument"), "uri")
    if not isinstance(uri, str):
        raise ValueError("textDocument.uri is required")
    doc = session.documents.get(uri)
    if doc is not None:
        return doc.text if len(doc.text) <= MAX_TEXT else None
    path = uri_path(uri)
    try:
        if path.stat().st_size > MAX_TEXT:
            return None
        return Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None


def _range(positions: PositionMap, r: Range) -> dict[str, Any]:
    where = positions.range_to_lsp((r.start.line, r.start.character), (r.end.line, r.end.character))
    return _plain(where)


def _plain(r: types.Range) -> dict[str, Any]:
    return {
        "start": {"line": r.start.line, "character": r.start.character},
        "end": {"line": r.end.line, "character": r.end.character},
    }


def items(text: str, encoding: str) -> dict[str, Any] | None:
    """The answer to `holodeck/testItems` for ``text`` (run on the query worker)."""
    cases = suite_items(text)
    if cases is None:
        return None
    positions = PositionMap(text, encoding)

    def turn(symbol: Symbol) -> dict[str, Any]:
        return {
            "index": symbol.index,
            "label": symbol.name,
            "detail": symbol.detail,
            "range": _range(positions, symbol.range),
        }

    return {
        "cases": [
            {
                "index": case.index,
                "label": case.name,
                "detail": case.detail,
                "range": _range(positions, case.range),
                "selection": _range(positions, case.selection),
                "turns": [turn(child) for child in case.children],
            }
            for case in cases
        ]
    }


def ranges(text: str, encoding: str, paths: list[str]) -> list[dict[str, Any] | None]:
    return [None if r is None else _plain(r) for r in field_ranges(text, encoding, paths)]


async def test_items(session: Session, params: Any) -> dict[str, Any] | None:
    text = _text(session, params)
    if text is None:
        return None
    job = session.queries.submit(items, text, session.encoding)
    return await asyncio.wrap_future(job)


async def field_ranges_of(session: Session, params: Any) -> list[dict[str, Any] | None]:
    paths = _get(params, "paths")
    if not isinstance(paths, list) or not all(isinstance(p, str) for p in paths):
        raise ValueError("paths must be a list of field paths")
    text = _text(session, params)
    if text is None:
        return [None for _ in paths]
    return await asyncio.wrap_future(
        session.queries.submit(ranges, text, session.encoding, paths)
    )


ROUTES = [
    Route(TEST_ITEMS, test_items),
    Route(FIELD_RANGES, field_ranges_of, empty=list),
]
