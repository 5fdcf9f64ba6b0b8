"""The engine's scheduling and bookkeeping, driven by hand: a fake session, a fake worker
whose jobs the test completes, and a clock and timers the test controls. No sleeps."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path

from lsprotocol import types

from holodeck_lsp.server import jobs
from holodeck_lsp.server.capabilities import ClientFeatures
from holodeck_lsp.server.open_documents import Document, Documents
from holodeck_lsp.server.settings import Settings
from holodeck_lsp.server.validation_scheduler import DEBOUNCE, ValidationScheduler
from holodeck_lsp.server.worker import Overran
from holodeck_lsp.validation.diagnostics import Diagnostic, Range, Severity

BOUND = 10.0  # seconds an awaited event may take before the test fails


@dataclass
class FakeTimer:
    delay: float
    callback: Callable[[], None]
    cancelled: bool = False

    def cancel(self) -> None:
        self.cancelled = True


@dataclass
class Timers:
    made: list[FakeTimer] = field(default_factory=list)
    clock: float = 100.0
    scheduled: asyncio.Event = field(default_factory=asyncio.Event)

    def call_later(self, delay: float, callback: Callable[[], None]) -> FakeTimer:
        timer = FakeTimer(delay, callback)
        self.made.append(timer)
        self.scheduled.set()
        return timer

    async def next_timer(self) -> None:
        await asyncio.wait_for(self.scheduled.wait(), BOUND)
        self.scheduled.clear()

    def pending(self) -> list[float]:
        return [t.delay for t in self.made if not t.cancelled]

    def fire(self) -> None:
        due, self.made = [t for t in self.made if not t.cancelled], []
        for timer in due:
            timer.callback()


class FakeWorker:
    """Takes jobs without running them; the test completes each one."""

    def __init__(self) -> None:
        self.jobs: list[tuple[jobs.Snapshot, Future[jobs.Outcome]]] = []
        self.time_limits: list[float | None] = []
        self.submitted = asyncio.Event()
        self.busy = True  # False: jobs wait in the queue (and can be taken back)

    def submit(
        self, fn: Callable[[jobs.Snapshot], jobs.Outcome], snapshot: jobs.Snapshot, *,
        time_limit: float | None = None, key: str | None = None,
    ) -> Future[jobs.Outcome]:
        future: Future[jobs.Outcome] = Future()
        self.time_limits.append(time_limit)
        if self.busy:
            future.set_running_or_notify_cancel()  # started: too late to take back
        self.jobs.append((snapshot, future))
        self.submitted.set()
        return future

    async def next_job(self) -> tuple[jobs.Snapshot, Future[jobs.Outcome]]:
        await asyncio.wait_for(self.submitted.wait(), BOUND)
        self.submitted.clear()
        return self.jobs[-1]

    def stop(self) -> None:
        pass


class FakeHost:
    def __init__(self, pull: bool = False) -> None:
        self.documents = Documents()
        self.features = ClientFeatures(pull_diagnostics=pull, diagnostic_refresh=pull)
        self.published: list[tuple[str, list[str], int | None]] = []
        self.generation = 0

    def snapshot(self, doc: Document, known: bool) -> jobs.Snapshot:
        return jobs.Snapshot(
            uri=doc.uri,
            path=doc.path,
            text=doc.text,
            version=doc.version,
            language_id=doc.language_id,
            others={},
            versions={d.path: d.version for d in self.documents.all()},
            settings=Settings(),
            roots=(),
            encoding=types.PositionEncodingKind.Utf16,
            related_information=False,
            known=known,
            user_config_dir=None,
            generation=self.generation,
        )

    def publish(self, uri: str, diagnostics: list[types.Diagnostic], version: int | None) -> None:
        self.published.append((uri, [d.message for d in diagnostics], version))

    def refresh_diagnostics(self) -> None:
        pass

    def log(self, message: str, level: types.MessageType = types.MessageType.Info) -> None:
        pass


class Harness:
    def __init__(self, pull: bool = False) -> None:
        self.host = FakeHost(pull)
        self.worker = FakeWorker()
        self.timers = Timers()
        self.engine = ValidationScheduler(
            self.host, self.worker, lambda: self.timers.clock, self.timers.call_later
        )
        self.applied = asyncio.Event()
        self.engine.on_applied = lambda _uri: self.applied.set()

    def open(self, name: str, text: str = "name: a\n", version: int = 1) -> str:
        uri = f"file:///work/{name}"
        self.host.documents.open(types.TextDocumentItem(uri, "yaml", version, text))
        return uri

    def edit(self, uri: str, text: str, version: int) -> None:
        whole = types.TextDocumentContentChangeWholeDocument(text)
        self.host.documents.change(uri, version, [whole])

    async def complete(self, future: Future[jobs.Outcome], outcome: jobs.Outcome) -> None:
        self.applied.clear()
        future.set_result(outcome)
        await asyncio.wait_for(self.applied.wait(), BOUND)

    def path(self, name: str) -> Path:
        return Path(f"/work/{name}").resolve()


def outcome(deps: tuple[Path, ...] = (), **by_file: list[str]) -> jobs.Outcome:
    """A validation's result: messages per file name (``agent_yaml=[...]``)."""
    core: dict[Path, list[Diagnostic]] = {}
    lsp: dict[Path, list[types.Diagnostic]] = {}
    for name, messages in by_file.items():
        path = Path("/work", name.replace("_yaml", ".yaml")).resolve()
        core[path] = [
            Diagnostic(Range.of(i, 0, i, 1), Severity.ERROR, "HL101", m)
            for i, m in enumerate(messages)
        ]
        lsp[path] = [
            types.Diagnostic(types.Range(types.Position(i, 0), types.Position(i, 1)), m)
            for i, m in enumerate(messages)
        ]
    return jobs.Outcome(tracked=True, kind="agent", core=core, lsp=lsp, deps=frozenset(deps))


