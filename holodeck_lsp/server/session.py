"""The server's global state, and the few things every feature asks of the client."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING

from lsprotocol import types

from holodeck_lsp.editing.outline import Symbol
from holodeck_lsp.server.capabilities import ClientFeatures, is_holodeck_language
from holodeck_lsp.server.documents import Document, Documents
from holodeck_lsp.server.engine import Engine
from holodeck_lsp.server.jobs import Snapshot
from holodeck_lsp.server.run_results import RunResults
from holodeck_lsp.server.settings import Settings
from holodeck_lsp.server.worker import Worker
from holodeck_lsp.validation.documents import Kind, matches_patterns

if TYPE_CHECKING:
    from pygls.lsp.server import LanguageServer

log = logging.getLogger(__name__)


class Session:
    def __init__(self, server: LanguageServer) -> None:
        self.server = server
        self.features = ClientFeatures()
        self.init_settings = Settings()  # from initializationOptions
        self.settings = Settings()  # the above, overlaid by the client's configuration
        self.documents = Documents()
        self.roots: list[Path] = []
        self.user_config_dir: Path | None = Path.home() / ".holodeck"
        self.engine = Engine(self)
        # Requests that parse a whole document (symbols, code actions, definitions)
        # run here, so a large file never stalls the event loop.
        self.queries = Worker("holodeck-queries")
        # The last outline of each document, with the text it was read from.
        self.outlines: dict[str, tuple[str, list[Symbol]]] = {}
        self.shut_down = False
        # The last run of each document, from "Run case" or a report (features/runs.py).
        self.run_results = RunResults()

    @property
    def encoding(self) -> str:
        return self.documents.encoding

    def kind_of(self, doc: Document) -> Kind | None:
        """The kind of file the last validation found the document to be."""
        outcome = self.engine.outcome(doc.uri)
        return outcome.kind if outcome is not None and outcome.tracked else None

    async def serves(self, doc: Document) -> bool:
        """Whether the document is a HoloDeck file (so completion and hover apply)."""
        if (
            is_holodeck_language(doc.language_id)
            or matches_patterns(doc.path, self.settings.include)
            or self.engine.owners_of(doc.path)
        ):
            return True
        if self.engine.outcome(doc.uri) is None:  # not judged yet: its first validation does
            await self.engine.settled(doc.uri)
        outcome = self.engine.outcome(doc.uri)
        return outcome is not None and outcome.tracked

    def snapshot(self, doc: Document, known: bool) -> Snapshot:
        others = {d.path: d.text for d in self.documents.all() if d.uri != doc.uri}
        versions = {d.path: d.version for d in self.documents.all()}
        return Snapshot(
            uri=doc.uri,
            path=doc.path,
            text=doc.text,
            version=doc.version,
            language_id=doc.language_id,
            others=others,
            versions=versions,
            settings=self.settings,
            roots=tuple(self.roots),
            encoding=self.encoding,
            related_information=self.features.related_information,
            known=known,
            user_config_dir=self.user_config_dir,
            generation=self.engine.generation,
        )

    def publish(self, uri: str, diagnostics: list[types.Diagnostic], version: int | None) -> None:
        if self.shut_down:
            return
        doc = self.documents.get(uri)
        if doc is not None:  # the last run's diagnostics whose lines are unchanged
            diagnostics = [*diagnostics, *self.run_results.diagnostics(uri, doc.text)]
        self.server.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics, version=version)
        )

    def refresh_diagnostics(self) -> None:
        if not self.shut_down:
            self.server.workspace_diagnostic_refresh(None)

    def log(self, message: str, level: types.MessageType = types.MessageType.Info) -> None:
        """A line in the client's log (never a pop-up)."""
        log.log(logging.WARNING if level <= types.MessageType.Warning else logging.INFO, message)
        if not self.shut_down:
            self.server.window_log_message(types.LogMessageParams(type=level, message=message))

    def stop(self) -> None:
        self.shut_down = True
        self.engine.stop()
        self.queries.stop()
