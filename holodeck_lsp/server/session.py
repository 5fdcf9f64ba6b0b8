"""The server's global state, and the few things every feature asks of the client."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, cast

from lsprotocol import types
from pygls.exceptions import JsonRpcContentModified

from holodeck_lsp.server import timing
from holodeck_lsp.server.capabilities import ClientFeatures
from holodeck_lsp.server.jobs import MAX_TEXT, Snapshot, is_holodeck_language
from holodeck_lsp.server.kept_runs import KeptRuns
from holodeck_lsp.server.open_documents import Document, Documents
from holodeck_lsp.server.run_results import RunResults
from holodeck_lsp.server.settings import Settings
from holodeck_lsp.server.startup import settle, start_validator
from holodeck_lsp.server.validation_scheduler import ValidationScheduler, Validator
from holodeck_lsp.server.worker import Worker
from holodeck_lsp.validation.context import user_config_dir
from holodeck_lsp.validation.file_kinds import Kind, matches_patterns

if TYPE_CHECKING:
    from pygls.lsp.server import LanguageServer

    from holodeck_lsp.editing.outline import Symbol

log = logging.getLogger(__name__)
T = TypeVar("T")


class Session:
    def __init__(self, server: LanguageServer, validator: Validator | None = None) -> None:
        self.server = server
        self.features = ClientFeatures()
        self.init_settings = Settings()  # from initializationOptions
        self.settings = Settings()  # the above, overlaid by the client's configuration
        self.documents = Documents()
        self.roots: list[Path] = []
        self.user_config_dir: Path | None = user_config_dir()
        # Validation in a child process, started by `start.serve` before this module loads.
        self.scheduler = ValidationScheduler(self, validator or start_validator())
        # Requests that parse a whole document (symbols, code actions, definitions)
        # run here, so a large file never stalls the event loop.
        self.queries = Worker("holodeck-queries")
        self._queued: dict[str, dict[Future[Any], None]] = {}  # query jobs by document, in order
        self._superseded: set[Future[Any]] = set()
        # The last outline of each document, with the text it was read from.
        self.outlines: dict[str, tuple[str, list[Symbol]]] = {}
        self.shut_down = False
        # The last run of each document, from "Run case" or a report (features/runs.py).
        self.run_results = RunResults()
        # Each case's and turn's record over the runs kept beside its agent (kept_runs.py).
        self.kept_runs = KeptRuns()

    @property
    def encoding(self) -> str:
        return self.documents.encoding

    def kind_of(self, doc: Document) -> Kind | None:
        """The kind of file the last validation found the document to be."""
        outcome = self.scheduler.outcome(doc.uri)
        return outcome.kind if outcome is not None and outcome.tracked else None

    async def serves(self, doc: Document) -> bool:
        """Whether the document is a HoloDeck file (so completion and hover apply)."""
        if (
            is_holodeck_language(doc.language_id)
            or matches_patterns(doc.path, self.settings.include)
            or self.scheduler.owners_of(doc.path)
        ):
            return True
        if self.scheduler.outcome(doc.uri) is None:  # not judged yet: its first validation does
            await self.scheduler.settled(doc.uri)
        outcome = self.scheduler.outcome(doc.uri)
        return outcome is not None and outcome.tracked

    async def query(self, doc: Document, fn: Callable[..., T], *args: Any,
                    too_large: Any = None) -> T:
        """``fn(*args)`` on the query worker, for the document's current text. If the
        document changes or closes before the job starts, the job is dropped and the
        request answered with ContentModified (the client asks again if it still cares).
        A document past the editor's size limit is not parsed: ``too_large`` answers."""
        if len(doc.text) > MAX_TEXT:
            return cast(T, too_large)
        job = self.queries.submit(fn, *args)
        queued = self._queued.setdefault(doc.uri, {})
        queued[job] = None
        try:
            return await asyncio.wrap_future(job)
        except asyncio.CancelledError:
            if job in self._superseded:
                raise JsonRpcContentModified(
                    f"{doc.path.name} changed before the request was served") from None
            raise
        finally:
            queued.pop(job, None)
            self._superseded.discard(job)
            if not queued:
                self._queued.pop(doc.uri, None)

    def supersede(self, uri: str, closed: bool = False) -> None:
        """The document changed, closed or was replaced: drop its queries that wait behind
        another job (the first one, when the worker is idle, is about to start and still
        runs: a keystroke's delay is no reason to refuse a hover)."""
        waiting = list(self._queued.get(uri, ()))
        if not closed and not self.queries.busy:
            waiting = waiting[1:]
        for job in waiting:
            if job.cancel():
                self._superseded.add(job)

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
            generation=self.scheduler.generation,
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
        timing.mark("diagnostics published")
        settle()

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
        self.scheduler.stop()
        self.queries.stop()
        self.kept_runs.stop()
