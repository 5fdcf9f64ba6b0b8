"""Code actions: quick fixes of our diagnostics and the single-to-multi-turn rewrite."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from lsprotocol import types

from holodeck_lsp.server.initialization import CODE_ACTION_KINDS
from holodeck_lsp.server.jobs import SOURCE
from holodeck_lsp.server.open_documents import Document
from holodeck_lsp.server.positions import PositionMap
from holodeck_lsp.server.routes import Route
from holodeck_lsp.server.session import Session
from holodeck_lsp.validation.diagnostics import Diagnostic, Position, Range, Severity

if TYPE_CHECKING:
    from holodeck_lsp.editing.fixes import Fix

_KINDS = {
    "quickfix": types.CodeActionKind.QuickFix,
    "refactor": types.CodeActionKind.RefactorRewrite,
}


@dataclass(frozen=True)
class _Request:
    text: str
    diagnostics: list[tuple[Diagnostic, types.Diagnostic]]
    cursor: tuple[int, int]
    refactor: bool


def _core_range(positions: PositionMap, r: types.Range) -> Range:
    return Range(Position(*positions.to_core(r.start)), Position(*positions.to_core(r.end)))


def _same_range(a: types.Range, b: types.Range) -> bool:
    return (a.start.line, a.start.character, a.end.line, a.end.character) == (
        b.start.line,
        b.start.character,
        b.end.line,
        b.end.character,
    )


def _ours(
    session: Session, doc: Document, positions: PositionMap, params: types.CodeActionParams
) -> list[tuple[Diagnostic, types.Diagnostic]]:
    """The client's diagnostics of this server, matched to the core diagnostics behind them."""
    shown = session.scheduler.shown(doc.path)
    pairs = list(zip(shown.core, shown.lsp, strict=True))
    chosen = [d for d in params.context.diagnostics if d.source == SOURCE]
    if not chosen:  # a client that sends no context: the diagnostics under the range
        chosen = [
            lsp
            for _, lsp in pairs
            if (lsp.range.start.line, lsp.range.start.character)
            <= (params.range.end.line, params.range.end.character)
            and (params.range.start.line, params.range.start.character)
            <= (lsp.range.end.line, lsp.range.end.character)
        ]
    out = []
    for client in chosen:
        match = next(
            (
                core
                for core, lsp in pairs
                if lsp.code == client.code and _same_range(lsp.range, client.range)
            ),
            None,
        )
        if match is None:  # fall back on what the client kept of our diagnostic
            data = client.data.get("fix") if isinstance(client.data, dict) else None
            match = Diagnostic(
                _core_range(positions, client.range),
                Severity.ERROR,
                str(client.code),
                client.message,
                data=data if isinstance(data, dict) else None,
            )
        out.append((match, client))
    return out


def _compute(request: _Request) -> list[tuple[Fix, types.Diagnostic | None]]:
    from holodeck_lsp.editing.fixes import fixes_for, refactors_at  # on first use

    found: list[tuple[Fix, types.Diagnostic | None]] = []
    for core, client in request.diagnostics:
        found.extend((fix, client) for fix in fixes_for(request.text, core))
    if request.refactor:
        found.extend((fix, None) for fix in refactors_at(request.text, *request.cursor))
    return found


def _wants(params: types.CodeActionParams, kind: str) -> bool:
    only = params.context.only
    return not only or any(kind == o or kind.startswith(f"{o}.") for o in only)


async def code_actions(session: Session, params: types.CodeActionParams) -> list[types.CodeAction]:
    doc = session.documents.get(params.text_document.uri)
    if doc is None or not session.features.code_action_literals or not await session.serves(doc):
        return []
    text = doc.text
    positions = PositionMap(text, session.encoding)
    request = _Request(
        text,
        _ours(session, doc, positions, params) if _wants(params, "quickfix") else [],
        positions.to_core(params.range.start),
        _wants(params, types.CodeActionKind.RefactorRewrite),
    )
    found = await session.query(doc, _compute, request, too_large=[])
    actions = []
    for fix, client in found:
        r = fix.edit.range
        edit = types.TextEdit(
            positions.range_to_lsp(
                (r.start.line, r.start.character), (r.end.line, r.end.character)
            ),
            fix.edit.new_text,
        )
        actions.append(
            types.CodeAction(
                title=fix.title,
                kind=_KINDS[fix.kind],
                diagnostics=[client] if client is not None else None,
                is_preferred=fix.preferred or None,
                edit=types.WorkspaceEdit(changes={doc.uri: [edit]}),
            )
        )
    return actions


ROUTES = [
    Route(
        types.TEXT_DOCUMENT_CODE_ACTION,
        code_actions,
        types.CodeActionOptions(
            code_action_kinds=[types.CodeActionKind(kind) for kind in CODE_ACTION_KINDS]
        ),
        empty=list,
    ),
]
