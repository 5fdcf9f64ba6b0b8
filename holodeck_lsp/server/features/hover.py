"""Hover: the documentation of the field under the cursor; within a test case or turn, its
last run and its record over the runs kept beside its agent."""

from __future__ import annotations

from lsprotocol import types

from holodeck_lsp.server.kept_runs import hover_text, located
from holodeck_lsp.server.open_documents import Document
from holodeck_lsp.server.routes import Route
from holodeck_lsp.server.session import Session
from holodeck_lsp.validation.file_kinds import Kind, kind_of_text


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
    history = await _history(session, doc, line, kind, markdown)
    if found is None and last_run is None and history is None:
        return None
    text = (found.markdown if markdown else found.plain) if found is not None else ""
    for more in (last_run, history):  # the case or turn under the cursor: its runs
        if more is not None:
            text = f"{text}\n\n---\n\n{more}" if text else more
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


async def _history(
    session: Session, doc: Document, line: int, kind: Kind | None, markdown: bool
) -> str | None:
    """The record of the case or turn at ``line`` over the runs kept beside its agent (the
    document, or the open agent whose `test_cases_file` it is)."""
    if kind == "agent":
        agent, text, standalone = doc.path, doc.text, False
    else:
        owners = [d for d in map(session.documents.get, session.scheduler.owners_of(doc.path)) if d]
        if not owners:
            return None
        agent, text, standalone = owners[0].path, owners[0].text, True
    standings = await session.kept_runs.for_agent(agent, text)
    if standings is None:
        return None
    where = await session.query(doc, located, doc.text, line, standalone)
    if where is None:
        return None
    key, turn = where
    standing = standings.of(key, turn)
    return hover_text(standing, turn, markdown) if standing is not None else None


ROUTES = [Route(types.TEXT_DOCUMENT_HOVER, hover)]
