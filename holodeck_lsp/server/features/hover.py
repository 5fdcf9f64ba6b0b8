"""Hover: the documentation of the field under the cursor."""

from __future__ import annotations

from lsprotocol import types

from holodeck_lsp.server.routes import Route
from holodeck_lsp.server.session import Session
from holodeck_lsp.validation.file_kinds import kind_of_text


async def hover(session: Session, params: types.HoverParams) -> types.Hover | None:
    doc = session.documents.get(params.text_document.uri)
    if doc is None or not await session.serves(doc):
        return None
    positions = doc.positions(session.encoding)
    line, character = positions.to_core(params.position)
    from holodeck_lsp.editing.hover_text import hover_at

    kind = session.kind_of(doc) or kind_of_text(doc.path, doc.text)
    found = await session.query(doc, hover_at, doc.text, line, character, kind)
    markdown = session.features.hover_markdown
    last_run = session.run_results.hover(doc.uri, line, markdown)
    if found is None and last_run is None:
        return None
    text = (found.markdown if markdown else found.plain) if found is not None else ""
    if last_run is not None:  # the last run of the case or turn under the cursor
        text = f"{text}\n\n---\n\n{last_run}" if text else last_run
    contents = types.MarkupContent(
        types.MarkupKind.Markdown if markdown else types.MarkupKind.PlainText, text
    )
    if found is None:
        return types.Hover(contents)
    r = found.range
    return types.Hover(
        contents,
        positions.range_to_lsp((r.start.line, r.start.character), (r.end.line, r.end.character)),
    )


ROUTES = [Route(types.TEXT_DOCUMENT_HOVER, hover)]
