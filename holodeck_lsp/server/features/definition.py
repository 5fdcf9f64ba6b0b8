"""Go to definition: a grader to its Python function; file paths to their file."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types
from pygls.uris import from_fs_path

from holodeck_lsp.server.positions import PositionMap
from holodeck_lsp.server.routes import Route
from holodeck_lsp.server.session import Session

if TYPE_CHECKING:
    from holodeck_lsp.editing.navigation import Target


def _target_text(target: Target) -> str:
    try:
        return target.file.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


async def definition(session: Session, params: types.DefinitionParams) -> types.Location | None:
    doc = session.documents.get(params.text_document.uri)
    if doc is None or not await session.serves(doc):
        return None
    from holodeck_lsp.editing.navigation import definition_at  # see startup.LATE_IMPORTS

    positions = doc.positions(session.encoding)
    line, character = positions.to_core(params.position)
    target = await session.query(
        doc, definition_at, doc.text, doc.path, line, character, list(session.roots)
    )
    if target is None:
        return None
    opened = session.documents.by_path(target.file)
    text = opened.text if opened is not None else _target_text(target)
    where = PositionMap(text, session.encoding).to_lsp(target.line, target.character)
    uri = opened.uri if opened is not None else (from_fs_path(str(target.file)) or "")
    return types.Location(uri, types.Range(where, where))


ROUTES = [Route(types.TEXT_DOCUMENT_DEFINITION, definition)]