async def test_edits_after_a_quiet_spell_run_at_once_and_a_burst_is_validated_once() -> None:
    h = Harness()
    uri = h.open("agent.yaml")
    h.engine.request(uri)
    assert h.timers.pending() == [0.0]  # nothing ran lately: no wait
    h.timers.fire()
    _snap, job = await h.worker.next_job()
    await h.complete(job, outcome(agent_yaml=["first"]))

    h.timers.clock += DEBOUNCE / 2  # the next edits come while the user types
    for version in (2, 3, 4):
        h.edit(uri, f"name: v{version}\n", version)
        h.engine.request(uri)
    assert h.timers.pending() == [DEBOUNCE]  # one wait, the earlier ones cancelled
    h.timers.fire()
    snap, job = await h.worker.next_job()
    assert (snap.version, snap.text, len(h.worker.jobs)) == (4, "name: v4\n", 2)
    await h.complete(job, outcome(agent_yaml=["fourth"]))
    assert h.host.published == [(uri, ["first"], None), (uri, ["fourth"], None)]


async def test_a_result_for_an_older_version_is_dropped_and_the_new_one_validated() -> None:
    h = Harness()
    uri = h.open("agent.yaml")
    h.engine.request(uri, immediate=True)
    h.timers.fire()
    old, job = await h.worker.next_job()
    h.edit(uri, "name: b\n", 2)  # typed while version 1 is being validated
    h.engine.request(uri)
    assert h.timers.pending() == []  # validations of one document never overlap
    h.timers.scheduled.clear()
    job.set_result(outcome(agent_yaml=["about version 1"]))
    await h.timers.next_timer()  # stale: nothing applied, the document is scheduled again
    assert h.host.published == []
    assert h.engine.outcome(uri) is None
    h.timers.fire()  # the newer text is validated instead
    new, job = await h.worker.next_job()
    assert (old.version, new.version) == (1, 2)
    await h.complete(job, outcome(agent_yaml=["about version 2"]))
    assert h.host.published == [(uri, ["about version 2"], None)]


async def test_a_side_file_shows_what_the_agents_reading_it_report_merged() -> None:
    h = Harness()
    cases = h.open("cases.yaml", "- input: hi\n")
    first, second = h.open("a.yaml"), h.open("b.yaml")
    for uri, reported in ((first, ["shared", "from a"]), (second, ["shared", "from b"])):
        h.engine.request(uri, immediate=True)
        h.timers.fire()
        _snap, job = await h.worker.next_job()
        found = outcome(deps=(h.path("cases.yaml"),), a_yaml=[], b_yaml=[], cases_yaml=reported)
        await h.complete(job, found)
    shown = h.engine.shown(h.path("cases.yaml"))
    assert [d.message for d in shown.lsp] == ["shared", "from a", "from b"]
    assert h.host.published[-1] == (cases, ["shared", "from a", "from b"], None)
    assert h.engine.owners_of(h.path("cases.yaml")) == [first, second]
    h.engine.request(cases, immediate=True)  # an edit of the side file re-validates its readers
    h.timers.fire()
    await h.worker.next_job()
    assert [snap.uri for snap, _ in h.worker.jobs[-2:]] == [first, second]


