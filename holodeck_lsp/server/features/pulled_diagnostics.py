"""Pulled diagnostics (`textDocument/diagnostic`), for clients that ask for them.

Pushed diagnostics are sent by the validation scheduler; both read `ValidationScheduler.shown`.
"""

from __future__ import annotations

from lsprotocol import types
from pygls.uris import from_fs_path

from holodeck_lsp.server.initialization import DIAGNOSTIC_IDENTIFIER
from holodeck_lsp.server.open_documents import uri_path
from holodeck_lsp.server.routes import Route
from holodeck_lsp.server.session import Session

Report = types.RelatedFullDocumentDiagnosticReport | types.RelatedUnchangedDocumentDiagnosticReport


async def diagnostic(session: Session, params: types.DocumentDiagnosticParams) -> Report:
    uri = params.text_document.uri
    doc = session.documents.get(uri)
    if doc is not None:
        await session.scheduler.settled(uri)
    shown = session.scheduler.shown(doc.path if doc is not None else uri_path(uri))
    result_id = str(shown.result_id)
    related: dict[
        str, types.FullDocumentDiagnosticReport | types.UnchangedDocumentDiagnosticReport
    ] = {}
    for path, other in session.scheduler.related(uri).items():
        related[from_fs_path(str(path)) or str(path)] = types.FullDocumentDiagnosticReport(
            items=other.lsp, result_id=str(other.result_id)
        )
    ran = session.run_results.diagnostics(uri, doc.text) if doc is not None else []
    if ran:  # the last run's diagnostics change without a new validation
        result_id += f"+run{hash(tuple(d.range.start.line for d in ran))}"
    if params.previous_result_id == result_id and shown.result_id:
        return types.RelatedUnchangedDocumentDiagnosticReport(
            result_id=result_id, related_documents=related or None
        )
    return types.RelatedFullDocumentDiagnosticReport(
        items=[*shown.lsp, *ran], result_id=result_id, related_documents=related or None
    )


def _empty() -> Report:
    return types.RelatedFullDocumentDiagnosticReport(items=[])


ROUTES = [
    Route(
        types.TEXT_DOCUMENT_DIAGNOSTIC,
        diagnostic,
        types.DiagnosticOptions(
            identifier=DIAGNOSTIC_IDENTIFIER, inter_file_dependencies=True,
            workspace_diagnostics=False,
        ),
        when=lambda features: features.pull_diagnostics,
        empty=_empty,
    ),
]
