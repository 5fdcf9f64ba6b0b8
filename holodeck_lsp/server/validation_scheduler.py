"""Diagnostics: when to validate, which result wins, and what each file shows.

Per document, validations are debounced (the first change after a quiet spell runs
at once, later ones coalesce) and never overlap; a result is applied only if its
document has not changed since its snapshot was taken (latest wins), otherwise the
document is validated again. A validation past the time limit (`validation.timeLimit`)
is abandoned by the worker, and its document shows one HL801 until its next change. A
file's diagnostics come from the agents that read it (a `test_cases_file`, a
`config.yaml`) when any is open, else from its own validation. The same function feeds
pushed and pulled diagnostics.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from lsprotocol import types
from pygls.uris import from_fs_path

from holodeck_lsp.server import jobs, lsp_diagnostics, timing
from holodeck_lsp.server.capabilities import ClientFeatures
from holodeck_lsp.server.open_documents import Document, Documents
from holodeck_lsp.server.worker import Overran, Worker
from holodeck_lsp.validation.diagnostics import Diagnostic

log = logging.getLogger(__name__)
DEBOUNCE = 0.15  # seconds of quiet before a burst of edits is validated


class Host(Protocol):
    """What the scheduler asks of the session it serves, and nothing more."""

    @property
    def documents(self) -> Documents: ...

    @property
    def features(self) -> ClientFeatures: ...

    def snapshot(self, doc: Document, known: bool) -> jobs.Snapshot: ...

    def publish(
        self, uri: str, diagnostics: list[types.Diagnostic], version: int | None
    ) -> None: ...

    def refresh_diagnostics(self) -> None: ...

    def log(self, message: str, level: types.MessageType = types.MessageType.Info) -> None: ...


class Timer(Protocol):
    def cancel(self) -> None: ...


class Validator(Protocol):
    """Runs validation jobs off the event loop (a `Worker`)."""

    def submit(
        self, fn: Callable[[jobs.Snapshot], jobs.Outcome], snapshot: jobs.Snapshot, *,
        time_limit: float | None = None, key: str | None = None,
    ) -> Future[jobs.Outcome]: ...

    def stop(self) -> None: ...


# A validation already started for a snapshot, if there is one (`first_messages.py`).
Adopt = Callable[[jobs.Snapshot], "Future[jobs.Outcome] | None"]


def _call_later(delay: float, callback: Callable[[], None]) -> Timer:
    return asyncio.get_running_loop().call_later(delay, callback)


@dataclass
class _State:
    timer: Timer | None = None
    running: bool = False
    job: Future[jobs.Outcome] | None = None  # queued or running on the worker
    again: bool = False
    last_start: float = float("-inf")
    tracked: bool = False


@dataclass
class _Waiter:
    version: int | None
    future: asyncio.Future[None]


@dataclass
class Shown:
    """What one file shows: the merged diagnostics, in both forms."""

    core: list[Diagnostic] = field(default_factory=list)
    lsp: list[types.Diagnostic] = field(default_factory=list)
    result_id: int = 0


def _key(d: types.Diagnostic) -> tuple[Any, ...]:
    r = d.range
    return (r.start.line, r.start.character, r.end.line, r.end.character, d.code, d.message)


class ValidationScheduler:
    """Time (``clock``, ``call_later``) and the worker are given, so tests can drive them."""

    def __init__(
        self,
        host: Host,
        worker: Validator | None = None,
        clock: Callable[[], float] = time.monotonic,
        call_later: Callable[[float, Callable[[], None]], Timer] = _call_later,
        adopt: Adopt | None = None,
    ) -> None:
        self.host = host
        self._adopt = adopt
        self.worker: Validator = worker or Worker("holodeck-validation")
        self._clock = clock
        self._call_later = call_later
        self._states: dict[str, _State] = {}
        self._outcomes: dict[str, jobs.Outcome] = {}  # by the owning document's URI
        self._shown: dict[Path, Shown] = {}
        self._waiters: dict[str, list[_Waiter]] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._ids = itertools.count(1)
        self._seen: dict[Path, int | None] = {}  # the version each file was last validated at
        self._stopped = False
        self.generation = 0  # bumped when settings or workspace folders change
        self.on_applied: Callable[[str], None] | None = None  # for tests and benchmarks

    # -- scheduling ------------------------------------------------------------------

    def request(self, uri: str, immediate: bool = False) -> None:
        """Validate a document soon (or the agents that read it, when any is open)."""
        if self._stopped:
            return
        doc = self.host.documents.get(uri)
        if doc is None:
            return
        owners = self.owners_of(doc.path)
        for owner in owners:
            self._schedule(owner, immediate)
        if not owners:
            self._schedule(uri, immediate)

    def request_all(self) -> None:
        for doc in self.host.documents.all():
            self._schedule(doc.uri, True)

    def revalidate_all(self) -> None:
        """After a change of settings or folders: every result is out of date."""
        self.generation += 1  # results of earlier snapshots are dropped as stale
        self._seen.clear()  # a pull now waits for the new validation
        self.request_all()
        if self.host.features.pull_diagnostics and self.host.features.diagnostic_refresh:
            self.host.refresh_diagnostics()

    def request_dependents(self, path: Path) -> None:
        for owner in self.owners_of(path):
            self._schedule(owner, True)

    def owners_of(self, path: Path) -> list[str]:
        """Open documents (other than ``path`` itself) whose last validation read it."""
        out = []
        for uri, outcome in self._outcomes.items():
            doc = self.host.documents.get(uri)
            if doc is not None and doc.path != path and path in outcome.deps:
                out.append(uri)
        return out

    def _schedule(self, uri: str, immediate: bool) -> None:
        state = self._states.setdefault(uri, _State())
        if state.running and not self._withdraw(state):
            state.again = True
            return
        if state.timer is not None:
            state.timer.cancel()
        quiet = self._clock() - state.last_start >= DEBOUNCE
        delay = 0.0 if immediate or quiet else DEBOUNCE
        state.timer = self._call_later(delay, lambda: self._start(uri))

    @staticmethod
    def _withdraw(state: _State) -> bool:
        """Take back a validation the worker has not started (its snapshot is out of date)."""
        if state.job is None or not state.job.cancel():
            return False
        state.job = None
        state.running = False
        state.again = False
        return True

    def _start(self, uri: str) -> None:
        state = self._states.get(uri)
        doc = self.host.documents.get(uri)
        if state is None or doc is None or self._stopped:
            return
        state.timer = None
        state.running = True
        state.last_start = self._clock()
        snapshot = self.host.snapshot(doc, known=state.tracked or bool(self.owners_of(doc.path)))
        adopted = self._adopt(snapshot) if self._adopt is not None else None
        self._adopt = None  # only the first validation can have been started before
        if adopted is not None:
            state.job = adopted
        else:
            state.job = self.worker.submit(jobs.run, snapshot, key=uri,
                                           time_limit=snapshot.settings.time_limit)
            timing.mark("validation submitted")
        task = asyncio.get_running_loop().create_task(self._run(uri, snapshot, state.job))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _run(self, uri: str, snapshot: jobs.Snapshot, job: Future[jobs.Outcome]) -> None:
        try:
            outcome = await asyncio.wrap_future(job)
            timing.mark("validation result received")
            outcome = lsp_diagnostics.attach(outcome)
        except asyncio.CancelledError:
            return  # withdrawn for a newer snapshot, or the server stops
        except Overran:
            self.host.log(f"validating {snapshot.path.name} took longer than "
                          f"{snapshot.settings.time_limit:g} s: stopped (HL801)",
                          types.MessageType.Warning)
            outcome = lsp_diagnostics.attach(jobs.overran(snapshot, self._outcomes.get(uri)))
        except Exception:
            log.exception("validation of %s failed", uri)
            outcome = jobs.Outcome(tracked=False)
        self._finish(uri, snapshot, outcome)

    def _finish(self, uri: str, snapshot: jobs.Snapshot, outcome: jobs.Outcome) -> None:
        state = self._states.get(uri)
        if state is None:
            return
        state.running = False
        state.job = None
        doc = self.host.documents.get(uri)
        if doc is None:
            self._release(uri)
            return
        if (
            doc.version != snapshot.version
            or doc.text != snapshot.text
            or snapshot.generation != self.generation
        ):
            state.again = False
            self._schedule(uri, False)  # stale: the newer state is validated instead
            return
        if state.again:  # a file it reads changed meanwhile
            state.again = False
            self._schedule(uri, False)
        if outcome.error is not None:
            self.host.log(
                f"could not validate {doc.path.name}: {outcome.error[:500]}",
                types.MessageType.Error,
            )
        try:
            self._apply(uri, doc, outcome)
        finally:
            self._wake(snapshot, outcome)
        if self.on_applied is not None:
            self.on_applied(uri)

    # -- results -----------------------------------------------------------------------

    def _apply(self, uri: str, doc: Document, outcome: jobs.Outcome) -> None:
        state = self._states[uri]
        state.tracked = outcome.tracked
        before = self._outcomes.get(uri)
        self._outcomes[uri] = outcome
        touched = set(outcome.lsp) | (set(before.lsp) if before else set())
        if outcome.tracked:
            touched.add(doc.path)
        self._refresh(touched, primary=doc.path if outcome.tracked else None)
        if before is not None:
            self._orphans(before.deps - outcome.deps)

    def _orphans(self, paths: set[Path] | frozenset[Path]) -> None:
        """Open files no open agent reads any more: they are validated on their own."""
        for path in paths:
            other = self.host.documents.by_path(path)
            if other is not None and not self.owners_of(path):
                self._schedule(other.uri, True)

    def _refresh(self, files: set[Path], primary: Path | None = None) -> None:
        """Recompute what ``files`` show and tell the client about the changes."""
        changed_elsewhere = False
        # The document itself first, then the files it reads, in a stable order.
        for path in sorted(files, key=lambda p: (p != primary, str(p))):
            shown = self._merge(path)
            old = self._shown.get(path)
            same = old is not None and [_key(d) for d in old.lsp] == [_key(d) for d in shown.lsp]
            shown.result_id = old.result_id if same and old is not None else next(self._ids)
            self._shown[path] = shown
            if self.host.features.pull_diagnostics:
                if not same and path != primary and self._open_uri(path) is not None:
                    changed_elsewhere = True
            elif not same or path == primary:
                self._publish(path, shown.lsp)
        if changed_elsewhere and self.host.features.diagnostic_refresh:
            self.host.refresh_diagnostics()

    def _merge(self, path: Path) -> Shown:
        owners = [uri for uri, o in self._outcomes.items() if path in o.lsp]
        readers = [uri for uri in owners if self._path_of(uri) != path]
        chosen = readers or owners
        shown = Shown()
        seen: set[tuple[Any, ...]] = set()
        for uri in chosen:
            outcome = self._outcomes[uri]
            pairs = zip(outcome.core.get(path, []), outcome.lsp.get(path, []), strict=True)
            for core, lsp in pairs:
                key = _key(lsp)
                if key not in seen:
                    seen.add(key)
                    shown.core.append(core)
                    shown.lsp.append(lsp)
        return shown

    def _path_of(self, uri: str) -> Path | None:
        doc = self.host.documents.get(uri)
        return doc.path if doc is not None else None

    def _open_uri(self, path: Path) -> str | None:
        doc = self.host.documents.by_path(path)
        return doc.uri if doc is not None else None

    def _publish(self, path: Path, diagnostics: list[types.Diagnostic]) -> None:
        doc = self.host.documents.by_path(path)
        uri = doc.uri if doc is not None else (from_fs_path(str(path)) or str(path))
        version = (
            doc.version
            if doc is not None and (self.host.features.versioned_diagnostics)
            else None
        )
        self.host.publish(uri, diagnostics, version)

    def outcome(self, uri: str) -> jobs.Outcome | None:
        """The last applied validation of a document."""
        return self._outcomes.get(uri)

    def shown(self, path: Path) -> Shown:
        """The one answer for a file's diagnostics, pushed or pulled."""
        return self._shown.get(path) or Shown()

    def related(self, uri: str) -> dict[Path, Shown]:
        """The other files a document's last validation reported on."""
        outcome = self._outcomes.get(uri)
        own = self._path_of(uri)
        if outcome is None:
            return {}
        return {p: self.shown(p) for p in outcome.lsp if p != own}

    # -- pull support ------------------------------------------------------------------

    async def settled(self, uri: str, timeout: float = 60.0) -> None:
        """Wait until the document's current version has been validated."""
        doc = self.host.documents.get(uri)
        if doc is None or self._stopped:
            return
        if doc.path in self._seen and self._seen[doc.path] == doc.version:
            return
        state = self._states.get(uri)
        busy = state is not None and (state.running or state.timer is not None)
        if not busy and not self.owners_of(doc.path):
            self._schedule(uri, True)
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiters.setdefault(uri, []).append(_Waiter(doc.version, future))
        try:
            await asyncio.wait_for(future, timeout)
        except asyncio.TimeoutError:
            log.warning(
                "no validation of %s within %s s; answering with what is known", uri, timeout
            )

    def _wake(self, snap: jobs.Snapshot, outcome: jobs.Outcome) -> None:
        """Release the pull requests this validation answers (its document and those it read)."""
        seen = {path: snap.versions.get(path) for path in outcome.lsp}
        seen[snap.path] = snap.version
        self._seen.update(seen)
        for uri, waiters in list(self._waiters.items()):
            doc = self.host.documents.get(uri)
            if doc is None:
                self._release(uri)
                continue
            if doc.path not in seen:
                continue
            version = seen[doc.path]
            current = version == doc.version  # a version the client moved past is answered too
            keep = []
            for waiter in waiters:
                if current or waiter.version is None or (
                    version is not None and version >= waiter.version
                ):
                    if not waiter.future.done():
                        waiter.future.set_result(None)
                else:
                    keep.append(waiter)
            self._waiters[uri] = keep

    def _release(self, uri: str) -> None:
        for waiter in self._waiters.pop(uri, []):
            if not waiter.future.done():
                waiter.future.set_result(None)

    # -- lifecycle ---------------------------------------------------------------------

    def closed(self, doc: Document) -> None:
        """Forget a closed document: its results, and its diagnostics unless read by others."""
        state = self._states.pop(doc.uri, None)
        if state is not None and state.timer is not None:
            state.timer.cancel()
        if state is not None and state.job is not None:
            state.job.cancel()  # a queued validation of a closed document never runs
        self._release(doc.uri)
        self._seen.pop(doc.path, None)
        outcome = self._outcomes.pop(doc.uri, None)
        readers = self.owners_of(doc.path)
        touched = (set(outcome.lsp) if outcome else set()) - {doc.path}
        if readers:
            touched.add(doc.path)
        else:
            self._shown.pop(doc.path, None)
            if not self.host.features.pull_diagnostics:
                self.host.publish(doc.uri, [], None)
        self._refresh(touched)
        if outcome is not None:
            self._orphans(outcome.deps)
        for reader in readers:  # they read the file from disk from now on
            self._schedule(reader, True)

    def deleted(self, path: Path) -> None:
        """A file is gone: clear what it shows and re-validate whoever read it."""
        if self._shown.pop(path, None) is not None and not self.host.features.pull_diagnostics:
            self.host.publish(from_fs_path(str(path)) or str(path), [], None)
        self.request_all()

    def stop(self) -> None:
        self._stopped = True
        for state in self._states.values():
            if state.timer is not None:
                state.timer.cancel()
        for task in list(self._tasks):
            task.cancel()
        for uri in list(self._waiters):
            self._release(uri)
        self.worker.stop()
