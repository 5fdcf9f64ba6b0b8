"""Document synchronisation and file events: each one schedules validations."""

from __future__ import annotations

from lsprotocol import types

from holodeck_lsp.server import timing
from holodeck_lsp.server.open_documents import uri_path
from holodeck_lsp.server.routes import Route
from holodeck_lsp.server.session import Session


def did_open(session: Session, params: types.DidOpenTextDocumentParams) -> None:
    timing.mark("didOpen read")
    session.supersede(params.text_document.uri, closed=True)  # opened again: a new text
    session.documents.open(params.text_document)
    session.scheduler.request(params.text_document.uri, immediate=True)


def did_change(session: Session, params: types.DidChangeTextDocumentParams) -> None:
    doc = session.documents.change(
        params.text_document.uri, params.text_document.version, params.content_changes
    )
    if doc is not None:
        session.supersede(doc.uri)
        session.scheduler.request(doc.uri)


def did_save(session: Session, params: types.DidSaveTextDocumentParams) -> None:
    session.scheduler.request(params.text_document.uri, immediate=True)


def did_close(session: Session, params: types.DidCloseTextDocumentParams) -> None:
    doc = session.documents.close(params.text_document.uri)
    session.supersede(params.text_document.uri, closed=True)
    session.outlines.pop(params.text_document.uri, None)
    if doc is not None:
        session.scheduler.closed(doc)


def did_change_watched_files(session: Session, params: types.DidChangeWatchedFilesParams) -> None:
    everything = False
    for event in params.changes:
        path = uri_path(event.uri)
        if event.type == types.FileChangeType.Deleted:
            session.scheduler.deleted(path)
        elif event.type == types.FileChangeType.Created:
            everything = True  # a missing test_cases_file, grader or file may now exist
        elif session.documents.by_path(path) is None:  # an open buffer is the truth
            session.scheduler.request_dependents(path)
    if everything:
        session.scheduler.request_all()


ROUTES = [
    Route(types.TEXT_DOCUMENT_DID_OPEN, did_open),
    Route(types.TEXT_DOCUMENT_DID_CHANGE, did_change),
    Route(types.TEXT_DOCUMENT_DID_SAVE, did_save, types.SaveOptions(include_text=False)),
    Route(types.TEXT_DOCUMENT_DID_CLOSE, did_close),
    Route(types.WORKSPACE_DID_CHANGE_WATCHED_FILES, did_change_watched_files),
]
