"""Go to definition: a grader to its Python function; file paths to their file."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from lsprotocol import types
from pygls.uris import from_fs_path

from holodeck_lsp.named_files import MAX_NAMED_BYTES, NotReadable, read_text
from holodeck_lsp.server.positions import PositionMap
from holodeck_lsp.server.routes import Route
from holodeck_lsp.server.session import Session

if TYPE_CHECKING:
    from holodeck_lsp.editing.navigation import Target


def _located(
    text: str, file: Path, line: int, character: int, roots: list[Path]
) -> tuple[Target, str] | None:
    """The target and the text its position is in (read here, on the query worker; a
    file that is not a regular one of bounded size counts as empty)."""
    from holodeck_lsp.editing.navigation import definition_at  # on first use

    target = definition_at(text, file, line, character, roots)
    if target is None:
        return None
    if target.line == 0 and target.character == 0:
        return target, ""  # the start of a file is the same in every encoding
    try:
        return target, read_text(target.file, MAX_NAMED_BYTES)
    except NotReadable:
        return target, ""


async def definition(session: Session, params: types.DefinitionParams) -> types.Location | None:
    doc = session.documents.get(params.text_document.uri)
    if doc is None or not await session.serves(doc):
        return None
    positions = doc.positions(session.encoding)
    line, character = positions.to_core(params.position)
    found = await session.query(
        doc, _located, doc.text, doc.path, line, character, list(session.roots)
    )
    if found is None:
        return None
    target, text = found
    opened = session.documents.by_path(target.file)
    if opened is not None:
        text = opened.text
    where = PositionMap(text, session.encoding).to_lsp(target.line, target.character)
    uri = opened.uri if opened is not None else (from_fs_path(str(target.file)) or "")
    return types.Location(uri, types.Range(where, where))


ROUTES = [Route(types.TEXT_DOCUMENT_DEFINITION, definition)]
