"""Completion: keys, allowed values and entry templates at the cursor."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

from holodeck_lsp.server.initialization import TRIGGER_CHARACTERS
from holodeck_lsp.server.routes import Route
from holodeck_lsp.server.run_command_line import recording_for
from holodeck_lsp.server.session import Session
from holodeck_lsp.validation.file_kinds import kind_of_text

if TYPE_CHECKING:
    from holodeck_lsp.editing.completion_candidates import CompletionItem

_KINDS = {
    "key": types.CompletionItemKind.Property,
    "value": types.CompletionItemKind.EnumMember,
    "snippet": types.CompletionItemKind.Snippet,
}


def _item(session: Session, item: CompletionItem, where: types.Range) -> types.CompletionItem:
    features = session.features
    snippet = features.snippets and item.snippet is not None
    documentation: str | types.MarkupContent = (
        types.MarkupContent(types.MarkupKind.Markdown, item.documentation)
        if features.completion_markdown
        else item.documentation_plain
    )
    return types.CompletionItem(
        label=item.label,
        kind=_KINDS[item.kind],
        detail=item.detail,
        documentation=documentation,
        sort_text=item.sort,
        filter_text=item.text.strip() if item.kind == "snippet" else None,
        text_edit=types.TextEdit(where, item.snippet if snippet and item.snippet else item.text),
        insert_text_format=(
            types.InsertTextFormat.Snippet if snippet else types.InsertTextFormat.PlainText
        ),
        insert_text_mode=types.InsertTextMode.AsIs if features.insert_as_is else None,
    )


async def completion(session: Session, params: types.CompletionParams) -> types.CompletionList:
    doc = session.documents.get(params.text_document.uri)
    empty = types.CompletionList(is_incomplete=False, items=[])
    if doc is None or not await session.serves(doc):
        return empty
    positions = doc.positions(session.encoding)
    line, character = positions.to_core(params.position)
    from holodeck_lsp.editing.completion_candidates import complete, wants_tools
    from holodeck_lsp.server.tool_sources import tool_choices  # editing's: loaded late too

    kind = session.kind_of(doc) or kind_of_text(doc.path, doc.text)
    tools = None
    if wants_tools(doc.text, line, character, kind):  # read from files: on the query worker
        recording = recording_for(doc.path, session.settings.run_replay)
        seen = session.run_results.calls(doc.uri)
        tools = await session.query(doc, tool_choices, doc.text, doc.path, recording, seen)
    found = complete(doc.text, line, character, kind, tools)
    if found is None:
        return empty
    where = positions.range_to_lsp((found.line, found.start), (found.line, found.end))
    return types.CompletionList(
        is_incomplete=False, items=[_item(session, item, where) for item in found.items]
    )


ROUTES = [
    Route(
        types.TEXT_DOCUMENT_COMPLETION,
        completion,
        types.CompletionOptions(trigger_characters=list(TRIGGER_CHARACTERS)),
        empty=lambda: types.CompletionList(is_incomplete=False, items=[]),
    ),
]