async def test_a_validation_past_its_time_limit_shows_one_hl701_and_is_tried_again() -> None:
    h = Harness()
    agent = h.open("agent.yaml", "name: slow\nmodel: {}\n")
    cases = h.open("cases.yaml", "- input: a\n")
    h.engine.request(agent, immediate=True)
    h.timers.fire()
    _snap, job = await h.worker.next_job()
    await h.complete(job, outcome((h.path("cases.yaml"),), agent_yaml=["read cases.yaml"]))
    h.edit(agent, "name: slower\nmodel: {}\n", 2)
    h.engine.request(agent, immediate=True)
    h.timers.fire()
    _snap, job = await h.worker.next_job()
    assert h.worker.time_limits == [Settings().time_limit] * 2
    h.applied.clear()
    job.set_exception(Overran(Settings().time_limit))  # the worker killed it
    await asyncio.wait_for(h.applied.wait(), BOUND)
    assert h.host.published[-1] == (agent, [
        "validating this file took longer than 10 s, the server's limit (validation.timeLimit), "
        "so it was stopped and nothing of it is checked; it is validated again when it changes",
    ], None)
    assert h.engine.outcome(agent).kind == "agent"  # what the last validation knew, kept
    h.engine.request(cases)  # a file it read changed: it is tried again
    h.timers.fire()
    snap, _job = await h.worker.next_job()
    assert (snap.uri, snap.version) == (agent, 2)


async def test_a_pull_waits_for_its_version_and_is_answered_by_that_validation() -> None:
    h = Harness(pull=True)
    uri = h.open("agent.yaml")
    h.timers.scheduled.clear()
    pull = asyncio.ensure_future(h.engine.settled(uri))
    await h.timers.next_timer()  # the pull asked for a validation
    h.timers.fire()
    snap, job = await h.worker.next_job()
    assert (snap.version, pull.done()) == (1, False)
    await h.complete(job, outcome(agent_yaml=["found"]))
    await asyncio.wait_for(pull, BOUND)
    assert [d.message for d in h.engine.shown(h.path("agent.yaml")).lsp] == ["found"]
    assert h.host.published == []  # a pulling client is never pushed to
    await asyncio.wait_for(h.engine.settled(uri), BOUND)  # validated already: at once
    assert len(h.worker.jobs) == 1



async def test_an_edit_withdraws_a_validation_the_worker_has_not_started() -> None:
    h = Harness()
    h.worker.busy = False
    uri = h.open("agent.yaml")
    h.engine.request(uri, immediate=True)
    h.timers.fire()
    _old, queued = await h.worker.next_job()
    h.edit(uri, "name: b\n", 2)
    h.engine.request(uri)
    assert queued.cancelled()  # never runs: its text is gone
    h.timers.fire()
    new, job = await h.worker.next_job()
    assert new.version == 2
    await h.complete(job, outcome(agent_yaml=["about version 2"]))
    assert h.host.published == [(uri, ["about version 2"], None)]


async def test_closing_a_document_drops_its_queued_validation() -> None:
    h = Harness()
    h.worker.busy = False
    uri = h.open("agent.yaml")
    h.engine.request(uri, immediate=True)
    h.timers.fire()
    _snap, queued = await h.worker.next_job()
    doc = h.host.documents.close(uri)
    assert doc is not None
    h.engine.closed(doc)
    assert queued.cancelled()


async def test_a_pull_for_a_version_the_client_moved_back_from_is_answered() -> None:
    h = Harness(pull=True)
    uri = h.open("agent.yaml", version=20)
    h.timers.scheduled.clear()
    pull = asyncio.ensure_future(h.engine.settled(uri))
    await h.timers.next_timer()
    h.timers.fire()
    _snap, job = await h.worker.next_job()
    h.edit(uri, "name: b\n", 15)  # a client that numbers versions oddly
    h.engine.request(uri)
    h.timers.scheduled.clear()
    job.set_result(outcome(agent_yaml=["about version 20"]))
    await h.timers.next_timer()  # stale: validated again
    h.timers.fire()
    snap, job = await h.worker.next_job()
    assert (snap.version, pull.done()) == (15, False)
    await h.complete(job, outcome(agent_yaml=["about version 15"]))
    await asyncio.wait_for(pull, BOUND)  # was: waited for version 20 until the time-out
    assert [d.message for d in h.engine.shown(h.path("agent.yaml")).lsp] == ["about version 15"]
